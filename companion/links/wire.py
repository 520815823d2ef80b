"""The wire format between reader nodes and the companion: serial frames and MQTT payloads.

One documented, versioned format (DESIGN.md principle 8, ``docs/protocol.md``) carries five
records: :class:`Hello`, :class:`Snapshot`, :class:`Heartbeat`, :class:`Log` and
:class:`ReaderFault`. Over USB serial each record travels in a frame::

    SYNC0=0xCB SYNC1=0x42 | LEN u8 | SEQ u8 | TYPE u8 | PAYLOAD (LEN bytes) | CRC16 (big-endian)

with CRC-16/CCITT-FALSE over LEN..PAYLOAD; :class:`FrameDecoder` hunts for the sync bytes and, on a
bad CRC or an impossible LEN, drops one byte and hunts again, so garbage and truncated frames cost
only themselves. Over MQTT each record is compact, key-sorted JSON on its own topic under
``cupbearer/v1`` (:func:`encode_mqtt`, :func:`decode_mqtt`). Golden byte vectors live in
``tests/fixtures/wire_vectors.json`` and are shared with the firmware tests.

Every decoding failure raises :class:`~companion.core.errors.MalformedInput` naming the field.
"""

from __future__ import annotations

import binascii
import json
import struct
from dataclasses import dataclass
from typing import Any

from companion.core.errors import MalformedInput
from companion.links.records import (
    LOG_LEVELS,
    PROTO_VERSION,
    UID_LENGTHS,
    Frame,
    Heartbeat,
    Hello,
    Log,
    ReaderFault,
    Record,
    Snapshot,
    Status,
    Unknown,
    check_fault_code,
    check_fw,
    check_node_id,
    check_seat,
    check_seats,
    check_tags,
    check_uint,
    from_fields,
    to_fields,
)

__all__ = [
    "PROTO_VERSION",
    "DecoderStats",
    "Frame",
    "FrameDecoder",
    "Heartbeat",
    "Hello",
    "Log",
    "Publication",
    "ReaderFault",
    "Record",
    "Snapshot",
    "Status",
    "Unknown",
    "crc16_ccitt_false",
    "decode_frame",
    "decode_mqtt",
    "decode_payload",
    "encode_frame",
    "encode_mqtt",
    "encode_payload",
    "from_fields",
    "to_fields",
]

SYNC = b"\xcb\x42"
MAX_PAYLOAD = 240
HEADER_LEN = 5  # SYNC0 SYNC1 LEN SEQ TYPE
OVERHEAD = HEADER_LEN + 2  # plus the CRC
TYPE_HELLO = 0x01
TYPE_SNAPSHOT = 0x02
TYPE_HEARTBEAT = 0x03
TYPE_LOG = 0x04
TYPE_READER_FAULT = 0x05
TOPIC_PREFIX = "cupbearer/v1"
MAX_MQTT_PAYLOAD = 4096
"""The largest MQTT payload read (a 64-tag snapshot is about 1.4 KB)."""
SEQ_WINDOW = 128
"""A forward SEQ step of at most this many frames is a gap (frames lost); a larger one, or a HELLO
with SEQ 0 (a node's first frame after boot), is the node's counter starting again: counted as a
reset, not as up to 255 lost frames."""


