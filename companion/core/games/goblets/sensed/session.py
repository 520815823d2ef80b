"""A sensed session: reader snapshots -> tracker -> sensed table -> engine, in one object.

:class:`SensedSession` owns a :class:`~companion.core.games.goblets.tracking.Tracker` and a
:class:`~companion.core.games.goblets.sensed.table.SensedTable` on the same Goblets: every reader
snapshot goes through the tracker, the tracker's events into the table, and every method returns the
table's :class:`~companion.core.games.goblets.sensed.table.Result` with the tracker events behind it
in ``tracked``. At the reveal the tracker's contents are compared with the engine's and the
tracker's Goblets are emptied ("each player takes the Goblet in front of them [...] and reveals its
contents").

The reveal on the readers (:meth:`SensedSession.pour_out`): at the Toast every player pours
their Goblet out onto their seat's reader spot; while they do, the snapshots go to a
:class:`~companion.core.games.goblets.sensed.pour_out.PourOut` instead of the tracker, and once
every seat's flat read has settled (or been confirmed by hand) the Goblets are revealed with those
counts, which win over the tracked pours. Afterwards the revealed tokens are kept from the tracker
until they have been gathered up (not read anywhere for ``collect`` seconds).

The camera sees no pour (``pours_seen=False``): its game starts a Course only once the table is
seen gathered up and set out (:meth:`SensedSession.set_out`,
:mod:`companion.core.games.goblets.sensed.gather`), and its Toast says the engine cannot know the
caller's Wine (``"pours": "unseen"``, see :meth:`SensedTable.toast`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from companion.core.errors import AmbiguousObservation, MalformedInput
from companion.core.game import Action
from companion.core.games.goblets.model import Phase
from companion.core.games.goblets.sensed.gather import Gather
from companion.core.games.goblets.sensed.pour_out import PourOut, PourOutConfig
from companion.core.games.goblets.sensed.table import Result, SensedTable
from companion.core.games.goblets.state import GobletsState
from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tracking import Tracker, TrackerConfig
from companion.core.observations import Observation

GATHERED = 0.5
"""Seconds a revealed token has gone unread (five snapshots at 10 Hz) when the Host starts the
next Course for it to count as gathered up."""


class SensedSession:
    """Readers -> tracker -> sensed table -> engine (see the module docstring).

    ``state``: a fresh (or resumed) 4-12 player Goblets state; ``registry``: the enrolled tags;
    ``layout``: place -> Goblet name now (default: the Houses' rings at their places; with Raise
    Your Memory, the Goblets named by the places' Houses); ``ring_houses``: ring name -> House
    (default: rings named by their Houses); ``config``: tracker thresholds; ``rng``: draws the
    chance events sensors cannot see (see :class:`SensedTable`); ``contents``: Goblet name ->
    the token UIDs already in it (a Course resumed half-way: never reported as pours);
    ``pour_out``: how the reveal on the readers settles; ``reveal_apart``: the Goblets are
    poured out apart from their spots (the camera's reveal areas: see ``PourOut``);
    ``pours_seen``: False where no pour is sensed (the camera: see :class:`SensedTable`).
    """

    def __init__(
        self,
        state: GobletsState,
        registry: TagRegistry,
        *,
        layout: Mapping[int, str] | None = None,
        ring_houses: Mapping[str, str] | None = None,
        config: TrackerConfig | None = None,
        rng: random.Random | None = None,
        contents: Mapping[str, Iterable[str]] | None = None,
        pour_out: PourOutConfig | None = None,
        reveal_apart: bool = False,
        pours_seen: bool = True,
    ) -> None:
        if not isinstance(registry, TagRegistry):
            raise MalformedInput("must be a TagRegistry", field="registry")
        self.table = SensedTable(
            state, layout=layout, ring_houses=ring_houses, rng=rng, pours_seen=pours_seen
        )
        self.tracker = Tracker(
            registry,
            self.table.places,
            config,
            initial_layout=dict(self.table.layout),
            initial_contents=contents,
        )
        self.table.on_rings = self.tracker.exchange_rings  # a Character exchanged Coasters
        self.registry = registry
        self.pour_out_config = pour_out or PourOutConfig()
        self.reveal_apart = reveal_apart
        """The Goblets are poured out apart from their spots (the camera's reveal areas)."""
        self.pouring: PourOut | None = None
        """The reveal on the readers while the Goblets are being poured out (else None)."""
        self._now = 0.0
        self.lying_out: dict[str, float] = {}
        """Revealed token -> when it was last read: kept from the tracker until gathered up."""
        self.gather: Gather | None = None
        """The table watched before a Course starts (:meth:`set_out`; else None)."""

    @property
    def now(self) -> float:
        """The latest time the session has seen (the observations' clock; 0 before any)."""
        return max(self._now, self.table.now or 0.0)

    @property
    def state(self) -> GobletsState:
        """The engine state (the fold of every applied action)."""
        return self.table.state

    def _feed(self, events: list[dict[str, Any]], t: float | None = None) -> Result:
        result = self.table.on_events(events)
        if t is not None:
            result.extend(self.table.tick(t))
        result.tracked[:0] = events
        return result

    # -- sensors ---------------------------------------------------------------------------

    def observe(self, obs: Observation) -> Result:
        """One reader snapshot (to the pour-out while the Goblets are poured out)."""
        self._now = max(self._now, obs.t)
        if self.pouring is not None:
            result = Result(notices=self.pouring.observe(obs))
            return result.extend(self._reveal_if_poured(obs.t))
        if self.lying_out:
            obs = self._without_lying_out(obs)
        return self._feed(self.tracker.observe(obs), obs.t)

    def advance(self, t: float) -> Result:
        """Time passes with no snapshot (lets a settling layout be believed)."""
        self._now = max(self._now, t)
        if self.pouring is not None:
            self.pouring.advance(t)
            return self._reveal_if_poured(t)
        return self._feed(self.tracker.advance(t), t)

    def node_status(
        self, node: str, online: bool, t: float, seats: Iterable[int] | None = None
    ) -> Result:
        """A reader node went offline (Last Will) or came back."""
        return self._feed(self.tracker.node_status(node, online, t, seats))

    def fix_layout(self, layout: Mapping[Any, str], t: float | None = None) -> Result:
        """The Host's fix of the layout (place -> Goblet name) after a conflict."""
        return self._feed(self.tracker.fix_layout(layout, t))

    # -- inputs sensors cannot see ----------------------------------------------------------

    def start_course(self) -> Result:
        """The Host starts the Course (see :meth:`SensedTable.start_course`).

        Revealed tokens already gathered up (not read for :data:`GATHERED` seconds) are no
        longer kept from the tracker: the Host may pour one of them into a Goblet at once, and
        that initial pour must be seen. Tokens still lying by a reader stay kept until gathered.
        """
        for uid, seen in list(self.lying_out.items()):
            if self._now - seen >= GATHERED:
                del self.lying_out[uid]
        return self.table.start_course()

    def set_out(self, t: float, tokens: Mapping[int, int | None]) -> bool:
        """One look at the table before the Course has started (a camera frame: ``tokens``, place
        -> tokens seen in its reveal area, None where it is not seen), after the frame's rings
        went through :meth:`observe`. True once the table is gathered up and set out for the
        Course (:class:`~companion.core.games.goblets.sensed.gather.Gather`): the caller may start
        it. False once the Course has started (or while the Goblets are poured out)."""
        self._now = max(self._now, t)
        table, state = self.table, self.state
        if (
            self.pouring is not None
            or state.phase != Phase.INITIAL_POUR
            or table.started_course == state.course
            or not table.names.is_bound
        ):
            self.gather = None
            return False
        home = table.names.engine_layout(state)
        if self.gather is None or self.gather.home != home:
            self.gather = Gather(home, self.pour_out_config)
        believed = self.tracker.layout() or {}
        # Believed there and read there now: a Goblet in the air is located nowhere.
        located = {
            place: name for place, name in believed.items() if self.tracker.location(name) == place
        }
        return self.gather.see(t, located, tokens)

    def end_turn(self, seat: int) -> Result:
        """``seat`` passes (see :meth:`SensedTable.end_turn`)."""
        return self.table.end_turn(seat)

    def toast(self, seat: int) -> Result:
        """``seat`` Calls the Toast."""
        return self.table.toast(seat)

    def ability(self, seat: int, data: Mapping[str, Any]) -> Result:
        """``seat`` taps a Character ability (see :meth:`SensedTable.ability`)."""
        return self.table.ability(seat, data)

    def apply_chance(self, action: Action) -> Result:
        """A chance event the sensors cannot see (see :meth:`SensedTable.apply_chance`)."""
        return self.table.apply_chance(action)

    def reveal(
        self, t: float | None = None, counts: list[Mapping[str, int]] | None = None
    ) -> Result:
        """The Goblets are revealed and scored (see :meth:`SensedTable.reveal`), then the
        tracker's Goblets are emptied. ``counts``: per place, the camera's counts, if any."""
        # Counts taken at the reveal win over everything tracked: nothing to compare them with.
        sensed = self.tracker.state()["goblets"] if counts is None else None
        result = self.table.reveal(sensed, counts=counts)
        result.tracked.extend(self.tracker.empty_goblets(t=t))
        self.pouring = None
        return result

    def pour_out(self, t: float) -> Result:
        """The reveal on the readers begins: every player pours their Goblet out onto their
        seat's reader spot and sets the empty Goblet aside (see the module docstring).

        Refused, changing nothing, where :meth:`reveal` would be (no Toast, an open conflict).
        """
        if self.pouring is not None:
            return Result()  # asked again (a second tap): the reading goes on
        self.table.check_reveal()
        table = self.table
        self.pouring = PourOut(
            dict(table.layout),
            self.registry,
            rings=not self.state.opts.raise_your_memory,
            apart=self.reveal_apart,
            t=t,
            config=self.pour_out_config,
        )
        if not self.state.opts.raise_your_memory:
            for place, seat in enumerate(self.pouring.seats):
                # The ring the Goblet wears now: a Character may have exchanged Coasters.
                seat.rings = self.tracker.rings(table.layout[place]) or seat.rings
        return Result(notices=[{"notice": "pour_out"}])

    def confirm(
        self, place: int, counts: Mapping[str, int] | None = None, t: float | None = None
    ) -> Result:
        """``place``'s poured-out contents counted by hand (``counts``, or as read now); the
        Goblets are revealed once every place is settled or confirmed."""
        if self.pouring is None:
            raise AmbiguousObservation("no Goblet is being poured out: nothing to confirm")
        self.pouring.confirm(place, counts)
        return self._reveal_if_poured(self.pouring.now if t is None else t)

    def _reveal_if_poured(self, t: float) -> Result:
        pouring = self.pouring
        if pouring is None or not pouring.is_done:
            return Result()
        counts = pouring.revealed()
        for uid in pouring.seen:
            self.lying_out[uid] = t
        return self.reveal(t, counts=counts)

    def _without_lying_out(self, obs: Observation) -> Observation:
        """``obs`` without the revealed tokens still lying out (gathered up: forgotten)."""
        for uid in obs.tags & self.lying_out.keys():
            self.lying_out[uid] = obs.t
        collect = self.pour_out_config.collect
        for uid, seen in list(self.lying_out.items()):
            if obs.t - seen > collect:
                del self.lying_out[uid]
        return replace(obs, tags=obs.tags - self.lying_out.keys())

    def follow(self, state: GobletsState) -> Result:
        """Go on from the journal's ``state`` after a hand entry, keeping the tracker and what it
        told the table (see :meth:`SensedTable.follow`)."""
        return self.table.follow(state)

    def status(self) -> dict[str, Any]:
        """The table's status plus the tracker's current reading."""
        return {**self.table.status(), "tracker": self.tracker.state()}
