"""Views, private events and the attacker's alternatives of the Goblets engine."""

from __future__ import annotations

import json

from engine_helpers import act, new, setup, start

from companion.core.game import HOST, PUBLIC, Viewer
from companion.core.games.goblets.views import events_for


def test_your_goblet_is_the_one_in_front_of_you_regardless_of_its_ring():
    """ "Your Goblet" is always the one in front of you, regardless of the color of its ring."""
    state = start(4)
    act(state, "swap", **{"with": 2})
    act(state, "peek")
    peek = state.view(Viewer.seat(1))["you"]["peeks"][0]
    assert peek["place"] == 1 and peek["ring"] == "aconitiers"
    assert peek["contents"] == {"poison": 1}


def test_private_events_reach_only_their_seat():
    """Secrets leave only through views: a pour's kind and a peek's contents go to one seat."""
    state = start(4)
    events = act(state, "pour", place=0, token="poison") + act(state, "peek")
    assert "poison" not in json.dumps(events_for(events, PUBLIC))
    assert "poison" not in json.dumps(events_for(events, HOST))
    assert "poison" not in json.dumps(events_for(events, Viewer.seat(2)))
    mine = events_for(events, Viewer.seat(1))
    assert {"event": "poured", "to": 1, "place": 0, "token": "poison"} in mine
    assert any(e["event"] == "peeked" for e in mine)


def test_seat_view_shows_screen_target_character_and_vp():
    """A seat sees its own screen, Target, Character and (with hidden VP) its VP."""
    state = setup(new(players=4))
    you = state.view(Viewer.seat(2))["you"]
    assert you["screen"] == {"wine": 3, "poison": 2, "antidote": 2}
    assert you["target"] == "wespendorf"
    assert you["character"] == state.characters[2]
    assert you["vp"] == 0
    assert "you" not in state.view(PUBLIC) and "you" not in state.view(HOST)
    assert state.view(PUBLIC)["vp"] is None


def test_initial_pour_alternatives_are_the_other_orders():
    """ "randomly and secretly pour them into the Goblets" -- every order looks the same."""
    state = new(players=4, characters=[])
    action = {"type": "initial_pour", "tokens": ["antidote", "poison", "poison", "wine"]}
    others = state.hidden_alternatives(action, HOST)
    assert len(others) == 11  # 4! / 2! orders, minus the real one
    assert action not in others
    assert not state.reveals_hidden(action)


def test_pour_alternatives_hide_the_kind_from_everyone_but_the_screen():
    """ "Secretly place one of the tokens": others could not tell which kind it was."""
    state = start(8)
    act(state, "defer")
    pour = {"type": "pour", "seat": 2, "place": 0, "token": "wine"}
    kinds = {a["token"] for a in state.hidden_alternatives(pour, PUBLIC)}
    assert kinds == {"poison", "antidote"}
    assert state.hidden_alternatives(pour, Viewer.seat(2)) == []
    assert state.hidden_alternatives(pour, Viewer.seat(3)) == []  # the pair shares the screen


def test_winetaster_card_alternatives_keep_the_viewers_own_card():
    """ "each Winetaster secretly looks at their card" -- and only at theirs."""
    state = new(players=8, characters=[])
    state.apply({"type": "initial_pour", "tokens": ["antidote", "poison", "poison", "wine"]})
    deal = {"type": "deal_winetaster_cards", "cards": ["loyal", "traitor", "loyal", "traitor"]}
    for alternative in state.hidden_alternatives(deal, Viewer.seat(0)):
        assert alternative["cards"][0] == "loyal"
    assert len(state.hidden_alternatives(deal, Viewer.seat(1))) == 4


def test_peek_and_reveal_show_what_was_hidden():
    """A Peek shows the peeker, the reveal shows everyone."""
    state = start(4)
    assert state.reveals_hidden({"type": "peek", "seat": 1})
    assert state.reveals_hidden({"type": "reveal", "seat": 1})
    assert not state.reveals_hidden({"type": "rotate", "seat": 1, "direction": "clockwise"})
