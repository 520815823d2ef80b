"""The node loop on CPython: chip models in, frames and MQTT messages out, read back by the
companion's own decoders (companion/links/wire.py)."""

import itertools
import threading

import cbnode
import fw_umqtt
import paho.mqtt.client as paho
import pytest
import report
from fw_sim_bus import SimClock
from fw_sim_mfrc522 import Tag14443A
from fw_sim_pn5180 import Tag15693
from fw_table import Table
from paho.mqtt.enums import CallbackAPIVersion

from companion.core.observations import Observation
from companion.links import wire
from companion.links.mqtt import SUBSCRIPTIONS, MqttLink

TOKEN_A = Tag15693(bytes.fromhex("E004015012345678"))
TOKEN_B = Tag15693(bytes.fromhex("E0040150ABCDEF01"))
RING = Tag14443A(bytes.fromhex("04A1B2C3D4E5F6"))


def _frames(stream):
    decoder = wire.FrameDecoder()
    frames = decoder.feed(bytes(stream.data))
    assert decoder.stats.dropped_bytes == 0
    assert decoder.stats.lost_frames == 0
    return [f.record for f in frames]


def _latest_snapshots(records):
    latest = {}
    for r in records:
        if isinstance(r, wire.Snapshot):
            latest[r.seat] = r
    return latest


def test_serial_node_reports_hello_snapshots_and_heartbeats():
    table = Table()
    table.fields[0].tags += [TOKEN_A, TOKEN_B]
    table.fields[3].tags.append(RING)
    stream = table.serial()
    steps = table.run_for(3500)
    records = _frames(stream)
    hello = records[0]
    assert isinstance(hello, wire.Hello)
    assert (hello.node, hello.fw, tuple(hello.seats)) == ("n1", cbnode.FW_VERSION, (0, 1, 2, 3))
    latest = _latest_snapshots(records)
    assert latest[0].tags == ("E004015012345678", "E0040150ABCDEF01")
    assert latest[1].tags == ()
    assert latest[2].tags == ()
    assert latest[3].tags == ("04A1B2C3D4E5F6",)
    beats = [r for r in records if isinstance(r, wire.Heartbeat)]
    assert 3 <= len(beats) <= 5
    assert table.watchdog.feeds == steps


def test_a_token_moved_between_seats_is_reported_on_both():
    table = Table()
    table.fields[0].tags.append(TOKEN_A)
    stream = table.serial()
    table.run_for(600)
    before = _latest_snapshots(_frames(stream))
    table.fields[0].remove(TOKEN_A.uid)
    table.fields[1].tags.append(TOKEN_A)
    table.run_for(600)
    after = _latest_snapshots(_frames(stream))
    assert before[0].tags == ("E004015012345678",) and before[1].tags == ()
    assert after[0].tags == () and after[0].seq > before[0].seq
    assert after[1].tags == ("E004015012345678",) and after[1].seq > before[1].seq


def _by_seat(records):
    seats = {}
    for r in records:
        if isinstance(r, wire.Snapshot):
            seats.setdefault(r.seat, []).append(r)
    return seats


def test_one_raw_snapshot_per_seat_per_reading_at_the_rate():
    """docs/protocol.md: a SNAPSHOT after every inventory of a seat, undebounced (about 10 Hz),
    its sequence number incremented each time; a tag missed once is reported missed once."""
    table = Table()
    table.fields[0].tags += [TOKEN_A, TOKEN_B]
    table.fields[2].tags.append(RING)
    seat0 = table.seats[0]

    def miss_once(ms):
        # Seat 0's sixth reading misses TOKEN_B (a flicker at the antenna's edge), then it is back.
        if seat0.reads == 5 and len(table.fields[0].tags) == 2:
            table.fields[0].remove(TOKEN_B.uid)
        elif seat0.reads == 6 and len(table.fields[0].tags) == 1:
            table.fields[0].tags.append(TOKEN_B)

    stream = table.serial()
    table.run_for(3000, on_step=miss_once)
    snaps = _by_seat(_frames(stream))
    for seat in table.seats:
        got = snaps[seat.index]
        assert len(got) == seat.reads  # one per reading, none held back, none repeated
        assert [s.seq for s in got] == list(range(seat.reads))
        assert 29 <= len(got) <= 31  # 10 Hz for 3 s: the readers have time to spare
    both = ("E004015012345678", "E0040150ABCDEF01")
    assert [s.tags for s in snaps[0][:8]] == [both] * 5 + [("E004015012345678",)] + [both] * 2
    assert {s.tags for s in snaps[2]} == {("04A1B2C3D4E5F6",)}
    assert {s.tags for s in snaps[1]} == {()} == {s.tags for s in snaps[3]}
    steps = [b.t_ms - a.t_ms for a, b in itertools.pairwise(snaps[1])]
    assert max(steps) - min(steps) <= 5  # each seat keeps its phase: 100 ms apart


