"""The courtroom's door: every action read into a frozen value, every bad shape named (issue 16)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from tribunal_helpers import deck_with, start

from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.games.tribunal.actions import (
    Draw,
    Effect,
    NameCard,
    Shuffle,
    Verdict,
    parse,
)
from companion.core.games.tribunal.cards import BUTTON_MAX, DATA_MAX, synthetic_deck


@pytest.mark.parametrize(
    ("action", "field"),
    [
        (["hear"], "action"),
        ({"type": "bribe"}, "action.type"),
        ({"type": ["hear"]}, "action.type"),
        ({"type": "hear", "card": "accused-01"}, "action.card"),
        ({"type": "shuffle", "set_aside": "all", "deck": []}, "action"),
        ({"type": "shuffle", "set_aside": [], "deck": [3]}, "action"),
        ({"type": "shuffle", "deck": []}, "action"),
        ({"type": "name_card", "case": True, "card": "accused-01"}, "action.case"),
        ({"type": "name_card", "case": -1, "card": "accused-01"}, "action.case"),
        ({"type": "name_card", "case": "0", "card": "accused-01"}, "action.case"),
        ({"type": "name_card", "case": 0, "card": 7}, "action.card"),
        ({"type": "name_card", "case": 0}, "action.card"),
        ({"type": "verdict", "verdict": "innocent"}, "action.verdict"),
        ({"type": "verdict"}, "action.verdict"),
        ({"type": "draw", "cube": "green"}, "action.cube"),
        ({"type": "draw", "cube": ["red"]}, "action.cube"),
        ({"type": "sentence", "card": None}, "action.card"),
        ({"type": "effect", "effect": "bribe", "n": 1}, "action"),
        ({"type": "effect", "effect": "momentum", "n": 4}, "action"),
        ({"type": "effect", "effect": "momentum", "n": True}, "action"),
        ({"type": "effect", "effect": "add_white", "n": 2}, "action"),
        ({"type": "effect"}, "action"),
    ],
)
def test_each_malformed_shape_is_refused_naming_its_field(action, field):
    with pytest.raises(MalformedInput) as error:
        parse(action)
    assert error.value.field == field


def test_the_messages_are_the_rules_words():
    """The door words a refusal as the rules always did (the page shows it)."""
    cases = [
        ({"type": "name_card", "case": -1, "card": "x"}, "no case -1 is being heard"),
        ({"type": "draw", "cube": "green"}, "a cube is red, white or blue, not 'green'"),
        ({"type": "verdict", "verdict": 1}, "a verdict is 'guilty' or 'not_guilty', not 1"),
        (
            {"type": "effect", "effect": "momentum", "n": 4},
            "momentum amount is a whole number 1 to 3, not 4",
        ),
        ({"type": "hear", "n": 1}, "a hear action has no field 'n'"),
    ]
    for action, message in cases:
        with pytest.raises(MalformedInput) as error:
            parse(action)
        assert error.value.detail == message


def test_a_stored_deck_allows_the_larger_printed_amount():
    """A button carries at most 3; a stored card may print up to 9 (tapped once)."""
    action = {"type": "effect", "effect": "momentum", "n": 5}
    with pytest.raises(MalformedInput):
        parse(action, largest=BUTTON_MAX)
    assert parse(action, largest=DATA_MAX) == Effect("momentum", 5)
    assert parse({"type": "effect", "effect": "momentum"}) == Effect("momentum", 1)


def test_parsed_actions_are_frozen_slotted_values():
    act = parse({"type": "shuffle", "set_aside": ["a"], "deck": ["b", "c"]})
    assert act == Shuffle(("a",), ("b", "c"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        act.deck = ()  # type: ignore[misc]
    assert not hasattr(act, "__dict__")
    assert hash(Verdict("guilty")) == hash(parse({"type": "verdict", "verdict": "guilty"}))


def test_the_shape_is_checked_before_the_phase():
    """A malformed action is malformed whatever the phase; a well-formed one out of turn is
    refused by the order of play."""
    state = start()
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "draw", "cube": "green"})
    assert error.value.field == "action.cube"
    with pytest.raises(IllegalAction):
        state.apply({"type": "draw", "cube": "red"})
    state = start({"deck": deck_with()})
    state.apply({"type": "hear"})
    with pytest.raises(MalformedInput) as error:  # within the shape, beyond this hearing
        state.apply({"type": "name_card", "case": 1, "card": "filler 20"})
    assert error.value.field == "action.case"


@pytest.mark.parametrize("options", [{}, {"deck": synthetic_deck(random.Random(5))}])
def test_every_legal_action_of_a_played_game_round_trips(options):
    """parse(a).wire() == a for every action offered or drawn in a whole game, and the dict
    survives JSON (the journal's format is the wire's)."""
    rng = random.Random(11)
    state = registry.get("tribunal").new_state(options)
    largest = DATA_MAX if options else BUTTON_MAX
    seen: set[type] = set()
    while not state.is_over():
        if state.to_move() is not None and state.legal_actions():
            offered = state.legal_actions()
        else:
            offered = [state.sample_chance(rng)]
        for action in offered:
            act = parse(action, largest=largest)
            seen.add(type(act))
            assert act.wire() == action
            assert json.loads(json.dumps(act.wire())) == action
            assert parse(act.wire(), largest=largest) == act
        state.apply(rng.choice(offered))
    assert {Shuffle, Draw, Verdict, Effect} <= seen
    if options:
        assert NameCard in seen
