"""The Goblets model: a clone shares nothing mutable and misses no field; phases are StrEnums.

The state's clone is what makes a refused action change nothing (the engine works on it); it used
to copy a hand-kept list of fields, so a new field could be shared between a trial and the state.
"""

from __future__ import annotations

import json
import random
from typing import Any

from companion.core.game import CHANCE, PUBLIC, Viewer
from companion.core.games.goblets import HOOK_DECK
from companion.core.games.goblets.model import Phase, Stage, StepKind
from tests.goblets.engine_helpers import new


def _containers(value: Any) -> list[Any]:
    """Every list and dict inside ``value``, at any depth (the shoot-out's fields included)."""
    found: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            stack.extend(item)
        elif hasattr(item, "__dict__") and not isinstance(item, type):
            stack.extend(vars(item).values())
    return found


def test_a_clone_shares_no_list_or_dict_with_its_state_all_game_long() -> None:
    """Seeded play with Characters, Legacy and a tie-break: at every step, every field is cloned
    and no list or dict (at any depth) is shared, so mutating a trial cannot touch the state."""
    for seed, options in enumerate(
        [
            {"players": 5, "characters": HOOK_DECK, "legacy": True},
            {"players": 9, "courses": 1},
            {"players": 4, "courses": 1},
        ]
    ):
        rng = random.Random(seed)
        state = new(**options)
        checked = 0
        while not state.is_over():
            clone = state.clone()
            assert set(vars(clone)) == set(vars(state))
            ours = {id(c) for c in _containers(vars(state))}
            assert not ours & {id(c) for c in _containers(vars(clone))}
            assert clone.view(Viewer.seat(0)) == state.view(Viewer.seat(0))
            checked += 1
            mover = state.to_move()
            action = (
                state.sample_chance(rng) if mover is CHANCE else rng.choice(state.legal_actions())
            )
            state.apply(action)
        assert checked > 50


def test_a_field_added_later_is_cloned_too() -> None:
    """A field nobody listed anywhere is still copied, not shared."""
    state = new(players=4)
    state.later = {"pours": [1, 2]}  # type: ignore[attr-defined]
    clone = state.clone()
    clone.later["pours"].append(3)  # type: ignore[attr-defined]
    assert state.later == {"pours": [1, 2]}  # type: ignore[attr-defined]


def test_phases_stages_and_steps_are_string_enums_shown_as_their_names() -> None:
    """``phase``/``stage``/a step's ``kind`` are StrEnum members that read as the rulebook's
    words in the views and their JSON."""
    state = new(players=4, characters=[])
    assert state.phase is Phase.INITIAL_POUR and state.stage is Stage.SETUP
    state.apply({"type": "initial_pour", "tokens": ["antidote", "poison", "poison", "wine"]})
    houses = list(state.opts.houses)
    state.apply({"type": "deal_targets", "targets": houses[1:] + houses[:1]})
    assert state.phase is Phase.PLAY and state.stage is Stage.TURNS
    assert state.steps[0].kind is StepKind.TURN
    view = json.loads(json.dumps(state.view(PUBLIC)))
    assert (view["phase"], view["stage"], view["step"]["kind"]) == ("play", "turns", "turn")
