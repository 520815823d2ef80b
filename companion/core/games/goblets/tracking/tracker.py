"""The goblet tracker: which Goblet stands at which seat, and what was poured into each.

Snapshots in (:class:`~companion.core.observations.Observation`, one seat's full set of tags at
time ``t``), table events out. Time comes only from the observations (and :meth:`Tracker.advance`);
the tracker reads no clock.

How it reads the table:

- Every tag belongs to one Goblet: a Coaster ring by the registry, a token from the moment it is
  judged poured. A Goblet is therefore seen through its ring *and* its tokens, and where rings are
  unread or absent (Raise Your Memory: "remove the Coaster rings from the Goblets") it is followed
  by the tokens inside it alone.
- A Goblet is *at* a seat when, over the last ``window`` seconds, a good fraction of its tags was
  read there (a neighbour's crosstalk is a few percent), and more than at the seat believed so
  far. It has *left* its seat (lifted) when none of its tags was read there for ``absent_after``
  seconds over several snapshots: missed reads never empty a seat on their own.
- Tokens are conserved: a token that stops being read stays in its Goblet until the Goblet is
  emptied (:meth:`Tracker.empty_goblets`, the reveal).
- A layout (every seat holding exactly one Goblet) that has held for ``settle`` seconds is
  believed. The difference from the previous believed layout is reported as ONE event however it
  was done by hand (see :mod:`companion.core.games.goblets.tracking.moves`); a Goblet that left its
  seat and came back to it is a ``lift`` (a probable Peek).
- Pours confirmed while the table is moving are held back and reported before or after the move
  by when the token was first read, so "the pours into each goblet between two moves" are exact.

Events (``t`` is the time of the observation that decided them):

- ``{"t", "event": "layout", "seats": {"0": NAME, ...}}``: the first believed layout, and the one
  after a Host fix.
- ``{"t", "event": "pour", "goblet", "token", "uid"}``.
- ``{"t", "event": "rotate", "direction": "clockwise" | "widdershins"}``.
- ``{"t", "event": "swap", "seats": [a, b]}``.
- ``{"t", "event": "move", "goblet", "from", "to"}``: a change that is no single Rotate or Swap.
- ``{"t", "event": "lift", "goblet", "seat"}``: lifted and put back (a probable Peek).
- ``{"t", "event": "conflict", "reason", "seats": {"0": [NAME, ...], ...}, "missing": [...]}``:
  the table cannot be read as one Goblet per seat; the Host is asked to fix the layout.
- ``{"t", "event": "fixed", "seats": {...}}``: a Host correction was applied.
- ``{"t", "event": "unknown_tag", "uid", "seat"}``: once per UID nobody enrolled.
- ``{"t", "event": "offline" | "online", "node", "seats": [...]}``: reader node availability.
- ``{"t", "event": "emptied", "goblet", "tokens": {KIND: count}}``: a Goblet emptied at the reveal.
- :meth:`Tracker.state`: ``{"event": "state", "seats": {...}, "goblets": {NAME: {KIND: n}}}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.games.goblets.tags import Ring, TagRegistry, TokenTag, check_name
from companion.core.games.goblets.tokens import Token
from companion.core.games.goblets.tracking.config import TrackerConfig
from companion.core.games.goblets.tracking.layout import Event, LayoutBook
from companion.core.observations import Observation


class Tracker(LayoutBook):
    """Follows the Goblets on a table of ``seats`` seats (see the module docstring).

    ``initial_layout`` (seat -> Goblet name) is the table at the start of the Course ("Each
    player should take the Goblet with the Coaster ring that matches their House"); it is needed
    where Goblets cannot be seen before the initial pour (Raise Your Memory). Without it the first
    layout read from the rings is reported as a ``layout`` event. ``initial_contents`` (Goblet ->
    token UIDs) are tokens already in the Goblets when tracking starts (a Course resumed after a
    restart): they are never reported as pours.
    """

    def __init__(
        self,
        registry: TagRegistry,
        seats: int,
        config: TrackerConfig | None = None,
        initial_layout: Mapping[int, str] | None = None,
        initial_contents: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        super().__init__(registry, seats, config)
        self._owner: dict[str, str] = {}
        """Poured token UID -> the Goblet it is in (tokens are conserved until the reveal)."""
        self._unknown: set[str] = set()
        self._seat_node: dict[int, str] = {}
        self._worn: dict[str, str] = {}
        """Ring UID -> the Goblet wearing it, where a Character exchanged Coasters (else the
        registry's Goblet): :meth:`exchange_rings`."""
        if initial_layout is not None:
            layout = self._check_layout(initial_layout)
            for seat, goblet in layout.items():
                self._join(goblet)
                self._loc[goblet] = seat
                self._pinned.add(goblet)
            if len(layout) == seats:
                self._settled = dict(layout)
                self._rebase = False
        for goblet, uids in (initial_contents or {}).items():
            self._join(check_name(goblet, f"initial_contents.{goblet}"))
            for uid in uids:
                tag = registry.lookup(uid)
                if not isinstance(tag, TokenTag) or uid in self._owner:
                    raise MalformedInput(
                        f"not an enrolled token, or in two Goblets: {uid!r}",
                        field=f"initial_contents.{goblet}",
                    )
                self._owner[uid] = goblet
                self._contents[goblet][uid] = tag.token
                self._tags[goblet].add(uid)

    # ----------------------------------------------------------------- inputs

    def observe(self, obs: Observation) -> list[Event]:
        """Take one seat's snapshot; returns the events it decided (often none).

        A snapshot older than the last one of its seat is stale and ignored (snapshots are
        idempotent: the newer one already says everything).
        """
        if not isinstance(obs, Observation):
            raise MalformedInput(f"not an observation: {obs!r}", field="observation")
        seat = obs.seat
        if not 0 <= seat < self.seats:
            raise MalformedInput(f"must be 0..{self.seats - 1}, got {seat}", field="seat")
        window = self._windows[seat]
        if window.last_t is not None and obs.t < window.last_t:
            return []
        self._tick(obs.t)
        window.add(obs.t, obs.tags)
        if obs.node is not None:
            self._seat_node[seat] = obs.node
        events: list[Event] = []
        hit: set[str] = set()
        fresh: list[tuple[str, Token]] = []
        owned: list[str] = []
        for uid in sorted(obs.tags):
            tag = self.registry.lookup(uid)
            if tag is None:
                if uid not in self._unknown:
                    self._unknown.add(uid)
                    events.append(self._event("unknown_tag", uid=uid, seat=seat))
            elif isinstance(tag, Ring):
                wearer = self._worn.get(uid, tag.goblet)
                self._join(wearer)
                hit.add(wearer)
            elif uid in self._owner:
                hit.add(self._owner[uid])
                owned.append(uid)
            else:
                fresh.append((uid, tag.token))
        for goblet in hit:
            if self._loc.get(goblet) == seat and (goblet, seat) in self._last_hit:
                misses = window.count - self._last_hit[(goblet, seat)][1] - 1
                self._miss_rate(goblet).learn(misses)
            self._last_hit[(goblet, seat)] = (obs.t, window.count)
            self._pinned.discard(goblet)
        for goblet in sorted(hit | set(self._at(seat))):
            self._update(goblet, seat, goblet in hit)
        for uid, kind in fresh:
            self._credit(uid, kind, seat, events)
        if owned and self._is_calm():
            for uid in owned:
                self._recount(uid, seat, events)
        events.extend(self._check())
        return events

    def advance(self, t: float) -> list[Event]:
        """Let time pass to ``t`` without a snapshot (closes the ``settle`` window at the end)."""
        self._tick(t)
        return self._check()

    def node_status(
        self, node: str, online: bool, t: float, seats: Iterable[int] | None = None
    ) -> list[Event]:
        """A reader node went offline (its Last Will) or came back; ``seats`` it serves if known.

        While a node is silent its seats keep their Goblets: absence is only concluded from
        snapshots that do arrive.
        """
        self._tick(t)
        served = (
            sorted(set(seats))
            if seats is not None
            else sorted(s for s, n in self._seat_node.items() if n == node)
        )
        event = self._event("online" if online else "offline", node=str(node), seats=served)
        return [event, *self._check()]

    def fix_layout(self, layout: Mapping[Any, str], t: float | None = None) -> list[Event]:
        """The Host's correction ``seat -> Goblet`` ("fix layout"), believed over the sensors.

        A fixed Goblet stays where the Host put it until one of its tags is read elsewhere; a
        Goblet displaced by the fix is looked for again. When the table is then complete the new
        layout is reported as a ``layout`` event (no move is inferred across a fix).
        """
        fixed = self._check_layout(layout)
        if t is not None:
            self._tick(t)
        for seat, goblet in fixed.items():
            self._join(goblet)
            for other in self._at(seat):
                if other != goblet:
                    self._loc[other] = None
                    self._pinned.discard(other)
            self._loc[goblet] = seat
            self._pinned.add(goblet)
        self._last_change = self._now
        self._rebase = True
        self._force = True
        self._conflict_open = False
        seats = {str(seat): goblet for seat, goblet in sorted(fixed.items())}
        return [self._event("fixed", seats=seats), *self._check()]

    def exchange_rings(self, a: str, b: str) -> None:
        """Goblets ``a`` and ``b`` exchange their Coaster rings (a Character's ability: "Swap
        and/or exchange the Coasters of two Goblets"). A Goblet is its cup and its tokens: each
        keeps its name, where it stands and what it holds, and is read by the other's ring from
        now on (for the rest of the game). Nothing is reported: the ring read at the other cup
        is that cup's, so no move follows from the exchange itself."""
        for name in (a, b):
            if name not in self._contents:
                raise MalformedInput(f"unknown goblet {name!r}", field="goblet")
        rings_a, rings_b = self.rings(a), self.rings(b)
        self._tags[a] = (self._tags[a] - rings_a) | rings_b
        self._tags[b] = (self._tags[b] - rings_b) | rings_a
        for uid in rings_b:
            self._worn[uid] = a
        for uid in rings_a:
            self._worn[uid] = b
        for name in (a, b):  # a different ring: its recent miss rate says nothing of this one
            self._misses.pop(name, None)

    def rings(self, goblet: str) -> frozenset[str]:
        """The ring UIDs ``goblet`` wears now (its own, unless Coasters were exchanged)."""
        return frozenset(
            uid for uid in self._tags.get(goblet, ()) if isinstance(self.registry.lookup(uid), Ring)
        )

    def empty_goblets(
        self, goblets: Iterable[str] | None = None, t: float | None = None
    ) -> list[Event]:
        """Empty Goblets at the reveal (all of them by default): their tokens leave them.

        Rulebook, The Toast: "each player takes the Goblet in front of them ... and reveals its
        contents". A Goblet left with no tag at all cannot be read any more and stays put.
        """
        if t is not None:
            self._tick(t)
        names = sorted(self._contents) if goblets is None else list(goblets)
        for name in names:
            if name not in self._contents:
                raise MalformedInput(f"unknown goblet {name!r}", field="goblets")
        events = []
        for name in names:
            counts = _counts(self._contents[name].values())
            for uid in self._contents[name]:
                self._owner.pop(uid, None)
                self._pours.forget(uid)
                self._tags[name].discard(uid)
            self._contents[name] = {}
            # Fewer tags now: how often the full Goblet was missed altogether no longer says how
            # often the empty one is (a ring alone, missed runs would look like a lift).
            self._misses.pop(name, None)
            if not self._tags[name]:
                self._pinned.add(name)
            events.append(self._event("emptied", goblet=name, tokens=counts))
        return events

    # ----------------------------------------------------------------- reading

    def state(self) -> Event:
        """``{"event": "state", "seats": {"0": NAME | None, ...}, "goblets": {NAME: {KIND: n}}}``.

        Seats are the last believed layout (the current reading before the first one).
        """
        layout = self._settled if self._settled is not None else self._current()
        return {
            "event": "state",
            "seats": {str(s): layout.get(s) for s in range(self.seats)},
            "goblets": {g: _counts(self._contents[g].values()) for g in self._in_play()},
        }

    def layout(self) -> dict[int, str] | None:
        """The last believed layout (seat -> Goblet), or ``None`` before the first."""
        return None if self._settled is None else dict(self._settled)

    def contents(self, goblet: str) -> dict[str, int]:
        """What ``goblet`` holds: token kind -> count (kinds it does not hold are left out)."""
        if goblet not in self._contents:
            raise MalformedInput(f"unknown goblet {goblet!r}", field="goblet")
        return _counts(self._contents[goblet].values())

    def location(self, goblet: str) -> int | None:
        """The seat ``goblet`` is read at now, ``None`` while it is in the air or unknown."""
        return self._loc.get(goblet)

    # ----------------------------------------------------------------- the tokens

    def _credit(self, uid: str, kind: Token, seat: int, events: list[Event]) -> None:
        """Count a read of a token in no Goblet yet; judge it poured once the reads agree."""
        assert self._now is not None
        here = self._at(seat)
        goblet = here[0] if len(here) == 1 else None
        pour = self._pours.read_new(uid, self._now, goblet)
        if pour is None or goblet is None:
            return
        self._owner[uid] = goblet
        self._contents[goblet][uid] = kind
        self._tags[goblet].add(uid)
        self._last_hit[(goblet, seat)] = (self._now, self._windows[seat].count)
        event = self._event("pour", goblet=goblet, token=kind.value, uid=uid)
        if self._is_calm():
            events.append(event)
        else:
            self._held.append((pour.first_seen, event))

    def _recount(self, uid: str, seat: int, events: list[Event]) -> None:
        """Count where a poured token is read on a quiet table; move it if it is plainly read in
        another Goblet (a pour first credited to a neighbour's Goblet by crosstalk)."""
        here = self._at(seat)
        if len(here) != 1:
            return
        reader, owner = here[0], self._owner[uid]
        if not self._pours.read_owned(uid, reader, owner):
            return
        kind = self._contents[owner].pop(uid)
        self._tags[owner].discard(uid)
        self._owner[uid] = reader
        self._contents[reader][uid] = kind
        self._tags[reader].add(uid)
        moved = {"from": owner, "to": reader}
        events.append(self._event("pour_corrected", uid=uid, token=kind.value, **moved))


def _counts(kinds: Iterable[Token]) -> dict[str, int]:
    """Token kind -> count, in the rulebook's order of kinds, kinds with no token left out."""
    listed = list(kinds)
    return {t.value: listed.count(t) for t in Token if t in listed}
