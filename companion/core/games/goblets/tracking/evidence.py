"""The recent snapshots of one seat, and the statistics presence and absence are judged by.

A reader misses tags (more often in a fuller Goblet) and hears its neighbours' tags now and then,
so no single snapshot is believed: presence is the mean fraction of a Goblet's tags read over a
window, absence is a stretch of snapshots in which none of them was read.
"""

from __future__ import annotations

import math
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


class MissRate:
    """A Goblet's recent rate of snapshots that read none of its tags, with a prior.

    Runs of misses are folded in when they end (the next read), so the time a Goblet spends in the
    air never counts as misses. ``memory`` is how many snapshots the estimate remembers.
    """

    def __init__(self, memory: float) -> None:
        self.decay = 1.0 - 1.0 / memory
        self.snapshots = 0.0
        self.reads = 0.0

    def learn(self, misses: int) -> None:
        """Fold in a run of ``misses`` snapshots without the Goblet, then one with it."""
        fade = self.decay ** (misses + 1)
        self.snapshots = self.snapshots * fade + (1.0 - fade) / (1.0 - self.decay)
        self.reads = self.reads * fade + 1.0

    def needed(self, tags: int, confidence: float, least: int, most: int) -> int:
        """How many snapshots in a row without the Goblet make a chance run of misses that long
        no likelier than ``confidence``, between ``least`` and ``most``.

        Prior worth 10 snapshots: each of its ``tags`` missed half the time, independently. A few
        lucky reads must not make a one-tag Goblet look reliable enough to be declared lifted
        after a short run of misses; a Goblet with many tags is rarely missed altogether.
        """
        prior = 0.5 ** max(1, tags)
        missed = (self.snapshots - self.reads + 10.0 * prior) / (self.snapshots + 10.0)
        needed = math.ceil(math.log(confidence) / math.log(missed))
        return max(least, min(most, needed))
