"""A sensed Course: the table's records, the recording machinery, and a Course's setup.

:class:`CourseTable` is what :class:`~companion.core.games.goblets.sensed.table.SensedTable` builds
on: the Raise Your Goblets state and the Goblets as the tracker reads them, the queue of sensed
events and inputs waiting while the table cannot go on (a conflict, a chance event, a Course not
started), applying actions in :attr:`Mode.RECORDING` (a refusal is a Host notice), and what the
sensors cannot see of a Course's setup: the Host starting the Course ("Each player should take the
Goblet with the Coaster ring that matches their House and place it in front of them"), the initial
pour gathered from the first token read in each Goblet, the deals drawn as chance, whether the
Goblets may be revealed and with which contents, and the wait for the next Course after the reveal.
The turn flow (pours, Peeks, moves, passes, the Toast and the
reveal) is :class:`~companion.core.games.goblets.sensed.table.SensedTable`'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.core.checks import whole
from companion.core.errors import AmbiguousObservation, CupbearerError, MalformedInput
from companion.core.game import CHANCE, Action, Event, Mode
from companion.core.games.goblets.model import Phase, Stage
from companion.core.games.goblets.sensed import pairs
from companion.core.games.goblets.sensed.abilities import Expected, declined
from companion.core.games.goblets.sensed.places import (
    GobletNames,
    Layout,
    check_place,
    is_complete,
    parse_layout,
)
from companion.core.games.goblets.sensed.result import Applied, Result
from companion.core.games.goblets.state import GobletsState

SECRET_KEYS = frozenset({"token", "tokens", "uid", "goblets", "contents"})
"""What a notice never carries before the reveal: the Host sees no Goblet's contents either
(DESIGN.md principle 3), and a token's UID or kind would tell them."""


