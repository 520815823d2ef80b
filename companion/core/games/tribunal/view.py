"""The courtroom as the page sees it: one view for everyone, with the exact odds.

Nobody sees the deck order or the face-down cards set aside (not the player, not the host): the
rulebook deals them face down ("Randomly set aside 12"). Everything else is public. The odds are
exact fractions (as strings) and floats, for both verdicts, on the bag as it is now.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from companion.core.games.tribunal.board import board_json
from companion.core.games.tribunal.pool import VERDICTS, matches, pass_probability

if TYPE_CHECKING:
    from companion.core.games.tribunal.state import TribunalState


def _odds(state: TribunalState) -> dict[str, Any]:
    pool = state.board.pool
    odds: dict[str, Any] = {}
    for verdict in VERDICTS:
        p = pass_probability(pool, verdict)
        odds[verdict] = {"p_pass": float(p), "exact": str(p)}
    if state.phase == "draw" and state.verdict is not None and pool.total:
        # Between the two draws: the chance that the second cube saves the chosen verdict.
        favourable = sum(
            pool.count(c) for c in ("red", "white", "blue") if matches(c, state.verdict)
        )
        p = Fraction(favourable, pool.total)
        odds["second_cube_matches"] = {"p": float(p), "exact": str(p)}
    return odds


def _awaiting(state: TribunalState) -> str | None:
    """``"chance"`` when a shuffle or draw is due, ``"player"`` for a button, None at the end."""
    actor = state.to_move()
    if actor is None:
        return None
    return "player" if isinstance(actor, int) else "chance"


def _case(state: TribunalState, name: str) -> dict[str, Any]:
    card = state.cards[name]
    case: dict[str, Any] = {
        "card": name,
        "colour": card.colour,
        "sentenced": name in state.sentenced,
    }
    # The back is printed with the effects: hidden until the card is turned over ("If Guilty, turn
    # the Accused Card over and carry out the effects noted under the guillotine icon").
    if state.options.stored_deck and state.is_turned_over():
        case["printed"] = {
            "guilty": [{"effect": e, "n": n} for e, n in card.guilty],
            "not_guilty": [{"effect": e, "n": n} for e, n in card.not_guilty],
        }
    return case


def build_view(state: TribunalState) -> dict[str, Any]:
    """The JSON-able view of ``state`` (the same for every viewer)."""
    printed = state.printed()
    pending_effects = None if printed is None else printed[len(state.done) :]
    view: dict[str, Any] = {
        "game": "tribunal",
        "phase": state.phase,
        "awaiting": _awaiting(state),
        "hearing": state.hearings,
        **board_json(state.board, state.options.vine),
        "odds": _odds(state),
        "cases": [_case(state, name) for name in state.cases],
        "verdict": state.verdict,
        "judgment": state.judgment,
        "sentence": {
            "card": state.sentence,
            "done": [{"effect": e, "n": n} for e, n in state.done],
            "can_undo": bool(state.undo_stack),
        },
        "pending": {
            "effects": None
            if pending_effects is None
            else [{"effect": e, "n": n} for e, n in pending_effects],
            "cases": [c for c in state.cases if c not in state.sentenced and c != state.sentence],
        },
        "lost_pending_confirmation": state.board.doom,
        "stored_deck": state.options.stored_deck,
        "rules": {
            "second_draw": state.options.second_draw,
            "missing_reds": state.options.missing_reds,
        },
        "legal_actions": state.legal_actions(),
        "log": list(state.log),
        "result": state.outcome() or None,
    }
    return view
