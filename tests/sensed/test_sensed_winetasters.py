"""Winetasters at a sensed table: whose act a sensed event is in a Noble and Winetaster pair.

An 8-player table, Host seat 0. In the first Course the seats pair up clockwise from seat 0 as
(Winetaster, Noble): places 0-3 are the pairs (0, 1), (2, 3), (4, 5), (6, 7) ("The Noble sits to
the left of their Winetaster"), each sharing one Goblet on one reader spot. Place 1 plays first
("Starting with the player to the Host's left"): Winetaster seat 2, Noble seat 3.
"""

from __future__ import annotations

import random

from by_hand import HOUSES, kinds, pour, poured_first, warned

from companion.core import registry
from companion.core.games.goblets import rules
from companion.core.games.goblets.model import Step, StepKind
from companion.core.games.goblets.sensed import SensedTable
from companion.core.games.goblets.state import GobletsState
from companion.service.setup import check_play


def new_state(players: int = 8) -> GobletsState:
    state = registry.get("goblets").new_state({"players": players, "characters": []})
    assert isinstance(state, GobletsState)
    return state


def table() -> SensedTable:
    """The Course started, the initial pour seen: place 1's pair (seats 2 and 3) to play."""
    sensed = poured_first(SensedTable(new_state(), rng=random.Random(3)))
    assert sensed.state.stage == "turns"
    return sensed


def test_a_pair_is_one_place_one_goblet_one_reader_spot() -> None:
    # "Each pair is considered a single 'player'": 8 players are 4 places, 4 Goblets, 4 readers;
    # "the 'extra' player participates as a regular player": 7 players are 4 too, 12 are 6.
    assert SensedTable(new_state(8)).places == 4
    assert SensedTable(new_state(7)).places == 4
    assert SensedTable(new_state(12)).places == 6
    # The Host may have the readers play it (the camera does not yet: tests/service).
    assert check_play("goblets", "readers", new_state(12), frozenset({"readers"})) == "readers"


def test_the_winetaster_plays_before_the_noble() -> None:
    # "When their turn comes, the Winetaster always plays before the Noble, unless the Noble
    # TOASTS." "Each player of a pair only gets to perform 1 action each turn."
    sensed = table()
    assert sensed.turn_seat() == 2
    out = sensed.on_event(pour("wespendorf", "poison"))
    # "If the Noble decides not to [Toast], the pair plays as normal": the Winetaster's act is
    # the Noble's decision, journaled as their defer.
    assert out.actions == [
        {"type": "defer", "seat": 3},
        {"type": "pour", "seat": 2, "place": 3, "token": "poison"},
    ]
    assert sensed.turn_seat() == 3
    out = sensed.on_event({"event": "rotate", "direction": "clockwise"})
    assert out.actions == [{"type": "rotate", "seat": 3, "direction": "clockwise"}]
    assert warned(out) == []
    assert sensed.turn_seat() == 4  # the next pair's Winetaster (place 2)
    assert sensed.state.screens[1] == {"wine": 3, "poison": 1, "antidote": 2}  # one screen


def test_a_winetasters_pass_is_the_nobles_decision_not_to_toast_too() -> None:
    sensed = table()
    out = sensed.end_turn(2)
    assert kinds(out) == [("defer", 3), ("pass", 2)]
    assert sensed.turn_seat() == 3 and sensed.state.steps[0].kind == "turn"


def test_the_noble_toasts_before_their_winetaster() -> None:
    # "At the beginning of each turn, check if there are any Wine tokens behind your screen. If
    # not, the Noble may decide to play before their Winetaster to TOAST."
    sensed = table()
    out = sensed.toast(3)
    assert kinds(out) == [("toast", 3)]
    # The pair still had its 3 Wine: recorded, warned (the readers cannot refuse the table).
    assert [rule for _, rule in warned(out)] == [rules.TOAST]
    assert sensed.state.stage == "toast" and sensed.state.toast_caller == 3


