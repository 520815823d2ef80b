"""Russian Goblette and the shoot-out under sensed play and junk input.

DESIGN.md principle 6 ("Sensed reality wins, the rules advise") and the house rule "bad input gets a
clear typed error naming the field or rule; never a crash": whatever the sensors report, the state
either records it (with a rule warning when it broke a rule) or raises a typed error and stays
exactly as it was; the 52 tokens are conserved throughout.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import AmbiguousObservation, CupbearerError
from companion.core.game import CHANCE, HOST, PUBLIC, Mode, Viewer
from companion.core.games.goblets.russian import KINDS, new_russian_state
from companion.core.games.goblets.shootout import Shootout
from companion.core.games.goblets.tokens import POOL

TYPES = ["pour", "peek", "swap", "rotate", "toast", "pass", "drink", "initial_pour"]


def fingerprint(state) -> str:
    viewers = [PUBLIC, HOST, *(Viewer.seat(i) for i in range(state.num_seats))]
    return json.dumps([state.view(v) for v in viewers], sort_keys=True)


def sensed_action(rng: random.Random, players: int) -> dict:
    """Anything a table's sensors could plausibly report, rule-abiding or not."""
    kind = rng.choice(TYPES)
    if kind == "initial_pour":
        return {"type": kind, "tokens": [rng.choice(KINDS) for _ in range(6)]}
    action = {"type": kind, "seat": rng.randrange(players)}
    if kind in ("pour", "peek", "drink"):
        action["place"] = rng.randrange(6)
    if kind == "pour":
        action["token"] = rng.choice(KINDS)
    if kind == "swap":
        action["places"] = [rng.randrange(6), rng.randrange(6)]
    if kind == "rotate":
        action["direction"] = rng.choice(["clockwise", "widdershins"])
    return action


def test_sensed_play_records_or_refuses_and_conserves_tokens():
    """Random sensed reports mixed into random legal play: recorded (with a ``rule_warning`` when
    a rule was broken) or refused as AmbiguousObservation with the state unchanged; the 52 tokens
    "21 Wine | 15 Poison | 14 Antidote | 1 Unicorn Antidote | 1 Ogre Poison" are conserved."""
    pool = {kind.value: count for kind, count in POOL.items()}
    recorded = warned = refused = 0
    for seed in range(16):
        rng = random.Random(seed)
        state = new_russian_state({"players": 2 + seed % 2, "peek": ["any", "none"][seed % 2]})
        for _ in range(3000):
            if state.is_over():
                break
            if rng.random() < 0.3:
                action = sensed_action(rng, state.num_seats)
                before = fingerprint(state)
                try:
                    events = state.apply(action, Mode.RECORDING)
                except AmbiguousObservation:
                    refused += 1
                    assert fingerprint(state) == before
                    continue
                recorded += 1
                warned += any(e["event"] == "rule_warning" for e in events)
            elif state.to_move() is CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
            assert state.tokens_in_play() == pool
            json.dumps(state.view(PUBLIC))
        assert state.is_over()
    assert recorded and warned and refused


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 8) | st.sampled_from(["wine", "1", "clockwise"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)
ACTION = st.fixed_dictionaries(
    {"type": st.sampled_from([*TYPES, "shootout_pour", "shootout_choose", "x"])},
    optional={
        "seat": JSON,
        "place": JSON,
        "places": JSON,
        "tokens": JSON,
        "goblet": JSON,  # the old names: refused, typed
        "goblets": JSON,
        "token": JSON,
        "direction": JSON,
    },
)


@settings(max_examples=300, deadline=None)
@given(action=ACTION | JSON, recording=st.booleans(), steps=st.integers(0, 40))
def test_junk_actions_raise_typed_errors_only(action, recording, steps):
    """Junk input is a typed error (MalformedInput, IllegalAction or AmbiguousObservation), never a
    crash, and never changes the state."""
    rng = random.Random(steps)
    mode = Mode.RECORDING if recording else Mode.ENFORCING
    state = new_russian_state({"players": 3})
    for _ in range(steps):
        state.apply(
            state.sample_chance(rng)
            if state.to_move() is CHANCE
            else rng.choice(state.legal_actions())
        )
    shootout = Shootout.start([0, 2], 1, 3)
    if steps % 2:
        shootout.apply(shootout.sample_chance(rng))
    for target in (state, shootout):
        before = fingerprint(target)
        assert isinstance(target.hidden_alternatives(action, PUBLIC), list)
        assert isinstance(target.reveals_hidden(action), bool)
        try:
            target.apply(action, mode)
        except CupbearerError:
            assert fingerprint(target) == before
