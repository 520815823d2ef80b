"""Judging pours: which Goblet a newly read token went into, and correcting a misjudged one.

A token poured into a Goblet is read by that Goblet's reader (often: every few snapshots in a full
Goblet) and now and then by a neighbour's reader (crosstalk). :class:`PourBook` counts the reads of
every token per Goblet standing alone on the seat that read it, and says when the counts agree:

- a token in no Goblet yet is judged poured into the Goblet credited ``pour_hits`` times and
  ``pour_dominance`` times as often as any other, or ``pour_margin`` times more often;
- a poured token read on a quiet table ``rehome_hits`` times in another Goblet, and
  ``rehome_dominance`` times as often as in its own, was misjudged and moves there.

Tokens are conserved (issue 3): a token that is no longer read is never taken out of its Goblet
here; only the reveal empties a Goblet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.core.games.goblets.tracking.config import TrackerConfig


@dataclass
class PendingPour:
    """A token read but not yet judged to be in a Goblet: when it was read, and reads per Goblet."""

    first_seen: float
    last_seen: float
    credits: dict[str, int] = field(default_factory=dict)


class PourBook:
    """The reads of every token, per Goblet, and the judgements drawn from them."""

    def __init__(self, config: TrackerConfig) -> None:
        self.config = config
        self.pending: dict[str, PendingPour] = {}
        self._homes: dict[str, dict[str, int]] = {}

    def read_new(self, uid: str, t: float, goblet: str | None) -> PendingPour | None:
        """A token in no Goblet was read at ``t`` at a seat holding ``goblet`` alone (``None``:
        the seat holds none or several). Returns the pending pour once it is judged poured into
        ``goblet`` (it is then no longer pending), else ``None``."""
        pour = self.pending.setdefault(uid, PendingPour(first_seen=t, last_seen=t))
        pour.last_seen = t
        if goblet is None:
            return None
        pour.credits[goblet] = pour.credits.get(goblet, 0) + 1
        best = pour.credits[goblet]
        rival = max((c for g, c in pour.credits.items() if g != goblet), default=0)
        cfg = self.config
        if best < cfg.pour_hits:
            return None
        if best < cfg.pour_dominance * rival and best - rival < cfg.pour_margin:
            return None
        del self.pending[uid]
        self._homes[uid] = dict(pour.credits)
        return pour

    def read_owned(self, uid: str, reader: str, owner: str) -> bool:
        """A poured token owned by ``owner`` was read, on a quiet table, at the seat of
        ``reader``. True when it plainly belongs to ``reader`` (the caller moves it)."""
        counts = self._homes.setdefault(uid, {})
        counts[reader] = counts.get(reader, 0) + 1
        if reader == owner:
            return False
        cfg = self.config
        here, home = counts[reader], counts.get(owner, 0)
        if here < cfg.rehome_hits or here < cfg.rehome_dominance * home:
            return False
        self._homes[uid] = {reader: here}
        return True

    def forget(self, uid: str) -> None:
        """The token left its Goblet (the reveal): start its counts afresh."""
        self._homes.pop(uid, None)

    def is_waiting(self, start: float, horizon: float) -> bool:
        """Whether a token first read before ``start`` and read again since ``horizon`` is still
        pending (a move reported now might come before a pour that preceded it)."""
        return any(p.first_seen < start and p.last_seen >= horizon for p in self.pending.values())
