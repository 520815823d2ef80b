"""Cena: a trick-taking game won by alliances between neighbours, scored with poison penalties.

Registers the game ``"cena"``. The Toast cards are in :mod:`.cards`, the Poison cards and their
penalties in :mod:`.poisons`, where alliances lie and who wins a trick in :mod:`.alliances`, round
scores in :mod:`.scoring`, the order of play in :mod:`.state`, what each viewer sees in
:mod:`.views`; rulings in docs/rules-notes.md ("Cena"), actions and events in docs/cena.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.game import Game
from companion.core.games.cena.options import parse_options
from companion.core.games.cena.state import CenaState
from companion.core.registry import register


class CenaGame(Game):
    """The game type registered as ``"cena"``."""

    name = "cena"

    def new_state(self, options: Mapping[str, Any]) -> CenaState:
        """A game set up as the rulebook says, waiting for the poison pile (a chance action)."""
        return CenaState(parse_options(options))

    def conformance_options(self) -> list[dict[str, Any]]:
        """3, 4 and 5 Houses (single course, to keep it fast), Private feast, three rounds, and a
        first Host drawn at random."""
        return [
            {"players": 3},
            {"players": 4, "single_course": True},
            {"players": 5, "single_course": True, "orientation": "mirrored"},
            {"players": 4, "private_feast": True, "single_course": True},
            {"players": 3, "host": "random", "single_course": True},
        ]


register(CenaGame())
