"""Every rule of The Gods Will Have Blood, each test quoting the rulebook sentence it checks."""

from __future__ import annotations

import json
import random

import pytest
from tribunal_helpers import deck_with, end, judge, positions, start, tap

from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Viewer
from companion.core.games.tribunal.state import ACTION_TYPES
from companion.core.journal import Journal, replay


def view(state):
    return state.view(PUBLIC)


def test_setup():
    """ "Randomly set aside 12 and shuffle the remaining 21 red cards with the 3 blue to form the
    Accused Deck." "Place 7 red cubes in the Momentum Box." "Place 4 red cubes and 3 white cubes in
    the draw bag." "Place the blue cube in the "W" space on the vine." """
    state = registry.get("tribunal").new_state({})
    assert state.to_move() is CHANCE and view(state)["awaiting"] == "chance"
    shuffle = state.sample_chance(random.Random(1))
    state.apply(shuffle)
    blues = [name for name in shuffle["deck"] if state.cards[name].colour == "blue"]
    assert len(shuffle["set_aside"]) == 12 and len(shuffle["deck"]) == 24 and len(blues) == 3
    v = view(state)
    assert v["deck"] == {"count": 24, "stacks": [24]}
    assert v["set_aside"] == {"count": 12, "face_down": 12, "acquitted": []}
    assert v["discarded"] == {"count": 0, "cards": []}
    assert v["momentum_box"] == 7
    assert v["pool"] == {"red": 4, "white": 3, "blue": 0}
    assert v["blue_cube"] == "W"
    assert v["two_case_mode"] is False
    assert state.to_move() == 0 and v["awaiting"] == "player"
    assert state.legal_actions() == [{"type": "hear"}] == v["legal_actions"]


def test_a_bad_shuffle_is_refused():
    """The 12 set aside are red: "Separate the 3 blue Accused Cards" before setting aside."""
    state = registry.get("tribunal").new_state({})
    good = state.sample_chance(random.Random(2))
    blue = next(name for name in good["deck"] if name.startswith("blue"))
    swapped_aside = [blue, *good["set_aside"][1:]]
    swapped_deck = [good["set_aside"][0] if n == blue else n for n in good["deck"]]
    for bad in (
        {"type": "shuffle", "set_aside": swapped_aside, "deck": swapped_deck},
        {"type": "shuffle", "set_aside": good["set_aside"], "deck": good["deck"][:-1]},
        {"type": "shuffle", "set_aside": good["set_aside"], "deck": [*good["deck"], "accused-01"]},
    ):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    with pytest.raises(MalformedInput):
        state.apply({"type": "shuffle", "set_aside": "all", "deck": []})
    assert state.phase == "shuffle"


def test_deck_order_is_secret_from_everyone():
    """The deck and the 12 set aside are face down: two shuffles look the same to every viewer
    until the top card is read."""
    first = registry.get("tribunal").new_state({})
    second = first.clone()
    first.apply(first.sample_chance(random.Random(1)))
    second.apply(second.sample_chance(random.Random(2)))
    for viewer in (PUBLIC, HOST, Viewer.seat(0)):
        assert json.dumps(first.view(viewer)) == json.dumps(second.view(viewer))
    assert first.reveals_hidden({"type": "hear"})
    first.apply({"type": "hear"})
    assert view(first)["cases"][0]["card"] == first.cases[0]


def test_first_matching_cube_decides_by_default():
    """ "The first cube drawn from the Judgment Pool is red. The defendant is found guilty."
    (Example 1): the second cube is only drawn when the first does not match."""
    state = start()
    events = judge(state, "guilty", "red")
    assert state.board.drawn == ["red"]
    assert {"event": "judgment", "verdict": "guilty", "passed": True} in events
    assert state.phase == "sentence"
    with pytest.raises(IllegalAction):
        state.apply({"type": "draw", "cube": "white"})


def test_second_draw_always_option():
    """ "you will draw two cubes (one at a time)": with second_draw "always" both are drawn."""
    state = start({"second_draw": "always"})
    judge(state, "guilty", "red")
    assert state.to_move() is CHANCE
    state.apply({"type": "draw", "cube": "white"})
    assert state.board.drawn == ["red", "white"]
    assert state.judgment == "guilty"
    assert view(state)["pool"] == {"red": 3, "white": 2, "blue": 0}


def test_neither_cube_matching_gives_the_drawn_verdict():
    """ "If neither cube matches, judgment will be in favor of the drawn verdict." """
    state = start()
    judge(state, "guilty", "white", "white")
    assert state.judgment == "not_guilty"
    state = start()
    judge(state, "not_guilty", "red", "red")
    assert state.judgment == "guilty"


