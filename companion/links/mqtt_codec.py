"""The MQTT codec: each record of the wire format as a topic and a compact JSON payload.

Every record travels on its own topic under ``cupbearer/v1`` (``docs/protocol.md``, "MQTT"): a
seat's snapshot retained on ``seat/<seat>/snapshot``, a node's ``status`` (its Last Will),
``hello``, ``heartbeat``, ``fault`` and ``log`` under ``node/<node>/``, each payload key-sorted
JSON with no spaces (the bytes the firmware builds by formatting). :func:`encode_mqtt` gives the
:class:`Publication` (with its QoS and retained flag) and :func:`decode_mqtt` reads one back,
raising :class:`~companion.core.errors.MalformedInput` naming the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.core.errors import MalformedInput
from companion.links.records import (
    Heartbeat,
    Hello,
    Log,
    ReaderFault,
    Record,
    Snapshot,
    Status,
    check_fault_code,
    check_fw,
    check_node_id,
    check_seat,
    check_seats,
    check_tags,
    check_uint,
)

TOPIC_PREFIX = "cupbearer/v1"
MAX_MQTT_PAYLOAD = 4096
"""The largest MQTT payload read (a 64-tag snapshot is about 1.4 KB)."""


def node_topic(node: str, leaf: str) -> str:
    """``cupbearer/v1/node/<node>/<leaf>`` (leaf: status, hello, heartbeat, fault, log)."""
    return f"{TOPIC_PREFIX}/node/{check_node_id(node)}/{leaf}"


def seat_topic(seat: int) -> str:
    """``cupbearer/v1/seat/<seat>/snapshot``: the retained latest snapshot of one seat."""
    return f"{TOPIC_PREFIX}/seat/{check_seat(seat)}/snapshot"


def compact_json(data: dict[str, Any]) -> bytes:
    """JSON with sorted keys and no spaces: the bytes the firmware builds by formatting."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


@dataclass(frozen=True)
class Publication:
    """One MQTT message: topic, payload bytes, QoS and the retained flag."""

    topic: str
    payload: bytes
    qos: int
    retain: bool


def _need_node(record: Any) -> str:
    if record.node is None:
        raise MalformedInput("an MQTT record must name its node", field="node")
    return check_node_id(record.node)


def encode_mqtt(record: Record | Status) -> Publication:
    """The MQTT publication of a record (its node must be set)."""
    if isinstance(record, Status):
        return Publication(
            node_topic(record.node, "status"), b"online" if record.online else b"offline", 1, True
        )
    node = _need_node(record)
    if isinstance(record, Hello):
        data = {"fw": check_fw(record.fw), "node": node, "proto": record.proto}
        data["seats"] = list(check_seats(list(record.seats)))
        return Publication(node_topic(node, "hello"), compact_json(data), 1, True)
    if isinstance(record, Snapshot):
        data = {
            "node": node,
            "seat": check_seat(record.seat),
            "seq": check_uint(record.seq, 16, "seq"),
            "t_ms": check_uint(record.t_ms, 32, "t_ms"),
            "tags": list(check_tags(list(record.tags))),
        }
        # QoS 0: a seat sends a fresh full snapshot ~10 times a second (firmware/lib/report.py).
        return Publication(seat_topic(record.seat), compact_json(data), 0, True)
    if isinstance(record, Heartbeat):
        data = {"frames": check_uint(record.frames, 32, "frames")}
        data["uptime_ms"] = check_uint(record.uptime_ms, 32, "uptime_ms")
        return Publication(node_topic(node, "heartbeat"), compact_json(data), 0, False)
    if isinstance(record, ReaderFault):
        data = {"code": check_fault_code(record.code), "seat": check_seat(record.seat)}
        return Publication(node_topic(node, "fault"), compact_json(data), 1, False)
    if isinstance(record, Log):
        data = {"level": check_uint(record.level, 2, "level"), "text": str(record.text)}
        return Publication(node_topic(node, "log"), compact_json(data), 0, False)
    raise MalformedInput(f"cannot encode {type(record).__name__}", field="type")


def _json_object(payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_MQTT_PAYLOAD:
        # A record is a few hundred bytes: a huge one is refused unread (one 3.4 MB snapshot
        # of 200,000 tags stalled the reading thread for 18 s).
        raise MalformedInput(f"{len(payload)} bytes exceed {MAX_MQTT_PAYLOAD}", field="payload")
    try:
        data = json.loads(bytes(payload).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise MalformedInput(f"not JSON: {type(error).__name__}", field="payload") from None
    if not isinstance(data, dict):
        raise MalformedInput("must be a JSON object", field="payload")
    return data


def _get(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise MalformedInput("missing", field=key)
    return data[key]


def decode_mqtt(topic: str, payload: bytes) -> Record | Status:
    """The record of an MQTT message under ``cupbearer/v1``; raises MalformedInput."""
    parts = topic.split("/")
    if len(parts) != 5 or "/".join(parts[:2]) != TOPIC_PREFIX:
        raise MalformedInput(f"not a {TOPIC_PREFIX} topic: {topic!r}", field="topic")
    _, _, scope, name, leaf = parts
    if scope == "seat" and leaf == "snapshot":
        data = _json_object(payload)
        seat = check_seat(_get(data, "seat"))
        if str(seat) != name:
            raise MalformedInput(f"seat {seat} published on {topic!r}", field="seat")
        return Snapshot(
            seat=seat,
            seq=check_uint(_get(data, "seq"), 16, "seq"),
            t_ms=check_uint(_get(data, "t_ms"), 32, "t_ms"),
            tags=check_tags(_get(data, "tags")),
            node=check_node_id(_get(data, "node")),
        )
    if scope != "node":
        raise MalformedInput(f"unknown topic {topic!r}", field="topic")
    node = check_node_id(name, "topic")
    if leaf == "status":
        text = bytes(payload)
        if text not in (b"online", b"offline"):
            raise MalformedInput(f"must be online or offline, got {text!r}", field="status")
        return Status(node=node, online=text == b"online")
    data = _json_object(payload)
    if leaf == "hello":
        if _get(data, "node") != node:
            raise MalformedInput(f"hello of {data['node']!r} on {topic!r}", field="node")
        return Hello(
            node=node,
            fw=check_fw(_get(data, "fw")),
            seats=check_seats(_get(data, "seats")),
            proto=check_uint(_get(data, "proto"), 8, "proto"),
        )
    if leaf == "heartbeat":
        return Heartbeat(
            uptime_ms=check_uint(_get(data, "uptime_ms"), 32, "uptime_ms"),
            frames=check_uint(_get(data, "frames"), 32, "frames"),
            node=node,
        )
    if leaf == "fault":
        return ReaderFault(
            seat=check_seat(_get(data, "seat")),
            code=check_fault_code(_get(data, "code")),
            node=node,
        )
    if leaf == "log":
        text = _get(data, "text")
        if not isinstance(text, str):
            raise MalformedInput("must be text", field="text")
        return Log(level=check_uint(_get(data, "level"), 2, "level"), text=text, node=node)
    raise MalformedInput(f"unknown topic {topic!r}", field="topic")
