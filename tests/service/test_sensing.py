"""Sensed play through the service: simulated readers -> SensedSession -> journal -> views.

A whole random Course played by hand (companion.virtual) is read by simulated readers; what the
service journals (recording mode) must be the Course itself: the Goblets where the hands left
them, holding the tokens poured, and the reveal scores exactly those contents. Replaying the
journal gives the same state.
"""

from __future__ import annotations

import json
import random

import pytest
from demo_end import until_the_end

from companion.core.errors import AmbiguousObservation, IllegalAction, MalformedInput
from companion.core.game import HOST, PUBLIC, Mode, Viewer
from companion.core.observations import Observation
from companion.service import Service
from companion.service.sensed_demo import SensedDemo
from companion.service.sensing import SensingBridge
from companion.virtual import NOISE, Scenario, SimulatedReaders
from companion.virtual.pour_out import poured_out


def engine_table(state):
    seats = {str(p["place"]): p["ring"] for p in state.view(PUBLIC)["places"]}
    goblets = {
        state.ring_of[g]: {k: v for k, v in contents.items() if v}
        for g, contents in enumerate(state.goblets)
    }
    return seats, goblets


@pytest.mark.parametrize(("seed", "noise"), [(1, "none"), (2, "none"), (3, "moderate")])
def test_a_sensed_course_is_journaled_exactly(sensed, seed, noise):
    service = sensed
    service.new_game("goblets", {"players": 4}, play="readers")
    assert service.table.state.view(PUBLIC)["phase"] == "initial_pour"  # waits for the hands
    scenario = Scenario.generate(random.Random(seed), 4, specials=0.0)
    bridge = SensingBridge(service, scenario.registry, scenario.initial_layout(), reveal="tracked")
    bridge.start_course()
    for observation in SimulatedReaders(scenario, NOISE[noise], random.Random(seed)).snapshots():
        bridge.observe(observation)
    bridge.advance(scenario.duration + 3)

    seats, goblets = engine_table(service.table.state)
    final = scenario.final
    assert seats == final["seats"]
    assert goblets == {g: {k: v for k, v in c.items() if v} for g, c in final["goblets"].items()}
    # The service's state and the session's shadow are the same fold.
    assert engine_table(bridge.session.state) == (seats, goblets)
    entries = service.store.entries(service.table.record.id)
    assert entries[0].action["type"] == "initial_pour"
    assert {e.mode for e in entries} == {Mode.RECORDING}

    # A phone may only say what sensors cannot see.
    seat = bridge.turn_seat()
    with pytest.raises(IllegalAction, match="sensors"):
        service.act(
            {"type": "rotate", "seat": seat, "direction": "clockwise"}, by=Viewer.seat(seat)
        )
    service.act({"type": "toast", "seat": seat}, by=Viewer.seat(seat))
    bridge.reveal(scenario.duration + 4)
    result = service.table.state.view(PUBLIC)["results"][0]
    revealed = {p["ring"]: {k: v for k, v in p["contents"].items() if v} for p in result["places"]}
    assert revealed == goblets
    assert result["toast_caller"] == seat

    # Resume after a restart: the replayed journal is the same state.
    again = Service(service.config, store=service.store, games=service.games)
    again.resume()  # a game played with the readers: the hands pour, nothing drawn here
    views = [
        json.dumps(s.table.state.view(v), sort_keys=True)
        for s in (service, again)
        for v in (PUBLIC, HOST)
    ]
    assert views[:2] == views[2:]


def test_notices_and_reader_nodes_reach_the_host_only(sensed):
    service = sensed
    service.new_game("goblets", {"players": 4}, play="readers")
    scenario = Scenario.generate(random.Random(9), 4, specials=0.0)
    bridge = SensingBridge(service, scenario.registry, scenario.initial_layout())
    bridge.start_course()
    bridge.observe(Observation.of(0.5, 1, ["0499999999999999"]))
    bridge.node_status("node-a", False, 1.0, seats=[2, 3])
    message = service.message(HOST)
    assert message["notices"][-1]["kind"] == "unknown_tag"
    assert message["readers"] == {"2": "offline", "3": "offline"}
    assert "notices" not in service.message(PUBLIC)


def test_sensed_demo_plays_a_whole_game(sensed):
    demo = SensedDemo(sensed, speed=200.0, noise="moderate", rng=random.Random(5))
    sensed.new_game("goblets", demo.options, play="demo")
    demo.start()
    try:
        state = until_the_end(sensed)
        assert state.is_over()
        assert len(state.view(PUBLIC)["results"]) == 3
        entries = sensed.store.entries(sensed.table.record.id)
        recorded = [e for e in entries if e.mode is Mode.RECORDING]
        assert sum(e.action["type"] == "initial_pour" for e in recorded) == 3
        assert any(e.action["type"] == "pour" for e in recorded)
    finally:
        demo.stop()