def test_a_cube_not_in_the_bag_cannot_be_drawn():
    """ "you will draw two cubes (one at a time) from the judgment pool": only cubes in the bag."""
    state = start()
    judge(state, "guilty")
    with pytest.raises(IllegalAction):
        state.apply({"type": "draw", "cube": "blue"})
    with pytest.raises(MalformedInput):
        state.apply({"type": "draw", "cube": "green"})
    assert state.board.drawn == []


def test_guilty_card_to_the_discarded_and_cubes_to_the_pool():
    """ "If Guilty, ... place the Accused Card among the discarded and return the drawn cubes to
    the Judgment Pool." """
    state = start()
    judge(state, "guilty", "white", "red")
    card = state.cases[0]
    end(state)
    v = view(state)
    assert v["discarded"]["cards"] == [card]
    assert v["pool"] == {"red": 4, "white": 3, "blue": 0}
    assert v["deck"]["count"] == 23
    assert state.phase == "hear"


def test_not_guilty_returns_missing_red_cubes_to_the_momentum_box():
    """ "If Not Guilty, ... place the Accused Card among the 12 set aside during setup. Finally,
    return all missing red cubes to the Momentum Box and return the other drawn cubes to the
    Judgment Pool." Missing: the cubes missing from the box (docs/rules-notes.md)."""
    state = start()
    judge(state, "guilty", "red")
    tap(state, "momentum", 3)
    end(state)
    assert (state.board.box, state.board.red) == (4, 7)
    judge(state, "not_guilty", "red", "white")
    card = state.cases[0]
    end(state)
    v = view(state)
    assert v["momentum_box"] == 7
    assert v["pool"] == {"red": 4, "white": 3, "blue": 0}
    assert v["set_aside"] == {"count": 13, "face_down": 12, "acquitted": [card]}


def test_missing_reds_drawn_option():
    """Alternative reading: only the drawn red cubes are "missing" and go to the box."""
    state = start({"missing_reds": "drawn"})
    judge(state, "guilty", "red")
    tap(state, "momentum", 3)
    end(state)
    judge(state, "not_guilty", "red", "white")
    end(state)
    assert (state.board.box, state.board.red, state.board.white) == (5, 6, 3)


def test_blue_cube_enters_with_legitimacy_on_w_and_returns_only_then():
    """ "The wild token (blue) is counted as a favorable verdict, but it is only returned to the
    Judgment Pool if the Legitimacy Marker is in the "W" space on its vine." """
    state = start()
    judge(state, "guilty", "red")
    tap(state, "legitimacy_up", 2)
    assert state.options.vine.label(state.board.legitimacy) == "W"
    assert view(state)["pool"]["blue"] == 1
    end(state)
    judge(state, "not_guilty", "blue")
    assert state.judgment == "not_guilty"
    tap(state, "legitimacy_down")
    end(state)
    assert view(state)["blue_cube"] == "W" and view(state)["pool"]["blue"] == 0
    judge(state, "guilty", "red")
    tap(state, "legitimacy_up")
    assert view(state)["pool"]["blue"] == 1
    end(state)
    judge(state, "guilty", "blue")
    assert state.judgment == "guilty"
    end(state)
    assert view(state)["blue_cube"] == "pool" and view(state)["pool"]["blue"] == 1


def test_momentum_moves_red_cubes_from_the_box_to_the_pool():
    """ "Each time Momentum is added, red cubes are taken from the Momentum Box and added to the
    Judgement Pool" """
    state = start()
    judge(state, "guilty", "red")
    tap(state, "momentum", 2)
    assert (state.board.box, state.board.red) == (5, 5)


def test_momentum_with_an_empty_box_lowers_legitimacy():
    """ "If the Momentum Box is empty when instructed to add momentum, lower Legitimacy one space
    for each cube you are unable to add." """
    state = start()
    judge(state, "guilty", "red")
    tap(state, "momentum", 3)
    tap(state, "momentum", 3)
    tap(state, "reputation_down")  # make room: Reputation 3 -> 2
    tap(state, "momentum", 3)  # one cube, then two missing: Legitimacy 4 -> 3 -> (2 taken) 1
    assert state.board.box == 0
    assert positions(state) == (1, 2)


