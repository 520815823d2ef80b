"""Russian Goblette, rule by rule (companion/core/games/goblets/russian.py).

Each test's docstring quotes the rulebook sentence it checks (Desserts, "Russian Goblette (2 and 3
players)", and the normal rules it keeps).
"""

from __future__ import annotations

import json
import random

import pytest

from companion.core.errors import AmbiguousObservation, IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Mode, Viewer
from companion.core.games.goblets import russian_rules as rules
from companion.core.games.goblets.russian import GOBLETS, new_russian_state

POUR = ["wine", "wine", "wine", "poison", "poison", "antidote"]


def start(pour=POUR, **options):
    state = new_russian_state({"variant": "russian_goblette", **options})
    state.apply({"type": "initial_pour", "tokens": list(pour)})
    return state


def act(state, *actions, mode=Mode.ENFORCING):
    events = []
    for action in actions:
        events.extend(state.apply(action, mode))
    return events


def pour(seat, token, goblet):
    return {"type": "pour", "seat": seat, "token": token, "place": goblet}


def pas(seat):
    return {"type": "pass", "seat": seat}


def toast(seat):
    return {"type": "toast", "seat": seat}


def drink(seat, goblet):
    return {"type": "drink", "seat": seat, "place": goblet}


def peek(seat, goblet):
    return {"type": "peek", "seat": seat, "place": goblet}


def swap(seat, p, q):
    return {"type": "swap", "seat": seat, "places": [p, q]}


def toast_by_seat0(state, wine_goblets=(0, 0, 0), seat1=(None, None, None)):
    """Seat 0 (Host 1 by default) pours its 3 Wine, seat 1 answers, then seat 0 toasts."""
    for goblet, answer in zip(wine_goblets, seat1, strict=True):
        act(state, pour(0, "wine", goblet), answer or pas(1))
    act(state, toast(0))


def views(state):
    viewers = [PUBLIC, HOST, *(Viewer.seat(i) for i in range(state.num_seats))]
    return [json.dumps(state.view(v), sort_keys=True) for v in viewers]


def test_screens_and_initial_pour():
    """ "Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool and puts them
    behind their screen. Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens so that the
    total number of tokens is equal to the number of Goblets [...] Then randomly "pour" 1 token
    into each of the Goblets." -- with "all 6 Goblets in a row"."""
    state = new_russian_state({"players": 3})
    assert state.to_move() is CHANCE and state.legal_actions() == []
    screen = state.view(Viewer.seat(2))["screen"]
    assert {k: v for k, v in screen.items() if v} == {"wine": 3, "poison": 2, "antidote": 2}
    for seed in range(10):
        action = state.sample_chance(random.Random(seed))
        assert len(action["tokens"]) == GOBLETS == 6
        assert sorted(action["tokens"]) == sorted(["antidote", "poison", "poison", *["wine"] * 3])
    with pytest.raises(IllegalAction) as error:
        state.apply({"type": "initial_pour", "tokens": ["wine"] * 6})
    assert error.value.rule == rules.RULE_INITIAL_POUR


