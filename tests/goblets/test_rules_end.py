"""Raise Your Goblets: three Courses, the end of the game, the tie-break shoot-out, hidden VP."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import act, call_toast, finish_toast, new, passes, setup, start

from companion.core.errors import IllegalAction
from companion.core.game import CHANCE, HOST, PUBLIC, Viewer

TIE_TARGETS = ["aconitiers", "de_miceti", "wespendorf", "mctoadery"]


def play_tie(state):
    act(state, "pour", place=0, token="wine")
    act(state, "pour", place=0, token="wine")
    passes(state, 3)
    act(state, "pour", place=3, token="wine")
    act(state, "pass")
    passes(state, 3)
    act(state, "toast")
    passes(state, 4)
    return act(state, "reveal")


def fresh_tie(**options):
    """One Course that will end with seats 0 and 3 tied on 3 VP (seat 1 calls the Toast)."""
    state = new(players=4, courses=1, characters=[], **options)
    return setup(state, targets=TIE_TARGETS)


def test_the_game_has_three_courses():
    """ "A game of Raise Your Goblets is made up of 3 "Courses", i.e. rounds." """
    state = start(4)
    for course in (1, 2, 3):
        assert state.course == course
        call_toast(state)
        finish_toast(state)
        if course < 3:
            setup(state)
    assert state.course == 3
    assert state.phase in ("over", "shootout")


def test_the_player_with_the_most_vp_wins():
    """ "At the end of the third Course, the game is over: the player with the most Victory Points
    is the winner!" """
    state = start(4, courses=1)
    act(state, "pour", place=3, token="wine")
    act(state, "pour", place=3, token="wine")
    passes(state, 3)
    act(state, "pour", place=3, token="wine")
    act(state, "pass")
    passes(state, 3)
    act(state, "toast")
    passes(state, 4)
    events = act(state, "reveal")
    assert state.is_over()
    assert state.outcome() == {"vp": [3, 1, 0, 2], "winners": [0]}
    assert events[-1] == {"event": "game_over", "vp": [3, 1, 0, 2], "winners": [0]}
    assert state.to_move() is None
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction):
        state.apply({"type": "pass", "seat": 0})


def test_a_tie_starts_the_shootout_from_the_last_toast_caller():
    """ "In case of a tie, take 1 Goblet for each tied player. The Host takes 1 Wine token plus a
    number of Poison tokens so that the total is equal to the number of tied players, and randomly
    pours 1 into each Goblet. Starting from the last Toast Caller and proceeding clockwise, each
    tied player chooses 1 Goblet and reveals its contents. The surviving player is the winner!" """
    state = fresh_tie()
    events = play_tie(state)
    assert state.vp == [3, 0, 0, 3]
    assert {"event": "shootout_started", "tied": [0, 3]} in events
    assert state.phase == "shootout"
    assert state.to_move() is CHANCE
    pour = state.sample_chance(random.Random(2))
    assert sorted(pour["goblets"].values()) == ["poison", "wine"]
    state.apply(pour)
    assert state.to_move() == 3  # clockwise from the caller (seat 1): seat 3 first
    assert "wine" not in json.dumps(state.view(PUBLIC)["shootout"])
    wine = next(g for g, t in pour["goblets"].items() if t == "wine")
    act(state, "shootout_choose", goblet=wine)
    act(state, "shootout_choose", goblet=state.legal_actions()[0]["goblet"])
    assert state.is_over()
    assert state.outcome()["winners"] == [3]


def test_hidden_vp_each_player_sees_only_their_own():
    """ "Keep your VPs hidden behind your screen." -- until the game ends."""
    state = fresh_tie(hidden_vp=True)
    events = play_tie(state)
    scored = [e for e in events if e["event"] == "scored"]
    assert {e["to"] for e in scored} == {0, 1, 2, 3}
    assert state.view(PUBLIC)["vp"] is None
    assert state.view(HOST)["vp"] is None
    assert all("vp" not in r for r in state.view(PUBLIC)["results"])
    assert state.view(Viewer.seat(0))["you"]["vp"] == 3
    assert state.view(Viewer.seat(1))["you"]["vp"] == 0


def test_open_vp_option_shows_everyone():
    """The table option ``hidden_vp: false`` shows every player's VP openly."""
    state = fresh_tie(hidden_vp=False)
    play_tie(state)
    assert state.view(PUBLIC)["vp"] == [3, 0, 0, 3]
    assert state.view(PUBLIC)["results"][0]["vp"] == [3, 0, 0, 3]


def test_vp_are_public_once_the_game_is_over():
    """Hidden VP stay private "until the game ends"."""
    state = start(4, courses=1)
    call_toast(state)
    finish_toast(state)
    while state.phase == "shootout":
        if state.to_move() is CHANCE:
            state.apply(state.sample_chance(random.Random(0)))
        else:
            state.apply(state.legal_actions()[0])
    assert state.is_over()
    assert state.view(PUBLIC)["vp"] == state.vp
