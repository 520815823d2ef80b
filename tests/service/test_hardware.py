"""Real wires: a virtual reader node publishes a Course to a real mosquitto; the service's
hardware table (MQTT link -> tracker -> sensed session -> journal) records it exactly."""

from __future__ import annotations

import random
import time

from polling import wait_for

from companion.core import registry
from companion.core.game import HOST, PUBLIC, Mode
from companion.links.records import Hello
from companion.links.virtual import MqttTransport, VirtualNode
from companion.service import Service
from companion.service.hardware import HardwareTable
from companion.virtual import NOISE, Scenario, SimulatedReaders

SPEED = 10.0
"""The node plays the Course 10x faster; the link's clock runs 10x too, so the tracker sees
the hands' real timings."""


def test_mqtt_node_to_journal(settings, mosquitto):
    service = Service(settings, games=registry.load_all(), rng=random.Random(2))
    service.sense("readers")
    service.new_game("goblets", {"players": 4}, play="readers")
    scenario = Scenario.generate(random.Random(21), 4, specials=0.0)
    readings = SimulatedReaders(scenario, NOISE["none"], random.Random(4), node="node-1")
    shown: list[tuple[int, str]] = []
    set_reader = service.set_reader

    def showing(seat, status, **kwargs):
        shown.append((seat, status))
        set_reader(seat, status, **kwargs)

    service.set_reader = showing
    hardware = HardwareTable(
        service, scenario.registry, mqtt=mosquitto.url, clock=lambda: time.monotonic() * SPEED
    ).start()
    hello = Hello("node-1", "test", (0, 1, 2, 3))
    transport = MqttTransport(mosquitto.url, hello)
    node = VirtualNode(hello, transport, speed=SPEED, hello_every=1.0)
    try:
        assert node.run(readings.snapshots(), linger=0.5) > 100
        final = scenario.final
        expected = {g: {k: v for k, v in c.items() if v} for g, c in final["goblets"].items()}

        def recorded():
            state = service.table.state
            goblets = {
                state.ring_of[g]: {k: v for k, v in c.items() if v}
                for g, c in enumerate(state.goblets)
            }
            seats = {str(p["place"]): p["ring"] for p in state.view(PUBLIC)["places"]}
            return goblets == expected and seats == final["seats"]

        assert wait_for(recorded), service.table.state.view(PUBLIC)
        # Every reader was shown online while it reported (and offline once the node's run ended
        # and its snapshots stopped: a seat is online while its reader reports).
        assert {seat for seat, status in shown if status == "online"} == {0, 1, 2, 3}
        assert set(service.message(PUBLIC)["readers"]) == {"0", "1", "2", "3"}
        entries = service.store.entries(service.table.record.id)
        assert entries[0].action["type"] == "initial_pour"
        assert {e.mode for e in entries} == {Mode.RECORDING}
        assert service.message(HOST)["sensed"]
    finally:
        transport.close()
        hardware.stop()
        service.close()
    assert hardware.observed > 100