def test_empty_box_splits_the_deck_and_two_cases_are_heard_at_once():
    """ "If the Momentum Box becomes empty, divide the Accused Deck into two approximately even
    stacks. For the rest of the game, you will hear two cases at a time and assign a single
    judgment for both defendants. Carry out the sentences for each card one at a time in full. You
    may do so for the cards in any order." """
    state = start()
    judge(state, "guilty", "red")
    events = tap(state, "momentum", 3) + tap(state, "momentum", 3) + tap(state, "momentum", 1)
    assert {"event": "deck_split", "stacks": [12, 11]} in events
    end(state)
    judge(state, "guilty", "white", "red")
    first, second = state.cases
    assert state.phase == "choose"
    assert state.legal_actions() == [
        {"type": "sentence", "card": first},
        {"type": "sentence", "card": second},
    ]
    state.apply({"type": "sentence", "card": second})
    assert state.board.drawn == ["white", "red"]
    end(state)
    assert state.sentence == first  # the last sentence starts by itself
    assert state.board.drawn == ["white", "red"]  # cubes go back once, after both sentences
    end(state)
    assert state.board.drawn == [] and state.board.white == 3
    assert view(state)["discarded"]["cards"][-2:] == [second, first]
    # A Not Guilty judgment refills the box, but two cases are heard "for the rest of the game".
    judge(state, "not_guilty", "white")
    state.apply({"type": "sentence", "card": state.cases[0]})
    end(state)
    end(state)
    assert state.board.box == 7 and state.board.two_cases
    for _ in range(9):
        judge(state, "guilty", "red")
        state.apply({"type": "sentence", "card": state.cases[0]})
        end(state)
        end(state)
    assert view(state)["deck"]["stacks"] == [1, 0]
    judge(state, "guilty", "red")
    assert len(state.cases) == 1 and state.phase == "sentence"


def test_white_cubes_added_and_removed():
    """ "3 white cubes will represent the willingness of the court to exonerate the accused." """
    state = start()
    judge(state, "guilty", "white", "red")
    assert view(state)["white_supply"] == 0  # two in the bag, one drawn
    assert tap(state, "add_white")[-1] == {"event": "no_white_to_add"}
    tap(state, "remove_white")
    assert (state.board.white, view(state)["white_supply"]) == (1, 1)
    tap(state, "add_white")
    assert state.board.white == 2


def test_removing_a_white_cube_when_none_is_left_loses():
    """ "You will also lose if you are instructed to remove a white cube from the Judgment Pool and
    there are none (a hardening of the heart)." The drawn cube is out of the bag."""
    state = start()
    judge(state, "guilty", "white", "red")
    tap(state, "remove_white")
    tap(state, "remove_white")
    assert state.board.doom is None
    tap(state, "remove_white")
    assert state.board.doom == "a hardening of the heart"
    with pytest.raises(IllegalAction):
        tap(state, "momentum")
    end(state)
    assert state.outcome()["won"] is False
    assert state.outcome()["reason"] == "a hardening of the heart"
    assert state.to_move() is None and state.legal_actions() == []


def play_out(state):
    while not state.is_over():
        judge(state, "guilty", "red")
        while state.phase in ("sentence", "choose"):
            if state.phase == "choose":
                state.apply(state.legal_actions()[0])
            end(state)


def test_win_with_reputation_on_star_and_no_accused_left():
    """ "To win, you must have maximum Reputation (marked with a * on the vine) and no remaining
    Accused Cards." """
    state = start()
    judge(state, "guilty", "red")
    tap(state, "legitimacy_down")  # jumps below Reputation
    tap(state, "reputation_up", 3)
    tap(state, "reputation_up", 3)
    tap(state, "reputation_up", 1)
    assert state.options.vine.label(state.board.reputation) == "*"
    end(state)
    play_out(state)
    assert state.outcome()["won"] is True
    assert state.outcome()["winners"] == [0]
    assert state.hearings == 24
    assert view(state)["discarded"]["count"] == 24


def test_no_accused_left_without_star_loses():
    """ "To win, you must have maximum Reputation (marked with a * on the vine) and no remaining
    Accused Cards": the last judgment done without Reputation on * is a loss."""
    state = start()
    play_out(state)
    assert state.outcome() == {
        "won": False,
        "reason": "Reputation not on *",
        "winners": [],
        "reputation": "R",
        "legitimacy": "L",
        "hearings": 24,
    }


