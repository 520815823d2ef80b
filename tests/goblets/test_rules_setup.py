"""Raise Your Goblets, 4-6 players: setting the table and the Appetizers (Course setup)."""

from __future__ import annotations

import random

import pytest
from engine_helpers import (
    PLAIN,
    act,
    call_toast,
    default_pour,
    finish_toast,
    new,
    setup,
    start,
    tokens_total,
)

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, PUBLIC, Viewer
from companion.core.games.goblets.houses import HOUSE_IDS


@pytest.mark.parametrize("players", [4, 5, 6])
def test_one_goblet_per_player_with_its_house_ring(players):
    """ "Place 1 Goblet per player in a circle" and "Each player also receives the Coaster ring of
    the same color as their House and attaches it to the base of the Goblet in front of them."
    """
    state = start(players)
    view = state.view(PUBLIC)
    assert [p["ring"] for p in view["places"]] == list(HOUSE_IDS[:players])
    assert [p["house"] for p in view["places"]] == list(HOUSE_IDS[:players])


def test_houses_option_chooses_the_houses_in_play():
    """ "Each player receives a screen, which represents their House. Put all of the unused
    screens back in the box." """
    state = start(4, houses=["araneros", "van_visser", "de_miceti", "mctoadery"])
    assert [p["house"] for p in state.view(PUBLIC)["places"]] == [
        "araneros",
        "van_visser",
        "de_miceti",
        "mctoadery",
    ]
    assert sorted(t for t in state.targets) == sorted(state.opts.houses)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"players": 13}, "players"),
        ({"players": "4"}, "players"),
        ({"players": 7, "variant": "standard"}, "players"),
        ({"players": 4, "variant": "banquet"}, "variant"),
        ({"players": 4, "houses": ["de_miceti"]}, "houses"),
        ({"players": 4, "houses": ["de_miceti"] * 4}, "houses[1]"),
        ({"players": 4, "houses": ["a", "b", "c", "d"]}, "houses[0]"),
        ({"players": 4, "hidden_vp": "yes"}, "hidden_vp"),
        ({"players": 4, "courses": 0}, "courses"),
        ({"players": 4, "host": 4}, "host"),
        ({"players": 4, "colour": "red"}, "colour"),
        ({"players": 4, "token_rules": {"bogus": 1}}, "token_rules.bogus"),
        ({"players": 4, "characters": [{"name": "X"}]}, "characters"),
        (
            {"players": 4, "characters": [{"name": "X", "timing": "dawn"}] * 4},
            "characters[0].timing",
        ),
        ({"players": 8, "winetaster_cards": {"loyal": 1, "traitor": 1}}, "winetaster_cards"),
        ({"players": 8, "winetaster_cards": {"loyal": -1}}, "winetaster_cards.loyal"),
    ],
)
def test_bad_options_name_the_field(options, field):
    """Bad input gets a clear typed error naming the field."""
    with pytest.raises(MalformedInput) as error:
        new(**options)
    assert error.value.field == field


def test_each_course_three_wine_two_poison_two_antidote_behind_each_screen():
    """ "Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool and puts them
    behind their screen." """
    state = start(5)
    for seat in range(5):
        assert state.view(Viewer.seat(seat))["you"]["screen"] == {
            "wine": 3,
            "poison": 2,
            "antidote": 2,
        }


@pytest.mark.parametrize("players", [4, 5, 6])
def test_initial_pour_one_antidote_two_poison_rest_wine_one_per_goblet(players):
    """ "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens so that the total number of
    tokens is equal to the number of Goblets [...] Then randomly "pour" 1 token into each of the
    Goblets." """
    state = new(players=players, **PLAIN)
    assert state.to_move() is CHANCE
    action = state.sample_chance(random.Random(3))
    assert action["type"] == "initial_pour"
    assert sorted(action["tokens"]) == sorted(default_pour(players))
    state.apply(action)
    for place, token in enumerate(action["tokens"]):
        assert state.contents_at(place) == {token: 1}
    assert tokens_total(state) == {
        "wine": 21,
        "poison": 15,
        "antidote": 14,
        "unicorn_antidote": 1,
        "ogre_poison": 1,
    }


def test_initial_pour_must_be_the_right_tokens():
    """ "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens" -- nothing else."""
    state = new(players=4, **PLAIN)
    with pytest.raises(MalformedInput):
        state.apply({"type": "initial_pour", "tokens": ["poison"] * 4})
    with pytest.raises(MalformedInput):
        state.apply({"type": "initial_pour", "tokens": ["wine"] * 3})
    assert state.phase == "initial_pour"


