"""Toast cards: four suits, values 1 to 10, and how many each House is dealt.

"Each Toast card has a suit on the left and a value on the right. The suits are mead, wine, cider,
and beer. Values run from 1 to 10 in each suit." A card is named ``"<suit>-<value>"`` (``"wine-7"``)
in actions, views and journals.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from companion.core.errors import MalformedInput

SUITS = ("mead", "wine", "cider", "beer")
VALUES = tuple(range(1, 11))
WELCOME_CARDS = 3
""""Each House chooses three cards from its hand and places them face up in front of itself.\""""
MIN_HOUSES, MAX_HOUSES = 3, 5
"""Three Houses is the rulebook's explicit count; five alliance cards allow at most five."""


class Card(NamedTuple):
    """One Toast card: its suit (left half) and value (right half)."""

    suit: str
    value: int

    @property
    def name(self) -> str:
        """The card's name in actions and views, e.g. ``"wine-7"``."""
        return f"{self.suit}-{self.value}"

    @property
    def label(self) -> str:
        """The card as people say it, suit then value as printed: ``"Wine 7"``."""
        return f"{self.suit.capitalize()} {self.value}"


DECK = tuple(Card(suit, value) for suit in SUITS for value in VALUES)
"""The 40 Toast cards, in a fixed order (suits in the rulebook's order, then values)."""
CARD_NAMES = frozenset(card.name for card in DECK)
_BY_NAME = {card.name: card for card in DECK}


def parse_card(name: Any, field: str) -> Card:
    """The card called ``name``; anything else raises MalformedInput naming ``field``."""
    if not isinstance(name, str) or name not in _BY_NAME:
        raise MalformedInput(
            f"{name!r} is not a Toast card (suit-value, suits {', '.join(SUITS)}, values 1-10)",
            field=field,
        )
    return _BY_NAME[name]


def sort_key(name: str) -> tuple[int, int]:
    """Order cards by suit (rulebook order) then value, for hands shown on a screen."""
    card = _BY_NAME[name]
    return SUITS.index(card.suit), card.value


def hand_size(houses: int) -> int:
    """Cards dealt to each House: 12 for 3 (the rulebook), 10 for 4, 8 for 5 (40 dealt evenly)."""
    # "In a 3 players game, deal 12 cards to each player. The 4 remaining cards are set aside face
    # down." With 4 or 5 Houses, dealing "one by one ... to all Houses" uses all 40 evenly.
    return 12 if houses == 3 else len(DECK) // houses


def set_aside_size(houses: int) -> int:
    """Cards set aside face down, unseen: 4 with 3 Houses, none otherwise."""
    return len(DECK) - houses * hand_size(houses)
