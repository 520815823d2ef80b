"""The serial link over loop:// and real pty pairs: garbage, truncation, silence, USB unplug."""

from __future__ import annotations

import random

import serial

from companion.core.observations import Observation
from companion.links import wire
from companion.links.events import (
    NodeFault,
    NodeHeartbeat,
    NodeHello,
    NodeLog,
    NodeOffline,
    NodeOnline,
)
from companion.links.serial import SerialLink
from companion.links.wire import Heartbeat, Hello, Log, ReaderFault, Snapshot

HELLO = Hello(node="n1", fw="1.0.0", seats=(0, 1))


def snap(seat: int, seq: int, *tags: str) -> Snapshot:
    return Snapshot(seat=seat, seq=seq, t_ms=1000 * seq, tags=tags)


def uid(i: int) -> str:
    return f"04{i:012X}"


def fast_link(port, sink, **kw):
    kw.setdefault("backoff", (0.05, 0.3))
    kw.setdefault("offline_after", 30.0)
    # A test thread descheduled mid-frame on a loaded machine must not look like a dead line.
    kw.setdefault("expire_after", 2.0)
    return SerialLink(port, sink, **kw)


def observations(collector):
    return [(o.seat, o.seq, o.tags, o.node) for o in collector.of(Observation)]


def test_loop_port_delivers_every_valid_frame_through_garbage(collector):
    port = serial.serial_for_url("loop://", timeout=0.05)
    rng = random.Random(7)
    records = [HELLO] + [snap(i % 2, i, uid(i), uid(i + 100)) for i in range(1, 40)]
    records += [Heartbeat(uptime_ms=5000, frames=41), ReaderFault(seat=1, code=1)]
    records += [Log(level=2, text="seat 1 reader slow")]
    stream = b""
    for seq, record in enumerate(records):
        frame = wire.encode_frame(record, seq)
        if rng.random() < 0.3:
            stream += frame[: rng.randint(1, len(frame) - 1)]  # a truncated frame
        stream += bytes(rng.choice([0x00, 0xFF, 0x42, 0x13]) for _ in range(rng.randint(0, 5)))
        stream += frame
    link = fast_link("loop://", collector, opener=lambda: port).start()
    try:
        assert link.connected.wait(5)
        for i in range(0, len(stream), 17):
            port.write(stream[i : i + 17])
        collector.wait(lambda items: any(isinstance(i, NodeLog) for i in items))
    finally:
        link.stop()
    assert isinstance(collector.items[0], NodeOnline)
    assert collector.of(NodeHello) == [
        NodeHello(collector.items[1].t, "n1", "1.0.0", 1, (0, 1), "serial:loop://")
    ]
    expected = [
        (r.seat, r.seq, frozenset(r.tags), "n1") for r in records if isinstance(r, Snapshot)
    ]
    assert observations(collector) == expected
    assert [(h.node, h.uptime_ms, h.frames) for h in collector.of(NodeHeartbeat)] == [
        ("n1", 5000, 41)
    ]
    assert [(f.node, f.seat, f.code) for f in collector.of(NodeFault)] == [("n1", 1, 1)]
    assert link.stats.frames == len(records) and link.stats.lost_frames == 0
    assert link.stats.dropped_bytes > 0


def test_truncated_frame_then_silence_does_not_hold_back_the_next_frame(collector):
    port = serial.serial_for_url("loop://", timeout=0.05)
    link = fast_link("loop://", collector, opener=lambda: port, expire_after=0.05).start()
    try:
        assert link.connected.wait(5)
        # LEN 200 promises more bytes than will ever come; the good frame behind it must not wait.
        port.write(b"\xcb\x42\xc8\x00\x02" + wire.encode_frame(snap(0, 1, uid(1)), 1))
        collector.wait(lambda items: observations(collector))
    finally:
        link.stop()
    assert observations(collector) == [(0, 1, frozenset({uid(1)}), None)]


