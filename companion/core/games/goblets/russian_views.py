"""What each viewer may see of a Russian Goblette game, and what a viewer cannot tell apart.

Reads only the model (:mod:`companion.core.games.goblets.russian_model`): a view never shows an
unrevealed Goblet ("Secretly place one of the tokens from behind your screen"); a seat sees its
own screen, its own peeks and its own end of the latest Course. ``hidden_alternatives`` lists the
actions a viewer cannot tell from the one played, for the conformance suite's attacker test.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any

from companion.core.game import CHANCE, Action, Viewer
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.russian_model import GOBLETS, KINDS, RussianModel, nonzero


def view(state: RussianModel, mover: object, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` may see: never an unrevealed goblet; a seat its screen and its peeks."""
    goblets = []
    for position in range(GOBLETS):
        drunk = state.drunk.get(position)
        goblets.append(
            {
                "place": position,
                "drunk_by": drunk["seat"] if drunk else None,
                "revealed": drunk["contents"] if drunk else None,
                "poisoned": drunk["poisoned"] if drunk else None,
            }
        )
    data: dict[str, Any] = {
        "variant": "russian_goblette",
        "options": state.options.to_json(),
        "players": state.options.players,
        "houses": list(HOUSE_IDS[: state.options.players]),
        "course": state.course,
        "host": state.host,
        "phase": state.phase,
        "to_move": "chance" if mover is CHANCE else mover,
        "toast_caller": state.toast_caller,
        "final_order": list(state.final_order),
        "goblets": goblets,
        "eliminated": list(state.eliminated),
        "kept": [nonzero(k) for k in state.kept],
        "pool": dict(state.pool),
        "log": [dict(entry) for entry in state.log],
        "vp": list(state.vp),
        "results": list(state.results),
        "winners": list(state.winners),
    }
    if viewer.is_seat and viewer.index is not None and 0 <= viewer.index < state.num_seats:
        data["seat"] = viewer.index
        data["screen"] = dict(state.screens[viewer.index])
        data["peeks"] = [dict(p) for p in state.peeks[viewer.index]]
        data["outcome"] = own_outcome(state, viewer.index)
    return data


def own_outcome(state: RussianModel, seat: int) -> dict[str, Any] | None:
    """This seat's own end of the latest Course, for its phone (None before the first)."""
    if not state.results:
        return None
    last = state.results[-1]
    # "If they are poisoned, they are eliminated for the Course."
    return {
        "course": last["course"],
        "poisoned": seat not in last["survivors"],
        "won": seat in last["winners"],
    }


def hidden_alternatives(state: RussianModel, action: Action, viewer: Viewer) -> list[Action]:
    """Pours nobody but the pourer can tell apart, and every other initial pour."""
    if not isinstance(action, Mapping):
        return []
    if action.get("type") == "initial_pour":
        tokens = action.get("tokens")
        if not (
            isinstance(tokens, list)
            and len(tokens) == GOBLETS
            and all(token in KINDS for token in tokens)
        ):
            return []
        return [
            {"type": "initial_pour", "tokens": list(other)}
            for other in sorted(set(permutations(tokens)))
            if list(other) != tokens
        ]
    seat = action.get("seat")
    if action.get("type") == "pour" and isinstance(seat, int) and 0 <= seat < state.num_seats:
        if viewer.is_seat and viewer.index == seat:
            return []
        return [
            {**action, "token": kind}
            for kind in KINDS
            if kind != action.get("token") and state.screens[seat][kind]
        ]
    return []
