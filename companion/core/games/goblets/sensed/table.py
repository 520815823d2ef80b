"""The sensed table: tracker events and the few inputs sensors cannot see, into engine actions.

:class:`SensedTable` holds a Raise Your Goblets state (4-12 players) and applies, in
:attr:`Mode.RECORDING`, the actions that the tracker's events and the players' and Host's inputs
mean. Every method returns a :class:`Result`: the actions applied, in order, each with the engine
events it produced (journal the actions as they are, with ``Mode.RECORDING``, and the journal
replays the game), and the notices for the Host (conflicts, unknown tags, reader nodes, what could
not be recorded). The readings of the rulebook it relies on are in ``docs/rules-notes.md``
("Sensed play").

Inputs the sensors cannot see: :meth:`SensedTable.start_course` (the Host: the Goblets are in
place, the initial pour may begin), :meth:`SensedTable.end_turn` (a player passes or ends a turn
early), :meth:`SensedTable.toast` (a player Calls the Toast), :meth:`SensedTable.reveal` (the
Goblets are revealed), :meth:`SensedTable.apply_chance` (a chance event the sensors cannot see:
the Character and Target deals, or the Host's correction of an initial pour).

While the tracker reports a ``conflict`` nothing advances: the sensed events and inputs that
would advance the game wait, in order, until a complete layout is read again (the Host's fix, or
the table put right), and the difference is then recorded as the move it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.checks import is_number
from companion.core.errors import MalformedInput
from companion.core.game import Action, Mode
from companion.core.games.goblets import door
from companion.core.games.goblets.model import Phase, Stage, StepKind
from companion.core.games.goblets.sensed import actors
from companion.core.games.goblets.sensed.abilities import ability_action
from companion.core.games.goblets.sensed.course import CourseTable
from companion.core.games.goblets.sensed.intake import EventIntake
from companion.core.games.goblets.sensed.places import (
    Layout,
    follow,
    layout_change,
)
from companion.core.games.goblets.sensed.result import Result
from companion.core.games.goblets.tokens import check_contents, is_kind

MOVES = frozenset({"rotate", "swap", "move", "layout"})
"""Tracker events that change (or restate) which Goblet stands at which place."""
LATE_REPORT = 2.0
"""Seconds after a player's "end turn" during which a Peek (lift) or Swap of that player's own
Goblet is still theirs: the tracker reports a Goblet put back only once it has settled, often
after the player pressed the button."""


class SensedTable(EventIntake, CourseTable):
    """A Raise Your Goblets game driven by sensed events (see the module docstring).

    ``state``: a 4-12 player state (mutated in place by the actions applied). ``layout``: place
    -> Goblet name as the tracker reads it now (default: each Goblet at its House's place, as at
    Course setup; required with Raise Your Memory unless the Goblets carry the Houses' names).
    ``ring_houses``: tracker Goblet name -> House (default: rings are named by their Houses).
    ``rng``: when given, chance events the sensors cannot see (Character and Target deals) are
    drawn with it as soon as they are due; otherwise sensed events wait for
    :meth:`apply_chance`. ``pours_seen``: False where no pour is sensed (the overhead camera):
    the engine's screens then never lose a token, so a Toast is recorded with ``"pours":
    "unseen"`` (see :meth:`toast`).
    """

    # ------------------------------------------------------------------ inputs

    def _on_table_event(self, kind: str, event: Mapping[str, Any]) -> Result:
        """A lift (a Peek), a pour or a move at a Raise Your Goblets table."""
        if kind == "lift":
            self._check_name(event.get("goblet"), "goblet")
            self._check_place(event.get("seat"), "seat")
        elif kind == "pour":
            self._check_name(event.get("goblet"), "goblet")
            if not is_kind(event.get("token")):
                raise MalformedInput(f"unknown token {event.get('token')!r}", field="token")
        elif kind in MOVES:
            return self._on_layout(event)
        else:
            return self._unknown(event)
        return self._submit(dict(event))

    def end_turn(self, seat: int, t: float | None = None) -> Result:
        """``seat`` passes or ends its turn (Pass: "You can pass without performing an action").

        ``t``: when (the observations' clock; default the latest time seen). A pass on the
        player's own step is applied :data:`LATE_REPORT` seconds later (:meth:`tick`) or before
        the next sensed act of someone else, whichever comes first, so that the player's own
        Peek or Swap reported after the button was pressed is still theirs.
        """
        when = self.now if t is None else t
        return self._submit({"event": "input.pass", "seat": self._check_seat(seat), "t": when})

    def ability(self, seat: int, data: Mapping[str, Any]) -> Result:
        """``seat`` taps a Character ability on their phone (``data``: the card and its
        parameters, see :mod:`companion.core.games.goblets.sensed.abilities`); its physical effect,
        read afterwards, is the ability's. A tap the engine cannot parse raises MalformedInput."""
        action = ability_action(self._check_seat(seat), data)
        door.parse(self.state, action, Mode.RECORDING)  # the card and its parameters
        return self._submit({"event": "input.ability", "seat": seat, "action": action})

    def tick(self, t: float) -> Result:
        """The observations' clock reached ``t``: apply a pass whose wait is over."""
        if not is_number(t):
            raise MalformedInput(f"must be a number of seconds, got {t!r}", field="t")
        self.now = t if self.now is None else max(self.now, t)
        result = Result()
        pending = self._pending_pass
        is_due = pending is not None and (pending[1] is None or t - pending[1] > LATE_REPORT)
        if is_due and self._blocked() is None:
            self._flush_pass(result)
            result.extend(self._drain())
        return result

    def toast(self, seat: int) -> Result:
        """``seat`` Calls the Toast ("The Course ends immediately").

        Where no pour is sensed (``pours_seen`` False) the engine still has every Wine token the
        caller was dealt behind their screen: whether they had "no Wine tokens left" is theirs
        to know, so the Toast says so (``"pours": "unseen"``) and the engine raises no warning
        on that count (``docs/goblets.md``). The other conditions it can see still apply.
        """
        return self._submit({"event": "input.toast", "seat": self._check_seat(seat)})

    def reveal(
        self,
        sensed: Mapping[str, Mapping[str, int]] | None = None,
        *,
        counts: list[Mapping[str, int]] | None = None,
    ) -> Result:
        """The Goblets are revealed: final actions still due were passed; the Toast is scored.

        ``sensed``: the tracker's contents per Goblet name. They equal the engine's (the fold of
        the sensed pours) unless the tracker corrected a pour or a pour could not be recorded:
        then each difference is reported to the Host and the reveal carries the tracker's
        contents, which win ("sensed reality wins"). ``counts``: contents per place counted at
        the reveal (the overhead camera), which win over both.
        """
        self.check_reveal()
        state = self.state
        if counts is not None:
            # Checked before anything is applied: a refused reveal must leave nothing half done.
            if not isinstance(counts, list) or len(counts) != self.places:
                raise MalformedInput(f"must be {self.places} goblet contents", field="counts")
            for index, contents in enumerate(counts):
                check_contents(contents, f"counts[{index}]")
        result = Result()
        self._flush_pass(result)
        goblets = self._revealed_contents(sensed, counts, result)
        for _ in range(4 * self.places + 2):
            current = state.current_step()
            if current is None or current.kind == StepKind.REVEAL:
                break
            kind = "decline" if current.kind == StepKind.ABILITY else "pass"
            self._apply({"type": kind, "seat": current.seat}, result)
        action: Action = {"type": "reveal", "seat": state.toast_caller}
        if goblets is None or not self._apply({**action, "goblets": goblets}, result):
            # Sensed contents the engine cannot take (tokens that are nowhere left): the
            # engine's own contents are revealed, and the Host has the notices.
            self._apply(action, result, raise_errors=True)
        self._after_course(result)
        return result

    # ------------------------------------------------------------------ reading

    def status(self) -> dict[str, Any]:
        """For the Host: why the table waits (if it does), the layout, who is expected to act."""
        state = self.state
        return {
            "waiting": self._blocked(),
            "conflict": self.conflict,
            "queued": len(self._queue),
            "layout": {str(p): n for p, n in sorted(self.layout.items())},
            "engine_layout": (
                {str(p): n for p, n in sorted(self.names.engine_layout(state).items())}
                if self.names.is_bound
                else None
            ),
            "turn_seat": self.turn_seat(),
            "pending_pass": None if self._pending_pass is None else self._pending_pass[0],
        }

    def turn_seat(self) -> int | None:
        """The seat whose turn it is: who pours and rotates now (None outside any turn)."""
        state = self.state
        if self._pending_pass is not None:
            state = state.clone()
            state.apply({"type": "pass", "seat": self._pending_pass[0]}, Mode.RECORDING)
        return actors.turn_seat(state)

    # ------------------------------------------------------------------ the turn flow

    def _process(self, item: dict[str, Any], result: Result) -> None:
        kind = item["event"]
        passer = None
        if self._pending_pass is not None:
            if self._is_late_own(item):
                passer = self._pending_pass[0]  # still the passing player's step
            else:
                self._flush_pass(result)
        if kind == "pour":
            self._pour(item, result)
        elif kind == "lift":
            self._lift(item, result)
        elif kind == "layout_change":
            self._move_to(item["layout"], item["source"], result, passer)
        elif kind == "input.pass":
            if actors.is_own_step(self.state, item["seat"]):
                self._pending_pass = (item["seat"], item.get("t"))
            else:
                self._pass(item["seat"], result)
        elif kind == "input.ability":
            self._ability(item["action"], result)
        elif kind == "input.toast":
            action: Action = {"type": "toast", "seat": item["seat"]}
            if not self.pours_seen:
                action["pours"] = "unseen"
            self._apply(action, result)

    def _ability(self, action: Action, result: Result) -> None:
        """Record a tapped ability and expect its physical effect
        (``core/games/goblets/sensed/abilities.py``)."""
        if not self._apply(action, result):
            return
        state = self.state
        card = next(c for c in state.opts.characters if c.name == action["card"])
        self.expected.after(action, card.effect)
        if action.get("coasters") and self.names.rings and self.on_rings is not None:
            p, q = action["places"]
            self.on_rings(self.names.name(state.goblet_at[p]), self.names.name(state.goblet_at[q]))

    # -- moves -------------------------------------------------------------------------------

    def _on_layout(self, event: Mapping[str, Any]) -> Result:
        """Follow the tracker's layout; a change during play is a move to record."""
        kind = event["event"]
        result = Result()
        layout = follow(self.layout, event, self.places, self._moves)
        if layout is None:
            return result
        self.layout = layout
        item = {
            "event": "layout_change",
            "layout": dict(layout),
            "source": kind,
            "t": event.get("t"),
        }
        if self.conflict is not None:
            result.notices.append({"notice": "conflict_resolved", "conflict": self.conflict})
            self.conflict = None
            if self.state.phase != Phase.INITIAL_POUR:
                # The move was made while the table could not be read: before anything that
                # waited for the fix.
                self._queue.insert(0, item)
                return result.extend(self._drain())
        if self.state.phase == Phase.INITIAL_POUR:
            # Setting the Goblets out is not an action; once the Host started the Course they
            # must stand where the engine sets them.
            if self.started_course == self.state.course:
                self._check_setup(result)
            return result.extend(self._drain())
        return result.extend(self._submit(item))

    def _move_to(
        self, target: Layout, source: str, result: Result, seat: int | None = None
    ) -> None:
        """Record the move that turns the engine's layout into ``target``: by ``seat`` (a
        passing player's own Swap reported late), else by whoever's turn it is."""
        state = self.state
        if state.phase != Phase.PLAY:
            if target != self.names.engine_layout(state):
                result.notices.append(
                    {
                        "notice": "moved_outside_play",
                        "layout": {str(p): n for p, n in target.items()},
                    }
                )
            return
        change = layout_change(self.names.engine_layout(state), target)
        if not change:
            return
        if source in ("move", "layout") and not (len(change) == 1 and "rotate" in change[0]):
            result.notices.append({"notice": "move", "source": source, "change": change})
        if seat is None:
            seat = self.turn_seat()  # the pending pass applied: the next player's move
        for part in change:
            if "rotate" in part:
                actor = seat if seat is not None else actors.anyone(state)
                self._apply({"type": "rotate", "seat": actor, "direction": part["rotate"]}, result)
            else:
                a, b = part["swap"]
                self._apply(actors.swap_action(state, a, b, seat, single=len(change) == 1), result)
        if self.names.engine_layout(state) != target:
            result.notices.append({"notice": "desync", "layout": dict(target)})

    # -- pours, peeks, passes -----------------------------------------------------------------

    def _pour(self, item: dict[str, Any], result: Result) -> None:
        state = self.state
        name, token = item["goblet"], item["token"]
        if state.phase == Phase.INITIAL_POUR:
            self._initial(item, result)
            return
        place = self.names.place_of(state, name)
        if state.phase != Phase.PLAY or place is None:
            result.notices.append({"notice": "pour_not_recorded", "goblet": name})
            return
        seat = None if item.get("outside") else self.turn_seat()
        self._apply({"type": "pour", "seat": seat, "place": place, "token": token}, result)

    def _lift(self, item: dict[str, Any], result: Result) -> None:
        """A Goblet lifted and put back at its place: "Look into Your Goblet" (a Peek)."""
        state = self.state
        place = item["seat"]
        if state.phase == Phase.INITIAL_POUR or state.is_over():
            return  # between Courses the Goblets are handled to set them out (Appetizers)
        if state.phase != Phase.PLAY or state.stage not in (
            Stage.TURNS,
            Stage.TOAST,
            Stage.COURSE_START,
        ):
            result.notices.append({"notice": "lift", "goblet": item["goblet"], "seat": place})
            return
        if self.expected.take_lift(place):
            return  # an ability's look into that Goblet, already recorded from the phone
        actor = actors.peeker(state, place)
        self._apply({"type": "peek", "seat": actor}, result)

    def _is_late_own(self, item: dict[str, Any]) -> bool:
        """A lift or Swap of the passing player's own Goblet, reported soon after the pass."""
        assert self._pending_pass is not None
        seat, at = self._pending_pass
        t = item.get("t")
        if at is not None and isinstance(t, int | float) and t - at > LATE_REPORT:
            return False
        own = self.state.place_index(seat)
        if item["event"] == "lift":
            return item["seat"] == own
        if item["event"] == "layout_change":
            change = layout_change(self.names.engine_layout(self.state), item["layout"])
            return len(change) == 1 and own in change[0].get("swap", ())
        return False

    def _flush_pass(self, result: Result) -> None:
        if self._pending_pass is not None:
            seat = self._pending_pass[0]
            self._pending_pass = None
            self._pass(seat, result)

    def _pass(self, seat: int, result: Result) -> None:
        """Pass; a pass by the seat whose turn just ended on its limit changes nothing."""
        if not actors.is_spent(self.state, seat):
            self._apply({"type": "pass", "seat": seat}, result)