def test_readers_too_slow_for_the_rate_are_read_round_robin():
    table = Table(rate_hz=50)  # 20 ms a seat: more than four inventories take
    table.fields[0].tags += [TOKEN_A, TOKEN_B]
    stream = table.serial()
    table.run_for(2000)
    snaps = _by_seat(_frames(stream))
    counts = [len(snaps[s]) for s in range(4)]
    assert max(counts) - min(counts) <= 1  # fair: no seat starves another
    assert counts[0] < 2000 // 20  # below the asked rate: every reading is still sent
    assert table.node.pause_ms() == 0  # the loop does not sleep while a seat is overdue


def test_a_dead_reader_is_reported_and_recovers():
    table = Table()
    table.pn[1].product_version = b"\x00\x00"  # no answer on SPI
    table.fields[1].tags.append(TOKEN_B)
    table.scheduler.retry_ms = 500
    stream = table.serial()
    table.run_for(1000)
    records = _frames(stream)
    faults = [r for r in records if isinstance(r, wire.ReaderFault)]
    assert [(f.seat, f.code) for f in faults] == [(1, 1)]
    assert any(isinstance(r, wire.Log) and "seat 1" in r.text for r in records)
    assert 1 not in _latest_snapshots(records)  # unknown is not empty: nothing published
    assert 0 in _latest_snapshots(records)  # the other seats go on
    table.pn[1].product_version = b"\x00\x04"  # reseated cable
    table.run_for(1500)
    records = _frames(stream)
    assert _latest_snapshots(records)[1].tags == ("E0040150ABCDEF01",)
    assert any(isinstance(r, wire.Log) and "recovered" in r.text for r in records)


def test_a_broken_usb_write_does_not_stop_the_loop():
    table = Table()
    stream = table.serial()
    stream.fail = True
    table.run_for(300)
    assert table.reporter.write_errors > 0
    stream.fail = False
    table.fields[0].tags.append(TOKEN_A)
    table.run_for(1500)
    assert _latest_snapshots(_frames(stream))[0].tags == ("E004015012345678",)


class Broker:
    """What a umqtt.simple client would have delivered, and a switch to break it."""

    def __init__(self):
        self.messages = []
        self.down = False
        self.connect_times = []
        self.clients = []


def _client_factory(broker, clock):
    class MQTTClient:
        def __init__(self):
            self.will = None
            self.connected = False
            broker.clients.append(self)

        def set_last_will(self, topic, msg, retain=False, qos=0):
            self.will = (topic, msg, retain, qos)

        def connect(self, clean_session=True):
            broker.connect_times.append(clock.ticks_ms())
            if broker.down:
                raise OSError(113, "ECONNABORTED")
            self.connected = True

        def publish(self, topic, msg, retain=False, qos=0):
            if broker.down:
                raise OSError(104, "ECONNRESET")
            broker.messages.append((topic, msg, retain, qos))

    return MQTTClient


def test_mqtt_node_last_will_hello_and_retained_snapshots():
    table = Table()
    broker = Broker()
    table.fields[2].tags.append(RING)
    factory = _client_factory(broker, table.clock)
    table.start(report.MqttReporter(factory, "n1", cbnode.FW_VERSION, [0, 1, 2, 3], table.clock))
    table.run_for(2500)
    assert broker.clients[0].will == ("cupbearer/v1/node/n1/status", "offline", True, 1)
    decoded = [(wire.decode_mqtt(t, m.encode()), r, q) for t, m, r, q in broker.messages]
    status, hello = decoded[0][0], decoded[1][0]
    assert isinstance(status, wire.Status) and status.online
    assert isinstance(hello, wire.Hello) and tuple(hello.seats) == (0, 1, 2, 3)
    snaps = {rec.seat: (rec, r, q) for rec, r, q in decoded if isinstance(rec, wire.Snapshot)}
    # Retained at QoS 0: the next reading replaces a lost one (report.py's docstring).
    assert snaps[2][0].tags == ("04A1B2C3D4E5F6",) and snaps[2][1:] == (True, 0)
    beats = [(r, q) for rec, r, q in decoded if isinstance(rec, wire.Heartbeat)]
    assert beats and set(beats) == {(False, 0)}


