"""Where the Goblets stand: the layout bookkeeping under :class:`~.tracker.Tracker`.

A Goblet is *at* a seat when, over the last ``window`` seconds, a good fraction of its tags was
read there and more than at the seat believed so far; it has *left* (lifted) when none of its tags
was read there for ``absent_after`` seconds over enough snapshots (:class:`~.evidence.MissRate`).
A layout (every seat holding exactly one Goblet) that has held for ``settle`` seconds is believed,
and its difference from the last believed layout is reported as one event (:mod:`.moves`), with
the pours held back during the move put before or after it; a table that cannot be read as one
Goblet per seat for ``conflict_after`` seconds is a ``conflict`` for the Host.

:class:`LayoutBook` holds the Goblets' records (tags, contents, where each is read) and decides
these; :class:`~.tracker.Tracker` reads the snapshots into it and follows the tokens.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from companion.core.checks import is_number, whole
from companion.core.errors import MalformedInput
from companion.core.games.goblets.tags import TagRegistry, check_name
from companion.core.games.goblets.tokens import Token
from companion.core.games.goblets.tracking.config import TrackerConfig
from companion.core.games.goblets.tracking.evidence import MissRate, SeatWindow
from companion.core.games.goblets.tracking.moves import classify
from companion.core.games.goblets.tracking.pours import PourBook

Event = dict[str, Any]


class LayoutBook:
    """The Goblets of a table of ``seats`` seats, where each is read, and the believed layout."""

    def __init__(self, registry: TagRegistry, seats: int, config: TrackerConfig | None) -> None:
        whole(seats, "seats", f"must be an integer >= 2, got {seats!r}", low=2)
        self.registry = registry
        self.seats = seats
        self.config = config or TrackerConfig()
        self._windows = [SeatWindow(self.config.keep) for _ in range(seats)]
        self._contents: dict[str, dict[str, Token]] = {}
        self._tags: dict[str, set[str]] = {}
        self._loc: dict[str, int | None] = {}
        self._pinned: set[str] = set()
        self._last_hit: dict[tuple[str, int], tuple[float, int]] = {}
        self._misses: dict[str, MissRate] = {}
        self._displaced: set[str] = set()
        self._flux_start: float | None = None
        self._last_change: float | None = None
        self._settled: dict[int, str] | None = None
        self._rebase = True
        self._force = False
        self._pours = PourBook(self.config)
        self._held: list[tuple[float, Event]] = []
        self._conflict_open = False
        self._now: float | None = None

    def _event(self, kind: str, **data: Any) -> Event:
        return {"t": self._now, "event": kind, **data}

    def _tick(self, t: float) -> None:
        if not is_number(t) or not math.isfinite(t):
            raise MalformedInput(f"must be a finite number of seconds, got {t!r}", field="t")
        if self._now is None or t > self._now:
            self._now = float(t)
        if self._last_change is None:
            self._last_change = self._now

    def _join(self, goblet: str) -> None:
        if goblet not in self._contents:
            self._contents[goblet] = {}
            self._tags[goblet] = set(self.registry.rings_of(goblet))
            self._loc[goblet] = None

    def _at(self, seat: int) -> list[str]:
        return [g for g, s in self._loc.items() if s == seat]

    def _set_loc(self, goblet: str, seat: int | None) -> None:
        self._loc[goblet] = seat
        self._displaced.add(goblet)
        self._last_change = self._now
        if self._flux_start is None:
            self._flux_start = self._now
        self._conflict_open = False

    def _update(self, goblet: str, seat: int, hit: bool) -> None:
        """Re-judge where ``goblet`` is after a snapshot of ``seat``."""
        cfg = self.config
        now = self._now
        assert now is not None
        window = self._windows[seat]
        current = self._loc[goblet]
        if current == seat:
            if hit or goblet in self._pinned or not self._tags[goblet]:
                return
            t_hit, n_hit = self._last_hit.get((goblet, seat), (-math.inf, 0))
            if now - t_hit >= cfg.absent_after and window.count - n_hit >= self._needed(goblet):
                self._set_loc(goblet, None)
            return
        if not hit:
            return
        ratio, hits = window.presence(self._tags[goblet], now - cfg.window)
        if hits < cfg.present_hits or ratio < cfg.present_ratio:
            return
        if current is not None and goblet not in self._pinned:
            here, _ = self._windows[current].presence(self._tags[goblet], now - cfg.window)
            if here >= ratio:
                return
            # A Goblet that moved stops being read where it stood: unless it is read here
            # plainly more than there, only reads here since its last read there count, so a
            # burst of crosstalk while its own reader happens to miss it does not carry it to
            # the neighbour's seat.
            if ratio < cfg.move_dominance * here:
                last, _ = self._last_hit.get((goblet, current), (-math.inf, 0))
                since = max(now - cfg.window, last + 1e-9)
                _, after = window.presence(self._tags[goblet], since)
                if after < cfg.move_hits:
                    return
        self._set_loc(goblet, seat)

    def _miss_rate(self, goblet: str) -> MissRate:
        if goblet not in self._misses:
            self._misses[goblet] = MissRate(self.config.read_memory)
        return self._misses[goblet]

    def _needed(self, goblet: str) -> int:
        """How many snapshots without ``goblet`` prove it left its seat (see TrackerConfig)."""
        cfg = self.config
        return self._miss_rate(goblet).needed(
            len(self._tags[goblet]),
            cfg.absent_confidence,
            cfg.absent_snapshots,
            cfg.absent_max_snapshots,
        )

    def _is_calm(self) -> bool:
        return self._settled is not None and not self._rebase and self._flux_start is None

    def _current(self) -> dict[int, str]:
        return {s: g for g, s in sorted(self._loc.items()) if s is not None}

    def _complete(self) -> dict[int, str] | None:
        """The current reading if it is one Goblet per seat, every Goblet on a seat, else None."""
        layout = self._current()
        in_play = self._in_play()
        if len(layout) != self.seats or len(in_play) != self.seats:
            return None
        if any(self._loc[g] is None for g in in_play):
            return None
        return layout

    def _in_play(self) -> list[str]:
        """The Goblets on the table: believed at a seat, read at one now, or holding tokens. A
        spare Goblet's ring heard once and never seen on a seat does not block the table."""
        settled = set(self._settled.values()) if self._settled else set()
        return sorted(
            g
            for g, seat in self._loc.items()
            if seat is not None or g in settled or self._contents[g] or g in self._pinned
        )

    def _check(self) -> list[Event]:
        """Believe a layout that has settled, or raise a conflict for one that cannot."""
        if self._is_calm() and not self._held:
            return []
        now = self._now
        assert now is not None and self._last_change is not None
        layout = self._complete()
        if layout is None:
            if not self._conflict_open and now - self._last_change >= self.config.conflict_after:
                self._conflict_open = True
                return [self._conflict()]
            return []
        if not self._force and now - self._last_change < self.config.settle:
            return []
        if not self._force and self._waits_for_pour(now):
            return []
        events: list[Event] = []
        held = sorted(self._held, key=lambda item: item[0])
        if self._rebase or self._settled is None:
            seats = {str(s): g for s, g in sorted(layout.items())}
            events.append(self._event("layout", seats=seats))
            events.extend(event for _, event in held)
        else:
            start = self._flux_start
            before = [e for first, e in held if start is None or first < start]
            after = [e for first, e in held if start is not None and first >= start]
            lifts = [
                self._event("lift", goblet=g, seat=self._loc[g])
                for g in sorted(self._displaced, key=lambda g: self._loc[g] or 0)
                if self._settled.get(self._loc[g] or 0) == g
            ]
            moves = [{"t": now, **m} for m in classify(self._settled, layout, self.seats)]
            events.extend([*before, *lifts, *moves, *after])
        self._settled = layout
        self._displaced.clear()
        self._flux_start = None
        self._held = []
        self._rebase = False
        self._force = False
        self._conflict_open = False
        return events

    def _waits_for_pour(self, now: float) -> bool:
        """Whether to hold a move back a little for a token read before it started, still read,
        but not yet judged poured (so the pour is reported before the move, where it belongs)."""
        start = self._flux_start
        if start is None or self._settled is None or self._rebase:
            return False
        assert self._last_change is not None
        if now - self._last_change >= self.config.settle + self.config.pour_wait:
            return False
        return self._pours.is_waiting(start, now - self.config.keep)

    def _conflict(self) -> Event:
        seats: dict[str, list[str]] = {str(s): [] for s in range(self.seats)}
        for goblet, seat in sorted(self._loc.items()):
            if seat is not None:
                seats[str(seat)].append(goblet)
        missing = [g for g in self._in_play() if self._loc[g] is None]
        reasons = [f"seat {s} holds no goblet" for s, gs in seats.items() if not gs]
        reasons += [f"seat {s} holds {len(gs)} goblets" for s, gs in seats.items() if len(gs) > 1]
        reasons += [f"goblet {g} is not read at any seat" for g in missing]
        if len(self._in_play()) > self.seats:
            reasons.append(f"{len(self._in_play())} goblets on a table of {self.seats} seats")
        return self._event(
            "conflict",
            reason="; ".join(reasons) or "layout cannot be explained",
            seats=seats,
            missing=missing,
        )

    def _check_layout(self, layout: Mapping[Any, str]) -> dict[int, str]:
        if not isinstance(layout, Mapping):
            raise MalformedInput("must be an object of seat -> goblet", field="layout")
        result: dict[int, str] = {}
        for key, goblet in layout.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise MalformedInput(f"not a seat index: {key!r}", field="layout") from None
            if isinstance(key, bool) or not 0 <= seat < self.seats:
                raise MalformedInput(f"seat must be 0..{self.seats - 1}", field=f"layout.{key}")
            name = check_name(goblet, f"layout.{key}")
            if name in result.values():
                raise MalformedInput(f"goblet {name!r} at two seats", field=f"layout.{key}")
            result[seat] = name
        return result
