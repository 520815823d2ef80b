"""The recent snapshots of one seat, and the statistics presence and absence are judged by.

A reader misses tags (more often in a fuller Goblet) and hears its neighbours' tags now and then,
so no single snapshot is believed: presence is the mean fraction of a Goblet's tags read over a
window, absence is a stretch of snapshots in which none of them was read.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Set


class SeatWindow:
    """The snapshots one seat reported in the last ``keep`` seconds, oldest first."""

    def __init__(self, keep: float) -> None:
        self.keep = keep
        self.entries: deque[tuple[float, frozenset[str]]] = deque()
        self.last_t: float | None = None
        self.count = 0

    def add(self, t: float, tags: frozenset[str]) -> None:
        """Record one snapshot at ``t`` (not older than the previous one) and forget old ones."""
        self.entries.append((t, tags))
        self.last_t = t
        self.count += 1
        horizon = t - self.keep
        while self.entries and self.entries[0][0] < horizon:
            self.entries.popleft()

    def presence(self, tags: Set[str], since: float) -> tuple[float, int]:
        """Over the snapshots at or after ``since``: (mean fraction of ``tags`` read, snapshots
        that read at least one of them). ``(0.0, 0)`` when ``tags`` is empty or nothing was read.
        """
        if not tags:
            return 0.0, 0
        total = 0.0
        hits = 0
        n = 0
        size = len(tags)
        for t, seen in reversed(self.entries):
            if t < since:
                break
            n += 1
            k = len(seen & tags) if len(seen) < size else len(tags & seen)
            if k:
                hits += 1
                total += k / size
        return (total / n if n else 0.0), hits