def played_course(service, seed):
    """A 4-seat Course read by noiseless readers into a new game played with them."""
    service.new_game("goblets", {"players": 4}, play="readers")
    scenario = Scenario.generate(random.Random(seed), 4, specials=0.0)
    bridge = SensingBridge(service, scenario.registry, scenario.initial_layout())
    bridge.start_course()
    for observation in SimulatedReaders(scenario, NOISE["none"], random.Random(seed)).snapshots():
        bridge.observe(observation)
    bridge.advance(scenario.duration + 3)
    return bridge


def test_host_corrections_resync_the_session(sensed):
    service = sensed
    bridge = played_course(service, 4)
    seat = bridge.turn_seat()
    # The Host enters a Rotate by hand (a reader failed), then undoes it: the session follows.
    service.act({"type": "rotate", "seat": seat, "direction": "clockwise"}, by=HOST)
    assert engine_table(bridge.session.state) == engine_table(service.table.state)
    service.undo()
    assert engine_table(bridge.session.state) == engine_table(service.table.state)
    assert bridge.session.state.turn_number == service.table.state.turn_number


def test_the_reveal_on_the_readers_through_the_service(sensed):
    # The default [sensing] reveal: "Reveal" asks every player to pour out; the service shows each
    # seat's progress (never the kinds), then reveals and scores what lies on the readers.
    service = sensed
    service.new_game("goblets", {"players": 4}, play="readers")
    scenario = Scenario.generate(random.Random(21), 4, actions=(30, 36), specials=0.0)
    end = scenario.duration
    bridge = SensingBridge(service, scenario.registry, scenario.initial_layout())
    bridge.start_course()
    poured = poured_out(scenario, random.Random(1), start=end + 2.0)
    toasted = False
    shown = []
    for observation in SimulatedReaders(poured, NOISE["stacked"], random.Random(2)).snapshots():
        if observation.t > end + 0.5 and not toasted:
            bridge.advance(end + 0.5)
            seat = bridge.turn_seat()
            service.act({"type": "toast", "seat": seat}, by=Viewer.seat(seat))
            service.sensing.host_input({"input": "reveal"})
            toasted = True
        bridge.observe(observation)
        message = service.message(PUBLIC)
        if "pour_out" in message:
            shown.append(message["pour_out"])
    final = scenario.final
    truth = {p: final["goblets"][final["seats"][str(p)]] for p in range(4)}
    result = service.table.state.view(PUBLIC)["results"][0]
    assert {p["place"]: p["contents"] for p in result["places"]} == truth
    assert shown and "pour_out" not in service.message(PUBLIC)  # over once revealed
    statuses = {s["status"] for seats in shown for s in seats}
    assert {"waiting", "settling", "settled"} <= statuses
    assert all(set(s) == {"place", "status", "tokens"} for seats in shown for s in seats)
    kinds = [e.action["type"] for e in service.store.entries(service.table.record.id)]
    assert kinds.count("reveal") == 1


def test_the_host_counts_a_seat_by_hand_and_takes_the_rest_as_read(sensed):
    service = sensed
    bridge = played_course(service, 8)
    with pytest.raises(AmbiguousObservation, match="nothing to confirm"):
        service.sensing.host_input({"input": "confirm", "place": 0})
    with pytest.raises(IllegalAction, match="poured out"):
        service.sensing.host_input({"input": "confirm_all"})
    seat = bridge.turn_seat()
    service.act({"type": "toast", "seat": seat}, by=Viewer.seat(seat))
    service.sensing.host_input({"input": "reveal"})
    with pytest.raises(MalformedInput) as error:
        service.sensing.host_input({"input": "confirm", "place": 9})
    assert error.value.field == "place"
    with pytest.raises(MalformedInput):
        service.sensing.host_input({"input": "confirm", "place": 0, "counts": [1]})
    service.sensing.host_input({"input": "confirm", "place": 0, "counts": {"wine": 1}})
    assert service.message(HOST)["pour_out"][0]["status"] == "confirmed"
    assert service.table.state.phase == "play"  # the others are not read yet
    service.sensing.host_input({"input": "confirm_all"})  # nothing on their readers: empty
    result = service.table.state.view(PUBLIC)["results"][0]
    assert [p["contents"] for p in result["places"]] == [{"wine": 1}, {}, {}, {}]
