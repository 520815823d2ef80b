"""The puppet show: a puppeteer's game read by simulated readers into a sensed table.

:class:`Show` keeps the puppeteer's plan a little ahead of the readers, hands each snapshot of
its live table (:class:`~companion.virtual.readers.SimulatedReaders`, with noise) to a *sink*
and, in time order with the snapshots, the puppeteer's taps (Pass, Toast, reveal, ...). A sink is
the sensed side: :class:`SessionSink` wraps the pure
:class:`~companion.core.games.goblets.sensed.SensedSession` (tests, benchmarks); the service's
virtual table has its own (``companion.service.sensed_demo``). A sink has three methods:
``observe(obs)``, ``tap(tap)`` and ``sensed()`` (a :class:`~companion.virtual.puppet.Sensed`).

Time is the table's (seconds): the show runs as fast as it is pulled; ``before(t)``, given to
:meth:`Show.step`, may wait for the real clock (the service plays at a human pace).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from companion.core.games.goblets.sensed import Result, SensedSession
from companion.core.observations import Observation
from companion.virtual.puppet import Puppeteer, Sensed, Tap
from companion.virtual.readers import Noise, SimulatedReaders

LOOKAHEAD = 1.0
"""Seconds of table time the puppeteer's plan is kept ahead of the readers."""


class Sink(Protocol):
    """The sensed side of a show."""

    def observe(self, obs: Observation) -> None:
        """One reader snapshot."""

    def tap(self, tap: Tap) -> None:
        """One input sensors cannot see."""

    def sensed(self) -> Sensed:
        """What has been recorded so far."""


class SessionSink:
    """A pure :class:`SensedSession` as the sensed side; ``result`` gathers everything it did."""

    def __init__(self, session: SensedSession) -> None:
        self.session = session
        self.result = Result()
        self.actions: list[dict] = []
        """Every action the session applied, in order (its journal)."""

    def _take(self, result: Result) -> None:
        self.result.extend(result)
        self.actions.extend(result.actions)

    def observe(self, obs: Observation) -> None:
        """One reader snapshot."""
        self._take(self.session.observe(obs))

    def tap(self, tap: Tap) -> None:
        """One input sensors cannot see."""
        session = self.session
        if tap.kind == "start_course":
            self._take(session.start_course())
        elif tap.kind == "pass":
            self._take(session.end_turn(tap.seat))
        elif tap.kind == "toast":
            self._take(session.toast(tap.seat))
        elif tap.kind == "ability":
            self._take(session.ability(tap.seat, tap.action))
        elif tap.kind == "reveal":
            self._take(session.reveal(tap.t))
        elif tap.kind == "pour_out":
            self._take(session.pour_out(tap.t))
        elif tap.kind == "enter":
            self._take(session.apply_chance(tap.action))
        elif tap.kind == "fix_layout":
            self._take(session.fix_layout(tap.layout, tap.t))
        else:
            raise ValueError(f"unknown tap {tap.kind!r}")

    def sensed(self) -> Sensed:
        """The session's journal, layout and state."""
        table = self.session.table
        return Sensed(self.actions, table.layout, table.state, table.conflict is not None)


class Show:
    """``puppet`` played at a live table read by readers with ``noise`` into ``sink``."""

    def __init__(
        self,
        puppet: Puppeteer,
        sink: Sink,
        noise: Noise | None = None,
        rng: random.Random | None = None,
        rate: float = 10.0,
    ) -> None:
        self.puppet = puppet
        self.sink = sink
        live = puppet.table.live
        self.readers = SimulatedReaders(live, noise, rng or random.Random(0), rate)  # type: ignore[arg-type]
        self._snapshots = self.readers.snapshots()
        self.now = live.duration

    def step(self, before: Callable[[float], bool] | None = None) -> bool:
        """Deliver the next snapshot (and the taps due before it). ``before(t)`` is called first
        and may wait; it returns False to stop (then nothing is delivered)."""
        puppet = self.puppet
        while puppet.table.live.duration < self.now + LOOKAHEAD:
            puppet.step(self.sink.sensed())
        obs = next(self._snapshots)
        if before is not None and not before(obs.t):
            return False
        while puppet.taps and puppet.taps[0].t <= obs.t:
            self.sink.tap(puppet.taps.pop(0))
        self.sink.observe(obs)
        self.now = max(self.now, obs.t)
        return True

    def play(self, until: Callable[[], bool], limit: float = 1e9) -> None:
        """Step until ``until()`` is true or the table's clock passes ``limit`` seconds."""
        while not until() and self.now < limit:
            self.step()