def test_chance_action_out_of_phase_is_refused():
    """Chance is an action that happens when the game calls for it, never otherwise."""
    state = start(4)
    with pytest.raises(IllegalAction):
        state.apply({"type": "deal_targets", "targets": list(HOUSE_IDS[:4])})
    with pytest.raises(IllegalAction):
        state.sample_chance(random.Random(0))


def test_shuffle_and_deal_one_character_to_each_player():
    """ "Shuffle the Character cards and deal 1 to each player, who reads its effects out loud to
    the other players." (dealt by chance; public)"""
    state = new(players=5)
    assert state.phase == "deal_characters"
    action = state.sample_chance(random.Random(1))
    assert len(set(action["characters"])) == 5
    state.apply(action)
    names = [c["name"] for c in state.view(PUBLIC)["characters"]]
    assert names == action["characters"]


def test_target_cards_are_dealt_randomly_and_face_up():
    """ "The Host randomly deals 1 Target card to each player." and "places it face up in front of
    their screen so that it is easily visible to all players." """
    state = setup(
        new(players=4, **PLAIN), targets=["mctoadery", "aconitiers", "wespendorf", "de_miceti"]
    )
    assert [p["target"] for p in state.view(PUBLIC)["places"]] == [
        "mctoadery",
        "aconitiers",
        "wespendorf",
        "de_miceti",
    ]


def test_own_house_target_is_swapped_with_the_player_to_the_left():
    """ "Since you can't target yourself, if your Target card shows your own House, swap your
    Target card with the player to your left." """
    houses = list(HOUSE_IDS[:4])
    # Seat 1 draws its own House (mctoadery): it swaps with seat 2.
    state = new(players=4, **PLAIN)
    state.apply({"type": "initial_pour", "tokens": default_pour(4)})
    events = state.apply(
        {"type": "deal_targets", "targets": ["aconitiers", "mctoadery", "wespendorf", "de_miceti"]}
    )
    assert {"event": "target_swapped", "place": 1, "with": 2} in events
    assert state.targets == ["aconitiers", "wespendorf", "mctoadery", "de_miceti"]
    assert all(state.targets[i] != houses[i] for i in range(4))


def test_target_swaps_go_from_the_host_clockwise():
    """ "Starting with the Host and proceeding clockwise, each player looks at their Target card
    [...] swap your Target card with the player to your left." With the Host at seat 3, seat 3
    looks first and gives its own card to seat 0, who then holds a card that is not theirs; with
    the Host at seat 0 the same deal needs two swaps."""
    state = new(players=4, host=3, **PLAIN)
    state.apply({"type": "initial_pour", "tokens": default_pour(4)})
    events = state.apply(
        {"type": "deal_targets", "targets": ["de_miceti", "aconitiers", "mctoadery", "wespendorf"]}
    )
    swaps = [(e["place"], e["with"]) for e in events if e["event"] == "target_swapped"]
    assert swaps == [(3, 0)]
    assert state.targets == ["wespendorf", "aconitiers", "mctoadery", "de_miceti"]
    state = new(players=4, host=0, **PLAIN)
    state.apply({"type": "initial_pour", "tokens": default_pour(4)})
    events = state.apply(
        {"type": "deal_targets", "targets": ["de_miceti", "aconitiers", "mctoadery", "wespendorf"]}
    )
    swaps = [(e["place"], e["with"]) for e in events if e["event"] == "target_swapped"]
    assert swaps == [(0, 1), (3, 0)]
    assert state.targets == ["wespendorf", "de_miceti", "mctoadery", "aconitiers"]


@pytest.mark.parametrize("seed", range(30))
def test_nobody_ever_targets_themselves(seed):
    """ "Since you can't target yourself" -- whatever the deal, after the swaps."""
    rng = random.Random(seed)
    players = rng.choice([4, 5, 6])
    state = new(players=players, host=rng.randrange(players), **PLAIN)
    state.apply(state.sample_chance(rng))
    state.apply(state.sample_chance(rng))
    assert all(state.targets[i] != state.opts.houses[i] for i in range(players))


def test_first_turn_is_the_hosts_left():
    """ "Starting with the player to the Host's left, each player in turn may perform up to two
    actions" """
    assert start(5, host=2).to_move() == 3
    assert start(5, host=4).to_move() == 0


def test_each_player_takes_the_goblet_of_their_house_each_course():
    """ "Each player should take the Goblet with the Coaster ring that matches their House and
    place it in front of them." """
    state = start(4)
    act(state, "rotate", direction="clockwise")
    assert [state.ring_at(p) for p in range(4)] == [
        "wespendorf",
        "de_miceti",
        "mctoadery",
        "aconitiers",
    ]
    call_toast(state)
    finish_toast(state)
    setup(state)
    assert state.course == 2
    assert [state.ring_at(p) for p in range(4)] == list(HOUSE_IDS[:4])
