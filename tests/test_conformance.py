"""The shared conformance suite: seeded random play against every registered game.

OpenSpiel's ``random_sim_test`` in spirit. For every game, every option set it declares
(player counts, variants) and several seeds it checks that: the game ends; every action
seen legal elsewhere but not legal now is refused with a typed error and leaves the state
exactly as it was; replaying the journal reproduces the state; every view is JSON; and no view
changes when information hidden from its viewer is resampled (the attacker's view test).
"""

from __future__ import annotations

import json
import random
from dataclasses import is_dataclass
from enum import Enum

import pytest

from companion.core import registry
from companion.core.copies import copied
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, GameState, Viewer
from companion.core.journal import Journal, replay

SEEDS = range(4)
MAX_ACTIONS = 20_000


def cases():
    for name, game in sorted(registry.load_all().items()):
        for index, options in enumerate(game.conformance_options()):
            for seed in SEEDS:
                yield pytest.param(name, options, seed, id=f"{name}-{index}-seed{seed}")


def fingerprint(state: GameState) -> str:
    return json.dumps([state.view(v) for v in viewers_of(state)], sort_keys=True)


def data_of(value):
    """Every field of ``value`` as comparable plain data, recursively (an object without ``==``
    of its own, such as the shoot-out's state, by its type and fields)."""
    if isinstance(value, dict):
        return {key: data_of(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [data_of(item) for item in value]
    compares = is_dataclass(value) and type(value).__dataclass_params__.eq
    if hasattr(value, "__dict__") and not isinstance(value, Enum) and not compares:
        return (type(value).__name__, data_of(vars(value)))
    return value


def viewers_of(state: GameState) -> list[Viewer]:
    return [PUBLIC, HOST, *(Viewer.seat(i) for i in range(state.num_seats))]


def play(name, options, seed):
    rng = random.Random(seed)
    journal = Journal(name, options)
    state = registry.get(name).new_state(options)
    seen_actions: list[dict] = []
    states = [state.clone()]
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            break
        if state.to_move() is CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            assert legal, "a player to move must have at least one legal action"
            action = rng.choice(legal)
            seen_actions.extend(legal[:5])
        state.apply(action)
        journal.append(action)
        if len(states) < 400:
            states.append(state.clone())
    return state, journal, seen_actions, states, rng


@pytest.fixture(scope="module")
def registered():
    games = registry.load_all()
    assert games, "no game is registered"
    return games


def test_every_known_game_registers(registered):
    assert "goblets" in registered


@pytest.mark.parametrize(("name", "options", "seed"), list(cases()))
def test_random_play(name, options, seed):
    state, journal, seen, states, rng = play(name, options, seed)
    assert state.is_over(), f"{name} did not end within {MAX_ACTIONS} actions"
    assert state.to_move() is None
    assert state.legal_actions() == []
    json.dumps(state.outcome())

    # Replaying the journal (through its JSON form) reproduces the state exactly.
    replayed, _ = replay(Journal.from_json(json.loads(json.dumps(journal.to_json()))))
    assert fingerprint(replayed) == fingerprint(state)
    assert replayed.outcome() == state.outcome()

    # Actions legal elsewhere but not now are refused with a typed error, state unchanged.
    probes = 0
    for sample in rng.sample(states, min(len(states), 40)):
        if sample.to_move() is CHANCE or sample.is_over():
            continue
        legal = sample.legal_actions()
        before, data = fingerprint(sample), copied(data_of(sample))  # shares nothing mutable
        for action in rng.sample(seen, min(len(seen), 10)):
            if action in legal:
                continue
            with pytest.raises((IllegalAction, MalformedInput)):
                sample.apply(action)
            assert data_of(sample) == data  # every field as it was, not only what views show
            probes += 1
        with pytest.raises((IllegalAction, MalformedInput)):
            sample.apply({"type": "no-such-action"})
        assert data_of(sample) == data and fingerprint(sample) == before
    assert probes > 0


@pytest.mark.parametrize(("name", "options", "seed"), list(cases()))
def test_views_do_not_leak(name, options, seed):
    """Resample what a viewer cannot see; that viewer's view must not change.

    Two histories are walked side by side: the journal as played, and one where every action is
    replaced, where the game says so, by one the viewer could not tell apart. At each step the
    viewer's views must be identical. At a reveal the resampled history is set back to the real
    one (from then on the viewer has legitimately seen the difference).
    """
    actions = [entry.action for entry in play(name, options, seed)[1].entries]
    rng = random.Random(seed + 1000)
    game = registry.get(name)
    viewers = viewers_of(game.new_state(options))
    # The history as played, walked once: each step's views for every viewer, and where it
    # reveals (the same for every viewer's resampled walk below).
    original = game.new_state(options)
    walked = []
    for action in actions:
        reveals = original.reveals_hidden(action)
        original.apply(action)
        views = {v: json.dumps(original.view(v), sort_keys=True) for v in viewers}
        walked.append((action, reveals, original.clone(), views))
    substitutions = 0
    for viewer in viewers:
        resampled = game.new_state(options)
        for action, reveals, after, views in walked:
            if reveals:  # from here on the viewer has legitimately seen the difference
                resampled = after.clone()
                continue
            candidates = resampled.hidden_alternatives(action, viewer)
            rng.shuffle(candidates)
            for candidate in [*candidates, action]:
                try:  # a refused action leaves the state as it was (test_random_play checks)
                    resampled.apply(candidate)
                except (IllegalAction, MalformedInput):
                    continue
                substitutions += candidate != action
                break
            else:
                resampled = after.clone()  # the resampled history cannot go on: resync
            assert views[viewer] == json.dumps(resampled.view(viewer), sort_keys=True), (
                f"{viewer} can tell apart two histories after {action}"
            )
    assert substitutions > 0, "the game offered no hidden alternative to test its views with"
