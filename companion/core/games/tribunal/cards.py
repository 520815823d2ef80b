"""The Accused cards and the effect vocabulary printed on their backs.

The rulebook prints no card: "turn the Accused Card over and carry out the effects noted under the
guillotine icon in order". The effects it implies are momentum ("Each time Momentum is added, red
cubes are taken from the Momentum Box and added to the Judgement Pool"), Reputation and Legitimacy
up or down the vine, and white cubes added to or removed from the pool ("if you are instructed to
remove a white cube from the Judgment Pool"). By default the cards are anonymous and the player taps
the effects as buttons; a table may store its deck as data (option ``deck``) and pick cards by name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.checks import is_whole
from companion.core.errors import MalformedInput
from companion.core.games.tribunal.pool import GUILTY, NOT_GUILTY

RED_CARDS = 33
BLUE_CARDS = 3
SET_ASIDE = 12
"""Setup: "Separate the 3 blue Accused Cards. Shuffle the remaining 33 Accused Cards. Randomly set
aside 12 and shuffle the remaining 21 red cards with the 3 blue to form the Accused Deck."""

EFFECTS = (
    "momentum",
    "reputation_up",
    "reputation_down",
    "legitimacy_up",
    "legitimacy_down",
    "add_white",
    "remove_white",
)
"""Every effect a card can print (docs/rules-notes.md, "The cards")."""

SINGLE_EFFECTS = ("add_white", "remove_white")
"""Effects whose button moves one cube (tap again for another)."""

BUTTON_MAX = 3
"""The largest amount on one button; a bigger printed amount is tapped twice."""

DATA_MAX = 9
"""The largest amount one printed effect in a stored deck may carry."""


@dataclass(frozen=True)
class Card:
    """One Accused card: its name, colour and the effects under each verdict's icon, in order."""

    name: str
    colour: str
    guilty: tuple[tuple[str, int], ...] = ()
    not_guilty: tuple[tuple[str, int], ...] = ()

    def effects(self, verdict: str) -> tuple[tuple[str, int], ...]:
        """The printed effects under ``verdict``'s icon."""
        return self.guilty if verdict == GUILTY else self.not_guilty


def anonymous_deck() -> dict[str, Card]:
    """The 36 cards when the table has not stored its deck: names only, effects tapped by hand."""
    cards = [Card(f"accused-{i:02d}", "red") for i in range(1, RED_CARDS + 1)]
    cards += [Card(f"blue-{i}", "blue") for i in range(1, BLUE_CARDS + 1)]
    return {card.name: card for card in cards}


def button_amounts(effect: str) -> range:
    """The amounts a button for ``effect`` offers."""
    return range(1, 2) if effect in SINGLE_EFFECTS else range(1, BUTTON_MAX + 1)


def parse_effect(data: Any, field: str, *, largest: int) -> tuple[str, int]:
    """``(effect, n)`` from ``{"effect": kind, "n": amount}``; bad data raises MalformedInput."""
    if not isinstance(data, Mapping):
        raise MalformedInput("an effect is an object {effect, n}", field=field)
    effect = data.get("effect")
    if effect not in EFFECTS:
        raise MalformedInput(
            f"unknown effect {effect!r} (known: {', '.join(EFFECTS)})", field=field
        )
    n = data.get("n", 1)
    top = 1 if effect in SINGLE_EFFECTS else largest
    if not is_whole(n) or not 1 <= n <= top:
        raise MalformedInput(
            f"{effect} amount is a whole number 1 to {top}, not {n!r}", field=field
        )
    return str(effect), n


def parse_deck(data: Any) -> dict[str, Card]:
    """The stored deck of option ``deck``: 33 red and 3 blue named cards with their effects."""
    if isinstance(data, Mapping):
        data = data.get("cards")
    if not isinstance(data, Sequence) or isinstance(data, str):
        raise MalformedInput("a deck is a list of cards (or {cards: [...]})", field="deck")
    cards: dict[str, Card] = {}
    for i, item in enumerate(data):
        field = f"deck[{i}]"
        if not isinstance(item, Mapping):
            raise MalformedInput(
                "a card is an object {name, colour, guilty, not_guilty}", field=field
            )
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise MalformedInput("a card needs a non-empty name", field=f"{field}.name")
        if name in cards:
            raise MalformedInput(f"two cards are named {name!r}", field=f"{field}.name")
        colour = item.get("colour", "red")
        if colour not in ("red", "blue"):
            raise MalformedInput(
                f"colour is 'red' or 'blue', not {colour!r}", field=f"{field}.colour"
            )
        sides = {}
        for side in (GUILTY, NOT_GUILTY):
            printed = item.get(side, [])
            if not isinstance(printed, Sequence) or isinstance(printed, str):
                raise MalformedInput("effects are a list", field=f"{field}.{side}")
            sides[side] = tuple(
                parse_effect(effect, f"{field}.{side}[{j}]", largest=DATA_MAX)
                for j, effect in enumerate(printed)
            )
        cards[name] = Card(name, colour, sides[GUILTY], sides[NOT_GUILTY])
    reds = sum(card.colour == "red" for card in cards.values())
    if reds != RED_CARDS or len(cards) != RED_CARDS + BLUE_CARDS:
        raise MalformedInput(
            f"a deck has {RED_CARDS} red and {BLUE_CARDS} blue cards, not {reds} and "
            f"{len(cards) - reds}",
            field="deck",
        )
    return cards


def card_to_json(card: Card) -> dict[str, Any]:
    """``card`` as the data :func:`parse_deck` reads."""
    return {
        "name": card.name,
        "colour": card.colour,
        GUILTY: [{"effect": e, "n": n} for e, n in card.guilty],
        NOT_GUILTY: [{"effect": e, "n": n} for e, n in card.not_guilty],
    }


def synthetic_deck(rng: random.Random) -> list[dict[str, Any]]:
    """A made-up deck of 36 cards with ``rng``-drawn effects, for demos, fuzzing and tests.

    Guilty sides lean to momentum and Reputation up (condemning royalists pleases the Jacobins);
    Not Guilty sides lean to Legitimacy up and a white cube, as the rulebook's flavour text says.
    """
    guilty_kinds = ("momentum", "momentum", "reputation_up", "reputation_up", "legitimacy_down")
    lenient_kinds = ("legitimacy_up", "reputation_down", "add_white", "remove_white")
    deck = []
    for i in range(RED_CARDS + BLUE_CARDS):
        colour = "red" if i < RED_CARDS else "blue"
        guilty = [
            (kind, 1 if kind in SINGLE_EFFECTS else rng.randint(1, 2))
            for kind in rng.sample(guilty_kinds, rng.randint(1, 3))
        ]
        lenient = [(kind, 1) for kind in rng.sample(lenient_kinds, rng.randint(0, 2))]
        name = f"{'Citoyen' if i % 2 else 'Citoyenne'} {i + 1:02d}"
        deck.append(card_to_json(Card(name, colour, tuple(guilty), tuple(lenient))))
    return deck
