"""Rounds, the Welcome, the poison reveal, Hosts, the end, views, and seeded random play."""

from __future__ import annotations

import json
import random

import pytest
from cena_helpers import at_feast, at_welcome, leads_per_round, new, play, welcome_all

from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Viewer
from companion.core.games.cena import rules
from companion.core.games.cena.alliances import house_alliances
from companion.core.games.cena.cards import hand_size, parse_card
from companion.core.games.cena.poisons import POISONS, deductions
from companion.core.journal import Journal, play_random, replay


def random_game(options, seed):
    journal = Journal("cena", options)
    state, events = play_random(journal, random.Random(seed))
    return state, events, journal


def test_cena_is_registered_with_conformance_options():
    game = registry.load_all()["cena"]
    options = game.conformance_options()
    assert {o.get("players", 3) for o in options} == {3, 4, 5}
    assert any(o.get("private_feast") for o in options)
    assert any(o.get("single_course") for o in options)


def test_host_reveals_the_top_poison():
    """ "The Host House reveals the top card of the poison pile and places it face up for everyone
    to see. This card indicates the penalty that will be applied at the end of the current
    round.\""""
    state = new({"host": 1})
    state.apply({"type": "poisons", "pile": [5, 2, 8]})
    state.apply(state.sample_chance(random.Random(0)))
    assert state.phase == "reveal" and state.to_move() == 1
    assert state.legal_actions() == [{"type": "reveal_poison"}]
    assert state.reveals_hidden({"type": "reveal_poison"})
    events = state.apply({"type": "reveal_poison"})
    assert events == [{"event": "poison_revealed", "round": 1, **POISONS[5].to_json()}]
    for viewer in (PUBLIC, HOST, Viewer.seat(2)):
        assert state.view(viewer)["poison"]["name"] == "Atropa belladona"
        assert state.view(viewer)["poison_pile"] == 2


def test_welcome_three_face_up_cards_still_in_hand():
    """ "Each House chooses three cards from its hand and places them face up in front of itself.
    These cards are still considered part of its hand and may be played normally during the
    feast.\""""
    state = at_welcome(fixed={0: ["wine-4", "wine-5", "wine-6"]})
    assert state.to_move() == 0
    state.apply({"type": "welcome", "cards": ["wine-6", "wine-4", "wine-5"]})
    welcome_all(state)
    view = state.view(PUBLIC)
    assert view["houses"][0]["welcome"] == ["wine-4", "wine-5", "wine-6"]
    assert "wine-4" in state.hands[0] and view["houses"][0]["hand_size"] == 12
    play(state, ("wine-4", 2))
    assert state.view(PUBLIC)["houses"][0]["welcome"] == ["wine-5", "wine-6"]


def test_welcome_choices_hidden_until_all_have_chosen():
    """ "Each House chooses": simultaneous, so choices are shown only once all have chosen."""
    state = at_welcome({"host": 1})
    assert state.to_move() == 1
    state.apply({"type": "welcome", "cards": state.hands[1][:3]})
    assert state.to_move() == 2
    public = state.view(PUBLIC)
    assert public["houses"][1] == {
        "house": 1,
        "hand_size": 12,
        "welcome": None,
        "welcome_chosen": True,
        "alliances": [0, 1],
    }
    assert state.view(Viewer.seat(1))["welcome_choice"] == state.hands[1][:3]
    assert state.view(Viewer.seat(2))["welcome_choice"] is None
    assert state.hidden_alternatives({"type": "welcome", "cards": state.hands[2][:3]}, PUBLIC)
    assert not state.hidden_alternatives(
        {"type": "welcome", "cards": state.hands[2][:3]}, Viewer.seat(2)
    )
    state.apply({"type": "welcome", "cards": state.hands[2][:3]})
    last = {"type": "welcome", "cards": state.hands[0][:3]}
    assert state.reveals_hidden(last)
    events = state.apply(last)
    assert events[-1]["event"] == "welcome_revealed"
    assert state.phase == "feast" and state.to_move() == 1


@pytest.mark.parametrize(
    "cards", [["wine-1", "wine-2"], ["wine-1", "wine-1", "wine-2"], ["beer-10", "beer-9", "beer-8"]]
)
def test_welcome_three_different_cards_of_the_hand(cards):
    """ "Each House chooses three cards from its hand\""""
    state = at_welcome(fixed={0: ["wine-1", "wine-2", "wine-3"]})
    with pytest.raises(IllegalAction) as error:
        state.apply({"type": "welcome", "cards": cards})
    assert error.value.rule == rules.WELCOME
    assert state.chosen == {}


def test_out_of_order_action_names_the_order():
    """ "The game is played over three rounds. Each round has four phases\""""
    state = at_welcome()
    with pytest.raises(IllegalAction) as error:
        state.apply({"type": "play", "card": state.hands[0][0], "house": 0})
    assert error.value.rule == rules.ORDER
    with pytest.raises(IllegalAction):
        state.sample_chance(random.Random(0))


