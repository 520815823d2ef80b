"""Reporters: how a node's events leave it, over USB serial frames or over MQTT.

Both take the same calls (hello, snapshot, heartbeat, fault, log, maintain). The serial one
writes cbwire frames to a byte stream (USB CDC). The MQTT one wraps a umqtt.simple-style client
built by ``client_factory()``: it sets the Last Will (``offline``, retained, QoS 1) before each
connect, announces ``online`` and the hello (retained) after it, republishes the latest snapshot
of every seat, and on any OSError drops the connection and retries with exponential backoff
(1 s doubling to 60 s), so a broker restart or a Wi-Fi drop costs nothing but time.

Snapshots go out at QoS 0 (retained). Each seat sends a fresh full snapshot about ten times a
second, so a lost one is replaced by the next within 100 ms; QoS 1 would buy nothing for that
but a PUBACK round trip per snapshot (umqtt.simple's QoS 1 ``publish`` blocks until the PUBACK:
60 round trips a second for six seats, in the poll loop) and a 16-bit packet id that ran out
every 18 minutes (see ``next_packet_id``). The status, hello and fault stay QoS 1: they are rare
and a lost one is not replaced soon.
"""

import cbwire

SNAPSHOT_QOS = 0
PID_MAX = 0xFFFF


class SerialReporter:
    """Frames to a byte stream; a stream error is counted, never raised into the poll loop."""

    def __init__(self, stream):
        self.stream = stream
        self.writer = cbwire.FrameWriter()
        self.write_errors = 0

    def _send(self, frame_type, payload):
        data = self.writer.encode(frame_type, payload)
        try:
            self.stream.write(data)
        except OSError:
            self.write_errors += 1

    @property
    def frames_sent(self):
        """Frames handed to the link (for the heartbeat)."""
        return self.writer.frames_sent

    def maintain(self):
        """Nothing to keep alive on a serial link; True = connected."""
        return True

    def hello(self, node_id, fw, seats):
        """HELLO frame."""
        self._send(cbwire.HELLO, cbwire.hello_payload(node_id, fw, seats))

    def snapshot(self, seat, snap_seq, t_ms, uids):
        """SNAPSHOT frame."""
        self._send(cbwire.SNAPSHOT, cbwire.snapshot_payload(seat, snap_seq, t_ms, uids))

    def heartbeat(self, uptime_ms):
        """HEARTBEAT frame; counts itself."""
        self._send(cbwire.HEARTBEAT, cbwire.heartbeat_payload(uptime_ms, self.frames_sent + 1))

    def fault(self, seat, code):
        """READER_FAULT frame."""
        self._send(cbwire.READER_FAULT, cbwire.fault_payload(seat, code))

    def log(self, level, text):
        """LOG frame."""
        self._send(cbwire.LOG, cbwire.log_payload(level, text))


def next_packet_id(client):
    """Keep umqtt.simple's packet id in 1..65535: call before each QoS 1 publish.

    MQTT 3.1.1 section 2.3.1 [MQTT-2.3.1-1]: a QoS > 0 PUBLISH carries a non-zero 16-bit packet
    identifier. micropython-lib's umqtt.simple (1.8.0) does ``self.pid += 1`` and packs it with
    ``struct.pack_into("!H", ...)``, which on MicroPython keeps the low 16 bits: its 65,536th
    QoS 1 publish goes out with id 0, and mosquitto 2.0 disconnects the client ("protocol error")
    and publishes its Will. Wrapping to 0 here makes umqtt's increment give 1. Reusing ids is
    safe because umqtt.simple has one QoS 1 publish in flight at most (it waits for the PUBACK,
    which frees the id: section 2.3.1). A client without ``pid`` (paho on the Pi) is left alone.
    """
    pid = getattr(client, "pid", None)
    if pid is not None and pid >= PID_MAX:
        client.pid = 0


class MqttReporter:
    """umqtt.simple with Last Will, hello, retained QoS 0 snapshots, reconnect with backoff."""

    def __init__(
        self, client_factory, node_id, fw, seats, clock, backoff_ms=1000, backoff_max_ms=60000
    ):
        self.client_factory = client_factory
        self.clock = clock
        self.node_id = node_id
        self.fw = fw
        self.seats = seats
        self.backoff_min = backoff_ms
        self.backoff_max = backoff_max_ms
        self.backoff = backoff_ms
        self.client = None
        self.next_try = None
        self.connects = 0
        self.frames_sent = 0
        self.latest = {}  # seat -> snapshot JSON, republished after a reconnect

    def maintain(self):
        """Connect when due; True when connected."""
        if self.client is not None:
            return True
        now_ms = self.clock.ticks_ms()
        if self.next_try is not None and self.clock.ticks_diff(now_ms, self.next_try) < 0:
            return False
        try:
            client = self.client_factory()
            status = cbwire.topic_status(self.node_id)
            client.set_last_will(status, "offline", retain=True, qos=1)
            client.connect()
            self.client = client
            self._publish(status, "online", True, 1)
            self.hello(self.node_id, self.fw, self.seats)
            for seat in sorted(self.latest):
                self._publish(cbwire.topic_snapshot(seat), self.latest[seat], True, SNAPSHOT_QOS)
        except OSError:
            self._drop()
            self.next_try = self.clock.ticks_add(now_ms, self.backoff)
            self.backoff = min(self.backoff * 2, self.backoff_max)
            return False
        self.connects += 1
        self.backoff = self.backoff_min
        self.next_try = None
        return self.client is not None

    def _drop(self):
        client, self.client = self.client, None
        if client is not None:
            try:  # noqa: SIM105  (no contextlib on MicroPython)
                client.sock.close()
            except (AttributeError, OSError):
                pass

    def _publish(self, topic, payload, retain, qos):
        if self.client is None:
            return False
        try:
            if qos:
                next_packet_id(self.client)
            self.client.publish(topic, payload, retain=retain, qos=qos)
        except OSError:
            self._drop()
            return False
        self.frames_sent += 1
        return True

    def hello(self, node_id, fw, seats):
        """Retained hello."""
        self._publish(cbwire.topic_hello(node_id), cbwire.hello_json(node_id, fw, seats), True, 1)

    def snapshot(self, seat, snap_seq, t_ms, uids):
        """Retained per-seat snapshot at QoS 0 (kept to republish after a reconnect)."""
        payload = cbwire.snapshot_json(self.node_id, seat, snap_seq, t_ms, uids)
        self.latest[seat] = payload
        self._publish(cbwire.topic_snapshot(seat), payload, True, SNAPSHOT_QOS)

    def heartbeat(self, uptime_ms):
        """Heartbeat, QoS 0, not retained."""
        payload = cbwire.heartbeat_json(self.frames_sent + 1, uptime_ms)
        self._publish(cbwire.topic_heartbeat(self.node_id), payload, False, 0)

    def fault(self, seat, code):
        """Reader fault."""
        self._publish(cbwire.topic_fault(self.node_id), cbwire.fault_json(seat, code), False, 1)

    def log(self, level, text):
        """Log line."""
        self._publish(cbwire.topic_log(self.node_id), cbwire.log_json(level, text), False, 0)