def test_silent_node_goes_offline_and_comes_back(collector):
    port = serial.serial_for_url("loop://", timeout=0.05)
    link = fast_link("loop://", collector, opener=lambda: port, offline_after=0.3).start()
    try:
        assert link.connected.wait(5)
        port.write(wire.encode_frame(HELLO, 0))
        collector.wait(lambda items: collector.of(NodeOffline))
        port.write(wire.encode_frame(Heartbeat(uptime_ms=9000, frames=9), 1))
        collector.wait(lambda items: collector.of(NodeHeartbeat))
    finally:
        link.stop()
    kinds = [type(i).__name__ for i in collector.items]
    assert kinds == ["NodeOnline", "NodeHello", "NodeOffline", "NodeOnline", "NodeHeartbeat"]
    assert collector.of(NodeOffline)[0].reason == "silent"
    assert [o.node for o in collector.of(NodeOnline)] == ["n1", "n1"]


def test_real_pty_frames_with_garbage(collector, usb_port):
    link = fast_link(str(usb_port.path), collector).start()
    try:
        assert link.connected.wait(5)
        usb_port.write(b"\x00\xcb\xcb\x42\xff" + wire.encode_frame(HELLO, 0) + b"\xcb\x42\x05")
        for i in range(1, 21):
            usb_port.write(wire.encode_frame(snap(0, i, uid(i)), i) + b"\x42\x00")
        collector.wait(lambda items: len(observations(collector)) == 20)
    finally:
        link.stop()
    assert observations(collector) == [(0, i, frozenset({uid(i)}), "n1") for i in range(1, 21)]
    assert link.stats.crc_errors >= 1


def test_port_that_vanishes_and_returns_resyncs(collector, usb_port):
    link = fast_link(str(usb_port.path), collector).start()
    try:
        assert link.connected.wait(5)
        usb_port.write(wire.encode_frame(HELLO, 0) + wire.encode_frame(snap(0, 1, uid(1)), 1))
        collector.wait(lambda items: len(observations(collector)) == 1)

        usb_port.unplug()  # USB cable pulled: the pty and the udev name disappear
        offline = collector.wait(lambda items: collector.of(NodeOffline))
        assert offline[0].reason == "port lost" and offline[0].node == "n1"
        assert not link.connected.wait(0.2)

        usb_port.plug()  # plugged back: a new tty behind the same name; no HELLO yet
        assert link.connected.wait(5)
        usb_port.write(b"\xff\x00garbage" + wire.encode_frame(snap(0, 2, uid(1), uid(2)), 0))
        usb_port.write(wire.encode_frame(snap(1, 1), 1))
        collector.wait(lambda items: len(observations(collector)) == 3)
    finally:
        link.stop()
    assert observations(collector) == [
        (0, 1, frozenset({uid(1)}), "n1"),
        (0, 2, frozenset({uid(1), uid(2)}), "n1"),
        (1, 1, frozenset(), "n1"),
    ]
    kinds = [type(i).__name__ for i in collector.items]
    assert (
        kinds
        == ["NodeOnline", "NodeHello", "Observation", "NodeOffline", "NodeOnline"]
        + ["Observation"] * 2
    )
    assert link.reconnects == 1


def test_port_absent_at_start_is_opened_when_it_appears(collector, usb_port):
    usb_port.unplug()
    link = fast_link(str(usb_port.path), collector).start()
    try:
        assert not link.connected.wait(0.3)
        usb_port.plug()
        assert link.connected.wait(5)
        usb_port.write(wire.encode_frame(HELLO, 0) + wire.encode_frame(snap(0, 1), 1))
        collector.wait(lambda items: observations(collector))
    finally:
        link.stop()
    assert observations(collector) == [(0, 1, frozenset(), "n1")]


def test_a_failing_sink_does_not_stop_the_link(collector, caplog):
    def flaky(item):
        if isinstance(item, NodeHello):
            raise RuntimeError("consumer bug")
        collector(item)

    port = serial.serial_for_url("loop://", timeout=0.05)
    link = fast_link("loop://", flaky, opener=lambda: port).start()
    try:
        assert link.connected.wait(5)
        port.write(wire.encode_frame(HELLO, 0) + wire.encode_frame(snap(0, 1), 1))
        collector.wait(lambda items: observations(collector))
    finally:
        link.stop()
    assert observations(collector) == [(0, 1, frozenset(), "n1")]
    assert "consumer bug" in caplog.text
