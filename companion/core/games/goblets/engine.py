"""The engine: the one loop that applies an action and runs the phase table, over the chapters.

The rules' chapters each change the model for one part of the rulebook -- :mod:`setup` the
Appetizers and every chance event, :mod:`turns` the order of the regular turns, :mod:`actions`
the players' actions, :mod:`abilities` the Character abilities, :mod:`toast` the Toast, the
scoring and the tie-break -- and none of them calls another. This module alone decides what comes
next: :data:`NEXT_PART` says, for the stage whose steps are all done, which chapter starts the
next part of the Course, and :func:`apply` takes an action through its chapter in both modes
(DESIGN.md principle 6): ENFORCING raises IllegalAction naming the rule; RECORDING applies what
the sensors saw and adds a ``rule_warning`` event. An action arrives here as its frozen value,
read at the door (:func:`door.parse`: every shape checked, before the phase), and the chapters
read its typed fields; :func:`legal` and :func:`sample_chance` give them back as JSON
(``wire()``). The state (:mod:`state`) works on a copy, so a refused action changes nothing.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from companion.core.errors import AmbiguousObservation, IllegalAction
from companion.core.game import CHANCE, Action, Event, Mode
from companion.core.games.goblets import abilities, actions, rules, setup, toast, turns
from companion.core.games.goblets.action_values import CHANCE as CHANCE_VALUES
from companion.core.games.goblets.action_values import (
    COUNTED,
    Ability,
    Decline,
    Defer,
    GobletsAction,
    Pass,
    Pour,
    Reveal,
    ShootoutChoose,
    ShootoutPour,
    Toast,
)
from companion.core.games.goblets.model import (
    CHANCE_PHASES,
    GobletsModel,
    Phase,
    Stage,
    Step,
    StepKind,
)


def _after_course(state: GobletsModel) -> list[Event]:
    """The Course is scored: the Legacy draws if any are due, else the next Course or the end."""
    opts = state.opts
    # Legacy: "draw a new one for the next Course" -- after the last Course there is none.
    next_course = state.course < opts.courses
    if opts.legacy and next_course and state.legacy_pending and setup.legacy_deck(state):
        state.phase = Phase.LEGACY_DRAW  # a chance action; setup hands the Course back after it
        return []
    state.legacy_pending = []
    assert state.toast_caller is not None
    state.host = state.toast_caller  # "The player who most recently called a toast" hosts
    if next_course:
        setup.start_course(state)
        return []
    return toast.end_game(state)


NEXT_PART: dict[Stage, Callable[[GobletsModel], list[Event] | None]] = {
    Stage.COURSE_START: turns.start_turns,
    Stage.TURNS: turns.next_turn,
    Stage.TOAST: toast.start_before_drinking,
    Stage.SCORED: _after_course,
}
"""The phase table: in play, once a stage has no step left, what starts the next part."""


def settle(state: GobletsModel) -> list[Event]:
    """Run the phase table until a step, a chance event or the end is due; its events."""
    events: list[Event] = []
    while state.phase == Phase.PLAY and not state.steps and state.stage in NEXT_PART:
        events.extend(NEXT_PART[state.stage](state) or [])
    return events


def end_step(state: GobletsModel) -> list[Event]:
    """The current step is done: go on to the next one (or the next part of the Course)."""
    state.last_actor = state.steps[0].seat
    state.steps.pop(0)
    state.taken = 0
    state.used_step = []
    return settle(state)


def legal(state: GobletsModel) -> list[Action]:
    """Every legal action of the seat to move (empty at chance nodes and at the end)."""
    if state.phase == Phase.SHOOTOUT:
        return state.shootout.legal_actions()
    if state.phase != Phase.PLAY:
        return []
    step = state.steps[0]
    uses = abilities.legal(state, step) if step.kind in USES_CARDS else []
    return actions.legal(state, step, uses)


USES_CARDS = (StepKind.TURN, StepKind.FINAL, StepKind.ABILITY)
"""The steps in which a Character card may be used (its timing decides which)."""

PASSES = (Pass, Decline, Defer)
"""The actions that do nothing but end a step: out of turn they break no rule."""


def sample_chance(state: GobletsModel, rng: random.Random) -> Action:
    """Draw the chance outcome due now with ``rng``."""
    if state.phase == Phase.SHOOTOUT and state.shootout.to_move() is CHANCE:
        return state.shootout.sample_chance(rng)
    if state.phase not in CHANCE_PHASES:
        raise IllegalAction("no chance event is due now", rule=rules.CHANCE)
    return setup.sample_chance(state, rng)


def apply(state: GobletsModel, action: GobletsAction, mode: Mode) -> list[Event]:
    """Apply ``action`` (read at the door) to ``state`` (a copy: on an error the caller drops
    it) in ``mode``."""
    if isinstance(action, CHANCE_VALUES):
        return setup.apply_chance(state, action, mode) + settle(state)
    if isinstance(action, ShootoutPour | ShootoutChoose):  # read only in the shoot-out
        return toast.shootout_apply(state, action, mode)
    kind, seat = action.TYPE, action.seat  # a player's action: every one has its seat
    if state.phase != Phase.PLAY:
        raise IllegalAction(f"{kind} is not possible now (phase {state.phase})", rule=rules.CHANCE)
    if mode is Mode.ENFORCING:
        step = state.steps[0]
        if seat != step.seat:
            rule = (
                rules.TOAST_PHASE
                if state.stage == Stage.TOAST
                else actions.STEP_RULE.get(step.kind, rules.TURNS)
            )
            raise IllegalAction(f"{state.seat_name(step.seat)} is to act", rule=rule)
        problem = violation(state, action, step)
        if problem:
            raise IllegalAction(problem[0], rule=problem[1])
        return perform(state, action, seat, counted=True)
    return _record(state, action, seat)


def violation(state: GobletsModel, action: GobletsAction, step: Step) -> tuple[str, str] | None:
    """The rule ``action`` breaks in ``step`` (message, rulebook sentence), or None."""
    problem = actions.violation(state, action, step)
    if problem is None and isinstance(action, Ability):
        return abilities.violation(state, action, step)
    return problem


def warning(state: GobletsModel, seat: int | None, message: str, rule: str) -> Event:
    """A visible rule warning (recording mode), kept in the state for the views."""
    event = {"event": "rule_warning", "seat": seat, "message": message, "rule": rule}
    state.warnings.append(event)
    return event


def _sync(state: GobletsModel, seat: int, action: GobletsAction) -> bool:
    """Recording: bring ``seat``'s step to the front if it is still to come (others passed).

    A turn action while Course-start abilities are pending means they were all declined.
    """
    if state.steps[0].seat == seat:
        return True
    if state.stage == Stage.COURSE_START and not isinstance(action, Ability | Decline):
        while state.stage == Stage.COURSE_START:
            end_step(state)
        state.last_actor = None
        if state.steps[0].seat == seat:
            return True
    if state.stage == Stage.TURNS:
        if seat == state.last_actor:
            return False  # a third action: "up to two actions"
        for _ in range(3 * len(state.places) + 1):
            end_step(state)
            if state.steps[0].seat == seat:
                return True
        return False
    if seat not in [s.seat for s in state.steps]:
        return False
    while state.steps[0].seat != seat:
        end_step(state)
    return True


def _record(state: GobletsModel, action: GobletsAction, seat: int | None) -> list[Event]:
    """Recording mode: what happened on the table happened; broken rules become warnings."""
    events: list[Event] = []
    if isinstance(action, Reveal):
        if state.stage not in (Stage.TOAST, Stage.BEFORE_DRINKING):
            raise AmbiguousObservation("the Goblets were revealed without a Toast")
        # Lifting the Goblets means every final action and ability still due was passed.
        while state.steps[0].kind != StepKind.REVEAL:
            end_step(state)
        return perform(state, action, seat, counted=True)
    if seat is None:
        assert isinstance(action, Pour)
        return _record_unknown_pour(state, action)
    if not _sync(state, seat, action):
        if isinstance(action, PASSES):
            return events  # doing nothing out of turn breaks no rule
        rule = rules.TOAST_PHASE if state.stage == Stage.TOAST else rules.TURNS
        events.append(warning(state, seat, f"{state.seat_name(seat)} acted out of turn", rule))
        return events + perform(state, action, seat, counted=False)
    step = state.steps[0]
    problem = violation(state, action, step)
    if problem:
        events.append(warning(state, seat, *problem))
    counted = isinstance(action, actions.ALLOWED[step.kind])
    return events + perform(state, action, seat, counted=counted)


def _record_unknown_pour(state: GobletsModel, action: Pour) -> list[Event]:
    """A pour nobody saw the pourer of: from the mover's screen if it can be, else warned."""
    step = state.steps[0]
    mover = step.kind in (StepKind.TURN, StepKind.FINAL)
    if mover and state.screens[step.place].get(action.token, 0):
        seen = dataclasses.replace(action, seat=step.seat)
        return perform(state, seen, step.seat, counted=True)
    events = [warning(state, None, "a token was poured out of turn", rules.TURNS)]
    return events + perform(state, action, None, counted=False)


