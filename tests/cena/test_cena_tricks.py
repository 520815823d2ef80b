"""The Feast: leading, following suit, where cards may lie, and which alliance wins a trick."""

from __future__ import annotations

import pytest
from cena_helpers import at_feast, play

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import PUBLIC, Mode
from companion.core.games.cena import rules
from companion.core.games.cena.alliances import Played, combined, trick_winner
from companion.core.games.cena.cards import parse_card

NO_WINE_12 = ["mead-9", "mead-10", *(f"cider-{v}" for v in range(1, 11))]


def worked_example(orientation="house"):
    """docs/rules-notes.md's worked example: wine 4, mead 9, wine 7 in front of Houses 0, 1, 2."""
    state = at_feast(
        {"orientation": orientation},
        fixed={0: ["wine-4"], 1: NO_WINE_12, 2: ["wine-7"]},
    )
    events = play(state, ("wine-4", 0), ("mead-9", 1), ("wine-7", 2))
    return state, events


def table(*cards):
    return [
        None if c is None else Played(parse_card(c[0], "c"), by, c[1]) for by, c in enumerate(cards)
    ]


def test_host_leads_the_first_trick():
    """ "The Host House leads the first trick.\""""
    state = at_feast({"players": 4, "host": 2})
    assert state.to_move() == 2 and state.leader == 2


def test_leader_plays_in_front_of_any_house():
    """ "The player holding the invitation tile plays one of their cards in front of any House
    (including their own) and places the invitation tile on top to mark the lead suit.\""""
    state = at_feast(fixed={0: ["beer-5"]})
    legal = state.legal_actions()
    assert {a["house"] for a in legal} == {0, 1, 2}
    assert len(legal) == 12 * 3  # any card: there is no lead suit yet
    play(state, ("beer-5", 1))
    assert state.lead_suit == "beer"
    assert state.view(PUBLIC)["trick"]["lead_suit"] == "beer"
    assert state.view(PUBLIC)["trick"]["table"][1] == {
        "card": "beer-5",
        "played_by": 0,
        "order": 0,
    }


def test_others_play_in_clockwise_order_where_no_card_lies():
    """ "In clockwise order, the rest of the Houses play one of their cards in front of any House
    (including their own) if that House does not yet have a card in front of it.\""""
    state = at_feast({"players": 4, "host": 3}, fixed={3: ["beer-5"]})
    play(state, ("beer-5", 1))
    assert state.to_move() == 0
    assert {a["house"] for a in state.legal_actions()} == {0, 2, 3}
    card = state.legal_actions()[0]["card"]
    with pytest.raises(IllegalAction) as error:
        state.apply({"type": "play", "card": card, "house": 1})
    assert error.value.rule == rules.FOLLOW
    assert state.table[1].card.name == "beer-5" and state.to_move() == 0


def test_must_follow_the_lead_suit():
    """ "If a House has cards of the lead suit, it must play one of them.\""""
    state = at_feast(fixed={0: ["wine-4"], 1: ["wine-2", "mead-3"]})
    play(state, ("wine-4", 0))
    assert {a["card"] for a in state.legal_actions()} == {
        c for c in state.hands[1] if c.startswith("wine-")
    }
    before = state.clone()
    with pytest.raises(IllegalAction) as error:
        state.apply({"type": "play", "card": "mead-3", "house": 1})
    assert error.value.rule == rules.FOLLOW_SUIT
    assert "it must play one of them" in str(error.value)
    assert state.hands == before.hands and state.table == before.table


def test_any_card_without_the_lead_suit():
    """ "If this is not possible, any card may be played.\""""
    state = at_feast(fixed={0: ["wine-4"], 1: NO_WINE_12})
    play(state, ("wine-4", 0))
    assert {a["card"] for a in state.legal_actions()} == set(NO_WINE_12)


