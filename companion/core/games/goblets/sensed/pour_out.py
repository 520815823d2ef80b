"""The reveal on the readers: each Goblet poured out flat on its seat's reader, then counted.

A reader under a seat reads a dozen tokens stacked in a Goblet badly (the top of the stack sits
far from the antenna, and stacked inlays detune each other: ``hardware/README.md``, "Sensing
design"), but the same tokens laid out in one layer on the reader spot it reads well. So at the
Toast, when "each player takes the Goblet in front of them [...] and reveals its contents"
(rulebook, The Toast), a sensed table asks each player to pour their Goblet out onto their seat's
reader spot and to set the empty Goblet aside. :class:`PourOut` watches every seat's reader and
says when each seat's flat read has settled; the counts it gives are the ground truth the Toast
is scored from (they win over the tracked pours, see
:meth:`~companion.core.games.goblets.sensed.table.SensedTable.reveal`).

How a seat's read is judged (times are the observations' seconds):

- Only token tags count. A token is *on* a seat when it was read in at least half of that seat's
  snapshots over the last ``settle / 2`` seconds, and more often than on any other seat (a
  neighbour's crosstalk is a few percent; one missed read of a flat token changes nothing).
- A seat whose Goblet still carries its Coaster ring is *settled* once its ring has not been read
  there for ``settle`` seconds (the Goblet was lifted off and set aside) and its set of tokens has
  not changed for ``settle`` seconds over at least ``reads`` snapshots. Until its ring has left,
  the seat is *waiting*: a standing Goblet's partial read is never taken for the reveal.
- Without Coaster rings (Raise Your Memory) nothing tells a standing Goblet from a poured-out
  one, so each seat's count is confirmed by hand (:meth:`PourOut.confirm`), as is any seat whose
  reader cannot settle (a reader offline, a token that rolled away).
- Where the tokens are poured out apart from the Goblet's spot (``apart``: the overhead camera's
  reveal areas, ``vision/README.md``), a standing Goblet is no partial read of them, but an empty
  reveal area is no evidence either: an empty Goblet is legal, and so is a slow player who has
  not poured yet. A seat settles only on what shows that it has poured out: tokens read in its
  area (then the read must hold for ``settle`` seconds, as on a reader), or its Goblet lifted off
  its spot (its ring unread there for ``lifted`` seconds, over two snapshots at least) and put
  back (read there again, for ``settle`` seconds): an empty Goblet shown and set down again. A
  Goblet lifted and not put back with nothing in its area is still in a hand, perhaps about to
  be poured: the seat goes on *settling*. A seat that shows nothing waits for the Host's tap
  (:meth:`PourOut.confirm`, "as read": empty). docs/tracking.md, "The camera's reveal".
- A ``witness`` pour-out (the camera counting beside the readers,
  :class:`~companion.core.games.goblets.sensed.fusion.FusedPourOut`) settles on its read alone: the
  readers' own pour-out says when a seat has poured, the witness only whether it counts the same.

The Host (or the seat's player) may confirm a seat at any moment: with counts typed in, or
"as read" (the counts shown now). A confirmed seat is no longer read.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from companion.core.checks import is_number, whole
from companion.core.errors import MalformedInput
from companion.core.games.goblets.tags import Ring, TagRegistry, TokenTag
from companion.core.games.goblets.tokens import check_contents
from companion.core.observations import Observation

WAITING = "waiting"
"""The seat's Goblet (its Coaster ring) still stands on the reader."""
SETTLING = "settling"
"""The Goblet has left; the tokens on the reader are still changing or not yet read enough."""
SETTLED = "settled"
"""The flat read has held for ``settle`` seconds: these are the Goblet's contents."""
CONFIRMED = "confirmed"
"""Counted by hand (the Host or the seat's player)."""
LIFT_SNAPSHOTS = 2
"""Snapshots without its ring that a lift takes at least, poured out apart: a single frame that
misses a ring (a misdetection) never shows a Goblet lifted."""


