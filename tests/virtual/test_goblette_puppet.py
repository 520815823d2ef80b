"""Seeded random Russian Goblette games played by hand on six spots in a row, read by the
simulated readers: the sensed journal is the puppeteer's game, action for action.

The puppeteer plays its own engine in enforcing mode (every action legal); the sensed session
never sees that engine, only the readers' snapshots and the phones' taps. Kept to a few seconds:
the wider measurement (30 seeds each at no noise, 60 each at moderate noise, whole games) is
``scripts/bench_goblette.py``, quoted in docs/tracking.md ("Russian Goblette").
"""

from __future__ import annotations

import random

import pytest

from companion.core import registry
from companion.core.games.goblets.sensed.russian_session import GobletteSession
from companion.virtual import NOISE
from companion.virtual.goblette_puppet import GoblettePuppeteer
from companion.virtual.show import SessionSink, Show


def play(seed: int, players: int, noise: str, vp: int):
    options = {"players": players, "vp_to_win": vp}
    puppet = GoblettePuppeteer.new_game(random.Random(seed), options)
    state = registry.get("goblets").new_state({"variant": "russian_goblette", **options})
    session = GobletteSession(
        state, puppet.table.registry, layout=dict(enumerate(puppet.table.layout))
    )
    sink = SessionSink(session)
    Show(puppet, sink, NOISE[noise], random.Random(seed)).play(
        lambda: puppet.is_over and session.state.is_over(), limit=3000
    )
    return puppet, session, sink


def check_exact(puppet, session, sink) -> None:
    assert session.state.is_over() and puppet.is_over
    assert sink.actions == puppet.actions
    assert puppet.desyncs == 0
    assert [e for e in sink.result.events if e.get("event") == "rule_warning"] == []
    # The engines agree on every Course: who drank what, who survived, who won.
    assert session.state.results == puppet.engine.results
    assert session.state.winners == puppet.engine.winners


@pytest.mark.parametrize(
    ("players", "seed"), [(2, s) for s in range(6)] + [(3, s) for s in range(4)]
)
def test_at_no_noise_every_course_is_the_puppeteers(players: int, seed: int) -> None:
    puppet, session, sink = play(seed, players, "none", vp=1)
    check_exact(puppet, session, sink)
    kinds = {a["type"] for a in sink.actions}
    assert {"initial_pour", "pour", "toast", "drink"} <= kinds


def test_a_whole_game_at_moderate_noise_is_the_puppeteers() -> None:
    puppet, session, sink = play(0, 2, "moderate", vp=3)
    check_exact(puppet, session, sink)
    assert session.state.course >= 3  # "The first player to obtain 3 VPs is the winner"
    kinds = [a["type"] for a in sink.actions]
    assert kinds.count("swap") and kinds.count("peek") and kinds.count("initial_pour") >= 3
