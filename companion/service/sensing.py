"""Sensed play: reader snapshots -> the goblet tracker -> Raise Your Goblets in recording mode.

The links (MQTT, serial, or the simulated readers) hand in observations and node events; the
tracker (pure) turns them into table events; this bridge turns those into the engine's actions
and records them through the service (``Mode.RECORDING``: "Sensed reality wins, the rules
advise", DESIGN.md principle 6). The mapping, from ``docs/goblets.md``:

- tracker ``pour`` (goblet NAME) -> ``{"type": "pour", "seat": <seat to move>, "goblet": <place
  where the ring NAME stands>, "token": kind}``; while the Course's initial pour is due, one
  token per Goblet is gathered into ``{"type": "initial_pour", "tokens": [...]}`` instead (the
  Host pours by hand: the service does not draw it);
- ``rotate`` -> ``rotate`` (``counterclockwise`` is the rulebook's widdershins);
- ``swap`` [a, b] -> ``swap`` by the seat to move (``"from"`` when it is neither of the two);
- ``lift`` at a seat -> ``peek`` by that seat (a Goblet lifted and put back is a probable Peek);
- ``move`` (no single Rotate or Swap), ``conflict``, ``unknown_tag`` -> a notice for the Host,
  who fixes the layout (:meth:`SensedTable.fix_layout`) or enters the event by hand;
- node ``offline``/``online`` -> the seats' reader health on the dashboard.

At the reveal the tracker's Goblets are emptied (the tokens leave them).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Mapping
from typing import Any

from companion.core.errors import CupbearerError
from companion.core.game import CHANCE, HOST, PUBLIC, Mode
from companion.core.observations import Observation
from companion.core.tags import TagRegistry
from companion.core.tracking.tracker import Tracker
from companion.service.table import Service

log = logging.getLogger(__name__)

DIRECTIONS = {"clockwise": "clockwise", "counterclockwise": "widdershins"}


class SensedTable:
    """One Course's tracker feeding the service's current Raise Your Goblets game."""

    def __init__(
        self,
        service: Service,
        registry: TagRegistry,
        seats: int,
        initial_layout: Mapping[int, str] | None = None,
    ) -> None:
        self.service = service
        self.registry = registry
        self.tracker = Tracker(registry, seats, initial_layout=initial_layout)
        self.lock = threading.Lock()
        self._initial: dict[int, str] = {}
        self.recorded: list[dict[str, Any]] = []
        """Every action this bridge recorded (for tests and the log)."""
        service.sensed_chance = frozenset({"initial_pour"})

    # -- inputs ------------------------------------------------------------------------------

    def observe(self, observation: Observation) -> None:
        """One seat's snapshot."""
        with self.lock:
            self._handle(self.tracker.observe(observation))

    def advance(self, t: float) -> None:
        """Let the tracker's time pass without a snapshot (settles the last moves)."""
        with self.lock:
            self._handle(self.tracker.advance(t))

    def node_status(self, node: str, online: bool, t: float, seats=None) -> None:
        """A reader node went offline or came back."""
        with self.lock:
            self._handle(self.tracker.node_status(node, online, t, seats))

    def fix_layout(self, layout: Mapping[Any, str], t: float | None = None) -> None:
        """The Host's layout fix after a conflict (seat -> Goblet name)."""
        with self.lock:
            self._handle(self.tracker.fix_layout(layout, t))

    def reveal(self, t: float | None = None) -> None:
        """The reveal: every Goblet is emptied (its tokens leave it)."""
        with self.lock:
            self._handle(self.tracker.empty_goblets(t=t))

    # -- translation -------------------------------------------------------------------------

    def _record(self, action: dict[str, Any]) -> None:
        try:
            self.service.act(action, by=HOST, mode=Mode.RECORDING)
            self.recorded.append(action)
        except CupbearerError as error:
            log.warning("sensed %s not recorded: %s", action, error)
            self.service.notice("unrecorded", f"{action['type']}: {error}", action=action)

    def _state(self):
        table = self.service.table
        return None if table is None else table.state

    def _mover(self) -> int | None:
        state = self._state()
        mover = None if state is None else state.to_move()
        return mover if isinstance(mover, int) else None

    def _place_of(self, goblet: str) -> int | None:
        """The place where the Goblet with ring ``goblet`` stands, as the engine has it."""
        state = self._state()
        if state is not None:
            for place in state.view(PUBLIC).get("places", []):
                if place.get("ring") == goblet:
                    return place["place"]
        return self.tracker.location(goblet)

    def _initial_pour_due(self) -> bool:
        state = self._state()
        if state is None or state.to_move() is not CHANCE:
            return False
        return state.sample_chance(random.Random(0)).get("type") == "initial_pour"

    def _handle(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            kind = event.get("event")
            if kind == "pour":
                self._pour(event)
            elif kind == "rotate":
                direction = DIRECTIONS.get(event["direction"], event["direction"])
                self._record({"type": "rotate", "seat": self._mover(), "direction": direction})
            elif kind == "swap":
                self._swap(*event["seats"])
            elif kind == "lift":
                self._record({"type": "peek", "seat": event["seat"]})
            elif kind in ("offline", "online"):
                status = "online" if kind == "online" else "offline"
                for seat in event.get("seats", []):
                    self.service.set_reader(seat, status)
            elif kind in ("move", "conflict", "unknown_tag"):
                self.service.notice(kind, _describe(event), event=event)

    def _pour(self, event: dict[str, Any]) -> None:
        place = self._place_of(event["goblet"])
        if place is None:
            self.service.notice("conflict", f"a pour into {event['goblet']}, not on the table")
            return
        if self._initial_pour_due():
            self._initial[place] = event["token"]
            places = len(self._state().view(PUBLIC).get("places", []))
            if len(self._initial) == places:
                tokens = [self._initial[p] for p in range(places)]
                self._initial = {}
                self._record({"type": "initial_pour", "tokens": tokens})
            return
        self._record(
            {"type": "pour", "seat": self._mover(), "goblet": place, "token": event["token"]}
        )

    def _swap(self, a: int, b: int) -> None:
        mover = self._mover()
        if mover in (a, b):
            self._record({"type": "swap", "seat": mover, "with": b if mover == a else a})
        else:
            self._record({"type": "swap", "seat": mover, "from": a, "with": b})


def _describe(event: dict[str, Any]) -> str:
    kind = event.get("event")
    if kind == "conflict":
        return f"the table cannot be read: {event.get('reason')}; fix the layout"
    if kind == "unknown_tag":
        return f"an unknown tag at seat {event.get('seat')} (enroll it)"
    return f"goblet {event.get('goblet')} moved from seat {event.get('from')} to {event.get('to')}"
