"""Winetasters and Character abilities on a readers table, through the service and its journal.

The Host may start both with ``play="readers"``; a phone's Character ability reaches the sensed
session (``SensingBridge.seat_input``) and is journaled in recording mode, and its physical effect
read afterwards (here a Swap of two Goblets) journals nothing more.
"""

from __future__ import annotations

import random

import pytest
from demo_end import until_the_end

from companion.core.errors import IllegalAction
from companion.core.game import Mode, Viewer
from companion.core.games.goblets.tags import TagRegistry
from companion.service.sensed_demo import SensedDemo
from companion.service.sensing import SensingBridge
from tests.virtual.test_puppet_characters import DECK as CHARACTERS

DECK = [
    {"name": "Schemer", "timing": "own_turn", "effect": "swap_any"},
    {"name": "Plain 1"},
    {"name": "Plain 2"},
    {"name": "Plain 3"},
]


def test_a_winetasters_game_is_played_with_the_readers(sensed):
    sensed.new_game("goblets", {"players": 9, "characters": []}, play="readers")
    assert sensed.table.record.play == "readers"
    assert len(sensed.table.state.places) == 5  # four pairs and the extra player: 5 readers


def test_a_phones_ability_is_journaled_and_its_swap_read_as_the_ability(sensed):
    service = sensed
    service.new_game("goblets", {"players": 4, "characters": DECK}, play="readers")
    bridge = SensingBridge(service, TagRegistry())
    bridge.start_course()  # the Characters are dealt as the Course starts
    session = bridge.session
    first = {"de_miceti": "antidote", "mctoadery": "poison", "aconitiers": "poison"}
    first["wespendorf"] = "wine"
    with bridge.lock:
        events = [{"t": 1.0, "event": "pour", "goblet": g, "token": k} for g, k in first.items()]
        bridge._take(session.table.on_events(events))
    state = service.table.state
    owner = state.characters.index("Schemer")
    while bridge.turn_seat() != owner:  # the others pass on their phones
        seat = bridge.turn_seat()
        service.act({"type": "pass", "seat": seat}, by=Viewer.seat(seat))
        bridge._take(session.table.tick(session.table.now + 3))
    mine = state.place_index(owner)
    other = (mine + 2) % 4
    ability = {"type": "ability", "seat": owner, "card": "Schemer", "places": [mine, other]}
    service.act(ability, by=Viewer.seat(owner))
    entry = service.store.entries(service.table.record.id)[-1]
    assert entry.action == ability and entry.mode is Mode.RECORDING
    before = len(service.store.entries(service.table.record.id))
    with bridge.lock:  # the hands then swap the two Goblets: the readers report it
        bridge._take(session.table.on_event({"t": 9.0, "event": "swap", "seats": [mine, other]}))
    assert len(service.store.entries(service.table.record.id)) == before
    # A phone still cannot say what the readers read.
    with pytest.raises(IllegalAction, match="sensors"):
        service.act({"type": "peek", "seat": owner}, by=Viewer.seat(owner))


@pytest.mark.parametrize(
    "options",
    [
        {"players": 7, "courses": 1},  # Winetasters: three pairs and the extra player
        {"players": 5, "courses": 1, "characters": CHARACTERS},
    ],
)
def test_the_demo_table_plays_winetasters_and_characters(sensed, options):
    # The virtual table can show these variants: the puppeteer's taps (an ability included)
    # reach the service's sensed session, and the journal is a whole game with no rule warning.
    demo = SensedDemo(sensed, speed=400.0, noise="moderate", rng=random.Random(4), options=options)
    sensed.new_game("goblets", demo.options, play="demo")
    demo.start()
    try:
        state = until_the_end(sensed)
        assert state.is_over()
        assert state.warnings == []
        entries = sensed.store.entries(sensed.table.record.id)
        kinds = {e.action["type"] for e in entries}
        assert "pour" in kinds and "reveal" in kinds
        if "characters" in options:
            assert "ability" in kinds
    finally:
        demo.stop()
