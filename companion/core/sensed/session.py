"""A sensed session: reader snapshots -> tracker -> sensed table -> engine, in one object.

:class:`SensedSession` owns a :class:`~companion.core.tracking.Tracker` and a
:class:`~companion.core.sensed.table.SensedTable` on the same Goblets: every reader snapshot goes
through the tracker, the tracker's events into the table, and every method returns the table's
:class:`~companion.core.sensed.table.Result` with the tracker events behind it in ``tracked``. At
the reveal the tracker's contents are compared with the engine's and the tracker's Goblets are
emptied ("each player takes the Goblet in front of them [...] and reveals its contents").
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.game import Action
from companion.core.games.goblets.state import GobletsState
from companion.core.observations import Observation
from companion.core.sensed.table import Result, SensedTable
from companion.core.tags import TagRegistry
from companion.core.tracking import Tracker, TrackerConfig


class SensedSession:
    """Readers -> tracker -> sensed table -> engine (see the module docstring).

    ``state``: a fresh (or resumed) 4-12 player Goblets state; ``registry``: the enrolled tags;
    ``layout``: place -> Goblet name now (default: the Houses' rings at their places; with Raise
    Your Memory, the Goblets named by the places' Houses); ``ring_houses``: ring name -> House
    (default: rings named by their Houses); ``config``: tracker thresholds; ``rng``: draws the
    chance events sensors cannot see (see :class:`SensedTable`); ``contents``: Goblet name ->
    the token UIDs already in it (a Course resumed half-way: never reported as pours).
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
    ) -> None:
        if not isinstance(registry, TagRegistry):
            raise MalformedInput("must be a TagRegistry", field="registry")
        self.table = SensedTable(state, layout=layout, ring_houses=ring_houses, rng=rng)
        self.tracker = Tracker(
            registry,
            self.table.places,
            config,
            initial_layout=dict(self.table.layout),
            initial_contents=contents,
        )

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
        """One reader snapshot."""
        return self._feed(self.tracker.observe(obs), obs.t)

    def observe_many(self, observations: Iterable[Observation]) -> Result:
        """Many snapshots, in delivery order."""
        result = Result()
        for obs in observations:
            result.extend(self.observe(obs))
        return result

    def advance(self, t: float) -> Result:
        """Time passes with no snapshot (lets a settling layout be believed)."""
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
        """The Host starts the Course (see :meth:`SensedTable.start_course`)."""
        return self.table.start_course()

    def end_turn(self, seat: int) -> Result:
        """``seat`` passes (see :meth:`SensedTable.end_turn`)."""
        return self.table.end_turn(seat)

    def toast(self, seat: int) -> Result:
        """``seat`` Calls the Toast."""
        return self.table.toast(seat)

    def apply_chance(self, action: Action) -> Result:
        """A chance event the sensors cannot see (see :meth:`SensedTable.apply_chance`)."""
        return self.table.apply_chance(action)

    def reveal(
        self, t: float | None = None, counts: list[Mapping[str, int]] | None = None
    ) -> Result:
        """The Goblets are revealed and scored (see :meth:`SensedTable.reveal`), then the
        tracker's Goblets are emptied. ``counts``: per place, the camera's counts, if any."""
        sensed = self.tracker.state()["goblets"]
        result = self.table.reveal(sensed, counts=counts)
        result.tracked.extend(self.tracker.empty_goblets(t=t))
        return result

    def follow(self, state: GobletsState) -> Result:
        """Go on from the journal's ``state`` after a hand entry, keeping the tracker and what it
        told the table (see :meth:`SensedTable.follow`)."""
        return self.table.follow(state)

    def status(self) -> dict[str, Any]:
        """The table's status plus the tracker's current reading."""
        return {**self.table.status(), "tracker": self.tracker.state()}
