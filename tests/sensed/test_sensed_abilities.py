"""Character abilities at a sensed table: tapped on the owner's phone, their effects then read.

A 4-player table, Host seat 0, so seat 1 plays first. The Character cards are dealt by hand:
seat 0 Schemer (at the beginning of each Course: Swap any two Goblets), seat 1 Seer (own turn,
once per Course: look into any Goblet), seat 2 Averted Eyes (own turn, once per Course: everyone
averts their eyes, Swap and/or exchange the Coasters of two Goblets), seat 3 Ogre (own turn, once
per Course: take the Ogre Poison from the pool). Places 0-3 hold de_miceti, mctoadery, aconitiers
and wespendorf. docs/tracking.md, "Character abilities".
"""

from __future__ import annotations

import random

import pytest
from by_hand import HOUSES, kinds, pour, poured_first

from companion.core import registry
from companion.core.errors import MalformedInput
from companion.core.game import Mode
from companion.core.games.goblets.sensed import Result, SensedSession, SensedTable
from companion.core.games.goblets.state import GobletsState
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation
from companion.service.setup import check_play

DECK = [
    {"name": "Schemer", "timing": "course_start", "effect": "swap_any"},
    {"name": "Seer", "timing": "own_turn", "once_per_course": True, "effect": "peek_any"},
    {
        "name": "Averted Eyes",
        "timing": "own_turn",
        "once_per_course": True,
        "effect": "swap_and_exchange_coasters",
    },
    {
        "name": "Ogre",
        "timing": "own_turn",
        "once_per_course": True,
        "effect": "take_token",
        "token": "ogre_poison",
    },
]


def new_state() -> GobletsState:
    state = registry.get("goblets").new_state({"players": 4, "characters": DECK})
    assert isinstance(state, GobletsState)
    names = [card["name"] for card in DECK]
    state.apply({"type": "deal_characters", "characters": names}, Mode.RECORDING)
    return state


def table() -> SensedTable:
    """The initial pour seen: Schemer's "beginning of each Course" ability is asked."""
    sensed = poured_first(SensedTable(new_state(), rng=random.Random(1)))
    assert sensed.state.stage == "course_start"
    return sensed


def warned(result: Result) -> list[str]:
    return [e["message"] for e in result.events if e.get("event") == "rule_warning"]


def test_the_readers_play_characters() -> None:
    assert check_play("goblets", "readers", new_state(), frozenset({"readers"})) == "readers"


def test_an_ability_nobody_taps_is_declined_by_the_first_turns_act() -> None:
    # "Starting with the Host and going clockwise, each player that has a Character Ability
    # which can be used 'At the beginning of each Course' may choose to use their Abilities now."
    # Nobody taps "no": the first turn's act on the table says Schemer was not used.
    sensed = table()
    out = sensed.on_event(pour("aconitiers", "poison"))
    assert kinds(out) == [("decline", 0), ("pour", 1)]
    assert warned(out) == []


def test_a_swap_ability_tapped_then_made_is_recorded_once() -> None:
    sensed = table()
    out = sensed.ability(0, {"card": "Schemer", "places": [1, 3]})
    assert out.actions == [{"type": "ability", "seat": 0, "card": "Schemer", "places": [1, 3]}]
    assert warned(out) == []
    # Then the hands swap the two Goblets: the readers' swap is the ability's, no Swap action.
    out = sensed.on_event({"t": 3.0, "event": "swap", "seats": [1, 3]})
    assert out.actions == [] and out.notices == []
    assert sensed.status()["engine_layout"] == sensed.status()["layout"]
    assert sensed.state.stage == "turns" and sensed.turn_seat() == 1


def test_a_look_into_any_goblet_is_the_abilitys_lift_not_a_peek() -> None:
    sensed = table()
    out = sensed.ability(1, {"card": "Seer", "place": 3})
    # Tapped during seat 1's own turn: Schemer's step is declined first.
    assert kinds(out) == [("decline", 0), ("ability", 1)]
    peeked = [e for e in out.events if e["event"] == "peeked"]
    assert peeked == [{"event": "peeked", "to": 1, "place": 3, "contents": {"wine": 1}}]
    # The owner lifts the Goblet at place 3 and looks in: not a Peek by seat 3.
    out = sensed.on_event({"t": 4.0, "event": "lift", "goblet": "wespendorf", "seat": 3})
    assert out.actions == [] and warned(out) == []
    # "Character abilities override the rules!": the ability was free, two actions remain.
    assert sensed.state.taken == 0 and sensed.turn_seat() == 1
    out = sensed.on_event({"t": 6.0, "event": "lift", "goblet": "mctoadery", "seat": 1})
    assert out.actions == [{"type": "peek", "seat": 1}]  # a second lift: seat 1's own Peek


