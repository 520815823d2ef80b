"""Who acted: the seat behind a sensed Pour, Rotate, Swap or Peek (readers see no hands).

Readings (docs/rules-notes.md, "Sensed play"): a Pour or a Rotate is the act of the seat whose
turn it is; a Peek is "Look into Your Goblet", so a lift names the seat sitting at that place; a
Swap is "Exchange Your Goblet for that of another player", so it names the seat whose Goblet is
one of the two. The engine (recording mode) then judges whether the act was in turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.game import Action

if TYPE_CHECKING:
    from companion.core.games.goblets.state import GobletsState


def turn_seat(state: GobletsState) -> int | None:
    """The seat whose turn it is: who pours and rotates now (None outside any turn)."""
    if state.phase != "play":
        return None
    if state.stage == "course_start":
        # "Starting with the player to the Host's left": Course-start abilities are still being
        # asked, but an act on the table means the first turn has begun.
        first = state.places[(state.place_index(state.host) + 1) % len(state.places)]
        return first["winetaster"] if first["winetaster"] is not None else first["seats"][0]
    if not state.steps:
        return None
    step = state.steps[0]
    if step["kind"] in ("toast_option", "free_peek") and len(state.steps) > 1:
        return state.steps[1]["seat"]  # the Noble did not Toast / the Winetaster did not Peek
    if step["kind"] in ("turn", "final"):
        return step["seat"]
    return None


def anyone(state: GobletsState) -> int:
    """A seat for a move made outside any turn: the seat that acted last, else the Host."""
    return state.last_actor if state.last_actor is not None else state.host


def peeker(state: GobletsState, place: int) -> int:
    """The seat whose Peek a lift at ``place`` is (see the module docstring)."""
    step = state.steps[0] if state.steps else None
    if (
        step is not None
        and step["place"] == place
        and step["kind"] in ("turn", "final", "free_peek")
    ):
        return step["seat"]
    # The seat sitting there looked into its own Goblet; the engine judges whether it was that
    # seat's turn. "The Noble cannot PEEK": a pair's peeker is the Winetaster.
    sitting = state.places[place]
    return sitting["winetaster"] if sitting["winetaster"] is not None else sitting["seats"][0]


def swap_action(state: GobletsState, a: int, b: int, seat: int | None, *, single: bool) -> Action:
    """The Swap that exchanged the Goblets at places ``a`` and ``b``, by ``seat`` if it can be."""
    actor = seat if seat is not None else anyone(state)
    own = state.place_index(actor)
    last = state.last_actor
    # Right after a turn ended on its limit, a Swap of that player's own Goblet is their third
    # action: "up to two actions" (the engine warns).
    if (
        single
        and own not in (a, b)
        and state.stage == "turns"
        and state.taken == 0
        and last is not None
        and state.place_index(last) in (a, b)
    ):
        actor, own = last, state.place_index(last)
    if own in (a, b):
        return {"type": "swap", "seat": actor, "with": b if own == a else a}
    return {"type": "swap", "seat": actor, "from": a, "with": b}


def is_own_step(state: GobletsState, seat: int) -> bool:
    """True while ``seat`` is taking its turn or its final action."""
    step = state.steps[0] if state.phase == "play" and state.steps else None
    return step is not None and step["seat"] == seat and step["kind"] in ("turn", "final")


def is_spent(state: GobletsState, seat: int) -> bool:
    """True when ``seat``'s turn just ended on its action limit (its "end turn" is nothing)."""
    return (
        state.phase == "play"
        and state.stage == "turns"
        and state.last_actor == seat
        and state.taken == 0
        and bool(state.steps)
        and state.steps[0]["seat"] != seat
    )