def crc16_ccitt_false(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0 (check 0x29B1).

    That is the CRC the standard library's ``binascii.crc_hqx`` computes (the XMODEM polynomial,
    seeded here with 0xFFFF); the firmware keeps its own MicroPython loop, checked against the same
    golden vectors.
    """
    return binascii.crc_hqx(data, crc)


# --- serial payloads -----------------------------------------------------------------------


def _short_str(text: str) -> bytes:
    data = text.encode("ascii")
    return bytes([len(data)]) + data


def encode_payload(record: Record) -> tuple[int, bytes]:
    """The (TYPE, PAYLOAD) of a record; raises MalformedInput for a value out of range."""
    if isinstance(record, Hello):
        seats = check_seats(list(record.seats))
        return TYPE_HELLO, (
            bytes([check_uint(record.proto, 8, "proto")])
            + _short_str(check_node_id(record.node))
            + _short_str(check_fw(record.fw))
            + bytes([len(seats), *seats])
        )
    if isinstance(record, Snapshot):
        tags = check_tags(list(record.tags))
        body = struct.pack(
            ">BHIB",
            check_seat(record.seat),
            check_uint(record.seq, 16, "seq"),
            check_uint(record.t_ms, 32, "t_ms"),
            len(tags),
        )
        # Sorted by raw bytes (== sorted hex of equal case) so vectors are deterministic.
        for uid in sorted(tags, key=bytes.fromhex):
            raw = bytes.fromhex(uid)
            body += bytes([len(raw)]) + raw
        return TYPE_SNAPSHOT, body
    if isinstance(record, Heartbeat):
        return TYPE_HEARTBEAT, struct.pack(
            ">II",
            check_uint(record.uptime_ms, 32, "uptime_ms"),
            check_uint(record.frames, 32, "frames"),
        )
    if isinstance(record, Log):
        if not isinstance(record.text, str):
            raise MalformedInput("must be text", field="text")
        text = record.text.encode("utf-8")[: MAX_PAYLOAD - 1]
        return TYPE_LOG, bytes([check_uint(record.level, 2, "level")]) + text
    if isinstance(record, ReaderFault):
        return TYPE_READER_FAULT, bytes([check_seat(record.seat), check_fault_code(record.code)])
    raise MalformedInput(f"cannot encode {type(record).__name__}", field="type")


class _Reader:
    """Reads big-endian fields from a payload, failing with the field's name when it runs out."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int, field: str) -> bytes:
        if self.pos + n > len(self.data):
            raise MalformedInput("payload too short", field=field)
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def u8(self, field: str) -> int:
        return self.take(1, field)[0]

    def end(self) -> None:
        if self.pos != len(self.data):
            raise MalformedInput(f"{len(self.data) - self.pos} bytes too many", field="payload")


def _ascii_bytes(raw: bytes, field: str) -> str:
    try:
        return raw.decode("ascii")
    except UnicodeDecodeError as error:
        raise MalformedInput("must be ASCII", field=field) from error


def decode_payload(ftype: int, payload: bytes) -> Record | Unknown:
    """The record in a frame's payload; an unknown TYPE yields :class:`Unknown`."""
    r = _Reader(payload)
    if ftype == TYPE_HELLO:
        proto = r.u8("proto")
        node = check_node_id(_ascii_bytes(r.take(r.u8("node"), "node"), "node"))
        fw = check_fw(_ascii_bytes(r.take(r.u8("fw"), "fw"), "fw"))
        seats = check_seats(list(r.take(r.u8("seats"), "seats")))
        r.end()
        return Hello(node=node, fw=fw, seats=seats, proto=proto)
    if ftype == TYPE_SNAPSHOT:
        seat, seq, t_ms, n_tags = struct.unpack(">BHIB", r.take(8, "seat"))
        check_seat(seat)
        tags = []
        for _ in range(n_tags):
            length = r.u8("tags")
            if length not in UID_LENGTHS:
                raise MalformedInput(f"UID must be 4, 7, 8 or 10 bytes, got {length}", field="tags")
            tags.append(r.take(length, "tags").hex().upper())
        r.end()
        if len(set(tags)) != len(tags):
            raise MalformedInput("duplicate UID", field="tags")
        return Snapshot(seat=seat, seq=seq, t_ms=t_ms, tags=tuple(sorted(tags)))
    if ftype == TYPE_HEARTBEAT:
        uptime_ms, frames = struct.unpack(">II", r.take(8, "uptime_ms"))
        r.end()
        return Heartbeat(uptime_ms=uptime_ms, frames=frames)
    if ftype == TYPE_LOG:
        level = r.u8("level")
        if level not in LOG_LEVELS:
            raise MalformedInput(f"must be 0..3, got {level}", field="level")
        return Log(level=level, text=payload[1:].decode("utf-8", errors="replace"))
    if ftype == TYPE_READER_FAULT:
        seat, code = check_seat(r.u8("seat")), check_fault_code(r.u8("code"))
        r.end()
        return ReaderFault(seat=seat, code=code)
    return Unknown(type=ftype, payload=bytes(payload))


# --- serial frames -------------------------------------------------------------------------


def encode_frame(record: Record, seq: int) -> bytes:
    """One complete serial frame carrying ``record`` with link frame counter ``seq`` (mod 256)."""
    ftype, payload = encode_payload(record)
    if len(payload) > MAX_PAYLOAD:
        raise MalformedInput(f"{len(payload)} bytes exceed {MAX_PAYLOAD}", field="payload")
    body = bytes([len(payload), seq & 0xFF, ftype]) + payload
    return SYNC + body + crc16_ccitt_false(body).to_bytes(2, "big")


