"""The engine demo table: plays a live demo game at a human pace when no hardware is configured.

An attract mode (``companion serve --virtual engine``): while the Host's demo switch is on, a
daemon thread takes one step every ``pace`` seconds: start a demo game if there is none, start the
next one a while after a game ends, otherwise play one random legal action for the seat to move.
It acts only in the demo's own games (the service refuses its actions in any other), and a game a
person starts switches it off until the Host switches it on again. The moves are chosen with an
ordinary ``random.Random``; chance outcomes are still drawn by the service with its own source.
"""

from __future__ import annotations

import logging
import random
import threading

from companion.core.errors import CupbearerError
from companion.core.game import CHANCE, HOST, Mode
from companion.service.table import Service

log = logging.getLogger(__name__)


def step(service: Service, rng: random.Random) -> str:
    """One move of the virtual table; returns what it did (for logs and tests)."""
    config = service.config
    with service.lock:
        if not service.demo_on:
            return "off"
        table = service.table
        if table is None:
            service.new_game(config.game.name, config.game.options, play="demo")
            return "started"
        if not table.record.is_demo:
            return "off"  # a person's game (finished, too): never the demo's to take back
        if table.state.is_over():
            finished = table.record.finished or service.clock()
            if service.clock() - finished >= config.virtual.restart_after:
                service.new_game(config.game.name, config.game.options, play="demo")
                return "restarted"
            return "waiting"
        mover = table.state.to_move()
        if mover is CHANCE or not isinstance(mover, int):
            return "waiting"
        legal = table.state.legal_actions()
        if not legal:
            return "waiting"
        service.act(rng.choice(legal), by=HOST, mode=Mode.ENFORCING, actor="demo")
        return "played"


class VirtualTable:
    """The demo driver thread; :meth:`stop` ends it promptly."""

    def __init__(self, service: Service, *, pace: float, rng: random.Random | None = None) -> None:
        self.service = service
        service.offer_demo(sensed=False)
        self.pace = pace
        self.rng = rng or random.Random()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="virtual-table", daemon=True)

    def start(self) -> VirtualTable:
        """Start playing."""
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.pace):
            try:
                step(self.service, self.rng)
            except CupbearerError as error:  # a bad configured game: say so, keep the service up
                log.warning("virtual table: %s", error)
            except Exception:
                log.exception("virtual table step failed")

    def stop(self) -> None:
        """Stop and wait for the thread."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
