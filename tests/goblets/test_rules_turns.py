"""Raise Your Goblets, 4-6 players: the Main Course (turns and actions), enforced."""

from __future__ import annotations

import json

import pytest
from engine_helpers import act, passes, start

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import HOST, PUBLIC, Viewer
from companion.core.games.goblets import rules


def snapshot(state):
    return json.dumps(
        [state.view(v) for v in (PUBLIC, HOST, *map(Viewer.seat, range(state.num_seats)))],
        sort_keys=True,
    ) + json.dumps([state.goblets, state.goblet_at, state.screens, state.pool], sort_keys=True)


def refused(state, action, rule):
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert error.value.rule == rule
    assert snapshot(state) == before


def test_pour_places_a_token_from_behind_your_screen_into_any_goblet():
    """Pour: "Secretly place one of the tokens from behind your screen into any Goblet (not just
    your own)." """
    state = start(4)
    act(state, "pour", place=3, token="poison")
    assert state.screens[1] == {"wine": 3, "poison": 1, "antidote": 2}
    assert state.contents_at(3) == {"wine": 1, "poison": 1}


def test_pour_needs_the_token_behind_your_screen():
    """Pour takes "one of the tokens from behind your screen": none left, no pour."""
    state = start(4)
    act(state, "pour", place=0, token="poison")
    act(state, "pour", place=0, token="poison")
    passes(state, 3)
    refused(state, {"type": "pour", "seat": 1, "place": 0, "token": "poison"}, rules.POUR)
    refused(state, {"type": "pour", "seat": 1, "place": 0, "token": "ogre_poison"}, rules.POUR)


def test_pour_is_secret_nobody_else_sees_the_kind():
    """ "Secretly place one of the tokens" -- the table sees who poured where, not what."""
    state = start(4)
    events = act(state, "pour", place=2, token="antidote")
    public = [e for e in events if "to" not in e]
    assert public == [{"event": "pour", "place": 2, "ring": "aconitiers", "seat": 1}]
    assert "antidote" not in json.dumps(state.view(PUBLIC))
    assert "antidote" not in json.dumps(state.view(Viewer.seat(2))["places"])
    assert state.view(Viewer.seat(1))["you"]["screen"]["antidote"] == 1
    assert state.view(Viewer.seat(2))["you"]["screen"]["antidote"] == 2


def test_show_pourer_false_hides_who_poured():
    """The table option ``show_pourer``: false hides who poured (never what)."""
    state = start(4, show_pourer=False)
    events = act(state, "pour", place=2, token="wine")
    assert [e for e in events if "to" not in e] == [
        {"event": "pour", "place": 2, "ring": "aconitiers"}
    ]


def test_peek_shows_your_goblet_only_to_you():
    """Peek: "Look into Your Goblet to see which tokens are in it (this is an exception to The
    Arm's Length Rule)." """
    state = start(4)
    act(state, "peek")
    mine = state.view(Viewer.seat(1))["you"]["peeks"]
    assert mine == [
        {"course": 1, "turn": 1, "place": 1, "ring": "mctoadery", "contents": {"poison": 1}}
    ]
    for viewer in (PUBLIC, HOST, Viewer.seat(0), Viewer.seat(2)):
        assert "contents" not in json.dumps(state.view(viewer))


def test_rotate_moves_every_goblet_one_place():
    """Rotate: "Move all of the Goblets one place in the same direction, clockwise or
    widdershins" """
    state = start(4)
    act(state, "rotate", direction="clockwise")
    assert [state.ring_at(p) for p in range(4)] == [
        "wespendorf",
        "de_miceti",
        "mctoadery",
        "aconitiers",
    ]
    act(state, "rotate", direction="widdershins")
    assert [state.ring_at(p) for p in range(4)] == [
        "de_miceti",
        "mctoadery",
        "aconitiers",
        "wespendorf",
    ]
    with pytest.raises(MalformedInput) as error:
        act(state, "rotate", direction="sideways")
    assert error.value.field == "direction"


def test_swap_exchanges_your_goblet_with_another_players():
    """Swap: "Exchange Your Goblet for that of another player." """
    state = start(4)
    act(state, "swap", **{"with": 3})
    assert state.ring_at(1) == "wespendorf"
    assert state.ring_at(3) == "mctoadery"
    assert state.contents_at(1) == {"wine": 1}
    refused(state, {"type": "swap", "seat": 1, "with": 1}, rules.SWAP)


def test_up_to_two_actions_then_the_next_player():
    """ "each player in turn may perform up to two actions" and "You CAN perform the same action
    twice in the same turn" """
    state = start(4)
    act(state, "rotate", direction="clockwise")
    assert state.to_move() == 1
    act(state, "rotate", direction="clockwise")
    assert state.to_move() == 2


def test_one_or_zero_actions():
    """ "You CAN perform one or zero actions" and "You can pass without performing an action." """
    state = start(4)
    act(state, "pass")
    assert state.to_move() == 2
    act(state, "peek")
    act(state, "pass")
    assert state.to_move() == 3


def test_not_your_turn_is_refused():
    """ "each player in turn may perform up to two actions" -- only the player whose turn it is."""
    state = start(4)
    refused(state, {"type": "peek", "seat": 2}, rules.TURNS)


def test_unknown_action_is_malformed():
    """Bad input gets a clear typed error naming the field."""
    state = start(4)
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "dance", "seat": 1})
    assert error.value.field == "type"
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "pour", "seat": 1, "place": 9, "token": "wine"})
    assert error.value.field == "place"
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "pour", "seat": 1, "place": 0, "token": "milk"})
    assert error.value.field == "token"
    with pytest.raises(MalformedInput):
        state.apply(["pour"])