def decode_frame(data: bytes) -> Frame:
    """Decode exactly one complete frame (no garbage around it); raises MalformedInput."""
    data = bytes(data)
    if len(data) < OVERHEAD or data[:2] != SYNC:
        raise MalformedInput("no frame: missing sync bytes or too short", field="sync")
    length = data[2]
    if length > MAX_PAYLOAD or len(data) != OVERHEAD + length:
        raise MalformedInput(f"LEN {length} does not match {len(data)} bytes", field="len")
    if crc16_ccitt_false(data[2:-2]) != int.from_bytes(data[-2:], "big"):
        raise MalformedInput("CRC mismatch", field="crc")
    return Frame(seq=data[3], record=decode_payload(data[4], data[5:-2]))


@dataclass
class DecoderStats:
    """What a :class:`FrameDecoder` has seen, for diagnostics and the dashboard."""

    frames: int = 0
    dropped_bytes: int = 0
    crc_errors: int = 0
    malformed: int = 0
    unknown: int = 0
    lost_frames: int = 0
    seq_resets: int = 0


class FrameDecoder:
    """A streaming frame decoder: feed it bytes as they arrive, get complete valid frames back.

    It hunts for SYNC0 SYNC1; on a bad CRC or an impossible LEN it drops ONE byte and hunts again,
    so a truncated frame followed by a good one loses only the truncated one. A frame whose CRC is
    good but whose payload is malformed is skipped whole and counted. SEQ gaps between consecutive
    good frames count as lost frames (snapshots are idempotent: nothing to re-request).
    """

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.stats = DecoderStats()
        self.last_seq: int | None = None
        self.errors: list[MalformedInput] = []
        self._lent = False
        """The last frame ended with a SYNC0 byte that may have been the next frame's."""

    def feed(self, data: bytes) -> list[Frame]:
        """Add received bytes; returns every frame completed by them, in order."""
        self.buffer += data
        return self._scan()

    def expire(self) -> list[Frame]:
        """Give up on a pending partial frame (the line went quiet mid-frame) and rescan.

        Without this a truncated frame whose LEN reaches past the end of the received bytes would
        hold back the good frames behind it until more bytes arrive.
        """
        if not self.buffer:
            return []
        self._drop(1)
        return self._scan()

    def reset(self) -> None:
        """Forget partial input and the SEQ history (a new connection)."""
        self.buffer.clear()
        self.last_seq = None
        self._lent = False

    def _count_seq(self, seq: int, record: object) -> None:
        """Count the frames lost between two good ones (a HELLO or a jump: a counter reset)."""
        if self.last_seq is not None:
            step = (seq - self.last_seq) % 256
            booted = isinstance(record, Hello) and seq == 0  # a node's first frame after boot
            if 1 <= step <= SEQ_WINDOW and not booted:
                self.stats.lost_frames += step - 1
            else:
                self.stats.seq_resets += 1
        self.last_seq = seq

    def _drop(self, n: int) -> None:
        del self.buffer[:n]
        self.stats.dropped_bytes += n

    def _scan(self) -> list[Frame]:
        frames: list[Frame] = []
        buf = self.buffer
        while True:
            if self._lent and buf:
                # A frame cut by its last byte borrows the next frame's SYNC0 when that byte was
                # also 0xCB: its CRC then checks, and the next frame would lose its sync. If a
                # SYNC1 follows, the byte is given back to the next frame (garbage otherwise:
                # the hunt drops it).
                self._lent = False
                if buf[0] == SYNC[1]:
                    buf[:0] = SYNC[:1]
            start = buf.find(SYNC)
            if start < 0:
                # Keep a trailing SYNC0: its SYNC1 may be in the next read.
                keep = 1 if buf[-1:] == SYNC[:1] else 0
                self._drop(len(buf) - keep)
                return frames
            if start:
                self._drop(start)
            if len(buf) < 3:
                return frames
            length = buf[2]
            if length > MAX_PAYLOAD:
                self._drop(1)
                continue
            if len(buf) < OVERHEAD + length:
                return frames
            end = OVERHEAD + length
            crc = int.from_bytes(buf[end - 2 : end], "big")
            if crc16_ccitt_false(bytes(buf[2 : end - 2])) != crc:
                self.stats.crc_errors += 1
                self._drop(1)
                continue
            seq, ftype, payload = buf[3], buf[4], bytes(buf[5 : end - 2])
            self._lent = buf[end - 1] == SYNC[0]
            del buf[:end]
            try:
                record = decode_payload(ftype, payload)
            except MalformedInput as error:
                self._count_seq(seq, None)
                self.stats.malformed += 1
                self.errors = [*self.errors[-9:], error]
                continue
            self._count_seq(seq, record)
            if isinstance(record, Unknown):
                self.stats.unknown += 1
            self.stats.frames += 1
            frames.append(Frame(seq=seq, record=record))


# --- MQTT topics and payloads --------------------------------------------------------------


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