def perform(
    state: GobletsModel, action: GobletsAction, seat: int | None, counted: bool
) -> list[Event]:
    """Do what ``action`` does to the table; ``counted`` also advances the turn bookkeeping."""
    if isinstance(action, COUNTED):
        events = actions.do(state, action, seat)
        if counted:
            state.taken += 1
            if state.taken >= state.steps[0].limit:
                events.extend(end_step(state))
        return events
    if isinstance(action, Toast):
        if state.stage != Stage.TURNS:
            return []  # recorded in the Toast Phase: the Toast is already called
        assert seat is not None
        return toast.call_toast(state, seat)
    if isinstance(action, Ability):
        events = abilities.perform(state, action, seat)
        if counted and state.steps[0].kind == StepKind.ABILITY:
            events.extend(end_step(state))
        return events
    if isinstance(action, Reveal):
        if state.steps and state.steps[0].kind != StepKind.REVEAL:
            state.steps = [s for s in state.steps if s.kind == StepKind.REVEAL]
        events = []
        if action.goblets is not None:
            events.extend(toast.correct_contents(state, list(action.goblets)))
        return events + toast.do_reveal(state) + settle(state)
    # pass, decline, defer: the step is done (out of turn they do nothing)
    if not counted:
        return []
    return [{"event": action.TYPE, "seat": seat}, *end_step(state)]
