"""TableFeed: links driving the tracker (observations, node availability with the HELLO's seats)."""

from __future__ import annotations

import queue
import threading

import pytest
import serial

from companion.core.tags import TagRegistry
from companion.core.tracking import Tracker
from companion.links import wire
from companion.links.events import NodeHeartbeat, NodeHello, QueueSink, TableFeed
from companion.links.serial import SerialLink
from companion.links.wire import Heartbeat, Hello, Snapshot


def test_serial_link_drives_the_tracker_through_a_feed(collector):
    registry = TagRegistry()
    registry.add_ring("04000000000001", "de_miceti")
    registry.add_ring("04000000000002", "mctoadery")
    tracker = Tracker(registry, 2)
    results, others = [], []
    feed = TableFeed(tracker, on_result=results.extend, on_other=others.append)

    def sink(item):
        feed(item)
        collector(item)

    port = serial.serial_for_url("loop://", timeout=0.05)
    link = SerialLink("loop://", sink, opener=lambda: port, offline_after=0.3).start()
    try:
        assert link.connected.wait(5)
        data = wire.encode_frame(Hello("n1", "1.0.0", (0, 1)), 0)
        data += wire.encode_frame(Heartbeat(1000, 1), 1)
        for seq in range(2, 12):
            data += wire.encode_frame(Snapshot(0, seq, seq, ("04000000000001",)), seq)
        port.write(data)
        collector.wait(lambda items: any(e["event"] == "offline" for e in results))
    finally:
        link.stop()
    offline = [e for e in results if e["event"] == "offline"]
    assert offline == [{"t": offline[0]["t"], "event": "offline", "node": "n1", "seats": [0, 1]}]
    assert [e["event"] for e in results if e["event"] == "online"] == ["online"]
    assert [type(o) for o in others] == [NodeHello, NodeHeartbeat]
    assert feed.seats == {"n1": (0, 1)}


def test_queue_sink_hands_items_to_a_consumer_thread():
    sink = QueueSink()
    port = serial.serial_for_url("loop://", timeout=0.05)
    link = SerialLink("loop://", sink, opener=lambda: port).start()
    got = []
    consumer = threading.Thread(target=lambda: got.extend(sink.get(10) for _ in range(2)))
    consumer.start()
    try:
        assert link.connected.wait(5)
        port.write(wire.encode_frame(Snapshot(2, 1, 5, ("DEADBEEF",)), 0))
        consumer.join(15)
    finally:
        link.stop()
    assert [type(i).__name__ for i in got] == ["NodeOnline", "Observation"]
    assert (got[1].seat, got[1].tags) == (2, frozenset({"DEADBEEF"}))
    with pytest.raises(queue.Empty):
        sink.get(0.01)
