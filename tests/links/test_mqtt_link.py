"""The MQTT link against a real mosquitto: flow, retained resync, broker restart, Last Will."""

from __future__ import annotations

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.core.errors import MalformedInput
from companion.core.observations import Observation
from companion.links.events import NodeHello, NodeOffline, NodeOnline
from companion.links.mqtt import MqttAddress, MqttLink, MqttNode
from companion.links.wire import Hello, Snapshot

FAST = {"reconnect": (0.05, 0.3)}


def uid(i: int) -> str:
    return f"04{i:012X}"


def snap(seat: int, seq: int, *tags: str) -> Snapshot:
    return Snapshot(seat=seat, seq=seq, t_ms=100 * seq, tags=tags)


def latest_by_seat(collector) -> dict[int, tuple[int, frozenset[str], str | None]]:
    table = {}
    for obs in collector.of(Observation):
        table[obs.seat] = (obs.seq, obs.tags, obs.node)
    return table


def start_node(broker, node="n1", seats=(0, 1, 2)) -> MqttNode:
    client = MqttNode(broker.url, Hello(node=node, fw="1.0.0", seats=seats), **FAST).start()
    assert client.connected.wait(10)
    return client


def start_link(broker, collector, **kw) -> MqttLink:
    link = MqttLink(broker.url, collector, **FAST, **kw).start()
    assert link.subscribed.wait(10)
    return link


def test_address_parsing():
    assert MqttAddress.parse("mqtt://svc:p%40ss@10.0.0.2:1884") == MqttAddress(
        "10.0.0.2", 1884, "svc", "p@ss"
    )
    assert MqttAddress.parse("mqtt://pi.local") == MqttAddress("pi.local", 1883)
    for bad in ("http://x", "mqtt://", "mqtt://h:notaport"):
        with pytest.raises(MalformedInput) as error:
            MqttAddress.parse(bad)
        assert error.value.field == "mqtt"


def test_snapshots_and_hello_flow_to_the_sink(mosquitto, collector):
    link = start_link(mosquitto, collector)
    node = start_node(mosquitto)
    try:
        for seq in range(1, 11):
            node.snapshot(snap(seq % 3, seq, uid(seq)), wait=5)
        collector.wait(lambda items: len(collector.of(Observation)) == 10)
    finally:
        node.stop()
        link.stop()
    hello = collector.of(NodeHello)
    assert [(h.node, h.fw, h.seats, h.proto) for h in hello] == [("n1", "1.0.0", (0, 1, 2), 1)]
    assert collector.of(NodeOnline)[0].node == "n1"
    got = [(o.seat, o.seq, o.tags, o.node) for o in collector.of(Observation)]
    assert got == [(s % 3, s, frozenset({uid(s)}), "n1") for s in range(1, 11)]


def test_service_restart_resyncs_from_retained_snapshots(mosquitto, collector):
    node = start_node(mosquitto)
    first = start_link(mosquitto, lambda item: None)
    try:
        for seat in range(3):
            node.snapshot(snap(seat, 1, uid(seat)), wait=5)
        first.stop()  # the service goes down; the table changes meanwhile
        node.snapshot(snap(1, 2, uid(1), uid(9)), wait=5)
        second = start_link(mosquitto, collector, client_id="cupbearer-companion-2")
        # Snapshots go at QoS 0, so the node's change may reach the broker just after the new
        # link subscribed: the old retained one comes first, then the change live. Either way
        # the restarted service must end with the table as it is now.
        now = {
            0: (1, frozenset({uid(0)}), "n1"),
            1: (2, frozenset({uid(1), uid(9)}), "n1"),
            2: (1, frozenset({uid(2)}), "n1"),
        }
        try:
            collector.wait(lambda items: latest_by_seat(collector) == now)
            collector.wait(lambda items: collector.of(NodeOnline) and collector.of(NodeHello))
        finally:
            second.stop()
    finally:
        node.stop()
    assert latest_by_seat(collector) == now
    assert collector.of(NodeOnline)[0].node == "n1"
    assert collector.of(NodeHello)[0].seats == (0, 1, 2)


