"""Russian Goblette's actions as frozen values, read once at the door of its state.

A place is one of the six spots of the row ("Place all 6 Goblets in a row"), so Russian
Goblette's Pour and Peek name the place they reach and its Swap any two places: they are the
``Row*`` values below. Its Rotate (sensed only: "you can't Rotate in a 2-3 player game"), Toast,
Pass and initial pour are the 4-12 player game's values (:mod:`action_values`). :func:`parse`
checks an action's whole shape -- a known type, a seat of the table, a place of the row, a token
kind -- and raises MalformedInput naming the field, with the fields and messages Russian
Goblette has always given; the state (:mod:`russian`) reads the typed fields, and ``wire()``
gives the JSON back (its legal actions and chance draws, the journal's format).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core.checks import within
from companion.core.errors import MalformedInput
from companion.core.games.goblets.action_values import (
    DIRECTIONS,
    GobletsAction,
    InitialPour,
    Pass,
    Rotate,
    Toast,
)
from companion.core.games.goblets.russian_model import GOBLETS, KINDS


@dataclass(frozen=True, slots=True)
class RowPour(GobletsAction):
    """``seat`` pours ``token`` from behind its screen into the Goblet at ``place``."""

    TYPE: ClassVar[str] = "pour"
    seat: int
    token: str
    place: int


@dataclass(frozen=True, slots=True)
class RowPeek(GobletsAction):
    """``seat`` looks into the Goblet at ``place`` (option ``peek: "any"``)."""

    TYPE: ClassVar[str] = "peek"
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class RowSwap(GobletsAction):
    """ "you can swap the position of any two Goblets": those at ``places``."""

    TYPE: ClassVar[str] = "swap"
    seat: int
    places: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Drink(GobletsAction):
    """After the Toast, ``seat`` "drinks" the Goblet at ``place`` and reveals its contents."""

    TYPE: ClassVar[str] = "drink"
    seat: int
    place: int


RussianAction = RowPour | RowPeek | RowSwap | Rotate | Toast | Pass | Drink | InitialPour
"""Any one of Russian Goblette's actions."""

PLAYER_ACTIONS = ("pour", "peek", "swap", "rotate", "toast", "pass", "drink")
"""The action types a seat takes."""


def parse(action: Any, players: int) -> RussianAction:
    """The action ``action`` (JSON) describes at a table of ``players``; any bad shape raises
    MalformedInput naming the field (``action.seat``, ``action.place``, ...)."""
    if not isinstance(action, Mapping):
        raise MalformedInput("an action must be an object", field="action")
    kind = action.get("type")
    if kind == InitialPour.TYPE:
        return InitialPour(_initial_pour(action))
    if kind not in PLAYER_ACTIONS:
        raise MalformedInput(f"unknown action type {kind!r}", field="action.type")
    seat = within(action.get("seat"), "action.seat", 0, players - 1)
    last = GOBLETS - 1
    if kind == "swap":
        pair = action.get("places")
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise MalformedInput("must list two places", field="action.places")
        p, q = (within(p, "action.places", 0, last) for p in pair)
        return RowSwap(seat, (p, q))
    if kind == "rotate":
        direction = action.get("direction")
        if direction not in DIRECTIONS:
            raise MalformedInput(
                f"must be 'clockwise' or 'widdershins', got {direction!r}", field="action.direction"
            )
        return Rotate(seat, str(direction))
    if kind == "toast":
        return Toast(seat)
    if kind == "pass":
        return Pass(seat)
    place = within(action.get("place"), "action.place", 0, last)
    if kind == "peek":
        return RowPeek(seat, place)
    if kind == "drink":
        return Drink(seat, place)
    token = action.get("token")
    if token not in KINDS:
        raise MalformedInput(f"unknown token kind {token!r}", field="action.token")
    return RowPour(seat, str(token), place)


def _initial_pour(action: Mapping[str, Any]) -> tuple[str, ...]:
    """The initial pour's token kinds by place (one token per goblet)."""
    tokens = action.get("tokens")
    if not isinstance(tokens, list) or len(tokens) != GOBLETS:
        raise MalformedInput(f"must list {GOBLETS} token kinds", field="action.tokens")
    for index, token in enumerate(tokens):
        if token not in KINDS:
            raise MalformedInput(f"unknown token kind {token!r}", field=f"action.tokens[{index}]")
    return tuple(str(token) for token in tokens)
