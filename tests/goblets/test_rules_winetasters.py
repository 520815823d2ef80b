"""Raise Your Goblets, Winetasters variant (7 to 12 players)."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import act, new, setup, start

from companion.core.errors import IllegalAction
from companion.core.game import PUBLIC, Viewer
from companion.core.games.goblets import rules
from companion.core.games.goblets.winetasters import Place, layout


def test_pairs_play_as_one_player_and_the_noble_sits_left_of_the_winetaster():
    """ "you will play in pairs as a Noble and their Winetaster" and "The Noble sits to the left
    of their Winetaster." """
    places = layout(8, True, 0)
    assert [(p.winetaster, p.noble) for p in places] == [(0, 1), (2, 3), (4, 5), (6, 7)]
    state = start(8)
    assert len(state.view(PUBLIC)["places"]) == 4
    assert state.view(Viewer.seat(3))["you"]["role"] == "noble"
    assert state.view(Viewer.seat(2))["you"]["role"] == "winetaster"


def test_odd_extra_player_plays_as_a_regular_player():
    """ "With an odd number of players, the "extra" player participates as a regular player of the
    4-6 players version of the game." """
    places = layout(7, True, 0)
    assert places[-1] == Place((6,), winetaster=None, noble=None)
    state = start(7, host=4)  # place 2 hosts: the extra player (place 3) plays next
    assert state.to_move() == 6
    act(state, "rotate", direction="clockwise")
    assert state.to_move() == 6  # "gets to perform 2 actions, as usual"
    act(state, "rotate", direction="clockwise")
    assert state.to_move() == 1  # the next pair's Noble is asked first


@pytest.mark.parametrize("players", [8, 9])
def test_roles_move_between_courses(players):
    """ "After each Course, each player who was a Noble will play as the Winetaster for the player
    to their left in the next Course." and "the "extra" player will play as the Noble with the
    player to their right, while the player to their left will be the new "extra" player." """
    first, second = layout(players, True, 0), layout(players, True, 1)
    nobles = [p.noble for p in first if p.noble is not None]
    for noble in nobles:
        pair = next(p for p in second if p.winetaster == noble)
        assert pair.noble == (noble + 1) % players
    if players % 2:
        extra = first[-1].seats[0]
        assert any(p.noble == extra and p.winetaster == extra - 1 for p in second)
        assert second[-1].seats == ((extra + 1) % players,)


def test_winetaster_cards_are_dealt_secretly():
    """ "Randomly deal 1 Winetaster card to each Winetaster. [...] each Winetaster secretly looks
    at their card. [...] But the Noble won't know if they can trust their Winetaster or not!" """
    state = setup(new(players=8, characters=[]), cards=["traitor", "loyal", "loyal", "traitor"])
    assert state.view(Viewer.seat(0))["you"]["winetaster_card"] == "traitor"
    assert state.view(Viewer.seat(2))["you"]["winetaster_card"] == "loyal"
    assert state.view(Viewer.seat(1))["you"]["winetaster_card"] is None
    for viewer in (PUBLIC, Viewer.seat(1), Viewer.seat(3)):
        assert "traitor" not in json.dumps(state.view(viewer))


def test_winetaster_plays_before_the_noble_one_action_each():
    """ "When their turn comes, the Winetaster always plays before the Noble, unless the Noble
    TOASTS." and "Each player of a pair only gets to perform 1 action each turn." """
    state = start(8)
    assert state.steps[0].kind == "toast_option" and state.to_move() == 3
    assert state.legal_actions() == [{"type": "defer", "seat": 3}]
    act(state, "defer")
    assert state.to_move() == 2
    act(state, "rotate", direction="clockwise")
    assert state.to_move() == 3
    act(state, "rotate", direction="clockwise")
    assert state.to_move() == 5  # the next pair's Noble


def test_winetaster_cannot_toast_and_noble_cannot_peek():
    """ "The Winetaster cannot TOAST." and "The Noble cannot PEEK." """
    state = start(8)
    act(state, "defer")
    assert all(a["type"] != "toast" for a in state.legal_actions())
    with pytest.raises(IllegalAction) as error:
        act(state, "toast")
    assert error.value.rule == rules.WINETASTER_NO_TOAST
    act(state, "pass")
    assert all(a["type"] != "peek" for a in state.legal_actions())
    with pytest.raises(IllegalAction) as error:
        act(state, "peek")
    assert error.value.rule == rules.NOBLE_NO_PEEK


def drain_pair_wine(state):
    """Play until place 1's screen has no Wine (its Winetaster pours it into goblet 0)."""
    while state.screens[1].get("wine", 0):
        if state.steps[0].kind == "toast_option":
            act(state, "defer")
        elif state.to_move() == 2:
            act(state, "pour", place=0, token="wine")
        else:
            act(state, "pass")
    while not (state.steps[0].kind == "toast_option" and state.to_move() == 3):
        act(state, "defer" if state.steps[0].kind == "toast_option" else "pass")


