"""Properties over seeded random play, for every player count and variant.

No illegal state is reached, the 52 tokens are conserved (pool + screens + Goblets + discard),
replaying the journal (enforced or recorded) reproduces the state, and no view shows Goblet
contents before the reveal.
"""

from __future__ import annotations

import json
import random

from engine_helpers import new, tokens_total
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core import registry
from companion.core.errors import CupbearerError, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Mode, Viewer
from companion.core.games.goblets.tokens import POOL

OPTION_SETS = [
    {"players": 4},
    {"players": 5, "host": 3},
    {"players": 6, "raise_your_memory": True},
    {"players": 4, "legacy": True, "hidden_vp": False},
    {"players": 5, "show_pourer": False, "token_rules": "strong_ogre"},
    {"players": 7, "courses": 2},
    {"players": 8, "legacy": True, "courses": 2},
    {"players": 9, "raise_your_memory": True, "courses": 1},
    {"players": 10, "courses": 1},
    {"players": 11, "courses": 1, "hidden_vp": True},
    {"players": 12, "courses": 1},
]
TOTAL = {str(kind): count for kind, count in POOL.items()}


def viewers(state):
    return [PUBLIC, HOST, *map(Viewer.seat, range(state.num_seats))]


def fingerprint(state):
    return json.dumps(
        [
            [state.view(v) for v in viewers(state)],
            state.goblets,
            state.goblet_at,
            state.ring_of,
            state.screens,
            state.pool,
            state.discarded,
            state.vp,
        ],
        sort_keys=True,
    )


def check_invariants(state):
    assert tokens_total(state) == TOTAL
    for counts in [state.pool, state.discarded, *state.screens, *state.goblets]:
        assert all(n > 0 for n in counts.values())
    assert sorted(state.goblet_at) == list(range(len(state.places)))
    if not state.opts.raise_your_memory:
        assert sorted(state.ring_of) == sorted(state.opts.houses)
    if state.phase == "play":
        assert state.steps and 0 <= state.taken < state.steps[0].limit
        assert all(state.targets[i] != state.opts.houses[i] for i in range(len(state.places)))
    assert all(vp >= 0 for vp in state.vp)
    seats = sorted(seat for place in state.places for seat in place.seats)
    assert seats == list(range(state.num_seats))


def check_secret_contents(state):
    """Contents appear only in past results and in a seat's own peeks."""
    for viewer in viewers(state):
        view = state.view(viewer)
        view.pop("results")
        if "you" in view:
            view["you"].pop("peeks")
        assert "contents" not in json.dumps(view)
        assert "traitor" not in json.dumps(view) or view.get("you", {}).get("winetaster_card")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(index=st.integers(0, len(OPTION_SETS) - 1), seed=st.integers(0, 10**6))
def test_random_play_keeps_every_invariant_and_replays(index, seed):
    options = OPTION_SETS[index]
    rng = random.Random(seed)
    state = new(**options)
    journal = []
    while not state.is_over():
        check_invariants(state)
        if len(journal) % 7 == 0:
            check_secret_contents(state)
        if state.to_move() is CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            assert legal
            action = rng.choice(legal)
        state.apply(action)
        journal.append(action)
        assert len(journal) < 20_000
    check_invariants(state)
    assert state.outcome()["winners"]
    for mode in (Mode.ENFORCING, Mode.RECORDING):
        replayed = new(**options)
        for action in journal:
            events = replayed.apply(json.loads(json.dumps(action)), mode)
            assert all(e["event"] != "rule_warning" for e in events)
        assert fingerprint(replayed) == fingerprint(state)


def test_every_player_count_and_variant_is_covered():
    players = {options["players"] for options in OPTION_SETS}
    assert players == set(range(4, 13))
    flags = {key for options in OPTION_SETS for key in options}
    assert {"raise_your_memory", "legacy", "hidden_vp", "show_pourer", "token_rules"} <= flags


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 14) | st.sampled_from(["wine", "x", "de_miceti"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=12,
)
TYPES = st.sampled_from(
    [
        "pour",
        "peek",
        "rotate",
        "swap",
        "toast",
        "pass",
        "ability",
        "decline",
        "defer",
        "reveal",
        "deal_characters",
        "initial_pour",
        "deal_winetaster_cards",
        "deal_targets",
        "legacy_draw",
        "shootout_choose",
    ]
)
KEYS = st.sampled_from(
    [
        "seat",
        "place",
        "places",
        "goblet",  # the old names of a place: refused as MalformedInput
        "token",
        "direction",
        "with",
        "from",
        "card",
        "goblets",
        "swap",
        "coasters",
        "characters",
        "tokens",
        "cards",
        "targets",
        "draws",
    ]
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    kind=TYPES,
    fields=st.dictionaries(KEYS, JSON, max_size=4),
    moment=st.integers(0, 60),
    players=st.sampled_from([4, 8]),
    mode=st.sampled_from([Mode.ENFORCING, Mode.RECORDING]),
)
def test_garbage_actions_raise_typed_errors_and_change_nothing(kind, fields, moment, players, mode):
    rng = random.Random(moment)
    state = new(players=players, legacy=True)
    for _ in range(moment):
        if state.is_over():
            break
        state.apply(
            state.sample_chance(rng)
            if state.to_move() is CHANCE
            else rng.choice(state.legal_actions())
        )
    before = fingerprint(state)
    try:
        state.apply({"type": kind, **fields}, mode)
    except CupbearerError:
        assert fingerprint(state) == before
    else:
        check_invariants(state)


def test_malformed_chance_outcomes_are_typed_errors():
    state = new(players=4)
    for bad in ([[1], [2], [3], [4]], [None] * 4, "abcd", [{"a": 1}] * 4):
        try:
            state.apply({"type": "deal_characters", "characters": bad})
        except MalformedInput as error:
            assert error.field == "characters"
        else:
            raise AssertionError(f"{bad!r} was accepted")
    assert state.phase == "deal_characters"


def test_conformance_options_cover_every_count_variant_and_flag():
    sets = registry.get("goblets").conformance_options()
    assert {options["players"] for options in sets} == set(range(2, 13))
    keys = {key for options in sets for key in options}
    for flag in (
        "raise_your_memory",
        "legacy",
        "hidden_vp",
        "show_pourer",
        "token_rules",
        "characters",
        "courses",
        "host",
    ):
        assert flag in keys
    for options in sets:
        registry.get("goblets").new_state(options)  # every set is valid