def test_not_following_suit_is_recorded_with_a_warning():
    """Sensed play: a revoke is recorded, with the rule as a warning."""
    state = at_feast(fixed={0: ["wine-4"], 1: ["wine-2", "mead-3"]})
    play(state, ("wine-4", 0))
    events = state.apply({"type": "play", "card": "mead-3", "house": 1}, Mode.RECORDING)
    assert events[0]["event"] == "rule_warning" and events[0]["rule"] == rules.FOLLOW_SUIT
    assert state.table[1].card.name == "mead-3"


def test_card_not_in_hand_and_taken_house_refused_even_when_recording():
    state = at_feast(fixed={0: ["wine-4"], 1: ["wine-2"]})
    play(state, ("wine-4", 0))
    for action in (
        {"type": "play", "card": "wine-4", "house": 1},
        {"type": "play", "card": "wine-2", "house": 0},
    ):
        with pytest.raises(IllegalAction):
            state.apply(action, Mode.RECORDING)
    for bad, field in (
        ({"card": "wine-2", "house": 7}, "action.house"),
        ({"card": "x"}, "action.card"),
    ):
        with pytest.raises(MalformedInput) as error:
            state.apply({"type": "play", **bad})
        assert error.value.field == field


def test_suit_left_value_right_worked_example():
    """ "Always play cards oriented toward you, with the suit on the left and the value on the
    right." "The winning trick is determined by combining the two halves of the cards on both
    sides of each alliance card.\""""
    state, events = worked_example()
    trick = state.last_trick
    assert trick["alliances"] == ["wine-9", "mead-7", "wine-4"]
    assert trick["winner"] == 0
    assert events[-1] == {
        "event": "trick_won",
        "trick": 1,
        "alliance": 0,
        "cards": ["wine-4", "mead-9", "wine-7"],
    }


def test_mirrored_orientation_option():
    """The other reading of the halves (option ``orientation: "mirrored"``)."""
    state, _ = worked_example("mirrored")
    assert state.last_trick["alliances"] == ["mead-4", "wine-9", "wine-7"]
    assert state.last_trick["winner"] == 1
    assert state.leader == 2


def test_trick_won_by_an_alliance():
    """ "The trick is not won by a House, but by an alliance between two Houses." "Once everyone
    has played a card, collect all cards from the trick and place them face down on top of the
    winning alliance card.\""""
    state, _ = worked_example()
    assert state.won == [["wine-4", "mead-9", "wine-7"], [], []]
    assert state.tricks == [1, 0, 0]
    assert state.table == [None, None, None] and state.lead_suit is None


def test_highest_value_in_lead_suit_wins():
    """ "The alliance with the highest value in the lead suit wins the trick.\""""
    # mead 10 is higher, but mead is not the lead suit.
    cards = table(("wine-2", 0), ("mead-3", 1), ("mead-10", 2))
    assert [combined(a, cards, "house").name for a in range(3)] == ["wine-3", "mead-10", "mead-2"]
    assert trick_winner(cards, 0, "wine", "house") == 0
    assert trick_winner(cards, 0, "mead", "house") == 1


def test_the_left_house_leads_next():
    """ "The House to the left of the winning alliance card receives the invitation tile and leads
    the next trick." "The Fish House, to the left of the winning alliance, receives the invitation
    tile.\""""
    state, _ = worked_example()
    assert state.leader == 1 and state.to_move() == 1


def test_tie_completed_last_wins():
    """ "In case of a tie, the alliance that was completed last wins.\""""
    state = at_feast(
        fixed={0: ["wine-5"], 1: ["wine-2"], 2: ["mead-2", *NO_WINE_12[:1], *NO_WINE_12[2:]]}
    )
    play(state, ("wine-5", 0), ("wine-2", 1))
    # Alliance 0 (wine 2) is complete after the second card; House 2's mead-2 completes
    # alliance 1 (wine of House 1 + value 2: wine 2 again) and alliance 2 (mead 5).
    play(state, ("mead-2", 2))
    assert state.last_trick["alliances"] == ["wine-2", "wine-2", "mead-5"]
    assert state.last_trick["winner"] == 1
    assert state.leader == 2


