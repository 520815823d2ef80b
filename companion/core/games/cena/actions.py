"""Cena's actions as frozen values, read once at the engine's door.

An action arrives as JSON (``{"type": "play", "card": "wine-7", "house": 2}``) from a phone, the
journal or a chance draw. :func:`parse` checks its whole shape there -- the outline (an object of
a known type with only its own fields, :func:`~companion.core.game.action_type`) and every
field's value: a Toast card's name, a House of this table, a list where a list is due -- and
returns one of the frozen, slotted dataclasses below, so the rules (:mod:`.state`) read typed
fields and never a dict. ``wire()`` (:class:`~companion.core.action_values.ActionValue`) gives
the dict back: the journal and the legal-action lists stay exactly the JSON docs/cena.md
describes. What depends on the game in progress (which cards a hand holds, how many a deal
gives) is the rules' to check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, get_args

from companion.core.action_values import ActionValue
from companion.core.checks import is_whole, whole
from companion.core.errors import MalformedInput
from companion.core.game import action_type
from companion.core.games.cena.cards import Card, parse_card


@dataclass(frozen=True, slots=True)
class Poisons(ActionValue):
    """Setup's chance: "Shuffle the poison cards, draw three, and form a pile" (numbers, the
    top first)."""

    TYPE: ClassVar[str] = "poisons"
    pile: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FirstHost(ActionValue):
    """Setup's chance with no evidence: the House drawn to be the first Host."""

    TYPE: ClassVar[str] = "first_host"
    house: int


@dataclass(frozen=True, slots=True)
class Deal(ActionValue):
    """A round's chance: each House's hand (card names, House 0 first) and the cards set aside."""

    TYPE: ClassVar[str] = "deal"
    hands: tuple[tuple[str, ...], ...]
    set_aside: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RevealPoison(ActionValue):
    """ "The Host House reveals the top card of the poison pile"."""

    TYPE: ClassVar[str] = "reveal_poison"


@dataclass(frozen=True, slots=True)
class Welcome(ActionValue):
    """The House to move places these cards (names, as given) face up in front of itself."""

    TYPE: ClassVar[str] = "welcome"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Play(ActionValue):
    """The House to move plays ``card`` in front of House ``house`` (maybe its own)."""

    TYPE: ClassVar[str] = "play"
    card: Card
    house: int

    def wire(self) -> dict[str, Any]:
        """The play as JSON: the card by its name."""
        return {"type": self.TYPE, "card": self.card.name, "house": self.house}


CenaAction = Poisons | FirstHost | Deal | RevealPoison | Welcome | Play
"""Any one of Cena's actions."""

FIELDS: dict[str, tuple[str, ...]] = {kind.TYPE: kind.__slots__ for kind in get_args(CenaAction)}
"""Each action type and the fields it may carry (the dataclass's, in order)."""


def _cards(value: Any, field: str, message: str) -> tuple[str, ...]:
    """A list of Toast card names (each one checked, naming ``field[i]``)."""
    if not isinstance(value, list):
        raise MalformedInput(message, field=field)
    return tuple(parse_card(name, f"{field}[{i}]").name for i, name in enumerate(value))


def _house(value: Any, houses: int) -> int:
    top = houses - 1
    return whole(value, "action.house", f"{value!r} is not a House (0 to {top})", low=0, high=top)


def parse(action: Any, *, houses: int) -> CenaAction:
    """The action ``action`` (JSON) describes at a table of ``houses`` Houses; any bad shape
    raises MalformedInput naming the field."""
    kind = action_type(action, FIELDS)
    if kind == "poisons":
        pile = action.get("pile")
        if not isinstance(pile, list) or not all(is_whole(n) for n in pile):
            raise MalformedInput("a list of Poison card numbers", field="action.pile")
        return Poisons(tuple(pile))
    if kind == "first_host":
        return FirstHost(_house(action.get("house"), houses))
    if kind == "deal":
        hands, aside = action.get("hands"), action.get("set_aside")
        if not isinstance(hands, list) or len(hands) != houses:
            raise MalformedInput(f"one hand per House ({houses})", field="action.hands")
        if not isinstance(aside, list):
            raise MalformedInput("a list of cards", field="action.set_aside")
        dealt = tuple(
            _cards(hand, f"action.hands[{h}]", "a list of cards") for h, hand in enumerate(hands)
        )
        return Deal(dealt, _cards(aside, "action.set_aside", "a list of cards"))
    if kind == "welcome":
        return Welcome(_cards(action.get("cards"), "action.cards", "a list of three cards"))
    if kind == "play":
        card = parse_card(action.get("card"), "action.card")
        return Play(card, _house(action.get("house"), houses))
    return RevealPoison()
