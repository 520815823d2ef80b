"""Virtual reader nodes: the node's duties in-process, and `companion node --virtual` as its own
process over a real broker, a pty the service's serial link opens, and a serial port."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.core.games.goblets.tracking import Tracker
from companion.core.observations import Observation
from companion.links import virtual
from companion.links.events import NodeHello, NodeOffline, NodeOnline
from companion.links.mqtt import MqttLink
from companion.links.serial import SerialLink
from companion.links.virtual import VirtualNode, read_script, simulated_readings
from companion.links.wire import FrameDecoder, Heartbeat, Hello, Snapshot
from companion.virtual import Scenario, summarize

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = [
    {"t": 0.0, "seat": 0, "tags": ["04A1B2C3D4E5F6"]},
    {"t": 0.1, "seat": 1, "tags": []},
    {"t": 0.2, "seat": 0, "tags": ["04A1B2C3D4E5F6", "E004015012345678"]},
    {"t": 0.3, "seat": 2, "tags": ["DEADBEEF"]},  # not this node's seat
    {"t": 0.4, "seat": 1, "tags": ["0811223344556677889A"]},
    {"t": 0.5, "seat": 0, "tags": ["04a1b2c3d4e5f6"]},
]
LAST = {0: frozenset({"04A1B2C3D4E5F6"}), 1: frozenset({"0811223344556677889A"})}


class Recorder:
    def __init__(self):
        self.sent = []

    def send(self, record):
        self.sent.append(record)

    def close(self):
        self.sent.append("closed")


def write_script(tmp_path, lines=SCRIPT, junk=False):
    path = tmp_path / "script.jsonl"
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    if junk:
        text = '{"t": 0, "seat": -1, "tags": []}\nnot json\n' + text
    path.write_text(text)
    return path


def node_process(*args, stderr=subprocess.PIPE):
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "node", "--virtual", *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        text=True,
    )


def finish(process, timeout=20):
    """Wait for the process to end; returns (status, stderr). Killed if it overstays."""
    try:
        _, stderr = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=5)
    return process.returncode, stderr


def latest(collector):
    return {o.seat: o.tags for o in collector.of(Observation)}


def test_node_sends_a_snapshot_for_every_reading():
    out = Recorder()
    node = VirtualNode(Hello("n1", "1.0", (0, 1)), out, speed=0)
    repeated = [*SCRIPT, {**SCRIPT[-1], "t": 0.6}]
    assert node.run(read_script(json.dumps(line) for line in repeated)) == 6
    snaps = [(s.seat, s.seq) for s in out.sent if isinstance(s, Snapshot)]
    assert snaps == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (0, 3)]


def test_node_duties_hello_heartbeat_change_only_snapshots():
    out = Recorder()
    node = VirtualNode(Hello("n1", "1.0", (0, 1)), out, speed=0, on_change=True)
    played = node.run(read_script(json.dumps(line) for line in SCRIPT))
    assert played == 5  # seat 2's reading is not this node's
    assert isinstance(out.sent[0], Hello) and isinstance(out.sent[1], Heartbeat)
    snaps = [(s.seat, s.seq, s.tags) for s in out.sent if isinstance(s, Snapshot)]
    assert snaps == [
        (0, 0, ("04A1B2C3D4E5F6",)),
        (1, 0, ()),
        (0, 1, ("04A1B2C3D4E5F6", "E004015012345678")),
        (1, 1, ("0811223344556677889A",)),
        (0, 2, ("04A1B2C3D4E5F6",)),
    ]
    node.report(0, ["04A1B2C3D4E5F6"])  # unchanged and fresh: not resent
    assert len([s for s in out.sent if isinstance(s, Snapshot)]) == 5
    node.last[0] = (node.last[0][0], node.last[0][1] - virtual.REFRESH_EVERY)
    node.tick()  # ...but refreshed once 2 s old, keeping the retained state fresh
    assert out.sent[-1] == Snapshot(0, 3, out.sent[-1].t_ms, ("04A1B2C3D4E5F6",), "n1")


def test_script_with_bad_lines_goes_on(caplog):
    lines = ['{"t": 0, "seat": 0, "tags": ["04A1B2C3D4E5F6"]}', "nope", '{"seat": 1}', ""]
    got = list(read_script(lines, "s.jsonl"))
    assert [(o.seat, o.tags) for o in got] == [(0, frozenset({"04A1B2C3D4E5F6"}))]
    assert "s.jsonl line 2" in caplog.text and "s.jsonl line 3: t: missing" in caplog.text


def test_simulated_readings_come_from_the_course_generator():
    readings, registry = simulated_readings(seed=5, seats=4, noise="none", node="n1")
    first = list(readings)[:40]
    assert {o.seat for o in first} == {0, 1, 2, 3} and all(o.node == "n1" for o in first)
    assert all(uid in registry["tags"] for o in first for uid in o.tags)


def test_process_over_mqtt_delivers_the_script(mosquitto, collector, tmp_path):
    link = MqttLink(mosquitto.url, collector, reconnect=(0.05, 0.3)).start()
    try:
        assert link.subscribed.wait(10)
        script = write_script(tmp_path, junk=True)
        process = node_process(
            "--mqtt", mosquitto.url, "--node", "n1", "--seats", "0,1", "--script", script,
            "--speed", "0",
        )  # fmt: skip
        status, stderr = finish(process)
        assert status == 0
        collector.wait(lambda items: collector.of(NodeOffline))  # its clean "offline"
    finally:
        link.stop()
    got = [(o.seat, o.seq, sorted(o.tags), o.node) for o in collector.of(Observation)]
    assert got == [
        (0, 0, ["04A1B2C3D4E5F6"], "n1"),
        (1, 0, [], "n1"),
        (0, 1, ["04A1B2C3D4E5F6", "E004015012345678"], "n1"),
        (1, 1, ["0811223344556677889A"], "n1"),
        (0, 2, ["04A1B2C3D4E5F6"], "n1"),
    ]
    assert collector.of(NodeHello)[0].seats == (0, 1)
    assert "line 1: seat" in stderr and "line 2" in stderr and '"event": "done"' in stderr


def test_killed_process_leaves_its_last_will_and_returns(mosquitto, collector):
    link = MqttLink(mosquitto.url, collector, reconnect=(0.05, 0.3)).start()
    processes = []
    try:
        assert link.subscribed.wait(10)
        for run in (1, 2):
            process = node_process(
                "--mqtt", mosquitto.url, "--node", "n3", "--table", "4", "--seed", "2",
                "--noise", "none", "--speed", "1", "--linger", "60",
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            processes.append(process)
            collector.wait(lambda items, run=run: len(collector.of(NodeOnline)) == run, 20)
            collector.wait(lambda items: latest(collector), 20)
            if run == 1:
                process.kill()  # SIGKILL: no DISCONNECT, the broker publishes the Will
                offline = collector.wait(lambda items: collector.of(NodeOffline), 20)
                assert (offline[0].node, offline[0].reason) == ("n3", "status offline")
        processes[-1].send_signal(signal.SIGTERM)
        assert finish(processes[-1])[0] == 0
        collector.wait(lambda items: len(collector.of(NodeOffline)) == 2)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(5)
        link.stop()
    kinds = [type(i).__name__ for i in collector.items if isinstance(i, NodeOnline | NodeOffline)]
    assert kinds == ["NodeOnline", "NodeOffline"] * 2
    assert [o.reason for o in collector.of(NodeOffline)] == ["status offline"] * 2
    assert len(collector.of(NodeHello)) >= 2


def test_process_over_a_pty_feeds_the_serial_link(collector, tmp_path):
    port = tmp_path / "cupbearer-virtual"
    # The link starts first and keeps trying until the node creates the port.
    link = SerialLink(str(port), collector, backoff=(0.05, 0.2)).start()
    script = write_script(tmp_path, [{**line, "t": line["t"] + 0.5} for line in SCRIPT])
    process = node_process(
        "--pty", port, "--node", "n1", "--seats", "0,1", "--script", script,
        "--hello-every", "0.3", "--linger", "30",
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        collector.wait(lambda items: latest(collector) == LAST, 20)
        collector.wait(lambda items: collector.of(NodeHello), 20)
        process.send_signal(signal.SIGTERM)
        assert finish(process)[0] == 0
        offline = collector.wait(lambda items: collector.of(NodeOffline), 20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
        link.stop()
    assert offline[0].reason == "port lost"
    assert collector.of(NodeHello)[0].node == "n1"
    assert {o.node for o in collector.of(Observation)} <= {None, "n1"}
    assert link.stats.crc_errors == 0


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    import tty

    tty.setraw(slave)
    try:
        yield master, os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


def test_process_writes_frames_to_a_serial_port(pty_pair, tmp_path):
    master, path = pty_pair
    script = write_script(tmp_path)
    process = node_process("--serial", path, "--node", "n1", "--seats", "0,1", "--script",
                           script, "--speed", "0", stderr=subprocess.DEVNULL)  # fmt: skip
    decoder, frames = FrameDecoder(), []
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            snaps = [f for f in frames if isinstance(f.record, Snapshot)]
            if len(snaps) == 5:
                break
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                frames += decoder.feed(os.read(master, 4096))
        assert finish(process)[0] == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    assert isinstance(frames[0].record, Hello) and frames[0].record.node == "n1"
    assert [f.seq for f in frames] == list(range(len(frames)))
    snaps = [(f.record.seat, f.record.tags) for f in frames if isinstance(f.record, Snapshot)]
    assert snaps[-2:] == [(1, ("0811223344556677889A",)), (0, ("04A1B2C3D4E5F6",))]
    assert decoder.stats.crc_errors == 0 and decoder.stats.dropped_bytes == 0


def test_whole_course_through_node_process_broker_link_and_tracker(mosquitto, tmp_path):
    """End to end: a random Course read with moderate noise by a node process, through the broker
    and the MQTT link into the tracker, gives the Course's exact moves, pours and final table.

    Played at 4x real time; the link's clock runs 4x too, so the tracker sees sensor-like time.
    """
    speed, seed, seats = 4.0, 3, 4
    scenario = Scenario.generate(random.Random(seed), seats)  # the Course the node will play
    tracker = Tracker(scenario.registry, seats)
    events, lock = [], threading.Lock()

    def sink(item):
        if isinstance(item, Observation):
            with lock:
                events.extend(tracker.observe(item))

    registry_path = tmp_path / "registry.json"
    link = MqttLink(mosquitto.url, sink, clock=lambda: time.monotonic() * speed).start()
    try:
        assert link.subscribed.wait(10)
        process = node_process(
            "--mqtt", mosquitto.url, "--node", "n1", "--table", seats, "--seed", seed,
            "--noise", "moderate", "--speed", speed, "--registry-out", registry_path,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        assert finish(process, timeout=60)[0] == 0
    finally:
        link.stop()
    assert json.loads(registry_path.read_text()) == scenario.registry.to_json()
    events += tracker.advance(time.monotonic() * speed + 5.0)
    events.append(tracker.state())
    assert summarize(events).differences(scenario.truth()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--serial", "/nonexistent/tty", "--speed", "0"], "serial: cannot open"),
        (["--mqtt", "http://x"], "mqtt: expected mqtt://"),
        (["--pty", "/nonexistent/dir/port"], "pty: cannot open"),
        (["--serial", "loop://", "--script", "/nonexistent.jsonl", "--seats", "0"], "script:"),
        (["--serial", "loop://", "--script", "-"], "seats: required with --script"),
        (["--serial", "loop://", "--noise", "loud"], "noise: unknown noise 'loud'"),
    ],
)
def test_node_command_bad_input_is_one_clear_line(args, message, capsys):
    from companion.cli import main

    assert main(["node", "--virtual", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion node: ") and message in err and "Traceback" not in err
