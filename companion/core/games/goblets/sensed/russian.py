"""Sensed Russian Goblette: six reader spots in a row, tracker events into Russian actions (pure).

Rulebook, Russian Goblette: "Place all 6 Goblets in a row, in the middle of the table [...]
Players take turns performing 1 single action. All actions work like in a normal game, except
for ROTATE (you can't Rotate in a 2-3 player game) and SWAP (when you Swap, you can swap the
position of any two Goblets: no player has "Their Goblet")."

The table has one reader spot under each of the six places of the row; a tracker seat is a
position of the row (0-5, as the engine numbers its Goblets). No player sits at a spot, so no
sensed event can be told apart by whose Goblet it touched, as the 4-6 player table does
(:mod:`companion.core.games.goblets.sensed.actors`). Every sensed act is the act of the player whose
turn it is, and "1 single action" means the turn passes with it:

- a token read into the Goblet at a spot: ``{"type": "pour", "seat": to act, "place": spot,
  "token": kind}``; during the initial pour, the first token into each Goblet is the Course's
  ``initial_pour`` (the Host's hands);
- a Goblet lifted and put back on its spot: ``{"type": "peek", "seat": to act, "place":
  spot}`` ("Look into", any Goblet of the row: option ``peek`` "any");
- two Goblets that changed places: ``{"type": "swap", "seat": to act, "places": [p, q]}``
  (any change is recorded as the Swaps that make it; a Rotate read is recorded as one, and the
  engine warns: "you can't Rotate");
- the phone's taps: Pass and Toast; after the Toast each final action likewise.

The drinks are not read by this table but by its session
(:mod:`companion.core.games.goblets.sensed.russian_session`):
the drinker pours the chosen Goblet out on its spot and :meth:`GobletteTable.drink` records it.

Which tracker Goblet stands at which position is bound when the Host starts a Course (the
Goblets are interchangeable: "no player has Their Goblet"), then follows the Swaps recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.checks import is_number, whole
from companion.core.errors import AmbiguousObservation, CupbearerError, MalformedInput
from companion.core.game import Action, Mode
from companion.core.games.goblets.russian import GOBLETS, RussianState
from companion.core.games.goblets.russian_model import Phase
from companion.core.games.goblets.sensed.course import _public
from companion.core.games.goblets.sensed.intake import EventIntake
from companion.core.games.goblets.sensed.places import (
    Layout,
    check_place,
    follow,
    is_complete,
    layout_change,
    parse_layout,
)
from companion.core.games.goblets.sensed.result import Applied, Result
from companion.core.games.goblets.sensed.table import MOVES
from companion.core.games.goblets.tokens import is_kind

RULE_DRINK_SPOT = (
    'After the Toast, the player to the left of the Toast Caller "drinks" any one of the Goblets '
    "and reveals its contents [...] The next player then chooses a Goblet"
)
ACTING = frozenset({Phase.TURNS, Phase.TOAST})
"""The engine's phases in which a sensed act is a player's action."""


class GobletteTable(EventIntake):
    """A Russian Goblette game driven by sensed events (see the module docstring).

    ``state``: a Russian Goblette state (mutated by the actions applied); ``layout``: spot ->
    the tracker's Goblet name standing there now (default: ``goblet1``..``goblet6``).
    """

    def __init__(self, state: RussianState, *, layout: Mapping[int, str] | None = None) -> None:
        if not isinstance(state, RussianState):
            raise MalformedInput("needs a Russian Goblette game", field="state")
        self.state = state
        self.places = GOBLETS
        if layout is None:
            layout = {p: f"goblet{p + 1}" for p in range(GOBLETS)}
        self.layout: Layout = parse_layout({str(k): v for k, v in layout.items()}, GOBLETS)
        if not is_complete(self.layout, GOBLETS):
            raise MalformedInput("must name one Goblet at each of the six spots", field="layout")
        self.bound: Layout = dict(self.layout)
        """Position -> the Goblet the engine has there (bound at the Course's start)."""
        self.started_course = 0 if state.phase == Phase.INITIAL_POUR else state.course
        self.conflict: dict[str, Any] | None = None
        self.now: float | None = None
        self._moves: list[dict[str, Any]] = []
        self._queue: list[dict[str, Any]] = []
        self._first: dict[str, str] = {}
        self._extra: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ inputs

    def _on_table_event(self, kind: str, event: Mapping[str, Any]) -> Result:
        """A lift, a pour or a move at the row of six spots."""
        if kind in MOVES:
            return self._on_layout(event)
        if kind == "lift":
            self._check_name(event.get("goblet"))
            check_place(event.get("seat"), GOBLETS, "seat")
        elif kind == "pour":
            self._check_name(event.get("goblet"))
            if not is_kind(event.get("token")):
                raise MalformedInput(f"unknown token {event.get('token')!r}", field="token")
        else:
            return self._unknown(event)
        return self._submit(dict(event))

    def start_course(self) -> Result:
        """The Host: the six Goblets stand in the row, the initial pour may begin; the Goblet at
        each spot is the engine's Goblet at that position ("Place all 6 Goblets in a row")."""
        state = self.state
        if state.phase != Phase.INITIAL_POUR:
            raise AmbiguousObservation(
                f"the Course has already started (phase {state.phase}): nothing to start"
            )
        self.started_course = state.course
        self.bound = dict(self.layout)
        self._first, self._extra = {}, []
        return self._drain()

    def end_turn(self, seat: int, t: float | None = None) -> Result:
        """``seat`` passes ("You can pass without performing an action"): its 1 single action."""
        return self._submit({"event": "input.pass", "seat": self._check_seat(seat)})

    def toast(self, seat: int) -> Result:
        """``seat`` Calls the Toast."""
        return self._submit({"event": "input.toast", "seat": self._check_seat(seat)})

    def tick(self, t: float) -> Result:
        """The observations' clock reached ``t`` (nothing waits on time here)."""
        if not is_number(t):
            raise MalformedInput(f"must be a number of seconds, got {t!r}", field="t")
        self.now = t if self.now is None else max(self.now, t)
        return Result()

    def drink(self, spot: Any, counts: Mapping[str, int] | None = None) -> Result:
        """The Goblet at ``spot`` was drunk (poured out there) by the player whose drink it is.

        ``counts``: what was poured out; a count other than the journal's is told to the Host
        (the engine scores the drink from the pours it recorded). Refused, changing nothing,
        when no drink is due or ``spot`` is no spot of the row or was drunk already.
        """
        place = check_place(spot, GOBLETS, "spot")
        state = self.state
        if state.phase != Phase.DRINKING:
            raise AmbiguousObservation(
                f"no Goblet is drunk now (phase {state.phase}) (rule: {RULE_DRINK_SPOT})"
            )
        if place in state.drunk:
            raise AmbiguousObservation(f"the Goblet at spot {place} was drunk already")
        result = Result()
        mine = {k: n for k, n in state.goblets[place].items() if n}
        if counts is not None and {k: n for k, n in counts.items() if n} != mine:
            result.notices.append({"notice": "contents_mismatch", "goblet": self.bound[place]})
        self._apply({"type": "drink", "seat": state.current, "place": place}, result, True)
        return result

    def follow(self, state: RussianState) -> Result:
        """Go on from the journal's ``state`` after a hand entry, keeping what was sensed."""
        if not isinstance(state, RussianState):
            raise MalformedInput("follows a state of the same game", field="state")
        self.state = state
        return Result()

    # ------------------------------------------------------------------ reading

    def turn_seat(self) -> int | None:
        """The seat whose sensed act is next (None outside turns and final actions)."""
        return self.state.current if self.state.phase in ACTING else None

    def status(self) -> dict[str, Any]:
        """For the Host: why the table waits (if it does), the layout, who acts."""
        return {
            "waiting": self._blocked(),
            "conflict": self.conflict,
            "queued": len(self._queue),
            "layout": {str(p): n for p, n in sorted(self.layout.items())},
            "engine_layout": {str(p): n for p, n in sorted(self.bound.items())},
            "turn_seat": self.turn_seat(),
            "pending_pass": None,
        }

    # ------------------------------------------------------------------ machinery

    def _submit(self, item: dict[str, Any]) -> Result:
        self._queue.append(item)
        return self._drain()

    def _blocked(self) -> str | None:
        if self.conflict is not None:
            return "conflict"
        if self.state.phase == Phase.INITIAL_POUR and self.started_course != self.state.course:
            return "course_not_started"
        return None

    def _drain(self) -> Result:
        result = Result()
        while self._queue and self._blocked() is None:
            self._process(self._queue.pop(0), result)
        return result

    def _apply(self, action: Action, result: Result, raise_errors: bool = False) -> bool:
        """Apply ``action`` in recording mode; a refusal becomes a notice (or is raised)."""
        try:
            events = self.state.apply(action, Mode.RECORDING)
        except CupbearerError as error:
            if raise_errors:
                raise
            # A pour's token and the initial pour's tokens are secret; a Swap's positions not.
            secret = action.get("type") in ("pour", "initial_pour")
            detail = type(error).__name__ if secret else str(error)
            result.notices.append(
                {"notice": "not_recorded", "action": _public(action), "error": detail}
            )
            return False
        result.applied.append(Applied(dict(action), events))
        return True

    def _process(self, item: dict[str, Any], result: Result) -> None:
        kind, state = item["event"], self.state
        if kind == "input.pass" or kind == "input.toast":
            self._apply({"type": kind[6:], "seat": item["seat"]}, result)
        elif kind == "pour" and state.phase == Phase.INITIAL_POUR:
            self._initial(item, result)
        elif kind == "pour":
            seat = self.turn_seat()
            name = item["goblet"]
            if seat is None or name not in self.bound.values():
                result.notices.append({"notice": "pour_not_recorded", "goblet": name})
                return
            place = next(p for p, n in self.bound.items() if n == name)
            action = {"type": "pour", "seat": seat, "place": place, "token": item["token"]}
            self._apply(action, result)
        elif kind == "lift":
            seat = self.turn_seat()
            if seat is None:
                if state.phase == Phase.DRINKING:
                    result.notices.append({"notice": "lift", "seat": item["seat"]})
                return  # between Courses the Goblets are handled to set them out
            place = next(p for p, n in self.bound.items() if n == item["goblet"])
            self._apply({"type": "peek", "seat": seat, "place": place}, result)
        elif kind == "layout_change":
            self._move_to(item["layout"], result)

    def _initial(self, item: dict[str, Any], result: Result) -> None:
        """The Host's initial pour: the first token into each of the six Goblets."""
        name = item["goblet"]
        if name in self._first or name not in self.bound.values():
            self._extra.append(item)
            return
        self._first[name] = item["token"]
        if len(self._first) < GOBLETS:
            return
        tokens = [self._first[self.bound[p]] for p in range(GOBLETS)]
        if not self._apply({"type": "initial_pour", "tokens": tokens}, result):
            result.notices.append({"notice": "initial_pour_unusual"})
            return
        if self._extra:
            # Poured before the six were: the first player's, recorded once play begins.
            result.notices.append({"notice": "poured_outside_turn", "pours": len(self._extra)})
            self._queue[:0] = self._extra
            self._extra = []

    def _on_layout(self, event: Mapping[str, Any]) -> Result:
        result = Result()
        layout = follow(self.layout, event, GOBLETS, self._moves)
        if layout is None:
            return result
        self.layout = layout
        if self.conflict is not None:
            result.notices.append({"notice": "conflict_resolved", "conflict": self.conflict})
            self.conflict = None
        if self.state.phase == Phase.INITIAL_POUR or self.state.is_over():
            return result.extend(self._drain())  # setting the row out is no action
        return result.extend(self._submit({"event": "layout_change", "layout": dict(layout)}))

    def _move_to(self, target: Layout, result: Result) -> None:
        """Record the Swaps that turn the engine's row into ``target``, by the seat to act."""
        change = layout_change(self.bound, target)
        seat = self.turn_seat()
        if not change:
            return
        if seat is None:
            result.notices.append({"notice": "moved_outside_play"})
            self.bound = dict(target)  # the drinks are read by spot: follow the row
            return
        for part in change:
            if "rotate" in part:
                action: Action = {"type": "rotate", "seat": seat, "direction": part["rotate"]}
                if self._apply(action, result):
                    shift = 1 if part["rotate"] == "clockwise" else -1
                    self.bound = {(p + shift) % GOBLETS: n for p, n in self.bound.items()}
            else:
                a, b = sorted(part["swap"])
                if self._apply({"type": "swap", "seat": seat, "places": [a, b]}, result):
                    self.bound[a], self.bound[b] = self.bound[b], self.bound[a]
            seat = self.turn_seat() if self.turn_seat() is not None else seat
        if self.bound != target:
            result.notices.append({"notice": "desync", "layout": dict(target)})

    def _check_seat(self, seat: Any) -> int:
        players = self.state.num_seats
        message = f"must be a seat from 0 to {players - 1}, got {seat!r}"
        return whole(seat, "seat", message, low=0, high=players - 1)

    def _check_name(self, name: Any) -> str:
        if not isinstance(name, str) or name not in self.layout.values():
            raise MalformedInput(f"unknown Goblet {name!r}", field="goblet")
        return name