def test_turns_start_left_of_host_one_single_action():
    """ "Players take turns performing 1 single action." Turns start "with the player to the Host's
    left"."""
    state = start(players=3, host=1)
    assert state.to_move() == 2
    act(state, pour(2, "poison", 4))
    assert state.to_move() == 0
    before = views(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(pour(2, "poison", 4))  # a second action in the same turn
    assert error.value.rule == rules.RULE_ONE_ACTION
    assert views(state) == before


def test_no_rotate():
    """ "All actions work like in a normal game, except for ROTATE (you can't Rotate in a 2-3
    player game)"."""
    state = start(host=1)
    assert all(a["type"] != "rotate" for a in state.legal_actions())
    before = views(state)
    with pytest.raises(IllegalAction) as error:
        state.apply({"type": "rotate", "seat": 0, "direction": "clockwise"})
    assert error.value.rule == rules.RULE_NO_ROTATE
    assert views(state) == before


def test_sensed_rotate_is_recorded_with_a_warning():
    """Sensed reality wins: a Rotate seen on the table shifts the row, with a rule warning
    ("you can't Rotate in a 2-3 player game")."""
    state = start(host=1)
    events = act(
        state, {"type": "rotate", "seat": 0, "direction": "clockwise"}, mode=Mode.RECORDING
    )
    assert events[1]["event"] == "rule_warning" and events[1]["rule"] == rules.RULE_NO_ROTATE
    assert state.goblets[0] == {**state.goblets[0], "antidote": 1}  # the end goblet wrapped round
    assert state.goblets[1]["wine"] == 1 and state.to_move() == 1


def test_swap_any_two_goblets():
    """ "SWAP (when you Swap, you can swap the position of any two Goblets: no player has "Their
    Goblet")"."""
    state = start(host=1)
    swaps = [a["places"] for a in state.legal_actions() if a["type"] == "swap"]
    assert len(swaps) == 15 and [0, 5] in swaps
    act(state, swap(0, 0, 5), peek(1, 0), peek(0, 5))
    assert state.view(Viewer.seat(1))["peeks"] == [{"place": 0, "contents": {"antidote": 1}}]
    assert state.view(Viewer.seat(0))["peeks"] == [{"place": 5, "contents": {"wine": 1}}]
    with pytest.raises(IllegalAction) as error:
        state.apply(swap(1, 2, 2))
    assert error.value.rule == rules.RULE_SWAP


def test_pour_a_token_from_behind_your_screen_into_any_goblet():
    """ "Secretly place one of the tokens from behind your screen into any Goblet (not just your
    own)."."""
    state = start(host=1)
    act(state, pour(0, "antidote", 3), pas(1), pour(0, "antidote", 4), pas(1))
    assert state.view(Viewer.seat(0))["screen"]["antidote"] == 0
    assert {"type": "pour", "seat": 0, "token": "antidote", "place": 1} not in (
        state.legal_actions()
    )
    with pytest.raises(IllegalAction) as error:
        state.apply(pour(0, "antidote", 1))
    assert error.value.rule == rules.RULE_POUR
    # Sensed: a token from outside the screen (the pool) is recorded, with a warning.
    events = act(state, pour(0, "antidote", 1), mode=Mode.RECORDING)
    assert events[1]["rule"] == rules.RULE_POUR
    assert state.goblets[1]["antidote"] == 1 and state.pool["antidote"] == 14 - 4 - 1 - 1


def test_toast_only_with_no_wine_behind_the_screen():
    """ "You can only perform this action as your first (and only) action on your turn, and only if
    you have no Wine tokens left behind your screen at the beginning of your turn." With one action
    per turn, a Toast is always the first and only action."""
    state = start(host=1)
    assert toast(0) not in state.legal_actions()
    with pytest.raises(IllegalAction) as error:
        state.apply(toast(0))
    assert error.value.rule == rules.RULE_TOAST
    act(state, pour(0, "wine", 0), pas(1), pour(0, "wine", 0), pas(1), pour(0, "wine", 0), pas(1))
    assert toast(0) in state.legal_actions()
    events = act(state, toast(0))
    assert events[1] == {"event": "toast_phase", "toast_caller": 0, "order": [1, 0]}


def test_sensed_toast_with_wine_is_recorded_with_a_warning():
    """A Toast called "with Wine tokens left behind your screen" on a real table is recorded."""
    state = start(host=1)
    events = act(state, toast(0), mode=Mode.RECORDING)
    assert events[1]["event"] == "rule_warning" and events[1]["rule"] == rules.RULE_TOAST
    assert state.phase == "toast" and state.to_move() == 1


def test_toast_phase_one_final_action_each_caller_last():
    """ "Starting with the player to the left of the Toast Caller and proceeding clockwise, each
    player may perform one last action. The Toast Caller will be the last one to perform this
    final action." -- one final action each (a Russian turn is already one action)."""
    state = start(players=3, host=1)  # seat 2 starts
    act(state, pour(2, "wine", 1), pas(0), pas(1), pour(2, "wine", 1), pas(0), pas(1))
    act(state, pour(2, "wine", 1), pas(0), pas(1), toast(2))
    assert state.to_move() == 0
    assert toast(0) not in state.legal_actions()
    with pytest.raises(IllegalAction) as error:
        state.apply(pas(2))  # the caller acts last
    assert error.value.rule == rules.RULE_FINAL
    act(state, swap(0, 0, 1), pour(1, "poison", 2))
    assert state.to_move() == 2
    events = act(state, peek(2, 2))
    assert events[-1] == {"event": "drinking", "first": 0}
    assert state.phase == "drinking"


def test_drinking_poisoned_are_eliminated_last_survivor_wins():
    """ "After the Toast, the player to the left of the Toast Caller "drinks" any one of the Goblets
    and reveals its contents: If they are poisoned, they are eliminated for the Course. [...] until
    there is only one survivor (who wins the round)"."""
    state = start(host=1)
    toast_by_seat0(state)
    act(state, pas(1), pas(0))
    assert state.to_move() == 1  # left of the Toast Caller
    assert {a["type"] for a in state.legal_actions()} == {"drink"}
    events = act(state, drink(1, 3))
    assert events[0] == {
        "event": "drink",
        "seat": 1,
        "place": 3,
        "contents": {"poison": 1},
        "poisoned": True,
    }
    course = events[1]
    assert course["event"] == "course_over" and course["winners"] == [0]
    assert state.vp == [1, 0] and state.course == 2


def test_survivors_keep_contents_most_wine_wins():
    """ "If not, they keep the contents of the Goblet in front of them. The next player then chooses
    a Goblet, and so on, [...] or until all of the Goblets have been chosen. In case of 2 or more
    surviving players, the surviving player with the most Wine tokens in front of them is the
    winner of the Course."."""
    state = start(host=1)
    toast_by_seat0(state, seat1=(pour(1, "antidote", 3), pour(1, "antidote", 4), None))
    act(state, pas(1), pas(0))
    act(state, drink(1, 0), drink(0, 1), drink(1, 3), drink(0, 2), drink(1, 4))
    assert state.view(PUBLIC)["kept"] == [{"wine": 2}, {"wine": 4, "poison": 2, "antidote": 2}]
    with pytest.raises(IllegalAction) as error:
        state.apply(drink(0, 4))  # already chosen
    assert error.value.rule == rules.RULE_NEXT_DRINK
    events = act(state, drink(0, 5))
    assert events[1]["winners"] == [1] and events[1]["wine"] == [2, 4]
    assert state.vp == [0, 1]


def test_course_tie_all_tied_win():
    """ "If there's a tie, all tied players win the Course." and "Every time you win a Course, you
    gain 1 VP."."""
    state = start(host=1)
    toast_by_seat0(state, (0, 0, 1), seat1=(pour(1, "antidote", 3), pour(1, "antidote", 4), None))
    act(state, pas(1), pas(0))
    act(state, drink(1, 0), drink(0, 1), drink(1, 3), drink(0, 2), drink(1, 4))
    events = act(state, drink(0, 5))
    assert events[1]["wine"] == [3, 3] and events[1]["winners"] == [0, 1]
    assert state.vp == [1, 1]


def test_next_course_host_is_the_last_toast_caller_and_tokens_return():
    """ "The player who most recently called a toast (in game or otherwise) is the Host." and "All
    players must discard any tokens they still have behind their screens."."""
    state = start(host=1)
    toast_by_seat0(state)
    act(state, pas(1), pas(0), drink(1, 3))
    assert state.host == 0 and state.to_move() is CHANCE
    assert state.pool == {
        "wine": 21 - 6,
        "poison": 15 - 4,
        "antidote": 14 - 4,
        "unicorn_antidote": 1,
        "ogre_poison": 1,
    }
    state.apply({"type": "initial_pour", "tokens": POUR})
    assert state.to_move() == 1  # left of the new Host
    assert state.view(Viewer.seat(0))["peeks"] == [] and state.view(PUBLIC)["log"] == [
        {"event": "initial_poured", "course": 2}
    ]


def test_first_to_three_vp_wins():
    """ "The first player to obtain 3 VPs is the winner."."""
    state = start(host=1)
    for _ in range(3):
        if state.to_move() is CHANCE:
            state.apply({"type": "initial_pour", "tokens": POUR})
        # Seat 0 toasts each Course as soon as its Wine is gone; seat 1 drinks first.
        while state.to_move() == 1 or toast(0) not in state.legal_actions():
            seat = state.to_move()
            wine = [a for a in state.legal_actions() if a.get("token") == "wine"]
            act(state, wine[0] if seat == 0 else pas(1))
        act(state, toast(0))
        act(state, *(pas(s) for s in state.final_order))
        poisoned = next(p for p in range(6) if state.goblets[p]["poison"])
        act(state, drink(state.to_move(), poisoned))
    assert state.is_over() and state.to_move() is None and state.legal_actions() == []
    assert state.vp == [3, 0] and state.outcome()["winners"] == [0]
    assert len(state.outcome()["courses"]) == 3
    with pytest.raises(IllegalAction) as error:
        state.apply(pas(0))
    assert error.value.rule == rules.RULE_END


def test_tied_players_share_the_victory():
    """ "If there's a tie, all tied players share the victory." (here with vp_to_win 1)."""
    state = start(host=1, vp_to_win=1)
    toast_by_seat0(state, (0, 0, 1), seat1=(pour(1, "antidote", 3), pour(1, "antidote", 4), None))
    act(state, pas(1), pas(0))
    events = act(
        state, drink(1, 0), drink(0, 1), drink(1, 3), drink(0, 2), drink(1, 4), drink(0, 5)
    )
    assert events[-1] == {"event": "game_over", "winners": [0, 1], "vp": [1, 1]}
    assert state.outcome()["winners"] == [0, 1]


def test_peek_any_goblet_only_the_peeker_sees():
    """Peek: "Look into Your Goblet to see which tokens are in it" -- in Russian Goblette "no player
    has "Their Goblet"", so by default Peek looks into any one goblet (docs/rules-notes.md)."""
    state = start(host=1)
    act(state, peek(0, 5))
    assert state.view(Viewer.seat(0))["peeks"] == [{"place": 5, "contents": {"antidote": 1}}]
    assert state.view(Viewer.seat(1))["peeks"] == []
    for viewer in (PUBLIC, HOST, Viewer.seat(1)):
        assert "antidote" not in json.dumps(state.view(viewer)["log"])
    assert state.view(PUBLIC)["log"][-1] == {"event": "peek", "seat": 0, "place": 5}


def test_peek_none_option_refuses_peek():
    """Option ``peek: "none"``: with no "Your Goblet" the table may play without Peek."""
    state = start(host=1, peek="none")
    assert all(a["type"] != "peek" for a in state.legal_actions())
    with pytest.raises(IllegalAction) as error:
        state.apply(peek(0, 1))
    assert error.value.rule == rules.RULE_PEEK_NONE
    events = act(state, peek(0, 1), mode=Mode.RECORDING)
    assert events[1]["rule"] == rules.RULE_PEEK_NONE
    assert state.view(Viewer.seat(0))["peeks"] == [{"place": 1, "contents": {"wine": 1}}]


def test_nobody_sees_unrevealed_goblets_a_seat_sees_its_screen():
    """ "all players must keep all Goblets at arms length at all times [...] so that they can't see
    what's inside" and "Keep your VPs hidden behind your screen" -- the Host included."""
    first, second = start(host=1), start(pour=list(reversed(POUR)), host=1)
    act(first, pour(0, "poison", 2))
    act(second, pour(0, "antidote", 2))
    public, host, seat0, seat1 = views(first)
    assert [public, host, seat1] == [views(second)[i] for i in (0, 1, 3)]
    assert seat0 != views(second)[2]  # seat 0 sees its own screen
    assert "screen" not in first.view(PUBLIC) and "screen" not in first.view(HOST)
    assert first.hidden_alternatives(pour(0, "poison", 2), Viewer.seat(0)) == []
    alternatives = first.hidden_alternatives(pour(0, "poison", 2), PUBLIC)
    assert {a["token"] for a in alternatives} == {"wine", "antidote"}
    initial = {"type": "initial_pour", "tokens": POUR}
    assert len(first.hidden_alternatives(initial, HOST)) == 59  # 6!/(1!2!3!) - 1


def test_sensed_out_of_turn_is_recorded_and_impossible_is_ambiguous():
    """Sensed play (DESIGN principle 6): "Players take turns" broken on the table is recorded with
    a warning; a drink before the Toast cannot be explained and goes to the host."""
    state = start(host=1)
    events = act(state, pas(1), mode=Mode.RECORDING)
    assert events[1]["rule"] == rules.RULE_ONE_ACTION
    assert state.to_move() == 0
    with pytest.raises(AmbiguousObservation):
        state.apply(drink(0, 1), Mode.RECORDING)
    with pytest.raises(IllegalAction) as error:
        state.apply(drink(0, 1))
    assert error.value.rule == rules.RULE_DRINK


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"players": 4}, "players"),
        ({"players": "2"}, "players"),
        ({"host": 2}, "host"),
        ({"peek": "own"}, "peek"),
        ({"vp_to_win": 0}, "vp_to_win"),
        ({"variant": "winetasters"}, "variant"),
        ({"colour": "red"}, "colour"),
        ({"token_rules": {"nope": 1}}, "token_rules.nope"),
    ],
)
def test_bad_options_name_the_field(options, field):
    with pytest.raises(MalformedInput) as error:
        new_russian_state(options)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ([], "action"),
        ({"type": "juggle", "seat": 0}, "action.type"),
        ({"type": "pass"}, "action.seat"),
        ({"type": "pass", "seat": 2}, "action.seat"),
        ({"type": "pour", "seat": 0, "token": "water", "place": 0}, "action.token"),
        ({"type": "pour", "seat": 0, "token": "wine", "place": 6}, "action.place"),
        ({"type": "swap", "seat": 0, "places": [1]}, "action.places"),
        ({"type": "rotate", "seat": 0, "direction": "up"}, "action.direction"),
        ({"type": "initial_pour", "tokens": ["wine"]}, "action.tokens"),
    ],
)
def test_malformed_actions_name_the_field(action, field):
    state = start(host=1)
    with pytest.raises(MalformedInput) as error:
        state.apply(action)
    assert error.value.field == field


