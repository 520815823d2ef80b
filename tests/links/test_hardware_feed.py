"""A serial link feeding the service's hardware table (service/hardware.py): the links' one
consumer. Items cross from the link's thread through its queue in order; a node's HELLO seats are
the seats its going silent takes offline, through the current game's tracker."""

from __future__ import annotations

import random
import threading

from polling import wait_for

from companion import config
from companion.core import registry
from companion.links import wire
from companion.links.wire import Heartbeat, Hello, Snapshot
from companion.service import Service
from companion.service.hardware import HardwareTable
from companion.virtual import Scenario

HELLO = Hello("n1", "1.0.0", (0, 1))


def test_serial_node_drives_the_readers_game_through_the_hardware_table(tmp_path, usb_port):
    settings = config.replace(config.Config(), data_dir=str(tmp_path))
    service = Service(settings, games=registry.load_all(), rng=random.Random(2))
    scenario = Scenario.generate(random.Random(21), 4, specials=0.0)
    shown: list[tuple[int, str]] = []
    set_reader = service.set_reader
    lock = threading.Lock()

    def showing(seat, status, **kwargs):
        with lock:
            shown.append((seat, status))
        set_reader(seat, status, **kwargs)

    service.set_reader = showing
    hardware = HardwareTable(service, scenario.registry, serial=str(usb_port.path))
    game_id = service.new_game("goblets", {"players": 4}, play="readers")["game_id"]
    ring = scenario.tags_of(scenario.layout[0])[0]
    hardware.start()
    try:
        assert hardware.links[0].connected.wait(5)
        data = wire.encode_frame(HELLO, 0) + wire.encode_frame(Heartbeat(1000, 1), 1)
        for seq in range(2, 12):
            data += wire.encode_frame(Snapshot(0, seq, 1000 * seq, (ring,)), seq)
        usb_port.write(data)
        # The node then falls silent: the link says it is offline (after 3 s), and the tracker's
        # offline event names the seats its HELLO announced, seat 1 too (it sent no snapshot).
        assert wait_for(lambda: (1, "offline") in shown, seconds=20), shown
    finally:
        hardware.stop()
        service.close()
    assert hardware.observed == 10  # every snapshot, through the queue, in order
    assert hardware.node_seats == {"n1": (0, 1)}
    with lock:
        seat_1 = [status for seat, status in shown if seat == 1]
    assert seat_1[0] == "online" and seat_1[-1] == "offline"  # online from the HELLO
    assert hardware.bridge is not None and hardware.bridge.game_id == game_id
