"""The Goblets model's steps and the queries the sensed actors ask (issue 16).

A step is a frozen :class:`~companion.core.games.goblets.model.Step`: a clone shares it, nobody
changes it, and a view shows it as it always has. The sensed side
(``core/games/goblets/sensed/actors.py``) reads the turn only through the model's named queries;
these pin down what each answers in a Winetaster pair's turn ("the Winetaster always plays before
the Noble, unless the Noble TOASTS"), at the extra player's "up to two actions", and outside play.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from companion.core.game import PUBLIC
from companion.core.games.goblets.model import Step, StepKind
from companion.core.games.goblets.sensed import actors
from tests.goblets.engine_helpers import act, new, start


def test_a_pairs_turn_read_through_the_queries() -> None:
    """7 players: places (0, 1), (2, 3), (4, 5) and the extra player 6; the Host 0 sits at place
    0, so "the player to the Host's left" is the pair at place 1, the Noble 3 asked first."""
    state = start(7)
    assert state.first_turn_place() == 1
    assert state.hands_at(1) == 2 and state.hands_at(3) == 6  # a pair's Winetaster, the extra
    assert state.current_step() == Step(3, StepKind.TOAST_OPTION, 1)
    assert state.next_step() == Step(2, StepKind.TURN, 1, no_toast=True)
    assert state.deciding_seat() == state.to_move() == 3
    assert actors.turn_seat(state) == 2  # the Winetaster's act on the table is the pair's first
    act(state, "defer")
    assert (state.acted_last(), state.deciding_seat(), state.actions_taken()) == (3, 2, 0)
    act(state, "rotate", direction="clockwise")  # "1 action each turn": the Noble's step next
    assert state.current_step() == Step(3, StepKind.TURN, 1, no_toast=True, no_peek=True)
    assert (state.acted_last(), state.actions_taken()) == (2, 0)
    assert actors.is_spent(state, 2) and not actors.is_spent(state, 3)
    while state.deciding_seat() != 6:
        act(state, "defer" if state.current_step().kind == StepKind.TOAST_OPTION else "pass")
    act(state, "rotate", direction="clockwise")
    assert (state.deciding_seat(), state.actions_taken()) == (6, 1)  # "up to two actions"
    assert state.pending_steps() == (Step(6, StepKind.TURN, 3, 2),)
    assert actors.is_own_step(state, 6) and not actors.is_spent(state, 6)


def test_no_step_is_due_outside_play() -> None:
    """A chance phase has no steps: every query says so instead of raising."""
    state = new(players=4, characters=[])
    assert state.phase == "initial_pour"
    assert state.current_step() is None and state.next_step() is None
    assert state.pending_steps() == () and state.deciding_seat() is None
    assert actors.turn_seat(state) is None and not actors.is_own_step(state, 0)


def test_a_step_is_frozen_and_shared_by_a_clone() -> None:
    """A changed step is a new one (``dataclasses.replace``); a clone copies the list only."""
    state = start(4)
    current = state.current_step()
    assert current is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        current.limit = 3  # type: ignore[misc]
    assert dataclasses.replace(current, limit=3).limit == 3 and current.limit == 2
    clone = state.clone()
    assert clone.steps is not state.steps and clone.steps[0] is current


def test_a_view_shows_the_step_as_it_always_has() -> None:
    """The wire format: kind, seat, place, limit and the actions taken; no flag of the engine's."""
    state = start(7)
    view = json.loads(json.dumps(state.view(PUBLIC)))
    assert view["step"] == {"kind": "toast_option", "seat": 3, "place": 1, "limit": 1, "taken": 0}
    act(state, "defer")
    assert json.loads(json.dumps(state.view(PUBLIC)))["step"] == {
        "kind": "turn",
        "seat": 2,
        "place": 1,
        "limit": 1,
        "taken": 0,
    }