@dataclass(frozen=True)
class PourOutConfig:
    """How a seat's flat read is judged settled (see the module docstring).

    - ``settle`` (2.0 s): the read must not change for this long, and the Goblet's ring must have
      been gone for this long. Long enough for a player to finish pouring and spread the tokens
      (a token dropped on top of another is read a moment later), short enough not to make the
      table wait.
    - ``reads`` (5): ... over at least this many snapshots (half a second at 10 Hz).
    - ``collect`` (3.0 s): after the reveal, a revealed token is kept away from the tracker until
      it has not been read anywhere for this long (the players gather the tokens up; one still
      lying on a reader must not be taken for a pour into the next Course's Goblet).
    - ``lifted`` (0.5 s): poured out apart (the camera), a Goblet whose ring has gone unread at
      its spot for this long, over :data:`LIFT_SNAPSHOTS` snapshots at least, has been lifted
      (one frame that misses a ring is no lift). Short enough that a Goblet lifted, shown empty
      and set down again is seen at 2.5 frames a second; the tracker's own ``absent_after`` is
      0.5 s too.
    """

    settle: float = 2.0
    reads: int = 5
    collect: float = 3.0
    lifted: float = 0.5

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not is_number(value) or value <= 0:
                raise MalformedInput(f"must be a positive number, got {value!r}", field=f.name)

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> PourOutConfig:
        """A config from ``{"settle": s, ...}`` (unknown keys are an error naming them)."""
        data = dict(data or {})
        known = {f.name for f in fields(PourOutConfig)}
        for key in data:
            if key not in known:
                raise MalformedInput(f"unknown pour-out setting {key!r}", field=key)
        return PourOutConfig(**data)


class _Seat:
    """One seat's recent reads while its Goblet is poured out."""

    def __init__(self, rings: frozenset[str]) -> None:
        self.rings = rings
        self.reads: deque[tuple[float, frozenset[str]]] = deque()
        self.ring_seen: float | None = None
        """When the Goblet's ring was last read here (None: not since the pour-out began)."""
        self.on: frozenset[str] = frozenset()
        self.since: float | None = None
        """When :attr:`on` last changed."""
        self.count_since = 0
        """Snapshots since :attr:`on` last changed."""
        self.confirmed: dict[str, int] | None = None
        self.gone_since: float | None = None
        """When the current run of snapshots without the Goblet's ring began (None: read)."""
        self.gone_reads = 0
        """Snapshots in that run."""
        self.lifted = False
        """The Goblet has been off its spot for ``lifted`` seconds since the pour-out began."""
        self.back_since: float | None = None
        """When the lifted Goblet was read on its spot again (None: not back, or lifted again)."""

    def ring_read(self, t: float, read: bool, config: PourOutConfig) -> None:
        """One snapshot of the seat's spot, its ring ``read`` there or not (poured out apart)."""
        if read:
            away = (
                self.gone_since is not None
                and t - self.gone_since >= config.lifted
                and self.gone_reads >= LIFT_SNAPSHOTS
            )
            if away:
                self.lifted, self.back_since = True, t  # set down again after a lift
            self.gone_since, self.gone_reads = None, 0
            return
        if self.gone_since is None:
            self.gone_since, self.gone_reads = t, 0
        self.gone_reads += 1
        if t - self.gone_since >= config.lifted and self.gone_reads >= LIFT_SNAPSHOTS:
            self.lifted, self.back_since = True, None  # off its spot: in a hand, or set aside


