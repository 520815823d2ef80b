"""A stored deck: cards picked by name, their effects carried out from the data, in order."""

from __future__ import annotations

import json
import random

import pytest
from tribunal_helpers import deck_with, effects, end, judge, start, tap

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import PUBLIC
from companion.core.games.tribunal.cards import parse_deck, synthetic_deck

DANTON = {
    "name": "Georges Danton",
    "guilty": effects(("reputation_up", 2), ("momentum", 1)),
    "not_guilty": effects(("legitimacy_up", 1), ("add_white", 1)),
}


def test_effects_come_from_the_card_in_printed_order():
    """ "turn the Accused Card over and carry out the effects noted under the guillotine icon in
    order" """
    state = start({"deck": deck_with(DANTON)}, top=["Georges Danton"])
    judge(state, "guilty", "red")
    view = state.view(PUBLIC)
    assert view["pending"]["effects"] == DANTON["guilty"]
    assert view["cases"][0]["printed"]["not_guilty"] == DANTON["not_guilty"]
    assert state.legal_actions() == [
        {"type": "effect", "effect": "reputation_up", "n": 2},
    ]
    with pytest.raises(IllegalAction):
        tap(state, "momentum", 1)
    with pytest.raises(IllegalAction):
        end(state)
    tap(state, "reputation_up", 2)
    assert state.legal_actions() == [
        {"type": "effect", "effect": "momentum", "n": 1},
        {"type": "undo"},
    ]
    state.apply({"type": "undo"})
    assert state.view(PUBLIC)["pending"]["effects"] == DANTON["guilty"]
    tap(state, "reputation_up", 2)
    tap(state, "momentum", 1)
    assert state.legal_actions() == [{"type": "end_sentence"}, {"type": "undo"}]
    end(state)
    assert state.view(PUBLIC)["discarded"]["cards"] == ["Georges Danton"]


def test_not_guilty_side():
    """ "If Not Guilty, turn the Accused Card over and carry out the effects under the not-guilty
    icon on the card in order." """
    state = start({"deck": deck_with(DANTON)}, top=["Georges Danton"])
    judge(state, "not_guilty", "white")
    assert state.legal_actions()[0] == {"type": "effect", "effect": "legitimacy_up", "n": 1}


def test_naming_the_physical_card_swaps_it_in():
    """The table's card turned up is picked by name; the companion's card takes its hidden place."""
    state = start({"deck": deck_with(DANTON)})
    state.apply({"type": "hear"})
    was = state.cases[0]
    unseen = state.unseen_cards()
    assert "Georges Danton" in unseen and was not in unseen and len(unseen) == 35
    state.apply({"type": "name_card", "case": 0, "card": "Georges Danton"})
    assert state.cases == ["Georges Danton"]
    assert was in state.unseen_cards()
    assert sorted(state.unseen_cards() + state.cases) == sorted(state.cards)
    with pytest.raises(IllegalAction):
        state.apply({"type": "name_card", "case": 0, "card": "Georges Danton"})
    with pytest.raises(MalformedInput):
        state.apply({"type": "name_card", "case": 1, "card": was})
    state.apply({"type": "verdict", "verdict": "guilty"})
    state.apply({"type": "draw", "cube": "red"})
    assert state.printed() == (("reputation_up", 2), ("momentum", 1))


def test_a_set_aside_card_can_be_named():
    """Any card whose place is unknown may be the one turned up, even one of the 12 set aside."""
    state = start({"deck": deck_with(DANTON)})
    aside = state.board.set_aside_hidden[0]
    state.apply({"type": "hear"})
    was = state.cases[0]
    state.apply({"type": "name_card", "case": 0, "card": aside})
    assert was in state.board.set_aside_hidden and aside not in state.board.set_aside_hidden
    assert state.view(PUBLIC)["set_aside"]["face_down"] == 12


def test_a_deck_stored_as_an_object_with_cards():
    cards = parse_deck({"cards": deck_with(DANTON)})
    assert cards["Georges Danton"].guilty == (("reputation_up", 2), ("momentum", 1))
    assert sum(card.colour == "blue" for card in cards.values()) == 3


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.pop(), "deck"),
        (lambda d: d.append({"name": "extra"}), "deck"),
        (lambda d: d[1].update(name=d[0]["name"]), "deck[1].name"),
        (lambda d: d[0].update(name=""), "deck[0].name"),
        (lambda d: d[0].update(colour="green"), "deck[0].colour"),
        (lambda d: d[0].update(guilty=[{"effect": "momentum", "n": 10}]), "deck[0].guilty[0]"),
        (lambda d: d[0].update(guilty=[{"effect": "remove_white", "n": 2}]), "deck[0].guilty[0]"),
        (lambda d: d[0].update(guilty=[{"effect": "pardon"}]), "deck[0].guilty[0]"),
        (lambda d: d[0].update(not_guilty="momentum"), "deck[0].not_guilty"),
        (lambda d: d.__setitem__(0, "Danton"), "deck[0]"),
    ],
)
def test_bad_decks_are_malformed(change, field):
    deck = json.loads(json.dumps(deck_with(DANTON)))
    change(deck)
    with pytest.raises(MalformedInput) as error:
        parse_deck(deck)
    assert error.value.field == field
    with pytest.raises(MalformedInput):
        parse_deck("cards.json")


def test_synthetic_deck_is_valid_and_seeded():
    assert synthetic_deck(random.Random(1)) == synthetic_deck(random.Random(1))
    assert synthetic_deck(random.Random(1)) != synthetic_deck(random.Random(2))
    assert len(parse_deck(synthetic_deck(random.Random(1)))) == 36