@pytest.mark.parametrize(
    ("action", "field"),
    [([], "action"), ({"type": []}, "action.type"), ({"type": "nope"}, "action.type")],
)
def test_a_malformed_action_names_the_field(action, field):
    with pytest.raises(MalformedInput) as error:
        new().apply(action)
    assert error.value.field == field


def test_three_rounds_host_passes_left():
    """ "The game is played over three rounds." "If this is not the end of the third round, the
    House to the left of the current Host House becomes the Host House for the next round." "At
    the start of each round, all cards are shuffled again.\""""
    state, events, _ = random_game({"players": 4, "host": 2}, 7)
    deals = [e for e in events if e["event"] == "dealt"]
    assert len(deals) == 3
    assert [s["round"] for s in state.scores] == [1, 2, 3]
    reveals = [e for e in events if e["event"] == "poison_revealed"]
    assert len({e["number"] for e in reveals}) == 3
    # "The Host House leads the first trick." of each round: Hosts 2, 3, 0.
    assert leads_per_round(events) == [2, 3, 0]


def test_single_course_is_one_round():
    """ "Single course — If you want a shorter game, you may play only one round.\""""
    state, _, _ = random_game({"single_course": True}, 3)
    assert len(state.scores) == 1 and state.is_over()
    assert len(state.outcome()["rounds"]) == 1


def test_scores_remove_poison_and_total():
    """ "Record the scores on the score pad and remove the current poison card from the game."
    "After three rounds have been played, the House with the most points wins.\""""
    state, _, _ = random_game({"players": 3}, 11)
    result = state.outcome()
    assert result["totals"] == [sum(r[h] for r in result["rounds"]) for h in range(3)]
    assert result["winners"] == [
        h for h, t in enumerate(result["totals"]) if t == max(result["totals"])
    ]
    assert state.pile == [] and len(state.revealed) == 3
    assert state.view(PUBLIC)["result"] == result


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (3, 4)])
def test_seeded_random_play_scores_independently(players, seed):
    """Replay the events: every trick's cards on its alliance, every round scored as printed."""
    state, events, journal = random_game({"players": players}, seed)
    won = [[] for _ in range(players)]
    last = None
    poison = None
    rounds = []
    for event in events:
        if event["event"] == "poison_revealed":
            poison, won = POISONS[event["number"]], [[] for _ in range(players)]
        elif event["event"] == "trick_won":
            assert len(event["cards"]) == players
            won[event["alliance"]] += [parse_card(c, "c") for c in event["cards"]]
            last = event["alliance"]
        elif event["event"] == "round_scored":
            assert sum(len(w) for w in won) == players * hand_size(players)
            lost = deductions(poison, won, last)
            expected = [
                sum(len(won[a]) for a in house_alliances(h, players)) - lost[h]
                for h in range(players)
            ]
            assert [h["points"] for h in event["houses"]] == expected
            rounds.append(expected)
    assert state.outcome()["rounds"] == rounds
    again, _ = replay(Journal.from_json(json.loads(json.dumps(journal.to_json()))))
    assert again.outcome() == state.outcome()


def test_same_seed_same_game():
    a = random_game({"players": 5, "private_feast": True}, 9)[2].to_json()
    b = random_game({"players": 5, "private_feast": True}, 9)[2].to_json()
    assert a == b


def test_seat_sees_only_its_own_hand_host_sees_none():
    state = at_feast({"players": 4})
    seat = state.view(Viewer.seat(2))
    assert seat["hand"] == state.hands[2]
    assert seat["legal_actions"] == []
    assert state.view(Viewer.seat(0))["legal_actions"] == state.legal_actions()
    for viewer in (PUBLIC, HOST):
        view = state.view(viewer)
        assert "hand" not in view and "legal_actions" not in view
        text = json.dumps(view)
        hidden = [c for h in state.hands for c in h if all(c not in f for f in state.faces)]
        assert not any(f'"{card}"' in text for card in hidden)


def test_views_do_not_depend_on_hidden_cards():
    """Exchange two unseen cards between other hands mid-feast: the viewer's view is unchanged."""
    state = at_feast({"players": 3})
    play(state, (state.legal_actions()[0]["card"], 1))
    other = state.clone()
    a = next(c for c in other.hands[1] if c not in other.faces[1])
    b = next(c for c in other.hands[2] if c not in other.faces[2])
    other.hands[1][other.hands[1].index(a)] = b
    other.hands[2][other.hands[2].index(b)] = a
    for viewer in (PUBLIC, HOST, Viewer.seat(0)):
        assert state.view(viewer) == other.view(viewer)
    assert state.view(Viewer.seat(1)) != other.view(Viewer.seat(1))


def test_deal_alternatives_keep_the_viewers_hand():
    state = new()
    state.apply({"type": "poisons", "pile": [1, 2, 3]})
    deal = state.sample_chance(random.Random(4))
    for viewer in (Viewer.seat(1), PUBLIC):
        alternatives = state.hidden_alternatives(deal, viewer)
        assert alternatives
        for alternative in alternatives:
            assert alternative != deal
            if viewer.is_seat:
                assert alternative["hands"][1] == deal["hands"][1]
            state.clone().apply(alternative)
    assert state.to_move() is CHANCE