def test_undo_reverts_the_last_effect_and_never_redraws():
    """A mis-tapped effect is undone as a journaled action; the drawn cubes stay drawn."""
    journal = Journal("tribunal", {})
    state = registry.get("tribunal").new_state({})
    for action in [
        state.sample_chance(random.Random(4)),
        {"type": "hear"},
        {"type": "verdict", "verdict": "guilty"},
        {"type": "draw", "cube": "red"},
        {"type": "effect", "effect": "momentum", "n": 3},
        {"type": "effect", "effect": "momentum", "n": 3},
        {"type": "effect", "effect": "momentum", "n": 1},
        {"type": "effect", "effect": "reputation_down", "n": 3},
    ]:
        state.apply(action)
        journal.append(action)
    assert state.board.two_cases and state.board.doom
    for _ in range(2):
        state.apply({"type": "undo"})
        journal.append({"type": "undo"})
    assert state.board.doom is None and not state.board.two_cases
    assert (state.board.box, positions(state), state.board.drawn) == (1, (4, 3), ["red"])
    assert state.to_move() == 0 and state.phase == "sentence"
    assert [e["n"] for e in view(state)["sentence"]["done"]] == [3, 3]
    assert view(state)["log"][-1] == {"event": "undo", "effect": "momentum", "n": 1}
    replayed, _ = replay(Journal.from_json(json.loads(json.dumps(journal.to_json()))))
    assert json.dumps(replayed.view(PUBLIC)) == json.dumps(view(state))
    state.apply({"type": "undo"})
    state.apply({"type": "undo"})
    with pytest.raises(IllegalAction):
        state.apply({"type": "undo"})
    assert state.board.box == 7


def test_effect_buttons():
    """The vocabulary of effects, amounts 1 to 3 (tap again for more), then end of sentence."""
    state = start()
    judge(state, "guilty", "red")
    legal = state.legal_actions()
    assert {"type": "effect", "effect": "momentum", "n": 3} in legal
    assert {"type": "effect", "effect": "remove_white", "n": 1} in legal
    assert {"type": "effect", "effect": "remove_white", "n": 2} not in legal
    assert legal[-1] == {"type": "end_sentence"}
    assert len(legal) == 5 * 3 + 2 + 1
    for bad in (
        {"type": "effect", "effect": "momentum", "n": 4},
        {"type": "effect", "effect": "momentum", "n": "1"},
        {"type": "effect", "effect": "bribe", "n": 1},
        {"type": "effect"},
    ):
        with pytest.raises(MalformedInput):
            state.apply(bad)
    assert state.undo_stack == []


def test_malformed_and_out_of_order_actions():
    """ "Each turn, read the description provided on the top Accused Card ... You must then decide
    on your verdict. After choosing a verdict, you will draw two cubes": in that order only."""
    state = start()
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "bribe"})
    assert error.value.field == "action.type"
    with pytest.raises(MalformedInput):
        state.apply(["hear"])
    with pytest.raises(IllegalAction):
        state.apply({"type": "verdict", "verdict": "guilty"})
    state.apply({"type": "hear"})
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "verdict", "verdict": "innocent"})
    assert error.value.field == "action.verdict"
    with pytest.raises(IllegalAction):
        state.apply({"type": "name_card", "case": 0, "card": "accused-20"})
    with pytest.raises(IllegalAction):
        state.sample_chance(random.Random(1))


def test_bad_options_are_malformed():
    """Unknown options are an error, not a silent default (DESIGN.md)."""
    new = registry.get("tribunal").new_state
    with pytest.raises(MalformedInput) as error:
        new({"vines": "default"})
    assert error.value.field == "vines"
    with pytest.raises(MalformedInput) as error:
        new({"second_draw": "never"})
    assert error.value.field == "second_draw"
    with pytest.raises(MalformedInput) as error:
        new({"deck": [{"name": "only one"}]})
    assert error.value.field == "deck"


def test_an_empty_bag_lets_the_chosen_verdict_stand():
    """Not reachable with the default rulings; the chosen verdict stands unopposed."""
    state = start()
    state.board.red = state.board.white = 0
    judge(state, "not_guilty")
    assert state.judgment == "not_guilty" and state.phase == "sentence"


JUNK_VALUES = [None, 0, -1, 99, True, "", "red", "guilty", [], ["x"], {}, {"a": 1}, 2.5]


def test_junk_actions_raise_typed_errors_and_change_nothing():
    """Bad input gets a typed error naming the field or the rule, never a crash."""
    rng = random.Random(8)
    journal = Journal("tribunal", {"deck": deck_with()})
    state, _ = replay(journal)
    checked = 0
    while not state.is_over() and checked < 3000:
        before = json.dumps(view(state))
        for _ in range(10):
            action = {"type": rng.choice([*ACTION_TYPES, "nope", 3])}
            for key in rng.sample(["verdict", "cube", "card", "case", "effect", "n", "deck"], 3):
                action[key] = rng.choice(JUNK_VALUES)
            if action in state.legal_actions():
                continue
            with pytest.raises((IllegalAction, MalformedInput)):
                state.apply(action)
            assert json.dumps(view(state)) == before
            checked += 1
        if state.to_move() is CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_clone_is_independent():
    state = start()
    judge(state, "guilty", "red")
    copy = state.clone()
    tap(copy, "momentum", 2)
    assert state.board.box == 7 and copy.board.box == 5
    assert copy.options is state.options
