"""Cena's door: every action read into a frozen value, every bad shape named (issue 16)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from cena_helpers import at_welcome, deal_with, new

from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.games.cena.actions import (
    Deal,
    FirstHost,
    Play,
    Poisons,
    RevealPoison,
    Welcome,
    parse,
)
from companion.core.games.cena.cards import parse_card

GOOD_DEAL = deal_with(3)


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ([], "action"),
        ({"type": "nope"}, "action.type"),
        ({"type": {}}, "action.type"),
        ({"type": "reveal_poison", "house": 0}, "action.house"),
        ({"type": "poisons", "pile": 1}, "action.pile"),
        ({"type": "poisons", "pile": [1, True, 3]}, "action.pile"),
        ({"type": "poisons", "pile": [1, 2.0, 3]}, "action.pile"),
        ({"type": "first_host", "house": 3}, "action.house"),
        ({"type": "first_host", "house": False}, "action.house"),
        ({"type": "first_host"}, "action.house"),
        ({**GOOD_DEAL, "hands": GOOD_DEAL["hands"][:2]}, "action.hands"),
        ({**GOOD_DEAL, "set_aside": "none"}, "action.set_aside"),
        ({**GOOD_DEAL, "hands": [GOOD_DEAL["hands"][0], "x", []]}, "action.hands[1]"),
        ({**GOOD_DEAL, "hands": [["wine-1", "wine-11"], [], []]}, "action.hands[0][1]"),
        ({**GOOD_DEAL, "set_aside": ["mead-0"]}, "action.set_aside[0]"),
        ({"type": "welcome", "cards": "wine-1"}, "action.cards"),
        ({"type": "welcome", "cards": ["wine-1", 7]}, "action.cards[1]"),
        ({"type": "play", "card": "Wine 7", "house": 0}, "action.card"),
        ({"type": "play", "card": "wine-7", "house": -1}, "action.house"),
        ({"type": "play", "card": "wine-7", "house": "1"}, "action.house"),
        ({"type": "play", "card": "wine-7"}, "action.house"),
    ],
)
def test_each_malformed_shape_is_refused_naming_its_field(action, field):
    with pytest.raises(MalformedInput) as error:
        parse(action, houses=3)
    assert error.value.field == field


def test_the_messages_are_the_rules_words():
    cases = [
        ({"type": "first_host", "house": 3}, "3 is not a House (0 to 2)"),
        ({"type": "poisons", "pile": None}, "a list of Poison card numbers"),
        ({**GOOD_DEAL, "hands": []}, "one hand per House (3)"),
        ({"type": "welcome", "cards": None}, "a list of three cards"),
        (
            {"type": "play", "card": "x", "house": 0},
            "'x' is not a Toast card (suit-value, suits mead, wine, cider, beer, values 1-10)",
        ),
    ]
    for action, message in cases:
        with pytest.raises(MalformedInput) as error:
            parse(action, houses=3)
        assert error.value.detail == message


def test_a_house_is_one_of_this_tables():
    action = {"type": "play", "card": "wine-7", "house": 4}
    with pytest.raises(MalformedInput):
        parse(action, houses=4)
    assert parse(action, houses=5) == Play(parse_card("wine-7", "card"), 4)


def test_parsed_actions_are_frozen_slotted_values():
    act = parse({"type": "welcome", "cards": ["wine-1", "beer-2", "mead-3"]}, houses=3)
    assert act == Welcome(("wine-1", "beer-2", "mead-3"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        act.cards = ()  # type: ignore[misc]
    assert not hasattr(act, "__dict__")
    assert parse({"type": "reveal_poison"}, houses=3) == RevealPoison()


def test_the_shape_is_checked_before_the_phase():
    """A card that is no Toast card is malformed at any phase; a real one out of turn is not
    the order of play."""
    state = at_welcome()
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "play", "card": "wine-11", "house": 0})
    assert error.value.field == "action.card"
    with pytest.raises(IllegalAction):
        state.apply({"type": "play", "card": state.hands[0][0], "house": 0})
    with pytest.raises(MalformedInput) as error:
        new().apply({"type": "first_host", "house": 9})
    assert error.value.field == "action.house"


@pytest.mark.parametrize(
    "options", [{"players": 3, "host": "random", "single_course": True}, {"players": 4}]
)
def test_every_legal_action_of_a_played_game_round_trips(options):
    """parse(a).wire() == a for every action offered or drawn in a whole game, and the dict
    survives JSON (the journal's format is the wire's)."""
    rng = random.Random(3)
    state = registry.get("cena").new_state(options)
    seen: set[type] = set()
    while not state.is_over():
        offered = state.legal_actions() or [state.sample_chance(rng)]
        for action in offered:
            act = parse(action, houses=state.num_seats)
            seen.add(type(act))
            assert act.wire() == action
            assert json.loads(json.dumps(act.wire())) == action
            assert parse(act.wire(), houses=state.num_seats) == act
        state.apply(rng.choice(offered))
    expected = {Poisons, Deal, RevealPoison, Welcome, Play}
    assert seen == expected | ({FirstHost} if options.get("host") == "random" else set())