class PourOut:
    """The readers watched while every Goblet is poured out (see the module docstring).

    ``layout``: place -> the Goblet standing there when the pour-out began (its ring says whether
    it is still standing); ``registry``: the enrolled tags; ``rings``: False for Raise Your Memory
    (every seat is confirmed by hand); ``apart``: the tokens are poured out apart from the
    Goblets' spots (the camera's reveal areas); ``witness``: this pour-out only checks another's
    counts (it settles on its read alone); ``t``: when the players were asked to pour out.
    """

    def __init__(
        self,
        layout: Mapping[int, str],
        registry: TagRegistry,
        *,
        rings: bool = True,
        apart: bool = False,
        witness: bool = False,
        t: float = 0.0,
        config: PourOutConfig | None = None,
    ) -> None:
        self.registry = registry
        self.apart = apart
        self.witness = witness
        self.config = config or PourOutConfig()
        self.places = len(layout)
        self.rings = rings
        self.started = float(t)
        self.now = float(t)
        self.seats = [
            _Seat(frozenset(registry.rings_of(layout[p])) if rings else frozenset())
            for p in range(self.places)
        ]
        self.unknown: set[str] = set()
        self.seen: set[str] = set()
        """Every token read on any seat during the pour-out."""

    # -- inputs ------------------------------------------------------------------------------

    def observe(self, obs: Observation) -> list[dict[str, Any]]:
        """One seat's snapshot; returns notices (an unknown tag, once per UID)."""
        notices: list[dict[str, Any]] = []
        if not 0 <= obs.seat < self.places:
            return notices
        self.now = max(self.now, obs.t)
        seat = self.seats[obs.seat]
        tokens = set()
        ring = False
        for uid in obs.tags:
            tag = self.registry.lookup(uid)
            if isinstance(tag, TokenTag):
                tokens.add(uid)
            elif isinstance(tag, Ring):
                if uid in seat.rings:
                    seat.ring_seen = obs.t
                    ring = True
            elif uid not in self.unknown:
                self.unknown.add(uid)
                notices.append({"notice": "unknown_tag", "seat": obs.seat})
        if self.apart and seat.rings:
            seat.ring_read(obs.t, ring, self.config)
        seat.reads.append((obs.t, frozenset(tokens)))
        self.seen |= tokens
        window = self.config.settle / 2
        while len(seat.reads) > self.config.reads and seat.reads[0][0] < obs.t - window:
            seat.reads.popleft()
        self._judge(obs.seat)
        return notices

    def advance(self, t: float) -> None:
        """Time passes with no snapshot."""
        self.now = max(self.now, t)

    def confirm(self, place: int, counts: Mapping[str, int] | None = None) -> None:
        """``place``'s contents counted by hand: ``counts`` ({kind: n}), or as read now."""
        message = f"must be a place 0-{self.places - 1}, got {place!r}"
        whole(place, "place", message, low=0, high=self.places - 1)
        if counts is None:
            counts = self._counts(self.seats[place].on)
        check_contents(counts, "counts")
        self.seats[place].confirmed = {k: int(n) for k, n in counts.items() if n}

    # -- reading -----------------------------------------------------------------------------

    def status(self, place: int) -> str:
        """``waiting``, ``settling``, ``settled`` or ``confirmed``."""
        seat = self.seats[place]
        if seat.confirmed is not None:
            return CONFIRMED
        cfg, now = self.config, self.now
        if not self.apart:
            if not self.rings:
                return SETTLING  # only a hand count settles a seat without a ring
            if seat.ring_seen is not None and now - seat.ring_seen < cfg.settle:
                return WAITING
        stable = seat.since is not None and now - seat.since >= cfg.settle
        stable = stable and seat.count_since >= cfg.reads
        if not self.apart or self.witness or seat.on:
            return SETTLED if stable else SETTLING
        # Poured out apart and nothing in the area: only a Goblet shown and set down again
        # says it was empty (see the module docstring).
        back = seat.back_since is not None and now - seat.back_since >= cfg.settle
        if back and stable:
            return SETTLED
        return SETTLING if seat.lifted else WAITING

    def counts(self, place: int) -> dict[str, int]:
        """The contents at ``place`` as confirmed, else as read now ({kind: n})."""
        seat = self.seats[place]
        if seat.confirmed is not None:
            return dict(seat.confirmed)
        return self._counts(seat.on)

    @property
    def is_done(self) -> bool:
        """True when every seat is settled or confirmed: the Goblets can be revealed."""
        return all(self.status(p) in (SETTLED, CONFIRMED) for p in range(self.places))

    def revealed(self) -> list[dict[str, int]]:
        """Every place's contents, in place order (for the reveal)."""
        return [self.counts(p) for p in range(self.places)]

    def view(self) -> list[dict[str, Any]]:
        """Per place: its status and how many tokens lie on its reader (never which: the counts
        by kind are the reveal itself and are shown only with it). None while the Goblet still
        stands on the reader: a partial read of a standing Goblet is no count (poured out apart,
        the area's count is one)."""
        out = []
        for place in range(self.places):
            status = self.status(place)
            partial = status == WAITING and not self.apart
            tokens = None if partial else sum(self.counts(place).values())
            out.append({"place": place, "status": status, "tokens": tokens})
        return out

    # -- machinery ---------------------------------------------------------------------------

    def _judge(self, observed: int) -> None:
        """Re-decide which tokens are on which seat (a token on one seat only: the one that
        reads it most); a seat whose set changed starts settling again."""
        best: dict[str, tuple[float, int]] = {}
        for index, seat in enumerate(self.seats):
            if not seat.reads:
                continue
            hits: Counter[str] = Counter(uid for _, read in seat.reads for uid in read)
            for uid, n in hits.items():
                fraction = n / len(seat.reads)
                if fraction >= 0.5 and fraction > best.get(uid, (0.0, -1))[0]:
                    best[uid] = (fraction, index)
        for index, seat in enumerate(self.seats):
            on = frozenset(uid for uid, (_, where) in best.items() if where == index)
            if seat.since is None and index == observed:
                seat.since, seat.count_since = self.now, 0  # the seat's first snapshot
            if on != seat.on:
                seat.on, seat.since, seat.count_since = on, self.now, 0
            elif index == observed:
                seat.count_since += 1

    def _counts(self, uids: Iterable[str]) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for uid in uids:
            kind = self.registry.token_kind(uid)
            if kind is not None:
                counts[kind.value] += 1
        return dict(sorted(counts.items()))
