"""The shipped broker config and ACL (hardware/mosquitto/) on a real mosquitto.

Only the listener port and the two file paths are rewritten; what ships is what is tested.
The negative checks are deterministic, not timed: mosquitto forwards a QoS 1 publication to the
subscribers before it acknowledges it, so once a later acknowledged publication has arrived, an
earlier forbidden one would have arrived before it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.core.observations import Observation
from companion.links.broker import MosquittoBroker
from companion.links.events import NodeOffline, NodeOnline
from companion.links.mqtt import MqttLink, MqttNode
from companion.links.wire import Hello, Snapshot, Status, encode_mqtt

SHIPPED = Path(__file__).resolve().parents[2] / "hardware" / "mosquitto"
USERS = {"companion": "svc-pw", "n1": "n1-pw", "n2": "n2-pw"}


@pytest.fixture
def secured_broker(tmp_path):
    conf = (SHIPPED / "cupbearer.conf").read_text()
    assert len(re.findall(r"^listener 1883$", conf, re.M)) == 1
    passwd, acl = tmp_path / "passwd", tmp_path / "acl"
    shutil.copy(SHIPPED / "acl", acl)
    for i, (user, password) in enumerate(USERS.items()):
        flags = ["-c"] if i == 0 else []
        subprocess.run(
            ["mosquitto_passwd", *flags, "-b", str(passwd), user, password],
            check=True,
            timeout=10,
            capture_output=True,
        )
    conf = re.sub(r"^listener 1883$", "", conf, flags=re.M)
    conf = re.sub(r"^password_file .*$", f"password_file {passwd}", conf, flags=re.M)
    conf = re.sub(r"^acl_file .*$", f"acl_file {acl}", conf, flags=re.M)
    broker = MosquittoBroker(tmp_path / "broker", conf)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def url(broker, user):
    return f"mqtt://{user}:{USERS[user]}@{broker.host}:{broker.port}"


class Raw:
    """A bare paho client that records what it receives."""

    def __init__(self, broker, user=None, password=None):
        self.received: list[tuple[str, bytes]] = []
        self.connack = threading.Event()
        self.reason = None
        self.client = paho.Client(
            CallbackAPIVersion.VERSION2, client_id=f"raw-{user}", protocol=paho.MQTTv311
        )
        if user:
            self.client.username_pw_set(user, password if password is not None else USERS[user])
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.received.append((m.topic, m.payload))
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert self.connack.wait(10)

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self.reason = reason_code
        self.connack.set()

    def publish(self, record):
        pub = encode_mqtt(record)
        info = self.client.publish(pub.topic, pub.payload, qos=1, retain=pub.retain)
        info.wait_for_publish(10)
        assert info.is_published()

    def subscribe(self, topic):
        done = threading.Event()
        self.client.on_subscribe = lambda *args: done.set()
        self.client.subscribe(topic, qos=1)
        assert done.wait(10)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def test_anonymous_and_wrong_passwords_are_refused(secured_broker):
    for user, password in [(None, None), ("n1", "wrong"), ("intruder", "x")]:
        raw = Raw(secured_broker, user, password)
        try:
            assert raw.reason.is_failure
        finally:
            raw.close()


def test_nodes_write_only_their_own_topics_and_only_the_service_reads(secured_broker, collector):
    link = MqttLink(url(secured_broker, "companion"), collector, reconnect=(0.05, 0.3)).start()
    n1 = MqttNode(url(secured_broker, "n1"), Hello("n1", "1.0.0", (0, 1, 2, 3, 4, 5))).start()
    n2 = Raw(secured_broker, "n2")
    spy = Raw(secured_broker, "n1")  # a node's credentials trying to read the table
    try:
        assert link.subscribed.wait(10) and n1.connected.wait(10)
        assert not n2.reason.is_failure and not spy.reason.is_failure
        spy.subscribe("cupbearer/v1/#")
        n1.snapshot(Snapshot(0, 1, 10, ("04A1B2C3D4E5F6",)), wait=10)
        # n2 forges n1's seat, n1's status, and a seat of its own (6) that it may write.
        n2.publish(Snapshot(0, 99, 10, ("DEADBEEF",), node="n1"))
        n2.publish(Status("n1", online=False))
        n2.publish(Snapshot(6, 1, 10, ("E004015012345678",), node="n2"))
        # n1 may not write n2's seats either; then a last good snapshot closes the sequence.
        n1.snapshot(Snapshot(7, 1, 10, ("0811223344556677889A",)), wait=10)
        n1.snapshot(Snapshot(1, 1, 10, ()), wait=10)
        collector.wait(lambda items: any(o.seat == 1 for o in collector.of(Observation)))
        spy.publish(Status("n1", online=True))  # acknowledged after anything spy could read
    finally:
        spy.close()
        n2.close()
        n1.stop()
        link.stop()
    seen = [(o.seat, o.seq, sorted(o.tags), o.node) for o in collector.of(Observation)]
    assert seen == [
        (0, 1, ["04A1B2C3D4E5F6"], "n1"),
        (6, 1, ["E004015012345678"], "n2"),
        (1, 1, [], "n1"),
    ]
    assert [e.node for e in collector.of(NodeOnline)] == ["n1"]
    # n2's forged "offline" for n1 never arrived (n1's own clean stop may, after the last snapshot).
    last = max(i for i, item in enumerate(collector.items) if isinstance(item, Observation))
    assert not [i for i in collector.items[:last] if isinstance(i, NodeOffline)]
    assert spy.received == []


def test_retained_table_is_readable_by_the_service_only(secured_broker, collector):
    n1 = MqttNode(url(secured_broker, "n1"), Hello("n1", "1.0.0", (0,))).start()
    try:
        assert n1.connected.wait(10)
        n1.snapshot(Snapshot(0, 5, 10, ("04A1B2C3D4E5F6",)), wait=10)
        spy = Raw(secured_broker, "n2")
        try:
            spy.subscribe("cupbearer/v1/#")
            spy.publish(Status("n2", online=True))
        finally:
            spy.close()
        link = MqttLink(url(secured_broker, "companion"), collector).start()
        try:
            collector.wait(lambda items: collector.of(Observation))
        finally:
            link.stop()
    finally:
        n1.stop()
    assert spy.received == []
    assert [(o.seat, o.seq, o.node) for o in collector.of(Observation)] == [(0, 5, "n1")]