def test_mqtt_reconnects_with_backoff_and_republishes():
    table = Table()
    broker = Broker()
    broker.down = True
    factory = _client_factory(broker, table.clock)
    table.start(report.MqttReporter(factory, "n1", cbnode.FW_VERSION, [0, 1, 2, 3], table.clock))
    table.run_for(6500)
    gaps = [b - a for a, b in itertools.pairwise(broker.connect_times)]
    assert len(gaps) >= 2
    assert all(later >= 2 * earlier * 0.9 for earlier, later in itertools.pairwise(gaps))
    assert broker.messages == []
    broker.down = False
    table.fields[1].tags.append(TOKEN_A)
    table.run_for(9000)
    topics = [t for t, *_ in broker.messages]
    assert topics[0] == "cupbearer/v1/node/n1/status"
    assert "cupbearer/v1/seat/1/snapshot" in topics
    # The broker drops again: the reporter reconnects and republishes every seat at once.
    broker.down = True
    table.run_for(1100)  # at least one heartbeat fails: that is how umqtt notices
    broker.down = False
    count = len(broker.messages)
    table.run_for(2500)
    again = [t for t, *_ in broker.messages[count:]]
    assert again[:2] == ["cupbearer/v1/node/n1/status", "cupbearer/v1/node/n1/hello"]
    assert {f"cupbearer/v1/seat/{s}/snapshot" for s in range(4)} <= set(again[2:6])


# --- the real umqtt.simple (micropython-lib, vendored) against a real mosquitto ---------------

STATUS = "cupbearer/v1/node/n1/status"


class Watcher:
    """A paho subscriber on the node's status (where its Will lands) and its log (a marker)."""

    def __init__(self, broker):
        self.statuses = []
        self.marks = []
        self.cond = threading.Condition()
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id="watcher")
        self.client.on_message = self._on_message
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        self.client.subscribe([(STATUS, 1), ("cupbearer/v1/node/n1/log", 1)])
        assert subscribed.wait(10)

    def _on_message(self, client, userdata, msg):
        with self.cond:
            if msg.topic == STATUS:
                self.statuses.append(msg.payload.decode())
            elif b"mark" in msg.payload:
                self.marks.append(msg.payload.decode())
            self.cond.notify_all()

    def wait(self, predicate, timeout=10):
        with self.cond:
            assert self.cond.wait_for(predicate, timeout), (self.statuses, self.marks)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def _vendored_factory(broker, tap):
    simple = fw_umqtt.load_simple(tap)

    def factory():
        return simple.MQTTClient("n1", broker.host, port=broker.port, keepalive=30)

    return factory


@pytest.mark.slow
def test_100000_publishes_through_umqtt_simple_keep_the_node_connected(mosquitto):
    """The reporter on the node's real client: snapshots at QoS 0, and QoS 1 (hello) past the
    16-bit packet id, which wraps to 1 instead of going out as 0."""
    watcher = Watcher(mosquitto)
    tap = fw_umqtt.WireTap()
    rep = report.MqttReporter(_vendored_factory(mosquitto, tap), "n1", "1.1.0", [0], SimClock())
    try:
        assert rep.maintain()
        watcher.wait(lambda: watcher.statuses == ["online"])
        for i in range(100_000):
            if i % 3:  # 66,667 QoS 1: the packet id passes 65,535
                rep.hello("n1", "1.1.0", [0])
            else:
                rep.snapshot(0, i & 0xFFFF, i, [bytes.fromhex("04A1B2C3D4E5F6")])
        assert rep.client is not None and rep.connects == 1  # no publish failed, no reconnect
        rep.fault(0, 1)  # one more QoS 1, PUBACKed (umqtt waits for it)
        rep.log(1, "mark")  # on the same connection: it arrives after everything before it
        watcher.wait(lambda: watcher.marks)
        connected = rep.client is not None
    finally:
        rep._drop()
        watcher.close()
    assert connected
    assert watcher.statuses == ["online"]  # no Will: the broker never dropped the node
    assert tap.pids.count(0) == 0 and min(tap.pids) == 1 and max(tap.pids) == 0xFFFF
    assert tap.pids[65535:65537] == [1, 2]  # after 65,535 the next id is 1
    assert tap.publishes[0] >= 33_333  # the snapshots (and the log line) at QoS 0
    assert "protocol error" not in mosquitto.log()
    assert "n1 disconnected" not in mosquitto.log()


