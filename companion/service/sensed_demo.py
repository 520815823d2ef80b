"""The virtual table as virtual hardware: simulated hands and readers drive a sensed game.

Each Course is a :class:`~companion.virtual.Scenario` (a Course played by hand: the initial pour,
pours, rotations, swaps, Peeks, goblets in the air) read by
:class:`~companion.virtual.SimulatedReaders` with noise, in real time (``speed`` scales it). The
snapshots go through the same :class:`~companion.service.sensing.SensedTable` as a real table's:
the tracker decides the table events and the engine records them. Nobody senses a voice, so when
the Course's hands are done the seat whose turn it is Calls the Toast and the Goblets are
revealed. A finished game is followed by a new one after ``restart_after``.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

from companion.core.errors import CupbearerError
from companion.core.game import PUBLIC
from companion.service.sensing import SensedTable
from companion.service.table import Service
from companion.virtual import NOISE, Scenario, SimulatedReaders

log = logging.getLogger(__name__)

DEMO_OPTIONS: dict[str, Any] = {"players": 4, "characters": []}
"""The sensed demo's game: four Houses, no Character abilities to wait for."""


class SensedDemo:
    """A thread playing sensed Courses on ``service``'s goblets game; :meth:`stop` ends it."""

    def __init__(
        self,
        service: Service,
        *,
        options: dict[str, Any] | None = None,
        speed: float = 1.0,
        noise: str = "moderate",
        rng: random.Random | None = None,
    ) -> None:
        self.service = service
        self.options = dict(options or DEMO_OPTIONS)
        self.speed = speed
        self.noise = NOISE[noise]
        self.rng = rng or random.Random()
        self.courses = 0
        self.bridge: SensedTable | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sensed-demo", daemon=True)
        # Deals are drawn by the service until a Course's session starts; the hands pour.
        service.sensed_chance = frozenset({"initial_pour"})

    def start(self) -> SensedDemo:
        """Start playing."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop and wait for the thread."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except CupbearerError as error:
                log.warning("sensed demo: %s; starting a new game", error)
                self._new_game()
            except Exception:
                log.exception("sensed demo failed; starting a new game")
                self._stop.wait(2.0)
                self._new_game()

    def _new_game(self) -> None:
        self.service.new_game("goblets", self.options)

    def _step(self) -> None:
        table = self.service.table
        if table is None or table.record.game != "goblets":
            self._new_game()
            return
        if table.state.is_over():
            self._stop.wait(self.service.config.virtual.restart_after)
            if not self._stop.is_set():
                self._new_game()
            return
        self.play_course()

    def play_course(self) -> None:
        """One Course: hands and readers in real time, then the Toast and the reveal."""
        seats = self.service.table.state.num_seats
        scenario = Scenario.generate(self.rng, seats, specials=0.0)
        self.bridge = SensedTable(self.service, scenario.registry, scenario.initial_layout())
        self.bridge.start_course()
        readers = SimulatedReaders(scenario, self.noise, random.Random(self.rng.random()))
        start = time.monotonic()
        for observation in readers.snapshots():
            delay = start + observation.t / self.speed - time.monotonic()
            if delay > 0 and self._stop.wait(delay):
                return
            self.bridge.observe(observation)
        self.bridge.advance(scenario.duration + 3.0)
        # Nobody senses a voice: the seat whose turn it is Calls the Toast, then the reveal.
        if self._stop.wait(2.0 / self.speed):
            return
        step = self.service.table.state.view(PUBLIC).get("step") or {}
        if step.get("taken") and self.bridge.turn_seat() is not None:
            self.bridge.end_turn(self.bridge.turn_seat())  # "as your first (and only) action"
        self.bridge.toast(self.bridge.turn_seat() or 0)
        if self._stop.wait(3.0 / self.speed):
            return
        self.bridge.reveal(scenario.duration + 4.0)
        self.courses += 1
