"""Russian Goblette under the shared conformance suite, and its properties over seeded random play.

Until the goblets Game lists Russian option sets in ``conformance_options``, this file registers a
small Game wrapper for the duration of each test (monkeypatched into the registry, so nothing leaks
into other tests) and runs the suite's own test functions from ``tests/test_conformance.py``.
"""

from __future__ import annotations

import importlib.util
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.core import registry
from companion.core.errors import IllegalAction
from companion.core.game import CHANCE, HOST, PUBLIC, Game, GameState, Viewer
from companion.core.games.goblets.russian import RussianState, new_russian_state
from companion.core.games.goblets.tokens import POOL
from companion.core.journal import Journal, replay

PROBE = "russian_goblette_probe"
OPTION_SETS = [
    {"variant": "russian_goblette", "players": 2},
    {"variant": "russian_goblette", "players": 3, "host": 2},
    {"players": 3, "peek": "none", "vp_to_win": 2},
    {"players": 2, "token_rules": "plain", "host": 1},
]


class RussianProbe(Game):
    """A stand-in Game that builds Russian Goblette states (the real one is ENGINE's "goblets")."""

    name = PROBE

    def new_state(self, options: Mapping[str, Any]) -> GameState:
        return new_russian_state(options)

    def conformance_options(self) -> list[dict[str, Any]]:
        return [dict(options) for options in OPTION_SETS]


def _load_suite():
    path = Path(__file__).resolve().parents[1] / "test_conformance.py"
    spec = importlib.util.spec_from_file_location("_conformance_suite_for_russian", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SUITE = _load_suite()


@pytest.fixture
def probe_registered(monkeypatch):
    registry.load_all()
    monkeypatch.setitem(registry._GAMES, PROBE, RussianProbe())


def play(options, seed):
    rng = random.Random(seed)
    journal = Journal(PROBE, options)
    state = new_russian_state(options)
    conserved = True
    while not state.is_over():
        if state.to_move() is CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        journal.append(action)
        conserved = conserved and state.tokens_in_play() == {k.value: v for k, v in POOL.items()}
    return state, journal, conserved


CASES = [
    pytest.param(options, seed, id=f"options{index}-seed{seed}")
    for index, options in enumerate(OPTION_SETS)
    for seed in range(2)
]


@pytest.mark.parametrize(("options", "seed"), CASES)
def test_conformance_random_play(probe_registered, options, seed):
    """The shared suite: the game ends, illegal actions are refused, the journal replays."""
    SUITE.test_random_play(PROBE, options, seed)


@pytest.mark.parametrize(("options", "seed"), CASES)
def test_conformance_views_do_not_leak(probe_registered, options, seed):
    """The shared suite's attacker test: resampling hidden pours changes no viewer's view."""
    SUITE.test_views_do_not_leak(PROBE, options, seed)


@pytest.mark.parametrize("seed", range(12))
def test_seeded_random_play_ends_conserves_tokens_and_replays(probe_registered, seed):
    """ "The first player to obtain 3 VPs is the winner": every random game ends within the bound
    of players * (vp_to_win - 1) + 1 Courses, the 52 tokens are conserved at every step, and
    replaying the journal reproduces the state."""
    options = {"players": 2 + seed % 2, "peek": ("any", "none")[seed % 3 == 0]}
    state, journal, conserved = play(options, seed)
    assert conserved
    outcome = state.outcome()
    assert outcome["winners"] and all(state.vp[s] == 3 for s in outcome["winners"])
    assert len(outcome["courses"]) <= state.num_seats * 2 + 1
    assert all(result["winners"] for result in outcome["courses"])
    replayed, _ = replay(Journal.from_json(json.loads(json.dumps(journal.to_json()))))
    assert isinstance(replayed, RussianState)
    viewers = [PUBLIC, HOST, *(Viewer.seat(i) for i in range(state.num_seats))]
    assert [replayed.view(v) for v in viewers] == [state.view(v) for v in viewers]
    assert replayed.outcome() == outcome


@pytest.mark.parametrize("seed", range(6))
def test_no_view_shows_an_unrevealed_goblet(seed):
    """Before the reveal nobody sees goblet contents, the Host included: every public and host
    view is identical between a game and the same game with every hidden pour resampled."""
    rng = random.Random(seed)
    state = new_russian_state({"players": 3})
    twin = state.clone()
    for _ in range(400):
        if state.is_over() or state.phase == "drinking":
            break
        action = (
            state.sample_chance(rng)
            if state.to_move() is CHANCE
            else rng.choice(state.legal_actions())
        )
        if state.reveals_hidden(action):
            state.apply(action)
            twin = state.clone()
            continue
        alternatives = twin.hidden_alternatives(action, PUBLIC)
        state.apply(action)
        try:
            twin.apply(rng.choice(alternatives) if alternatives else action)
        except IllegalAction:
            twin = state.clone()  # the twin's history cannot go on (e.g. a Toast): resync
        for viewer in (PUBLIC, HOST):
            assert twin.view(viewer) == state.view(viewer)
