"""The node loop on CPython: chip models in, frames and MQTT messages out, read back by the
companion's own decoders (companion/links/wire.py)."""

import itertools

import cbnode
import report
from fw_sim_mfrc522 import Tag14443A
from fw_sim_pn5180 import Tag15693
from fw_table import Table

from companion.links import wire

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
    assert snaps[2][0].tags == ("04A1B2C3D4E5F6",) and snaps[2][1:] == (True, 1)
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
