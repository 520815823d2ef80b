"""The MQTT link (paho-mqtt 2.x): the service's subscriber and the virtual nodes' publisher.

:class:`MqttLink` subscribes to every seat's retained snapshot and to every node's status, hello,
heartbeat, fault and log, decodes them (:mod:`companion.links.wire`) and feeds the sink. Because
snapshots, hellos and statuses are retained, a link that (re)starts gets the whole table at once;
when the broker restarts, paho reconnects with backoff and :meth:`MqttLink._on_connect`
resubscribes, so the service resyncs without help (``docs/protocol.md``).

:class:`MqttNode` is a reader node's side: it connects with the Last Will ``offline`` on its
retained status topic, announces itself (hello, ``online``), publishes retained snapshots, and
republishes all of it after every reconnect, so a broker that lost its retained store is
refilled.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from companion.core.errors import MalformedInput
from companion.links import wire
from companion.links.events import LinkItem, NodeOffline, NodeOnline, Sink, item_of
from companion.links.wire import Heartbeat, Hello, ReaderFault, Snapshot, Status

log = logging.getLogger(__name__)
SUBSCRIPTIONS = [(f"{wire.TOPIC_PREFIX}/seat/+/snapshot", 1), (f"{wire.TOPIC_PREFIX}/node/+/+", 1)]
# A forward step of a seat's 16-bit snapshot ``seq`` up to this many counts the skipped ones as
# lost (QoS 0: the next snapshot replaces them); anything else (a reboot, a long gap) is a reset.
# 1024 snapshots is 100 s of one seat at 10 Hz.
SNAPSHOT_SEQ_WINDOW = 1024


@dataclass(frozen=True)
class MqttAddress:
    """Where the broker is and who we are: from ``mqtt://[user[:password]@]host[:port]``."""

    host: str
    port: int = 1883
    username: str | None = None
    password: str | None = None

    @staticmethod
    def parse(url: str) -> MqttAddress:
        """Parse an ``mqtt://`` URL; raises MalformedInput naming ``mqtt`` when it is not one."""
        parts = urlsplit(url)
        try:
            port = parts.port or 1883
        except ValueError as error:
            raise MalformedInput(f"bad port in {url!r}", field="mqtt") from error
        if parts.scheme != "mqtt" or not parts.hostname:
            raise MalformedInput(f"expected mqtt://host[:port], got {url!r}", field="mqtt")
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return MqttAddress(parts.hostname, port, user, password)


def _client(client_id: str, address: MqttAddress, reconnect: tuple[float, float]) -> paho.Client:
    client = paho.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=True,
        protocol=paho.MQTTv311,  # what umqtt.simple speaks on the nodes
    )
    client.suppress_exceptions = True  # a bug in a callback is logged, not fatal to the loop
    if address.username:
        client.username_pw_set(address.username, address.password)
    # Seconds, doubling from the first to the second after each failed attempt; paho accepts
    # fractions although its annotation says int (tests use short delays).
    client.reconnect_delay_set(min_delay=reconnect[0], max_delay=reconnect[1])  # type: ignore[arg-type]
    return client


class MqttLink:
    """The service's subscriber: decoded snapshots and node events to ``sink``.

    Broker loss is reported as ``NodeOffline(reason="broker lost")`` for every node it knew
    online; after the reconnect the retained statuses and snapshots bring them back. Malformed
    messages are counted in ``malformed`` and logged, never fatal.

    Snapshots arrive at QoS 0 (at most once) and some arrive twice: the retained one again after
    a resubscribe, or a node's republication of its latest after it reconnects. The tracker
    counts readings, so an exact repeat of a seat's last snapshot (same node, seq, t_ms, tags)
    is dropped and counted in ``repeats``; a forward gap in ``seq`` counts ``lost_snapshots``,
    any other step ``seq_resets`` (as the serial decoder counts frames).
    """

    def __init__(
        self,
        address: MqttAddress | str,
        sink: Sink,
        *,
        client_id: str = "cupbearer-companion",
        clock: Callable[[], float] = time.monotonic,
        keepalive: int = 10,
        reconnect: tuple[float, float] = (0.5, 5.0),
    ) -> None:
        self.address = MqttAddress.parse(address) if isinstance(address, str) else address
        self.sink = sink
        self.clock = clock
        self.keepalive = keepalive
        self.link_name = f"mqtt://{self.address.host}:{self.address.port}"
        self.connected = threading.Event()
        self.subscribed = threading.Event()
        self.connects = 0
        self.malformed = 0
        self.repeats = 0
        self.lost_snapshots = 0
        self.seq_resets = 0
        self._last_snapshot: dict[int, Snapshot] = {}  # seat -> last delivered (paho's thread)
        self.online_nodes: set[str] = set()
        self._lock = threading.Lock()
        self.client = _client(client_id, self.address, reconnect)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def start(self) -> MqttLink:
        """Connect in the background (retrying until the broker answers); returns self."""
        self.client.connect_async(self.address.host, self.address.port, self.keepalive)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        """Disconnect and stop the network thread."""
        with contextlib.suppress(Exception):
            self.client.disconnect()
        self.client.loop_stop()
        self.connected.clear()

    def __enter__(self) -> MqttLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _emit(self, item: LinkItem) -> None:
        try:
            self.sink(item)
        except Exception:
            log.exception("%s: sink failed on %r", self.link_name, item)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.warning("%s: connection refused: %s", self.link_name, reason_code)
            return
        self.connects += 1
        self.connected.set()
        self.subscribed.clear()
        client.subscribe(SUBSCRIPTIONS)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        if any(code.is_failure for code in reason_codes):
            log.warning("%s: subscription refused: %s", self.link_name, reason_codes)
        self.subscribed.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.connected.clear()
        self.subscribed.clear()
        with self._lock:
            nodes, self.online_nodes = sorted(self.online_nodes), set()
        now = self.clock()
        for node in nodes:
            self._emit(NodeOffline(now, node, self.link_name, "broker lost"))

    def _on_message(self, client, userdata, message) -> None:
        try:
            record = wire.decode_mqtt(message.topic, message.payload)
        except MalformedInput as error:
            self.malformed += 1
            log.warning("%s: dropped %s: %s", self.link_name, message.topic, error)
            return
        except Exception:
            # A decoder bug must not end paho's network thread: counted, logged, dropped.
            self.malformed += 1
            log.exception("%s: could not decode %s", self.link_name, message.topic)
            return
        now = self.clock()
        if isinstance(record, Status):
            with self._lock:
                was_online = record.node in self.online_nodes
                if record.online:
                    self.online_nodes.add(record.node)
                else:
                    self.online_nodes.discard(record.node)
            if record.online and not was_online:
                self._emit(NodeOnline(now, record.node, self.link_name))
            elif not record.online:
                self._emit(NodeOffline(now, record.node, self.link_name, "status offline"))
            return
        if isinstance(record, Snapshot) and not self._fresh(record):
            return
        item = item_of(record, now, None, self.link_name)
        if item is not None:
            self._emit(item)

    def _fresh(self, snapshot: Snapshot) -> bool:
        """False for an exact repeat of the seat's last snapshot; counts gaps and resets."""
        last = self._last_snapshot.get(snapshot.seat)
        if last == snapshot:
            self.repeats += 1
            return False
        if last is not None:
            step = (snapshot.seq - last.seq) % 0x10000
            if last.node == snapshot.node and 1 <= step <= SNAPSHOT_SEQ_WINDOW:
                self.lost_snapshots += step - 1
            else:
                self.seq_resets += 1
        self._last_snapshot[snapshot.seat] = snapshot
        return True


