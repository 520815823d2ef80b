"""The eight Poison cards, as data with their printed text, and the penalty each one deducts.

"Each Poison card shows a name, a number, where it affects (which cards it affects and their
values), a penalty, and the amount subtracted per each card." Poisons 1-5 take points per card
won; 6-8 judge alliances. Readings (docs/rules-notes.md, "Cena"): a card won by an alliance counts
for both of its Houses, and so does its penalty; an alliance that "subtracts" or "scores 0 points"
does so for both of its Houses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.checks import is_whole
from companion.core.errors import MalformedInput
from companion.core.games.cena.alliances import house_alliances
from companion.core.games.cena.cards import Card


@dataclass(frozen=True)
class Poison:
    """One Poison card: number, name, the rulebook's penalty text and what it affects.

    ``affects`` says which cards pay (``None`` for poisons 6-8, which judge alliances) and
    ``per_card`` how many points each of them subtracts.
    """

    number: int
    name: str
    text: str
    affects: Callable[[Card], bool] | None = None
    per_card: int = 0

    def to_json(self) -> dict[str, Any]:
        """The card as shown on a screen: number, name and printed penalty."""
        return {"number": self.number, "name": self.name, "text": self.text}


POISONS = {
    poison.number: poison
    for poison in (
        Poison(
            1,
            "Mandragora officinarum",
            "Each card with value 6 subtracts 10 points.",
            lambda card: card.value == 6,
            10,
        ),
        Poison(2, "Arsenicum", "Each beer card subtracts 4 points.", lambda c: c.suit == "beer", 4),
        Poison(
            3,
            "Lytta vesicatoria",
            "Each odd-valued mead card subtracts 8 points.",
            lambda card: card.suit == "mead" and card.value % 2 == 1,
            8,
        ),
        Poison(
            4,
            "Taxus baccata",
            "Each card with value 3 or 8 subtracts 5 points.",
            lambda card: card.value in (3, 8),
            5,
        ),
        Poison(
            5,
            "Atropa belladona",
            "Each wine or cider card with value 7 subtracts 20 points.",
            lambda card: card.suit in ("wine", "cider") and card.value == 7,
            20,
        ),
        Poison(
            6, "Aconitum napellus", "The alliance that wins the last trick subtracts 25 points."
        ),
        Poison(7, "Compostum mercuriale", "The alliance with the most cards won scores 0 points."),
        Poison(
            8,
            "Conium maculatum",
            "Each House calculates the difference between the cards won by its alliances and "
            "subtracts 2 points for each point of difference.",
        ),
    )
}
"""The eight Poison cards by number, text exactly as printed in the rulebook."""
LAST_TRICK_PENALTY = 25
DIFFERENCE_PENALTY = 2


def parse_poison(number: Any, field: str) -> Poison:
    """The Poison card numbered ``number`` (1-8); anything else raises MalformedInput."""
    if not is_whole(number) or number not in POISONS:
        raise MalformedInput(f"{number!r} is not a Poison card number (1-8)", field=field)
    return POISONS[number]


def most_cards(won: Sequence[Sequence[Card]]) -> list[int]:
    """The alliances with the most cards won (all of them on a tie; none if nobody won a card)."""
    top = max((len(cards) for cards in won), default=0)
    return [a for a, cards in enumerate(won) if top and len(cards) == top]


def deductions(poison: Poison, won: Sequence[Sequence[Card]], last_trick: int | None) -> list[int]:
    """Points each House loses to ``poison`` (non-negative), given the cards each alliance won.

    ``won[a]`` are the cards on alliance card ``a`` (between House ``a`` and House ``a+1``);
    ``last_trick`` is the alliance that won the last trick (needed by poison 6 only).
    """
    houses = len(won)
    lost = [0] * houses
    for house in range(houses):
        mine = house_alliances(house, houses)
        if poison.affects is not None:
            # Poisons 1-5: "Each card ... subtracts N points", over the cards this House scores.
            lost[house] = poison.per_card * sum(
                1 for a in mine for card in won[a] if poison.affects(card)
            )
        elif poison.number == 6:
            # "The alliance that wins the last trick subtracts 25 points": both its Houses.
            lost[house] = LAST_TRICK_PENALTY * sum(1 for a in mine if a == last_trick)
        elif poison.number == 7:
            # "The alliance with the most cards won scores 0 points": its cards count for nothing.
            zeroed = most_cards(won)
            lost[house] = sum(len(won[a]) for a in mine if a in zeroed)
        else:
            # "subtracts 2 points for each point of difference" between its two alliances.
            left, right = (len(won[a]) for a in mine)
            lost[house] = DIFFERENCE_PENALTY * abs(left - right)
    return lost
