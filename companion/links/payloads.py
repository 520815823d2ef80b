"""The serial payloads: each record of the wire format as the bytes of one frame's PAYLOAD.

``docs/protocol.md`` "Serial frames" gives every TYPE's layout (big-endian fields, short strings
as a length byte and ASCII, a snapshot's UIDs as length and raw bytes sorted by their bytes).
:func:`encode_payload` and :func:`decode_payload` are exact inverses on valid records; a value out
of range or a payload cut short raises :class:`~companion.core.errors.MalformedInput` naming the
field, and an unknown TYPE decodes to :class:`~companion.links.records.Unknown` (a newer node).
Framing (SYNC, LEN, SEQ, CRC) is :mod:`companion.links.frames`'.
"""

from __future__ import annotations

import struct

from companion.core.errors import MalformedInput
from companion.links.records import (
    LOG_LEVELS,
    UID_LENGTHS,
    Heartbeat,
    Hello,
    Log,
    ReaderFault,
    Record,
    Snapshot,
    Unknown,
    check_fault_code,
    check_fw,
    check_node_id,
    check_seat,
    check_seats,
    check_tags,
    check_uint,
)

MAX_PAYLOAD = 240
"""The largest PAYLOAD a frame carries (LEN 0..240): 28 seven-byte UIDs in one SNAPSHOT."""
TYPE_HELLO = 0x01
TYPE_SNAPSHOT = 0x02
TYPE_HEARTBEAT = 0x03
TYPE_LOG = 0x04
TYPE_READER_FAULT = 0x05
"""The TYPE byte of each record (``docs/protocol.md``, "Serial frames")."""


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