class CourseTable:
    """The records and the Course setup under
    :class:`~companion.core.games.goblets.sensed.table.SensedTable` (its docstring has the
    arguments)."""

    def __init__(
        self,
        state: GobletsState,
        *,
        layout: Mapping[int, str] | None = None,
        ring_houses: Mapping[str, str] | None = None,
        rng: random.Random | None = None,
        pours_seen: bool = True,
    ) -> None:
        if not isinstance(state, GobletsState):
            raise MalformedInput("sensed play needs a 4-12 player Goblets game", field="state")
        self.state = state
        self.pours_seen = pours_seen
        self.places = len(state.places)
        self.names = GobletNames(state, ring_houses)
        self.rng = rng
        if layout is None:
            layout = (
                self.names.engine_layout(state)
                if self.names.rings
                else {p: h for p, h in enumerate(state.opts.houses)}
            )
        self.layout: Layout = parse_layout({str(k): v for k, v in layout.items()}, self.places)
        if not is_complete(self.layout, self.places):
            raise MalformedInput("must name one Goblet at each place", field="layout")
        if not self.names.rings:
            self.names.bind_layout(state, self.layout)
        self.conflict: Event | None = None
        self.started_course = 0 if state.phase == Phase.INITIAL_POUR else state.course
        self._first: dict[str, str] = {}
        self._extra: list[dict[str, Any]] = []
        self._queue: list[dict[str, Any]] = []
        self._moves: list[dict[str, Any]] = []
        self._misplaced = False
        self.now: float | None = None
        """The latest time (seconds, the observations' clock) seen in an event or a tick."""
        self._pending_pass: tuple[int, float | None] | None = None
        self.expected = Expected()
        """Physical effects of recorded Character abilities still to be read."""
        self.on_rings: Callable[[str, str], None] | None = None
        """Told the two Goblets (tracker names) whose Coasters an ability exchanged (the session
        tells its tracker: ``core/games/goblets/sensed/abilities.py``)."""

    def follow(self, state: GobletsState) -> Result:
        """Go on from ``state``, the journal's after a hand entry (the Host entered or undid an
        action), keeping what the readers told: the believed layout, an open conflict, a pending
        pass, the events waiting for a fix. If the engine now has the Goblets elsewhere than the
        table shows them, the Host is told; the next move read is recorded from the engine's
        layout, so the table's reality wins again."""
        if not isinstance(state, GobletsState) or len(state.places) != self.places:
            raise MalformedInput("follows a state of the same game", field="state")
        self.state = state
        result = Result()
        engine = self.names.engine_layout(state) if self.names.is_bound else None
        if state.phase == Phase.PLAY and engine is not None and engine != self.layout:
            result.notices.append(
                {
                    "notice": "layout_differs",
                    "engine": {str(p): n for p, n in engine.items()},
                    "table": {str(p): n for p, n in self.layout.items()},
                }
            )
        return result

    # ------------------------------------------------------------------ the Course

    def start_course(self) -> Result:
        """The Host: the Goblets stand at their places, the Course's initial pour may begin.

        Appetizers: "Each player should take the Goblet with the Coaster ring that matches their
        House and place it in front of them." With Raise Your Memory the Goblets are bound to
        the engine's places where they stand now.
        """
        state = self.state
        result = Result()
        if state.phase == Phase.DEAL_CHARACTERS:
            # "Shuffle the Character cards and deal 1 to each player": before the first Course.
            self._auto_chance(result)
        if state.phase != Phase.INITIAL_POUR:
            raise AmbiguousObservation(
                f"the Course has already started (phase {state.phase}): nothing to start"
            )
        self.started_course = state.course
        self._first = {}
        self._extra = []
        self.expected.clear()
        self._check_setup(result)
        return result.extend(self._drain())

    def apply_chance(self, action: Action) -> Result:
        """Apply a chance event the sensors cannot see (deals; a corrected initial pour)."""
        result = Result()
        if not isinstance(action, Mapping):
            raise MalformedInput(f"must be an object, got {action!r}", field="action")
        self._apply(dict(action), result, raise_errors=True)
        if action.get("type") == "initial_pour":
            self._first = {}
            self._after_initial_pour(result)
        return result.extend(self._drain())

    # ------------------------------------------------------------------ machinery

    def _submit(self, item: dict[str, Any]) -> Result:
        self._queue.append(item)
        return self._drain()

    def _blocked(self) -> str | None:
        state = self.state
        if self.conflict is not None:
            return "conflict"
        if state.phase == Phase.INITIAL_POUR:
            if self.started_course != state.course:
                return "course_not_started"
            if self._misplaced:
                return "goblets_misplaced"
            return None
        if state.to_move() is CHANCE:
            return "chance"
        return None

    def _drain(self) -> Result:
        result = Result()
        self._auto_chance(result)
        while self._queue and self._blocked() is None:
            item = self._queue.pop(0)
            self._process(item, result)
            self._auto_chance(result)
        return result

    def _auto_chance(self, result: Result) -> None:
        state = self.state
        while (
            self.rng is not None
            and state.to_move() is CHANCE
            and state.phase not in (Phase.INITIAL_POUR, Phase.SHOOTOUT)
        ):
            self._apply(state.sample_chance(self.rng), result)

    def _apply(self, action: Action, result: Result, raise_errors: bool = False) -> bool:
        """Apply ``action`` in recording mode; a refusal becomes a notice (or is raised)."""
        # A Winetaster pair's unspoken step, abilities nobody used: journaled before the act.
        for silent in [*pairs.implied(self.state, action), *declined(self.state, action)]:
            self._apply(silent, result)
        try:
            events = self.state.apply(action, Mode.RECORDING)
        except CupbearerError as error:
            if raise_errors:
                raise
            secret = any(key in action for key in SECRET_KEYS)
            detail = type(error).__name__ if secret else str(error)
            notice = {"notice": "not_recorded", "action": _public(action), "error": detail}
            result.notices.append(notice)
            return False
        result.applied.append(Applied(dict(action), events))
        return True

    def _process(self, item: dict[str, Any], result: Result) -> None:
        """Apply one queued sensed event or input: the turn flow, :class:`SensedTable`'s."""
        raise NotImplementedError

    # -- the reveal --------------------------------------------------------------------------

    def check_reveal(self) -> None:
        """Raise unless the Goblets may be revealed now (a Toast called, nothing pending)."""
        if self.conflict is not None:
            raise AmbiguousObservation("a conflict is open: the Host fixes the layout first")
        if self._queue:
            raise AmbiguousObservation("sensed events are waiting for a chance event")
        state = self.state
        if state.phase != Phase.PLAY or state.stage not in (Stage.TOAST, Stage.BEFORE_DRINKING):
            raise AmbiguousObservation("the Goblets were revealed without a Toast")

    def _revealed_contents(
        self,
        sensed: Mapping[str, Mapping[str, int]] | None,
        counts: list[Mapping[str, int]] | None,
        result: Result,
    ) -> list[dict[str, int]] | None:
        """The contents per place the reveal carries, or None for the engine's own: the
        ``counts`` made at the reveal where they differ from the journal, else the tracker's
        ``sensed`` contents where they differ ("sensed reality wins"); each Goblet whose sensed
        contents differ from the engine's is a Host notice."""
        state = self.state
        goblets = None
        if counts is not None:
            goblets = [{k: n for k, n in c.items() if n} for c in counts]
            if goblets == [state.contents_at(p) for p in range(self.places)]:
                goblets = None  # the count agrees with the journal: a plain reveal
        if sensed is not None:
            theirs = [
                {k: v for k, v in dict(sensed.get(self.names.name(index), {})).items() if v}
                for index in state.goblet_at
            ]
            for place, contents in enumerate(theirs):
                mine = state.contents_at(place)
                if mine != contents:
                    name = self.names.name(state.goblet_at[place])
                    result.notices.append(
                        {
                            "notice": "contents_mismatch",
                            "goblet": name,
                            "engine": mine,
                            "sensed": contents,
                        }
                    )
                    goblets = goblets if counts is not None else theirs
        return goblets

    # -- the initial pour and Course setup --------------------------------------------------

    def _check_setup(self, result: Result) -> None:
        """Before the initial pour the Goblets must stand where the engine sets them."""
        state = self.state
        if not self.names.rings and not any(state.goblets):
            self.names.bind_layout(state, self.layout)
        misplaced = self.layout != self.names.engine_layout(state)
        if misplaced and not self._misplaced:
            result.notices.append(
                {
                    "notice": "goblets_misplaced",
                    "message": "each Goblet goes to the place of its Coaster ring's House",
                    "expected": {
                        str(p): n for p, n in sorted(self.names.engine_layout(state).items())
                    },
                }
            )
        self._misplaced = misplaced

    def _initial(self, item: dict[str, Any], result: Result) -> None:
        name = item["goblet"]
        if name in self._first:
            self._extra.append(item)
            return
        self._first[name] = item["token"]
        if len(self._first) < self.places:
            return
        state = self.state
        layout = self.names.engine_layout(state)
        tokens = [self._first[layout[p]] for p in range(self.places)]
        action = {"type": "initial_pour", "tokens": tokens}
        if not self._apply(action, result):
            result.notices.append(
                {
                    "notice": "initial_pour_unusual",
                    "message": "the initial pour is 1 Antidote, 2 Poison and Wine for the rest: "
                    "the Host enters what was poured",
                }
            )
            return
        self._after_initial_pour(result)

    def _after_initial_pour(self, result: Result) -> None:
        if self._extra:
            result.notices.append({"notice": "poured_outside_turn", "pours": len(self._extra)})
            self._queue[:0] = [{**item, "outside": True} for item in self._extra]
            self._extra = []

    def _after_course(self, result: Result) -> None:
        """After the reveal: the next Course waits for the Host to start it."""
        state = self.state
        self._first = {}
        self._extra = []
        if state.phase == Phase.SHOOTOUT:
            result.notices.append(
                {"notice": "shootout", "message": "the tie-break is played by hand or virtually"}
            )

    # -- checks -------------------------------------------------------------------------------

    def _check_seat(self, seat: Any) -> int:
        players = self.state.opts.players
        message = f"must be a seat from 0 to {players - 1}, got {seat!r}"
        return whole(seat, "seat", message, low=0, high=players - 1)

    def _check_place(self, place: Any, name: str) -> int:
        return check_place(place, self.places, name)

    def _check_name(self, name: Any, field_name: str) -> str:
        if not isinstance(name, str) or name not in self.layout.values():
            raise MalformedInput(f"unknown Goblet {name!r}", field=field_name)
        return name


def _public(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` without what would tell a Goblet's contents (see :data:`SECRET_KEYS`)."""
    return {k: v for k, v in data.items() if k not in SECRET_KEYS}