def test_eliminated_players_are_skipped_until_one_survivor():
    """ "If they are poisoned, they are eliminated for the Course. [...] The next player then
    chooses a Goblet, and so on, until there is only one survivor (who wins the round)" -- with 3
    players the eliminated one drinks no more."""
    state = start(players=3, host=1)  # seat 2 starts
    act(state, pour(2, "wine", 1), pas(0), pas(1), pour(2, "wine", 1), pas(0), pas(1))
    act(state, pour(2, "wine", 1), pas(0), pas(1), toast(2), pas(0), pas(1), pas(2))
    events = act(state, drink(0, 3))
    assert events[0]["poisoned"] and state.eliminated == [0]
    act(state, drink(1, 0), drink(2, 1))
    assert state.to_move() == 1  # seat 0 is skipped
    events = act(state, drink(1, 4))
    assert events[1]["event"] == "course_over" and events[1]["winners"] == [2]
    assert events[1]["survivors"] == [2] and state.vp == [0, 0, 1]


def test_no_character_cards_rings_or_targets():
    """ "Play without Character cards and Goblet rings." -- and with no Target cards: a Course is
    won by surviving with the most Wine, so a Target would score nothing (docs/rules-notes.md)."""
    state = start(players=3)
    for viewer in (PUBLIC, HOST, Viewer.seat(0)):
        view = state.view(viewer)
        assert not {"characters", "rings", "targets", "target"} & set(view)
        assert view["variant"] == "russian_goblette" and len(view["goblets"]) == 6
