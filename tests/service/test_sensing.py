"""Sensed play: simulated readers -> tracker -> Raise Your Goblets in recording mode.

A whole random Course played by hand (companion.virtual) is read by simulated readers; what the
engine records must be the Course itself: the same Goblets where the scenario left them, holding
the same tokens, and the Toast's reveal scores exactly those contents.
"""

from __future__ import annotations

import random
import time

import pytest

from companion.core import registry
from companion.core.game import HOST, PUBLIC, Mode
from companion.core.observations import Observation
from companion.service import Service
from companion.service.sensing import SensedTable
from companion.virtual import NOISE, Scenario, SimulatedReaders


@pytest.fixture
def sensed(settings):
    service = Service(settings, games=registry.load_all(), rng=random.Random(3))
    service.default_mode = Mode.RECORDING
    yield service
    service.close()


def engine_table(service):
    state = service.table.state
    seats = {str(p["place"]): p["ring"] for p in state.view(PUBLIC)["places"]}
    goblets = {
        state.ring_of[g]: {k: v for k, v in contents.items() if v}
        for g, contents in enumerate(state.goblets)
    }
    return seats, goblets


@pytest.mark.parametrize(("seed", "noise"), [(1, "none"), (2, "none"), (3, "moderate")])
def test_a_sensed_course_is_recorded_exactly(sensed, seed, noise):
    service = sensed
    scenario = Scenario.generate(random.Random(seed), 4, specials=0.0)
    bridge = SensedTable(service, scenario.registry, 4, scenario.initial_layout())
    service.new_game("goblets", {"players": 4, "characters": []})
    assert service.table.state.view(PUBLIC)["phase"] == "initial_pour"  # waits for the hands
    readers = SimulatedReaders(scenario, NOISE[noise], random.Random(seed))
    for observation in readers.snapshots():
        bridge.observe(observation)
    bridge.advance(scenario.duration + 10)

    seats, goblets = engine_table(service)
    final = scenario.final
    assert seats == final["seats"]
    assert goblets == {g: {k: v for k, v in c.items() if v} for g, c in final["goblets"].items()}
    kinds = [a["type"] for a in bridge.recorded]
    assert kinds[0] == "initial_pour"
    assert kinds.count("rotate") + kinds.count("swap") + kinds.count("peek") == len(scenario.moves)
    entries = service.store.entries(service.table.record.id)
    assert {e.mode for e in entries if e.action["type"] == "pour"} == {Mode.RECORDING}

    # The Toast (entered by hand: nobody senses a voice), final actions, then the reveal.
    state = service.table.state
    service.act({"type": "toast", "seat": state.to_move()}, by=HOST, mode=Mode.RECORDING)
    for _ in range(20):
        state = service.table.state
        legal = state.legal_actions()
        reveal = [a for a in legal if a["type"] == "reveal"]
        action = reveal[0] if reveal else next(a for a in legal if a["type"] == "pass")
        service.act(action, by=HOST, mode=Mode.RECORDING)
        if reveal:
            break
    bridge.reveal()
    result = service.table.state.view(PUBLIC)["results"][0]
    revealed = {p["ring"]: {k: v for k, v in p["contents"].items() if v} for p in result["places"]}
    assert revealed == goblets
    assert all(not c for c in bridge.tracker.state()["goblets"].values())


def test_tracker_conflicts_and_nodes_reach_the_host(sensed):
    service = sensed
    service.new_game("goblets", {"players": 4, "characters": []})
    scenario = Scenario.generate(random.Random(9), 4, specials=0.0)
    bridge = SensedTable(service, scenario.registry, 4, scenario.initial_layout())
    bridge.observe(Observation.of(0.5, 1, ["0499999999999999"]))
    bridge.node_status("node-a", False, 1.0, seats=[2, 3])
    message = service.message(HOST)
    assert message["notices"][-1]["kind"] == "unknown_tag"
    assert message["readers"] == {"2": "offline", "3": "offline"}
    assert "notices" not in service.message(PUBLIC)


def test_sensed_demo_plays_a_whole_game(sensed):
    from companion.service.sensed_demo import SensedDemo

    demo = SensedDemo(sensed, speed=200.0, noise="moderate", rng=random.Random(5)).start()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            table = sensed.table
            if table is not None and table.state.is_over():
                break
            time.sleep(0.05)
        state = sensed.table.state
        assert state.is_over()
        assert len(state.view(PUBLIC)["results"]) == 3
        entries = sensed.store.entries(sensed.table.record.id)
        recorded = [e for e in entries if e.mode is Mode.RECORDING]
        assert sum(e.action["type"] == "initial_pour" for e in recorded) == 3
        assert any(e.action["type"] == "pour" for e in recorded)
    finally:
        demo.stop()
