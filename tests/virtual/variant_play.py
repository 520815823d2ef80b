"""Helpers for the puppeteer's variant tests: one seeded game, played and read into a session.

``play(seed, options, noise)`` plays a puppeteer's random legal game by hand at a live table,
read by simulated readers with ``noise`` through the tracker into a pure ``SensedSession``;
``exact(puppet, sink)`` says whether the sensed journal is the puppeteer's game (action for
action, the same scores, no rule warning, no desync). ``scripts/bench_sensed_variants.py``
measures many seeds with the same two functions.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core import registry
from companion.core.games.goblets.sensed import SensedSession
from companion.virtual import NOISE
from companion.virtual.puppet import Puppeteer
from companion.virtual.show import SessionSink, Show


def play(
    seed: int, options: dict[str, Any], noise: str, **puppet_options: Any
) -> tuple[Puppeteer, SessionSink]:
    """A whole game (``options``: the engine's, ``characters`` default none) read at ``noise``;
    ``puppet_options`` go to the puppeteer (``reveal=``)."""
    options = {"characters": [], **options}
    puppet = Puppeteer.new_game(random.Random(seed), options, **puppet_options)
    state = registry.get("goblets").new_state(options)
    layout = dict(enumerate(puppet.table.layout))
    session = SensedSession(state, puppet.table.registry, layout=layout, rng=random.Random(seed))
    sink = SessionSink(session)
    show = Show(puppet, sink, NOISE[noise], random.Random(seed + 1))

    def done() -> bool:
        return puppet.is_over and session.state.is_over()

    show.play(done, limit=4000.0)
    assert done(), f"seed {seed}: the game did not end (table time {show.now:.0f} s)"
    return puppet, sink


def warnings(sink: SessionSink) -> list[dict]:
    """The rule warnings the sensed engine raised."""
    return [e for e in sink.result.events if e.get("event") == "rule_warning"]


def exact(puppet: Puppeteer, sink: SessionSink) -> bool:
    """True when the sensed journal is the puppeteer's game, scored the same, with no warning."""
    return (
        puppet.desyncs == 0
        and sink.actions == puppet.actions
        and sink.session.state.results == puppet.engine.results
        and sink.session.state.outcome() == puppet.engine.outcome()
        and not warnings(sink)
    )