def test_broker_restart_mid_stream_resyncs(mosquitto, collector):
    link = start_link(mosquitto, collector)
    node = start_node(mosquitto)
    try:
        for seat in range(3):
            node.snapshot(snap(seat, 1, uid(seat)), wait=5)
        collector.wait(lambda items: len(collector.of(Observation)) == 3)

        mosquitto.restart()  # same port, empty retained store (no persistence)
        collector.wait(lambda items: collector.of(NodeOffline))
        # mosquitto may send the node's Last Will as it shuts down, before the link's own loss.
        assert collector.of(NodeOffline)[0].reason in {"broker lost", "status offline"}
        assert collector.of(NodeOffline)[0].node == "n1"
        collector.wait(lambda items: link.connects == 2 and link.subscribed.is_set())
        assert node.connected.wait(10)
        node.snapshot(snap(2, 2, uid(2), uid(7)), wait=5)
        collector.wait(lambda items: latest_by_seat(collector).get(2, (0,))[0] == 2)
        collector.wait(lambda items: len(collector.of(NodeOnline)) == 2)
    finally:
        node.stop()
        link.stop()
    assert latest_by_seat(collector) == {
        0: (1, frozenset({uid(0)}), "n1"),
        1: (1, frozenset({uid(1)}), "n1"),
        2: (2, frozenset({uid(2), uid(7)}), "n1"),
    }


def test_vanished_node_last_will_then_return(mosquitto, collector):
    link = start_link(mosquitto, collector)
    node = start_node(mosquitto, node="n7", seats=(4,))
    try:
        node.snapshot(snap(4, 1, uid(4)), wait=5)
        collector.wait(lambda items: collector.of(Observation))
        node.vanish()  # power cut: the socket closes without DISCONNECT
        offline = collector.wait(lambda items: collector.of(NodeOffline))
        assert (offline[0].node, offline[0].reason) == ("n7", "status offline")

        node = start_node(mosquitto, node="n7", seats=(4,))  # it boots again
        collector.wait(lambda items: len(collector.of(NodeOnline)) == 2)
        node.snapshot(snap(4, 1, uid(4), uid(5)), wait=5)
        collector.wait(lambda items: len(collector.of(Observation)) == 2)
    finally:
        node.stop()
        link.stop()
    kinds = [(type(i).__name__, getattr(i, "node", None)) for i in collector.items]
    # (An eighth item, the clean stop's own "offline", may or may not arrive before the link stops.)
    assert kinds[:7] == [
        ("NodeHello", "n7"),
        ("NodeOnline", "n7"),
        ("Observation", "n7"),
        ("NodeOffline", "n7"),
        ("NodeHello", "n7"),
        ("NodeOnline", "n7"),
        ("Observation", "n7"),
    ]


def test_malformed_messages_are_counted_not_fatal(mosquitto, collector):
    link = start_link(mosquitto, collector)
    raw = paho.Client(CallbackAPIVersion.VERSION2, client_id="raw", protocol=paho.MQTTv311)
    raw.connect(mosquitto.host, mosquitto.port)
    raw.loop_start()
    try:
        for topic, payload in [
            ("cupbearer/v1/seat/0/snapshot", b"\xff\xfe"),
            ("cupbearer/v1/seat/0/snapshot", b'{"node":"n1","seat":0}'),
            ("cupbearer/v1/node/n1/status", b"maybe"),
        ]:
            raw.publish(topic, payload, qos=1).wait_for_publish(5)
        good = b'{"node":"n1","seat":0,"seq":3,"t_ms":9,"tags":["DEADBEEF"]}'
        raw.publish("cupbearer/v1/seat/0/snapshot", good, qos=1).wait_for_publish(5)
        collector.wait(lambda items: collector.of(Observation))
    finally:
        raw.disconnect()
        raw.loop_stop()
        link.stop()
    assert link.malformed == 3
    assert latest_by_seat(collector) == {0: (3, frozenset({"DEADBEEF"}), "n1")}
