"""The table's options for a game of Cena, validated once when the game starts.

Every choice the rulebook leaves open is an option with the documented default (docs/rules-notes.md,
"Cena"); unknown keys are an error, not a silent default.

| option | default | meaning |
|---|---|---|
| ``players`` | 3 | Houses, 3 to 5 |
| ``host`` | 0 | the first Host House ("most recently poisoned someone"), or ``"random"`` |
| ``private_feast`` | false | "players may only play cards in front of their own House" |
| ``single_course`` | false | "you may play only one round" |
| ``orientation`` | ``"house"`` | how an alliance combines two cards (``"house"``/``"mirrored"``) |
| ``poison_cards`` | 1-8 | the Poison cards shuffled at setup (at least three) |
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.checks import whole
from companion.core.errors import MalformedInput
from companion.core.games.cena.alliances import ORIENTATIONS
from companion.core.games.cena.cards import MAX_HOUSES, MIN_HOUSES
from companion.core.games.cena.poisons import POISONS, parse_poison

ROUNDS = 3
""""The game is played over three rounds.\""""
PILE = 3
""""Shuffle the poison cards, draw three, and form a pile.\""""
RANDOM = "random"
"""``host: "random"``: "(or randomly if there is no evidence)", a chance action at setup."""
KNOWN = ("players", "host", "private_feast", "single_course", "orientation", "poison_cards")


@dataclass(frozen=True)
class CenaOptions:
    """Validated options (see the module docstring)."""

    players: int = 3
    host: int | str = 0
    """A House (0-based), or :data:`RANDOM` (drawn by the chance action ``first_host``)."""
    private_feast: bool = False
    single_course: bool = False
    orientation: str = "house"
    poison_cards: tuple[int, ...] = tuple(POISONS)

    @property
    def rounds(self) -> int:
        """Three rounds, or one with Single course."""
        return 1 if self.single_course else ROUNDS


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise MalformedInput(f"{value!r} is not true or false", field=field)
    return value


def parse_options(options: Mapping[str, Any]) -> CenaOptions:
    """Validate ``options``; anything unreadable raises MalformedInput naming the option."""
    if not isinstance(options, Mapping):
        raise MalformedInput("options are an object", field="options")
    for key in options:
        if key not in KNOWN:
            raise MalformedInput(f"unknown option (known: {', '.join(KNOWN)})", field=str(key))
    players = options.get("players", 3)
    message = f"{players!r} is not a whole number from {MIN_HOUSES} to {MAX_HOUSES}"
    whole(players, "players", message, low=MIN_HOUSES, high=MAX_HOUSES)
    host = options.get("host", 0)
    if host != RANDOM:
        # `!=` first: an unhashable or odd value falls through to the whole-number message.
        message = f"{host!r} is not a whole number from 0 to {players - 1}"
        whole(host, "host", message, low=0, high=players - 1)
    orientation = options.get("orientation", ORIENTATIONS[0])
    if orientation not in ORIENTATIONS:
        raise MalformedInput(
            f"{orientation!r} is not one of {', '.join(ORIENTATIONS)}", field="orientation"
        )
    cards = options.get("poison_cards", list(POISONS))
    if not isinstance(cards, list | tuple):
        raise MalformedInput("a list of Poison card numbers", field="poison_cards")
    numbers = tuple(parse_poison(n, f"poison_cards[{i}]").number for i, n in enumerate(cards))
    if len(set(numbers)) != len(numbers) or len(numbers) < PILE:
        raise MalformedInput(
            f"at least {PILE} different Poison cards (draw three to form a pile)",
            field="poison_cards",
        )
    return CenaOptions(
        players=players,
        host=host,
        private_feast=_bool(options.get("private_feast", False), "private_feast"),
        single_course=_bool(options.get("single_course", False), "single_course"),
        orientation=orientation,
        poison_cards=numbers,
    )
