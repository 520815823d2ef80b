"""The tracker's debounce thresholds, with the reasoning behind each default.

The defaults assume readers reporting about 10 snapshots per second per seat, tags missed up to
about half the time in a full Goblet, and a neighbour's tag heard a few times in a hundred
snapshots (DESIGN.md, sensing facts). Times are seconds on the observations' clock.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from companion.core.checks import is_number
from companion.core.errors import MalformedInput


@dataclass(frozen=True)
class TrackerConfig:
    """Debounce thresholds of :class:`companion.core.games.goblets.tracking.Tracker`.

    - ``window`` (1.0 s): the span of recent snapshots over which a Goblet's presence at a seat
      is judged.
    - ``present_ratio`` (0.15): a Goblet is at a seat when, over ``window``, the mean fraction of
      its tags read there is at least this. A neighbour's tags crosstalk at a few percent; a
      Goblet standing on the reader is read at 40-100%.
    - ``present_hits`` (2): ... and at least this many snapshots in ``window`` saw one of its tags.
    - ``move_hits`` (3) and ``move_dominance`` (2.0): a Goblet believed at one seat moves to
      another that reads more of it once that seat read it in at least this many snapshots since
      its own seat last read it, or reads this many times more of it.
    - ``absent_after`` (0.5 s): a Goblet has left its seat (lifted) when none of its tags was
      read there for at least this long ...
    - ``absent_snapshots`` (5): ... over at least this many snapshots of that seat (a silent or
      offline reader proves nothing), more for a Goblet that is often missed altogether: enough
      snapshots that a run of misses that long happens with probability ``absent_confidence``
      given the Goblet's own recent rate of snapshots with none of its tags ...
    - ``absent_max_snapshots`` (15): ... but never more than this many.
    - ``absent_confidence`` (1e-6): see ``absent_snapshots``.
    - ``read_memory`` (50): how many snapshots the estimate of a Goblet's miss rate remembers.
    - ``settle`` (0.5 s): a new layout (every seat holding exactly one Goblet) is believed once
      it has not changed for this long; the move that led to it is reported then.
    - ``pour_hits`` (3): a new token is in a Goblet once read this many times at the seat of that
      Goblet ...
    - ``pour_dominance`` (3.0): ... and at least this many times as often as at any other Goblet
      (its crosstalk into a neighbour), or ...
    - ``pour_margin`` (5): ... at least this many times more often (a burst of crosstalk must
      not hold a plain pour back for long).
    - ``pour_wait`` (2.0 s): a move is reported up to this much later while a token read before
      it started is still being read but not yet judged poured, so that pour comes first.
    - ``rehome_hits`` (10) and ``rehome_dominance`` (4.0): on a quiet table, a poured token read
      at least this many times in another Goblet, and this many times as often as in its own,
      was misjudged (crosstalk won the pour): it moves, with a ``pour_corrected`` event.
    - ``conflict_after`` (10.0 s): a table that cannot be read as one Goblet per seat for this long
      without any change raises a ``conflict`` for the Host.
    - ``keep`` (3.0 s): how much history each seat keeps (at least ``window`` and
      ``absent_after``).
    """

    window: float = 1.0
    present_ratio: float = 0.15
    present_hits: int = 2
    move_hits: int = 3
    move_dominance: float = 2.0
    absent_after: float = 0.5
    absent_snapshots: int = 5
    absent_max_snapshots: int = 15
    absent_confidence: float = 1e-6
    read_memory: float = 50.0
    settle: float = 0.5
    pour_hits: int = 3
    pour_dominance: float = 3.0
    pour_margin: int = 5
    pour_wait: float = 2.0
    rehome_hits: int = 10
    rehome_dominance: float = 4.0
    conflict_after: float = 10.0
    keep: float = 3.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not is_number(value) or value <= 0:
                raise MalformedInput(f"must be a positive number, got {value!r}", field=f.name)
        if self.absent_confidence >= 1:
            raise MalformedInput("must be below 1", field="absent_confidence")
        if self.keep < max(self.window, self.absent_after):
            raise MalformedInput("must be at least window and absent_after", field="keep")

    @staticmethod
    def from_json(data: Any) -> TrackerConfig:
        """Parse ``{name: number}``; unknown names and bad values raise MalformedInput."""
        if data is None:
            return TrackerConfig()
        if not isinstance(data, dict):
            raise MalformedInput("must be an object of thresholds", field="tracker")
        known = {f.name for f in fields(TrackerConfig)}
        for key in data:
            if key not in known:
                raise MalformedInput(f"unknown threshold (known: {sorted(known)})", field=key)
        return TrackerConfig(**data)