class MqttNode:
    """A reader node's MQTT side (virtual nodes, tests, benchmarks).

    Connects with the Last Will ``offline`` (QoS 1, retained) on its status topic; on every
    (re)connect publishes its hello, ``online`` and the latest snapshot of each of its seats.
    """

    def __init__(
        self,
        address: MqttAddress | str,
        hello: Hello,
        *,
        keepalive: int = 5,
        reconnect: tuple[float, float] = (0.5, 5.0),
    ) -> None:
        self.address = MqttAddress.parse(address) if isinstance(address, str) else address
        self.hello = hello
        self.keepalive = keepalive
        self.connected = threading.Event()
        self.latest: dict[int, Snapshot] = {}
        self._lock = threading.Lock()
        self.client = _client(f"cupbearer-node-{hello.node}", self.address, reconnect)
        status = wire.encode_mqtt(Status(hello.node, online=False))
        self.client.will_set(status.topic, status.payload, qos=status.qos, retain=status.retain)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect

    def start(self) -> MqttNode:
        """Connect in the background; returns self."""
        self.client.connect_async(self.address.host, self.address.port, self.keepalive)
        self.client.loop_start()
        return self

    def publish(self, record: Any, wait: float | None = None) -> None:
        """Publish any record as this node (its ``node`` filled in); ``wait`` for the ack."""
        if getattr(record, "node", self.hello.node) is None:
            record = dataclasses.replace(record, node=self.hello.node)
        pub = wire.encode_mqtt(record)
        info = self.client.publish(pub.topic, pub.payload, qos=pub.qos, retain=pub.retain)
        if wait is not None and info.rc == paho.MQTT_ERR_SUCCESS:
            info.wait_for_publish(wait)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.warning("node %s: connection refused: %s", self.hello.node, reason_code)
            return
        self.publish(self.hello)
        self.publish(Status(self.hello.node, online=True))
        with self._lock:
            latest = list(self.latest.values())
        for snapshot in latest:
            self.publish(snapshot)
        self.connected.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.connected.clear()

    def snapshot(self, snapshot: Snapshot, wait: float | None = None) -> None:
        """Publish one seat's snapshot (retained); ``wait`` seconds for the broker's ack."""
        snapshot = Snapshot(
            snapshot.seat, snapshot.seq, snapshot.t_ms, snapshot.tags, self.hello.node
        )
        with self._lock:
            self.latest[snapshot.seat] = snapshot
        self.publish(snapshot, wait)

    def heartbeat(self, uptime_ms: int, frames: int) -> None:
        """Publish a heartbeat (QoS 0, not retained)."""
        self.publish(Heartbeat(uptime_ms, frames, self.hello.node))

    def fault(self, seat: int, code: int) -> None:
        """Report a broken reader."""
        self.publish(ReaderFault(seat, code, self.hello.node))

    def stop(self, timeout: float = 2.0) -> None:
        """Shut down cleanly: publish ``offline`` ourselves, then DISCONNECT (no Last Will)."""
        if self.connected.is_set():
            self.publish(Status(self.hello.node, online=False), wait=timeout)
        with contextlib.suppress(Exception):
            self.client.disconnect()
        self.client.loop_stop()

    def vanish(self) -> None:
        """A power cut: drop the TCP connection without DISCONNECT, so the broker sends the Will."""
        self.client.loop_stop()
        sock = self.client.socket()
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()
        self.connected.clear()
