"""Raise Your Goblets: the Raise Your Memory and Legacy variants."""

from __future__ import annotations

import json
import random

from engine_helpers import act, call_toast, finish_toast, new, setup, start

from companion.core.game import CHANCE, PUBLIC, Viewer


def test_raise_your_memory_removes_the_coaster_rings():
    """Raise Your Memory: "At the beginning of the game, remove the Coaster rings from the
    Goblets." -- no view identifies a Goblet by its ring."""
    state = start(5, raise_your_memory=True)
    act(state, "peek")
    act(state, "rotate", direction="clockwise")
    for viewer in (PUBLIC, Viewer.seat(1)):
        view = state.view(viewer)
        assert all(place["ring"] is None for place in view["places"])
    assert state.view(Viewer.seat(1))["you"]["peeks"][0]["ring"] is None
    for house in state.opts.houses:
        text = json.dumps([p["ring"] for p in state.view(PUBLIC)["places"]])
        assert house not in text


def test_raise_your_memory_has_no_coaster_exchange():
    """Without rings, the averted-eyes card can only Swap."""
    eyes = {
        "name": "Eyes",
        "timing": "own_turn",
        "once_per_course": True,
        "effect": "swap_and_exchange_coasters",
    }
    deck = [{"name": "A"}, eyes, {"name": "B"}, {"name": "C"}]
    state = setup(
        new(players=4, characters=deck, raise_your_memory=True), characters=["A", "Eyes", "B", "C"]
    )
    abilities = [a for a in state.legal_actions() if a["type"] == "ability"]
    assert abilities and all(a["swap"] and not a["coasters"] for a in abilities)


def test_legacy_a_poisoned_player_draws_a_new_character():
    """Legacy: "If you are poisoned, discard your Character card and draw a new one for the next
    Course." """
    state = setup(new(players=4, legacy=True))
    before = list(state.characters)
    call_toast(state)
    finish_toast(state)
    poisoned = [p["seats"][0] for p in state.results[0]["places"] if p["poisoned"]]
    assert poisoned
    assert state.phase == "legacy_draw" and state.to_move() is CHANCE
    draw = state.sample_chance(random.Random(4))
    assert [d["seat"] for d in draw["draws"]] == sorted(poisoned)
    state.apply(draw)
    for seat in range(4):
        if seat in poisoned:
            assert state.characters[seat] != before[seat]
            assert state.characters[seat] not in before
        else:
            assert state.characters[seat] == before[seat]
    assert sorted(state.character_discards) == sorted(before[s] for s in poisoned)
    assert state.phase == "initial_pour" and state.course == 2


def test_without_legacy_characters_stay():
    """Legacy is optional: without it, every player keeps their card."""
    state = setup(new(players=4))
    before = list(state.characters)
    call_toast(state)
    finish_toast(state)
    assert state.characters == before
    assert state.phase == "initial_pour"
