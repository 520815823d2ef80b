"""Components, setup and the deal for 3, 4 and 5 Houses."""

from __future__ import annotations

import random

import pytest
from cena_helpers import deal_with, new

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Viewer
from companion.core.games.cena.cards import DECK, SUITS, hand_size, parse_card, set_aside_size
from companion.core.games.cena.options import parse_options


def test_forty_toast_cards():
    """ "40 Toast cards". "The suits are mead, wine, cider, and beer. Values run from 1 to 10 in
    each suit." "Each Toast card has a suit on the left and a value on the right.\""""
    assert len(DECK) == len(set(DECK)) == 40
    assert SUITS == ("mead", "wine", "cider", "beer")
    for suit in SUITS:
        assert sorted(c.value for c in DECK if c.suit == suit) == list(range(1, 11))
    assert parse_card("wine-7", "card") == ("wine", 7)


@pytest.mark.parametrize("bad", ["wine-11", "ale-3", "wine7", 7, None, "WINE-7"])
def test_a_bad_card_name_is_malformed(bad):
    with pytest.raises(MalformedInput) as error:
        parse_card(bad, "action.card")
    assert error.value.field == "action.card"


def test_three_players_deal():
    """ "In a 3 players game, deal 12 cards to each player. The 4 remaining cards are set aside
    face down.\""""
    assert (hand_size(3), set_aside_size(3)) == (12, 4)


@pytest.mark.parametrize(("players", "size"), [(3, 12), (4, 10), (5, 8)])
def test_deal_uses_every_card(players, size):
    """ "the Host House shuffles all the Toast cards and deals them one by one face down to all
    Houses." With 4 and 5 Houses the 40 cards go out evenly (docs/rules-notes.md)."""
    state = new({"players": players})
    state.apply(state.sample_chance(random.Random(1)))
    deal = state.sample_chance(random.Random(2))
    assert [len(hand) for hand in deal["hands"]] == [size] * players
    assert len(deal["set_aside"]) == 40 - players * size
    everything = [name for hand in deal["hands"] for name in hand] + deal["set_aside"]
    assert sorted(everything) == sorted(card.name for card in DECK)
    state.apply(deal)
    assert state.phase == "reveal"


def test_poison_pile_of_three():
    """ "Shuffle the poison cards, draw three, and form a pile. Return the rest to the box without
    looking at them.\""""
    state = new()
    assert state.to_move() is CHANCE
    action = state.sample_chance(random.Random(3))
    assert len(action["pile"]) == len(set(action["pile"])) == 3
    state.apply(action)
    assert state.pile == action["pile"]
    for viewer in (PUBLIC, HOST, Viewer.seat(0)):
        view = state.view(viewer)
        assert view["poison_pile"] == 3 and view["poison"] is None
        assert view["poisons_revealed"] == []


def test_first_game_poisons():
    """ "For your first game, it is recommended to play with poison cards 1, 2, and 3.\""""
    state = new({"poison_cards": [1, 2, 3]})
    for seed in range(5):
        assert sorted(state.sample_chance(random.Random(seed))["pile"]) == [1, 2, 3]
    with pytest.raises(IllegalAction):
        state.apply({"type": "poisons", "pile": [1, 2, 4]})


@pytest.mark.parametrize(
    "deal",
    [
        {"type": "deal", "hands": [], "set_aside": []},
        {"type": "deal", "hands": [["wine-1"]] * 3, "set_aside": []},
        {"type": "deal", "hands": "x", "set_aside": []},
    ],
)
def test_a_bad_deal_is_refused(deal):
    state = new()
    state.apply({"type": "poisons", "pile": [1, 2, 3]})
    with pytest.raises((IllegalAction, MalformedInput)):
        state.apply(deal)
    assert state.phase == "deal"


def test_a_deal_dealing_a_card_twice_is_illegal():
    """ "deals them one by one face down to all Houses": every card once."""
    state = new()
    state.apply({"type": "poisons", "pile": [1, 2, 3]})
    deal = deal_with(3)
    deal["hands"][0][0] = deal["hands"][1][0]
    with pytest.raises(IllegalAction) as error:
        state.apply(deal)
    assert "12 cards to each player" in error.value.rule


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"players": 2}, "players"),
        ({"players": 6}, "players"),
        ({"players": "3"}, "players"),
        ({"host": 3}, "host"),
        ({"private_feast": "yes"}, "private_feast"),
        ({"orientation": "upside"}, "orientation"),
        ({"poison_cards": [1, 2]}, "poison_cards"),
        ({"poison_cards": [1, 2, 9]}, "poison_cards[2]"),
        ({"poison_cards": [1, 1, 2]}, "poison_cards"),
        ({"rounds": 2}, "rounds"),
    ],
)
def test_bad_options_name_the_field(options, field):
    with pytest.raises(MalformedInput) as error:
        parse_options(options)
    assert error.value.field == field
