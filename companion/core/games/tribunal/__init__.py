"""The Gods Will Have Blood: the solo courtroom, with the tablet as the bag of cubes.

Registers the game ``"tribunal"``. The judgment pool and its odds are in :mod:`.pool`, the vine in
:mod:`.vine`, the cards and effects in :mod:`.cards`, the playmat in :mod:`.board`, the order of
play in :mod:`.state`, the page's data in :mod:`.views`; rulings in docs/rules-notes.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.core.game import Game
from companion.core.games.tribunal.cards import synthetic_deck
from companion.core.games.tribunal.options import parse_options
from companion.core.games.tribunal.state import TribunalState
from companion.core.registry import register


class TribunalGame(Game):
    """The game type registered as ``"tribunal"``."""

    name = "tribunal"

    def new_state(self, options: Mapping[str, Any]) -> TribunalState:
        """A game set up as the rulebook says, waiting for the shuffle (a chance action)."""
        return TribunalState(parse_options(options))

    def conformance_options(self) -> list[dict[str, Any]]:
        """Hand-tapped effects on the default vine; a stored deck with the alternative rulings."""
        return [
            {},
            {
                "deck": synthetic_deck(random.Random(5)),
                "vine": "long",
                "second_draw": "always",
                "missing_reds": "drawn",
            },
        ]


register(TribunalGame())
