"""Main Course: the order of the regular turns, a rules chapter on the model.

"Starting with the player to the Host's left, each player in turn may perform up to two actions".
With Winetasters "Each player of a pair only gets to perform 1 action each turn", and "At the
beginning of each turn, check if there are any Wine tokens behind your screen. If not, the Noble
may decide to play before their Winetaster to TOAST." When a turn's steps are done the engine's
phase table starts the next one (:mod:`engine`).
"""

from __future__ import annotations

from companion.core.games.goblets.model import GobletsModel, Stage, Step, StepKind
from companion.core.games.goblets.tokens import Token


def start_turns(state: GobletsModel) -> None:
    """ "Starting with the player to the Host's left, each player in turn" acts."""
    state.stage = Stage.TURNS
    start_turn(state, (state.place_index(state.host) + 1) % len(state.places))


def next_turn(state: GobletsModel) -> None:
    """The turn of the next place clockwise."""
    assert state.turn_place is not None
    start_turn(state, (state.turn_place + 1) % len(state.places))


def start_turn(state: GobletsModel, index: int) -> None:
    """The regular turn of place ``index``: its steps, and whether it may Toast."""
    place = state.places[index]
    state.turn_place = index
    state.turn_number += 1
    state.no_wine_at_start = state.screens[index].get(Token.WINE.value, 0) == 0
    if place.winetaster is None:
        seat = place.seats[0]
        state.steps = [Step(seat, StepKind.TURN, index, 2 + state.bonus(seat, "extra_action"))]
        return
    taster, noble = place.winetaster, place.noble
    # The Noble is always asked first, so the table cannot tell whether the pair has Wine left.
    steps = [Step(noble, StepKind.TOAST_OPTION, index)]
    steps.append(Step(taster, StepKind.TURN, index, 1, no_toast=True))
    extra = state.bonus(noble, "extra_action")
    steps.append(Step(noble, StepKind.TURN, index, 1 + extra, no_toast=True, no_peek=True))
    state.steps = steps
