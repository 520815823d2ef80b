"""The tracker events' door, the same for every sensed table (Raise Your Goblets' and Russian
Goblette's).

Whatever the game, a tracker event is checked for its shape, its time moves the observations'
clock on, the events for the Host's eyes only (a conflict, an unknown tag, a reader node gone or
back, a pour corrected) become notices and never actions, and the events no table acts on are
dropped. What a lift, a pour or a move means is each game's own: :class:`EventIntake` hands
those to the table's :meth:`EventIntake._on_table_event`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.core.checks import is_number
from companion.core.errors import MalformedInput
from companion.core.games.goblets.sensed.course import _public
from companion.core.games.goblets.sensed.result import Result

HOST_EVENTS = frozenset({"conflict", "fixed", "unknown_tag", "offline", "online", "pour_corrected"})
"""Tracker events that are shown to the Host and never become actions. A ``pour_corrected`` (the
tracker moved a token it had first judged poured into a neighbour's Goblet) has no engine action
to follow it yet: the Host sees it, and the reveal reports the Goblets whose contents differ."""
QUIET_EVENTS = frozenset({"emptied", "state"})
"""Tracker events the table has nothing to do with."""


class EventIntake:
    """The common part of a sensed table's ``on_event`` (see the module docstring). A table sets
    ``now`` (the latest time seen, or None) and ``conflict`` (the tracker's open conflict, or
    None) and implements :meth:`_on_table_event`."""

    now: float | None
    conflict: Any

    def on_events(self, events: Iterable[Mapping[str, Any]]) -> Result:
        """Take tracker events in the order the tracker reported them."""
        result = Result()
        for event in events:
            result.extend(self.on_event(event))
        return result

    def on_event(self, event: Mapping[str, Any]) -> Result:
        """Take one tracker event (see :mod:`companion.core.games.goblets.tracking.tracker` for the
        kinds)."""
        if not isinstance(event, Mapping) or not isinstance(event.get("event"), str):
            raise MalformedInput(f"not a tracker event: {event!r}", field="event")
        kind = event["event"]
        t = event.get("t")
        if is_number(t):
            self.now = t if self.now is None else max(self.now, t)
        result = Result()
        if kind in HOST_EVENTS:
            if kind == "conflict":
                self.conflict = dict(event)
            result.notices.append({"notice": kind, **_public(event)})
            return result
        if kind in QUIET_EVENTS:
            return result
        return self._on_table_event(kind, event)

    def _on_table_event(self, kind: str, event: Mapping[str, Any]) -> Result:
        """A lift, pour, move or other kind: what it means at this game's table."""
        raise NotImplementedError

    @staticmethod
    def _unknown(event: Mapping[str, Any]) -> Result:
        """A kind this table does not know (a newer tracker): shown to the Host, never guessed
        at."""
        result = Result()
        result.notices.append({"notice": "unknown_event", "event": _public(event)})
        return result
