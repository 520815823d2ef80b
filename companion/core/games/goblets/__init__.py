"""Raise Your Goblets: the pure rules engine, registered as the game ``"goblets"``.

4-6 players play the standard game, 7-12 the Winetasters variant (Noble and Winetaster pairs) and
2-3 Russian Goblette (its own state in :mod:`russian`). Options, actions, events and views are
documented in ``docs/goblets.md``; rulebook readings in ``docs/rules-notes.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core import registry
from companion.core.game import Action, Game, GameState
from companion.core.games.goblets.options import check_variant, parse_options
from companion.core.games.goblets.russian import new_russian_state
from companion.core.games.goblets.state import GobletsState
from companion.core.games.goblets.vocabulary import upgraded

HOOK_DECK: list[dict[str, Any]] = [
    {"name": "King Cobra", "timing": "toast_phase", "effect": "extra_toast_action"},
    {
        "name": "Averted Eyes",
        "timing": "own_turn",
        "once_per_course": True,
        "effect": "swap_and_exchange_coasters",
    },
    {"name": "Taster", "timing": "course_start", "effect": "peek_any"},
    {"name": "Juggler", "timing": "before_drinking", "effect": "swap_any"},
    {"name": "Glutton", "timing": "passive", "effect": "extra_action"},
    {
        "name": "Martyr",
        "timing": "scoring_override",
        "effect": "scoring_override",
        "override": {"poisoned": 1, "survived": 0},
    },
    {"name": "Snoop", "timing": "toast_phase", "once_per_course": True, "effect": "peek_any"},
    {"name": "Ogre", "timing": "course_start", "effect": "take_token", "token": "ogre_poison"},
    {"name": "Unicorn", "timing": "own_turn", "effect": "take_token", "token": "unicorn_antidote"},
]
"""A deck with every timing and effect, for the conformance suite (and as an example)."""


class Goblets(Game):
    """Raise Your Goblets for 2 to 12 players."""

    name = "goblets"

    def new_state(self, options: Mapping[str, Any]) -> GameState:
        """The initial state; Russian Goblette (2-3 players) is dispatched to its own engine."""
        _, variant = check_variant(options)
        if variant == "russian_goblette":
            return new_russian_state(options)
        return GobletsState(parse_options(options))

    def upgraded(self, action: Action) -> Action:
        """An action of an old journal renamed: a place ``goblet`` -> ``place`` (``goblets`` ->
        ``places``), Russian Goblette's initial pour ``goblets`` -> ``tokens``
        (:mod:`.vocabulary`)."""
        return upgraded(action)

    def conformance_options(self) -> list[dict[str, Any]]:
        """Every player count 4..12, every variant and flag, Russian Goblette for 2 and 3."""
        sets: list[dict[str, Any]] = [
            {"players": 4},
            {"players": 4, "characters": HOOK_DECK, "host": 2},
            {"players": 5, "raise_your_memory": True, "legacy": True},
            {"players": 6, "hidden_vp": False, "show_pourer": False, "token_rules": "plain"},
            {"players": 7},
            {"players": 8, "legacy": True, "courses": 2},
            {"players": 9, "raise_your_memory": True, "courses": 2},
            {"players": 10, "hidden_vp": True, "courses": 1},
            {"players": 11, "courses": 1},
            {"players": 12, "courses": 1, "legacy": True},
        ]
        return [*sets, {"players": 2}, {"players": 3, "variant": "russian_goblette"}]


GOBLETS = registry.register(Goblets())
"""The registered game."""
