"""Who acted: the seat behind a sensed Pour, Rotate, Swap or Peek (readers see no hands).

Readings (docs/rules-notes.md, "Sensed play"): a Pour or a Rotate is the act of the seat whose
turn it is; a Peek is "Look into Your Goblet", so a lift names the seat sitting at that place; a
Swap is "Exchange Your Goblet for that of another player", so it names the seat whose Goblet is
one of the two. The engine (recording mode) then judges whether the act was in turn.
"""

from __future__ import annotations

from companion.core.game import Action
from companion.core.games.goblets.model import GobletsModel, Phase, Stage, StepKind

ACTING = (StepKind.TURN, StepKind.FINAL)
"""The steps whose seat pours and rotates: a regular turn and a final action."""
SILENT = (StepKind.TOAST_OPTION, StepKind.FREE_PEEK)
"""A pair's steps nobody sees taken or declined: the Noble's Toast, the Winetaster's free Peek."""
LOOKING = (StepKind.TURN, StepKind.FINAL, StepKind.FREE_PEEK)
"""The steps in which the step's seat may Peek."""


def turn_seat(state: GobletsModel) -> int | None:
    """The seat whose turn it is: who pours and rotates now (None outside any turn)."""
    if state.phase != Phase.PLAY:
        return None
    if state.stage == Stage.COURSE_START:
        # "Starting with the player to the Host's left": Course-start abilities are still being
        # asked, but an act on the table means the first turn has begun.
        return state.hands_at(state.first_turn_place())
    current, after = state.current_step(), state.next_step()
    if current is None:
        return None
    if current.kind in SILENT and after is not None:
        return after.seat  # the Noble did not Toast / the Winetaster did not Peek
    if current.kind in ACTING:
        return current.seat
    return None


def anyone(state: GobletsModel) -> int:
    """A seat for a move made outside any turn: the seat that acted last, else the Host."""
    last = state.acted_last()
    return last if last is not None else state.host


def peeker(state: GobletsModel, place: int) -> int:
    """The seat whose Peek a lift at ``place`` is (see the module docstring)."""
    current = state.current_step()
    if current is not None and current.place == place and current.kind in LOOKING:
        return current.seat
    # The seat sitting there looked into its own Goblet; the engine judges whether it was that
    # seat's turn. "The Noble cannot PEEK": a pair's peeker is the Winetaster.
    return state.hands_at(place)


def swap_action(state: GobletsModel, a: int, b: int, seat: int | None, *, single: bool) -> Action:
    """The Swap that exchanged the Goblets at places ``a`` and ``b``, by ``seat`` if it can be."""
    actor = seat if seat is not None else anyone(state)
    own = state.place_index(actor)
    last = state.acted_last()
    # Right after a turn ended on its limit, a Swap of that player's own Goblet is their third
    # action: "up to two actions" (the engine warns).
    if (
        single
        and own not in (a, b)
        and state.stage == Stage.TURNS
        and state.actions_taken() == 0
        and last is not None
        and state.place_index(last) in (a, b)
    ):
        actor, own = last, state.place_index(last)
    if own in (a, b):
        return {"type": "swap", "seat": actor, "with": b if own == a else a}
    return {"type": "swap", "seat": actor, "from": a, "with": b}


def is_own_step(state: GobletsModel, seat: int) -> bool:
    """True while ``seat`` is taking its turn or its final action."""
    current = state.current_step()
    return current is not None and current.seat == seat and current.kind in ACTING


def is_spent(state: GobletsModel, seat: int) -> bool:
    """True when ``seat``'s turn just ended on its action limit (its "end turn" is nothing)."""
    deciding = state.deciding_seat()
    return (
        state.stage == Stage.TURNS
        and state.acted_last() == seat
        and state.actions_taken() == 0
        and deciding is not None
        and deciding != seat
    )