def test_simultaneous_completion_furthest_clockwise_from_leader():
    """ "If multiple alliances are completed simultaneously, the winning one is the Alliance
    furthest, clockwise, from the House that led the trick.\""""
    hands = {
        0: ["wine-3"],
        1: ["cider-6", *(f"mead-{v}" for v in range(1, 10))],
        2: [f"beer-{v}" for v in range(1, 11)],
        3: ["wine-6"],
    }
    state = at_feast({"players": 4}, fixed=hands)
    play(state, ("wine-3", 0), ("cider-6", 2), ("beer-10", 3))
    # House 3's wine-6 in front of House 1 completes alliance 0 (wine 6) and alliance 1 (wine 6).
    play(state, ("wine-6", 1))
    assert state.last_trick["alliances"] == ["wine-6", "wine-6", "cider-10", "beer-3"]
    assert state.last_trick["winner"] == 1
    assert state.leader == 2


def test_furthest_clockwise_is_measured_from_the_leader():
    """ "the Alliance furthest, clockwise, from the House that led the trick": the same table led by
    House 1 instead gives alliance 0 (three steps clockwise from House 1) the trick."""
    cards = table(("wine-3", 0), ("wine-6", 3), ("cider-6", 1), ("beer-10", 2))
    assert trick_winner(cards, 0, "wine", "house") == 1
    assert trick_winner(cards, 1, "wine", "house") == 0


def test_completed_last_beats_clockwise_distance():
    """ "In case of a tie, the alliance that was completed last wins." before any distance."""
    # Alliance 2 completes at play 2, alliance 0 at play 3: alliance 0 wins though it is nearer.
    cards = table(("wine-3", 0), ("mead-5", 3), ("wine-7", 1), ("wine-5", 2))
    assert combined(0, cards, "house").name == "wine-5"
    assert combined(2, cards, "house").name == "wine-5"
    assert trick_winner(cards, 0, "wine", "house") == 0


def test_private_feast_only_in_front_of_your_own_house():
    """ "Private feast — In this variant, players may only play cards in front of their own
    House.\""""
    state = at_feast({"private_feast": True}, fixed={0: ["wine-4"]})
    assert {a["house"] for a in state.legal_actions()} == {0}
    with pytest.raises(IllegalAction) as error:
        state.apply({"type": "play", "card": "wine-4", "house": 2})
    assert error.value.rule == rules.PRIVATE_FEAST
    events = state.apply({"type": "play", "card": "wine-4", "house": 2}, Mode.RECORDING)
    assert events[0]["rule"] == rules.PRIVATE_FEAST and state.table[2] is not None


def test_feast_until_all_cards_played():
    """ "This phase is repeated until all cards have been played.\""""
    state = at_feast({"players": 5})
    tricks = 0
    while state.phase == "feast":
        mover = state.to_move()
        action = state.legal_actions()[0]
        assert state.lead_suit is not None or mover == state.leader
        events = state.apply(action)
        tricks += any(e["event"] == "trick_won" for e in events)
    assert tricks == 8 and not any(state.hands)
    assert state.phase == "deal"


def test_after_a_recorded_private_feast_breach_the_trick_can_end():
    """A House whose own place was taken by a recorded breach plays where a place is free."""
    state = at_feast({"private_feast": True}, fixed={0: ["wine-4"]})
    state.apply({"type": "play", "card": "wine-4", "house": 1}, Mode.RECORDING)
    assert state.to_move() == 1
    assert {a["house"] for a in state.legal_actions()} == {0, 2}
    play(state, (state.legal_actions()[0]["card"], 0))
    assert {a["house"] for a in state.legal_actions()} == {2}
    play(state, (state.legal_actions()[0]["card"], 2))
    assert state.trick == 1 and state.last_trick["winner"] is not None