def empty_wine(state, seat_goblet=3):
    """Seat 1 pours its 3 Wine into the Goblet at ``seat_goblet`` over two turns."""
    act(state, "pour", place=seat_goblet, token="wine")
    act(state, "pour", place=seat_goblet, token="wine")
    passes(state, 3)
    act(state, "pour", place=seat_goblet, token="wine")
    act(state, "pass")
    passes(state, 3)


def test_toast_only_with_no_wine_behind_the_screen_at_the_start_of_the_turn():
    """Toast: "only if you have no Wine tokens left behind your screen at the beginning of your
    turn." """
    state = start(4)
    refused(state, {"type": "toast", "seat": 1}, rules.TOAST)
    act(state, "pour", place=3, token="wine")
    act(state, "pour", place=3, token="wine")
    passes(state, 3)
    act(state, "pour", place=3, token="wine")  # no Wine left now, but there was at the start
    refused(state, {"type": "toast", "seat": 1}, rules.TOAST)
    act(state, "pass")
    passes(state, 3)
    assert {"type": "toast", "seat": 1} in state.legal_actions()


def test_toast_only_as_first_and_only_action():
    """Toast: "You can only perform this action as your first (and only) action on your turn" """
    state = start(4)
    empty_wine(state)
    act(state, "peek")
    refused(state, {"type": "toast", "seat": 1}, rules.TOAST)


def test_toast_ends_the_course_and_starts_the_toast_phase_from_the_callers_left():
    """ "Call the Toast! The Course ends immediately" and "Starting with the player to the left of
    the Toast Caller and proceeding clockwise, each player may perform one last action. The Toast
    Caller will be the last one to perform this final action." """
    state = start(4)
    empty_wine(state)
    events = act(state, "toast")
    assert events == [{"event": "toast_called", "seat": 1}]
    order = []
    while state.steps[0].kind == "final":
        order.append(state.to_move())
        act(state, "rotate", direction="clockwise")  # one action, then the next player
    assert order == [2, 3, 0, 1]
    assert state.steps[0].kind == "reveal"


def test_no_toast_in_the_toast_phase():
    """The Toast Phase gives "one last action": Pour, Peek, Rotate, Swap or Pass, not a Toast."""
    state = start(4)
    empty_wine(state)
    act(state, "toast")
    assert all(a["type"] != "toast" for a in state.legal_actions())
    passes(state, 3)
    refused(state, {"type": "toast", "seat": 1}, rules.TOAST_PHASE)


def test_reveal_scores_the_rulebook_table():
    """ "For each Antidote token in Your Goblet, remove 1 Poison token. If after this Your Goblet
    still contains at least 1 Poison token, you have been poisoned." and "You score: 1 VP if you
    survived; 1 VP if your Target has been poisoned; +1 VP extra if you achieved both of the above
    goals; 1 VP if you have the most Wine tokens in Your Goblet" """
    state = start(4, hidden_vp=False)
    empty_wine(state)  # Goblets: antidote | poison | poison | 4 wine
    act(state, "toast")
    passes(state, 4)
    events = act(state, "reveal")
    revealed = next(e for e in events if e["event"] == "revealed")
    assert [p["poisoned"] for p in revealed["places"]] == [False, True, True, False]
    assert [p["most_wine"] for p in revealed["places"]] == [False, False, False, True]
    assert revealed["places"][3]["contents"] == {"wine": 4}
    # Targets: each place targets the next House.
    assert state.vp == [3, 1, 0, 2]
    assert next(e for e in events if e["event"] == "scored")["vp"] == [3, 1, 0, 2]


def test_reveal_takes_the_goblet_in_front_no_matter_its_coaster():
    """ "each player takes the Goblet in front of them, no matter the color of its Coaster, and
    reveals its contents" """
    state = start(4, hidden_vp=False)
    empty_wine(state)
    act(state, "toast")
    act(state, "swap", **{"with": 3})  # seat 2 takes the 4-Wine Goblet
    passes(state, 3)
    events = act(state, "reveal")
    revealed = next(e for e in events if e["event"] == "revealed")
    assert revealed["places"][2]["ring"] == "wespendorf"
    assert revealed["places"][2]["contents"] == {"wine": 4}
    assert revealed["places"][2]["most_wine"]


def test_screens_are_discarded_after_the_course():
    """ "All players must discard any tokens they still have behind their screens." """
    state = start(4)
    empty_wine(state)
    act(state, "toast")
    passes(state, 4)
    act(state, "reveal")
    assert state.phase == "initial_pour"
    assert state.course == 2
    # the new Course's supply only: the leftovers went to the discard, back to the pool
    assert state.screens[1] == {"wine": 3, "poison": 2, "antidote": 2}
    assert all(not goblet for goblet in state.goblets)


def test_the_last_toast_caller_is_the_next_host():
    """ "The player who most recently called a toast (in game or otherwise) is the Host." """
    state = start(4)
    empty_wine(state)
    act(state, "toast")
    passes(state, 4)
    act(state, "reveal")
    assert state.host == 1
    assert state.view(PUBLIC)["host"] == 1


def test_nobody_sees_goblet_contents_before_the_reveal_not_even_the_host():
    """ "all players must keep all Goblets at arms length at all times" -- contents are seen only
    at the reveal (and by a peeking player)."""
    state = start(4)
    empty_wine(state)
    act(state, "toast")
    passes(state, 4)
    for viewer in (PUBLIC, HOST, *map(Viewer.seat, range(4))):
        assert "contents" not in json.dumps(state.view(viewer))
    act(state, "reveal")
    assert "contents" in json.dumps(state.view(PUBLIC))