def test_noble_may_toast_before_the_winetaster_when_no_wine_is_left():
    """ "At the beginning of each turn, check if there are any Wine tokens behind your screen. If
    not, the Noble may decide to play before their Winetaster to TOAST." """
    state = start(8)
    drain_pair_wine(state)
    assert {"type": "toast", "seat": 3} in state.legal_actions()
    events = act(state, "toast")
    assert events == [{"event": "toast_called", "seat": 3}]


def test_toast_phase_free_peek_then_the_nobles_final_action():
    """ "During the Toast phase, when their turn comes, each Winetaster can perform 1 free Peek
    action before the Noble performs the final action. The "extra" player, if any, still gets to
    perform 1 final action only" """
    state = start(9)
    drain_pair_wine(state)
    act(state, "toast")
    order = []
    while state.steps[0].kind != "reveal":
        order.append((state.to_move(), state.steps[0].kind))
        if state.steps[0].kind == "free_peek":
            assert {a["type"] for a in state.legal_actions()} == {"peek", "pass"}
            act(state, "peek")
        else:
            act(state, "pass")
    assert order == [
        (4, "free_peek"),
        (5, "final"),
        (6, "free_peek"),
        (7, "final"),
        (8, "final"),
        (0, "free_peek"),
        (1, "final"),
        (2, "free_peek"),
        (3, "final"),
    ]
    assert len(state.view(Viewer.seat(4))["you"]["peeks"]) == 1


def test_loyal_gets_the_nobles_vp_and_traitor_three_if_the_noble_is_poisoned():
    """ "a Loyal Winetaster will get the same number of VPs as their Noble. A Traitor Winetaster,
    instead, will get 3 VPs if their Noble is poisoned, or 0 VPs if their Noble survives." """
    state = setup(new(players=8, characters=[]), cards=["traitor", "traitor", "loyal", "loyal"])
    drain_pair_wine(state)  # goblets: antidote+3 wine | poison | poison | wine
    act(state, "toast")
    while state.steps[0].kind != "reveal":
        act(state, "pass")
    act(state, "reveal")
    # place 0 (0, 1) survived: Noble 1 has VP, Traitor 0 gets 0
    # place 1 (2, 3) poisoned: Traitor 2 gets 3
    # place 2 (4, 5) poisoned: Loyal 4 gets what Noble 5 gets
    assert state.vp[0] == 0 and state.vp[1] > 0
    assert state.vp[2] == 3
    assert state.vp[4] == state.vp[5]
    assert state.vp[6] == state.vp[7]
    assert (
        state.view(PUBLIC)["vp"] == state.vp
    )  # "You don't need to keep your VPs behind the screen."


def test_winetasters_characters_face_down():
    """ "Only the Nobles are allowed to keep their Character card face up. The Winetasters have to
    turn it facedown. They won't be able to use their special ability for this Course." """
    state = setup(new(players=8))
    faces = [c["face_up"] for c in state.view(PUBLIC)["characters"]]
    assert faces == [False, True] * 4
    assert state.active_card(0) is None
    assert state.active_card(1) is not None


def test_winetaster_may_use_the_nobles_ability():
    """ "If allowed to by their Noble, the Winetaster can use the ability on their Noble's
    Character card." -- once per Course for the pair."""
    eyes = {
        "name": "Eyes",
        "timing": "own_turn",
        "once_per_course": True,
        "effect": "swap_and_exchange_coasters",
    }
    deck = (
        [{"name": f"Guest {i}"} for i in range(3)]
        + [eyes]
        + [{"name": f"Other {i}"} for i in range(4)]
    )
    state = setup(new(players=8, characters=deck), characters=[c["name"] for c in deck])
    act(state, "defer")  # place 1: Winetaster 2, Noble 3 (holds Eyes)
    use = {
        "type": "ability",
        "seat": 2,
        "card": "Eyes",
        "places": [0, 1],
        "swap": True,
        "coasters": False,
    }
    assert use in state.legal_actions()
    state.apply(use)
    assert state.used_course == [[3, "Eyes"]]
    act(state, "pass")
    assert all(a["type"] != "ability" for a in state.legal_actions())  # the Noble: used


def test_noble_and_winetaster_each_receive_a_character_card():
    """ "Each pair is considered a single "player", with the exception that the Noble and the
    Winetaster each receive 1 Character card." """
    state = setup(new(players=8))
    assert len({name for name in state.characters}) == 8


def test_winetaster_deck_is_an_option():
    """ "Randomly deal 1 Winetaster card to each Winetaster. Put the unused ones aside" -- the
    deck's composition is not printed: option ``winetaster_cards``."""
    state = new(players=8, characters=[], winetaster_cards={"loyal": 4, "traitor": 0})
    state.apply(state.sample_chance(random.Random(0)))
    deal = state.sample_chance(random.Random(0))
    assert deal["cards"] == ["loyal"] * 4