@pytest.mark.slow
def test_unwrapped_umqtt_simple_sends_id_0_and_is_thrown_off(mosquitto):
    """The old way (every publish QoS 1, nobody wrapping the id): the 65,536th goes out as id 0,
    mosquitto 2.0 disconnects the node and publishes its Will."""
    watcher = Watcher(mosquitto)
    tap = fw_umqtt.WireTap()
    client = _vendored_factory(mosquitto, tap)()
    client.set_last_will(STATUS, "offline", retain=True, qos=1)
    client.connect()
    sent = 0
    try:
        with pytest.raises(OSError):
            for sent in range(1, 70_001):  # noqa: B007  (``sent`` says where it broke)
                client.publish("cupbearer/v1/seat/0/snapshot", "{}", retain=True, qos=1)
        watcher.wait(lambda: "offline" in watcher.statuses)
    finally:
        client.sock.close()
        watcher.close()
    assert sent == 65_536 and tap.pids[-1] == 0
    assert "disconnected due to protocol error" in mosquitto.log()


class Sink:
    """What the companion's link hands on, with a bounded wait."""

    def __init__(self):
        self.items = []
        self.cond = threading.Condition()

    def __call__(self, item):
        with self.cond:
            self.items.append(item)
            self.cond.notify_all()

    def observations(self):
        with self.cond:
            return [i for i in self.items if isinstance(i, Observation)]

    def wait(self, predicate, timeout=10):
        with self.cond:
            assert self.cond.wait_for(lambda: predicate(self.observations()), timeout)


def test_the_companion_drops_repeated_snapshots_and_counts_none_lost(mosquitto):
    """QoS 0 snapshots from the node's real client; two reconnects that republish the latest of
    each seat; the companion resubscribing (the retained ones again): each reading reaches the
    tracker once, and none is counted lost."""
    sink = Sink()
    link = MqttLink(mosquitto.url, sink, reconnect=(0.05, 0.3)).start()
    tap = fw_umqtt.WireTap()
    rep = report.MqttReporter(_vendored_factory(mosquitto, tap), "n1", "1.1.0", [0, 1], SimClock())
    ring = [bytes.fromhex("04A1B2C3D4E5F6")]
    try:
        assert link.subscribed.wait(10) and rep.maintain()
        for n in range(50):
            rep.snapshot(n % 2, n // 2, 100 * n, [] if n % 5 else ring)
        sink.wait(lambda obs: len(obs) == 50)
        for _ in range(2):
            rep._drop()  # Wi-Fi lost: the next maintain() republishes both seats' latest
            assert rep.maintain()
        link.subscribed.clear()
        link.client.subscribe(SUBSCRIPTIONS)  # a resubscribe: the retained ones again
        assert link.subscribed.wait(10)
        rep.snapshot(0, 25, 5000, [])  # a fresh reading after it all
        sink.wait(lambda obs: obs[-1].seq == 25)
    finally:
        rep._drop()
        link.stop()
    seen = [(o.seat, o.seq) for o in sink.observations()]
    assert seen == [(n % 2, n // 2) for n in range(50)] + [(0, 25)]
    assert (link.repeats, link.lost_snapshots, link.seq_resets) == (6, 0, 0)
    assert tap.publishes[1] == 6  # online + hello per connect: no snapshot went at QoS 1


def test_the_companion_counts_a_lost_qos0_snapshot_and_a_reboot(mosquitto):
    """A gap in a seat's seq is counted lost; a node that restarts at seq 0 is a reset."""
    sink = Sink()
    link = MqttLink(mosquitto.url, sink, reconnect=(0.05, 0.3)).start()
    rep = report.MqttReporter(
        _vendored_factory(mosquitto, fw_umqtt.WireTap()), "n1", "1.1.0", [0], SimClock()
    )
    try:
        assert link.subscribed.wait(10) and rep.maintain()
        for seq, t_ms in [(0, 0), (1, 100), (4, 400), (0, 50)]:  # 2 and 3 lost, then a reboot
            rep.snapshot(0, seq, t_ms, [])
        sink.wait(lambda obs: len(obs) == 4)
    finally:
        rep._drop()
        link.stop()
    assert (link.repeats, link.lost_snapshots, link.seq_resets) == (0, 2, 1)