def test_taking_a_token_is_recorded_from_the_phone_alone() -> None:
    # Nothing on the table is read (a screen has no reader): the tap is the whole record.
    sensed = table()
    sensed.on_event(pour("de_miceti", "poison"))
    sensed.on_event(pour("de_miceti", "poison"))  # seat 1's two actions
    sensed.end_turn(2)  # seat 2 passes
    out = sensed.ability(3, {"card": "Ogre"})
    assert kinds(out) == [("pass", 2), ("ability", 3)]
    assert sensed.state.screens[3]["ogre_poison"] == 1
    # Poured later, it comes from behind seat 3's screen: no warning.
    out = sensed.on_event(pour("de_miceti", "ogre_poison"))
    assert out.actions == [{"type": "pour", "seat": 3, "place": 0, "token": "ogre_poison"}]
    assert warned(out) == []


def test_a_tap_naming_no_card_is_refused_with_the_field() -> None:
    sensed = table()
    with pytest.raises(MalformedInput) as error:
        sensed.ability(1, {"place": 3})
    assert error.value.field == "card"
    with pytest.raises(MalformedInput) as error:
        sensed.ability(1, {"card": "Seer", "place": 9})
    assert error.value.field == "place"
    with pytest.raises(MalformedInput) as error:
        sensed.ability(1, {"card": "Seer", "goblet": 3})  # a page from before issue 16
    assert error.value.field == "goblet" and "old name" in str(error.value)
    assert sensed.state.stage == "course_start"  # nothing was recorded


# -- the Coasters exchanged, read by a real tracker --------------------------------------------


RING = {house: f"04A{index}" for index, house in enumerate(HOUSES)}
TOKEN = [f"04B{index}" for index in range(5)]


def tags() -> TagRegistry:
    reg = TagRegistry()
    for house in HOUSES:
        reg.add_ring(RING[house], house)
    for uid, kind in zip(TOKEN, ["antidote", "poison", "poison", "wine", "poison"], strict=True):
        reg.add_token(uid, kind)
    return reg


def read(session: SensedSession, start: float, seconds: float, table: dict) -> Result:
    """Every seat read at 10 Hz for ``seconds``, ``table`` saying what lies on each."""
    result = Result()
    for step in range(int(seconds * 10)):
        t = round(start + step / 10, 2)
        for seat in range(4):
            result.extend(session.observe(Observation(t, seat, frozenset(table[seat]))))
    return result


def test_coasters_exchanged_keep_each_cup_and_its_tokens() -> None:
    # "make everyone avert their eyes: you may then Swap and/or exchange the Coasters of two
    # Goblets." Each cup keeps its tokens; the rings change cups; nobody moved a Goblet.
    session = SensedSession(new_state(), tags(), rng=random.Random(1))
    on = {p: {RING[house]} for p, house in enumerate(HOUSES)}
    session.start_course()
    read(session, 0.0, 2.0, on)
    for place, uid in enumerate(TOKEN[:4]):  # the initial pour
        on[place].add(uid)
    out = read(session, 2.0, 2.0, on)
    assert kinds(out)[0] == ("initial_pour", None)
    out = session.end_turn(1)  # Schemer's step declined, seat 1 passes: seat 2's turn
    out.extend(
        session.ability(
            2, {"card": "Averted Eyes", "places": [0, 2], "swap": False, "coasters": True}
        )
    )
    assert kinds(out)[-1] == ("ability", 2)
    state = session.state
    assert state.ring_at(0) == "aconitiers" and state.ring_at(2) == "de_miceti"
    # By hand: both rings slipped off, then each onto the other cup.
    on[0].discard(RING["de_miceti"])
    on[2].discard(RING["aconitiers"])
    out = read(session, 4.2, 1.0, on)
    on[0].add(RING["aconitiers"])
    on[2].add(RING["de_miceti"])
    out.extend(read(session, 5.2, 4.0, on))
    assert out.actions == [] and warned(out) == []
    assert [n for n in out.notices] == []
    # The tracker's Goblets are the cups: the one at place 0 still holds its Antidote, and is
    # read by the ring of House Aconitiers now.
    tracker = session.tracker
    assert tracker.layout() == dict(enumerate(HOUSES))
    assert tracker.contents("de_miceti") == {"antidote": 1}
    assert tracker.rings("de_miceti") == {RING["aconitiers"]}
    # Seat 2 pours a Poison into the cup at place 0: the engine's Goblet there.
    on[0].add(TOKEN[4])
    out = read(session, 9.2, 2.0, on)
    assert out.actions == [{"type": "pour", "seat": 2, "place": 0, "token": "poison"}]
    assert state.contents_at(0) == {"antidote": 1, "poison": 1}
    # At the reveal, place 0's pour-out waits for the ring the cup wears now.
    session.toast(3)
    session.pour_out(11.5)
    assert session.pouring is not None
    assert session.pouring.seats[0].rings == {RING["aconitiers"]}
