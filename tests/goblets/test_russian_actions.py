"""Russian Goblette's door: each action read into a frozen value, each bad shape named."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.games.goblets.action_values import InitialPour, Pass, Rotate, Toast
from companion.core.games.goblets.russian import new_russian_state
from companion.core.games.goblets.russian_actions import Drink, RowPeek, RowPour, RowSwap, parse
from tests.goblets.played import offers

POUR = ["antidote", "poison", "poison", "wine", "wine", "wine"]


@pytest.mark.parametrize(
    ("action", "field", "message"),
    [
        ("pour", "action", "an action must be an object"),
        ({"type": "dance", "seat": 0}, "action.type", "unknown action type 'dance'"),
        ({"type": "pass", "seat": True}, "action.seat", "must be an integer from 0 to 1, got True"),
        ({"type": "pass", "seat": 2}, "action.seat", None),
        ({"type": "peek", "seat": 0}, "action.place", "must be an integer from 0 to 5, got None"),
        ({"type": "drink", "seat": 0, "place": 6}, "action.place", None),
        ({"type": "pour", "seat": 0, "place": 1, "token": "mead"}, "action.token", None),
        ({"type": "pour", "seat": 0, "place": "1", "token": "wine"}, "action.place", None),
        ({"type": "swap", "seat": 0, "places": [1, 2, 3]}, "action.places", "must list two places"),
        ({"type": "swap", "seat": 0, "places": [1, False]}, "action.places", None),
        ({"type": "rotate", "seat": 0, "direction": "counterclockwise"}, "action.direction", None),
        ({"type": "initial_pour", "tokens": POUR[:5]}, "action.tokens", "must list 6 token kinds"),
        ({"type": "initial_pour", "tokens": [*POUR[:5], "gold"]}, "action.tokens[5]", None),
    ],
)
def test_each_malformed_shape_is_refused_naming_its_field(action, field, message):
    with pytest.raises(MalformedInput) as error:
        parse(action, 2)
    assert error.value.field == field
    if message is not None:
        assert error.value.detail == message


def test_parsed_actions_are_frozen_slotted_values():
    values = [
        parse({"type": "pour", "seat": 1, "token": "wine", "place": 4}, 2),
        parse({"type": "swap", "seat": 0, "places": [5, 0]}, 3),
        parse({"type": "drink", "seat": 2, "place": 3}, 3),
        parse({"type": "rotate", "seat": 0, "direction": "widdershins"}, 2),
        parse({"type": "initial_pour", "tokens": POUR}, 2),
    ]
    assert values == [
        RowPour(1, "wine", 4),
        RowSwap(0, (5, 0)),
        Drink(2, 3),
        Rotate(0, "widdershins"),
        InitialPour(tuple(POUR)),
    ]
    assert values[1].wire() == {"type": "swap", "seat": 0, "places": [5, 0]}
    for value in values:
        assert not hasattr(value, "__dict__")
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, type(value).__slots__[0], None)


def test_the_shape_is_checked_before_the_phase():
    """Before the initial pour nobody acts (IllegalAction), but a bad shape is named first."""
    state = new_russian_state({"players": 2})
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "peek", "seat": 0, "place": 9})
    assert error.value.field == "action.place"
    with pytest.raises(IllegalAction):
        state.apply({"type": "peek", "seat": 0, "place": 1})


@pytest.mark.parametrize("players", [2, 3])
def test_every_action_offered_or_drawn_in_played_games_round_trips(players):
    """parse(a).wire() == a for every action offered or drawn in whole seeded games, also after
    a JSON round trip."""
    seen: set[type] = set()
    for seed in range(2):
        rng = random.Random(seed)
        state = new_russian_state({"players": players})
        for offered in offers(state, rng):
            for action in offered:
                value = parse(action, players)
                seen.add(type(value))
                assert value.wire() == action
                again = json.loads(json.dumps(value.wire()))
                assert again == action and parse(again, players) == value
    assert seen == {InitialPour, RowPour, RowPeek, RowSwap, Toast, Pass, Drink}


def test_the_wire_is_todays_json_to_the_key_order():
    """A Russian Pour names its token before its place, as it always has (the journal's text)."""
    state = new_russian_state({"players": 2, "host": 1})
    state.apply({"type": "initial_pour", "tokens": POUR})
    texts = {json.dumps(action) for action in state.legal_actions()}
    assert '{"type": "pour", "seat": 0, "token": "wine", "place": 5}' in texts
    assert '{"type": "swap", "seat": 0, "places": [0, 5]}' in texts
    assert json.dumps(Drink(1, 2).wire()) == '{"type": "drink", "seat": 1, "place": 2}'