def test_the_winetaster_cannot_toast() -> None:
    # "The Winetaster cannot TOAST."
    sensed = table()
    out = sensed.toast(2)
    assert ("a Winetaster cannot Toast", rules.WINETASTER_NO_TOAST) in warned(out)


def test_a_lift_of_the_pairs_goblet_is_the_winetasters_peek() -> None:
    # "The Noble cannot PEEK": the pair's Peek is the Winetaster's.
    sensed = table()
    out = sensed.on_event({"event": "lift", "goblet": "mctoadery", "seat": 1})
    assert kinds(out) == [("defer", 3), ("peek", 2)]
    assert warned(out) == []
    peeked = [e for e in out.events if e["event"] == "peeked"]
    assert peeked == [{"event": "peeked", "to": 2, "place": 1, "contents": {"poison": 1}}]
    # The Noble's own action next: a lift now is recorded as theirs, with the rule's warning.
    out = sensed.on_event({"event": "lift", "goblet": "mctoadery", "seat": 1})
    assert kinds(out) == [("peek", 3)]
    assert warned(out) == [("a Noble cannot Peek", rules.NOBLE_NO_PEEK)]


def test_a_lift_at_a_later_pairs_place_is_that_winetasters_peek() -> None:
    sensed = table()
    out = sensed.on_event({"event": "lift", "goblet": "wespendorf", "seat": 3})
    # Place 3's pair is seats 6 (Winetaster) and 7: the pairs between passed; the engine judges.
    assert out.actions[-1] == {"type": "peek", "seat": 6}
    assert warned(out) == []


def _to_toast(sensed: SensedTable) -> None:
    """Every pair pours its Wine out (two turns each), then place 1's Noble Toasts."""
    order = [1, 2, 3, 0]
    for _ in range(2):
        for place in order:
            for _act in range(2):
                if sensed.state.screens[place].get("wine", 0):
                    sensed.on_event(pour(HOUSES[place], "wine"))
                else:
                    sensed.on_event(pour(HOUSES[place], "poison"))
    assert sensed.state.screens[1].get("wine", 0) == 0
    out = sensed.toast(3)
    assert kinds(out) == [("toast", 3)] and warned(out) == []


def test_the_winetasters_free_peek_in_the_toast_phase() -> None:
    # "During the Toast phase, when their turn comes, each Winetaster can perform 1 free Peek
    # action before the Noble performs the final action."
    sensed = table()
    _to_toast(sensed)
    assert sensed.state.steps[0] == Step(4, StepKind.FREE_PEEK, 2, 1)
    out = sensed.on_event({"event": "lift", "goblet": "aconitiers", "seat": 2})
    assert kinds(out) == [("peek", 4)] and warned(out) == []
    out = sensed.on_event(pour("de_miceti", "poison"))
    assert kinds(out) == [("pour", 5)]  # the Noble's final action
    # Place 3's Winetaster takes no Peek: their Noble's act says so (journaled as their pass).
    out = sensed.on_event({"event": "swap", "seats": [3, 0]})
    assert out.actions == [{"type": "pass", "seat": 6}, {"type": "swap", "seat": 7, "with": 0}]
    assert warned(out) == []


def test_the_reveal_scores_the_pair_from_its_one_goblet() -> None:
    # "a Loyal Winetaster will get the same number of VPs as their Noble. A Traitor Winetaster,
    # instead, will get 3 VPs if their Noble is poisoned, or 0 VPs if their Noble survives."
    sensed = table()
    _to_toast(sensed)
    cards = list(sensed.state.wt_cards)  # this Course's: the next one deals new ones
    out = sensed.reveal()
    assert out.actions[-1] == {"type": "reveal", "seat": 3}
    result = sensed.state.results[-1]
    vp = result["vp"]
    assert {cards[info["seats"][0]] for info in result["places"]} <= {"loyal", "traitor"}
    for info in result["places"]:
        taster, noble = info["seats"]
        card = cards[taster]
        expected = (3 if info["poisoned"] else 0) if card == "traitor" else vp[noble]
        assert vp[taster] == expected
