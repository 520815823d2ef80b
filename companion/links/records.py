"""The records a reader node sends, whatever the transport, and their validation.

Five records travel from node to companion (``docs/protocol.md``): :class:`Hello`,
:class:`Snapshot`, :class:`Heartbeat`, :class:`Log` and :class:`ReaderFault`; MQTT adds the node's
availability, :class:`Status`. :mod:`companion.links.wire` encodes them as serial frames and MQTT
payloads. The ``check_*`` helpers raise :class:`~companion.core.errors.MalformedInput` naming the
field, so bad input from a node is a typed error, never a crash.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.core.checks import is_whole, whole
from companion.core.errors import MalformedInput
from companion.core.observations import Observation

PROTO_VERSION = 1
#: UID lengths in bytes: ISO 14443A single/double/triple size (4, 7, 10) and ISO 15693 (8).
UID_LENGTHS = frozenset({4, 7, 8, 10})
FAULT_CODES = {1: "no chip answer", 2: "version register mismatch", 3: "timeout"}
MAX_SEAT = 15
"""Seats are 0..15: a table has at most 12 players, with room for spare readers."""
MAX_TAGS = 64
"""Tags one snapshot may carry: a seat's Goblet, its revealed tokens and stray tags, with room."""
FW_LENGTH = 32
"""The longest firmware version string."""
LOG_LEVELS = {0: "debug", 1: "info", 2: "warn", 3: "error"}
_NODE_ID = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")
_HEX = re.compile(r"^[0-9A-F]+$")


# --- records -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """A node introduces itself: id, firmware version, protocol version and the seats it reads."""

    node: str
    fw: str
    seats: tuple[int, ...]
    proto: int = PROTO_VERSION


@dataclass(frozen=True)
class Snapshot:
    """Every tag one seat's reader sees now: ``seq`` per seat (u16), ``t_ms`` node clock (u32).

    ``tags`` are upper-case hex UIDs, sorted (the companion treats them as a set). ``node`` is
    known on MQTT (in the payload) and on serial (from the link's HELLO), else None.
    """

    seat: int
    seq: int
    t_ms: int
    tags: tuple[str, ...]
    node: str | None = None

    def __post_init__(self) -> None:
        # A set on the wire: one canonical order (hex order == raw byte order) for equality.
        object.__setattr__(self, "tags", tuple(sorted(self.tags)))

    def to_observation(self, t: float, node: str | None = None) -> Observation:
        """The snapshot as an :class:`Observation` at receiver time ``t`` (seconds)."""
        return Observation.of(t, self.seat, self.tags, seq=self.seq, node=node or self.node)

    @staticmethod
    def from_observation(obs: Observation, t_ms: int, seq: int | None = None) -> Snapshot:
        """The snapshot a node would send for ``obs`` (``seq`` defaults to ``obs.seq`` or 0)."""
        seq = obs.seq if seq is None else seq
        return Snapshot(
            seat=obs.seat,
            seq=(seq or 0) & 0xFFFF,
            t_ms=t_ms & 0xFFFFFFFF,
            tags=tuple(sorted(obs.tags)),
            node=obs.node,
        )


@dataclass(frozen=True)
class Heartbeat:
    """A node is alive: its uptime and how many frames it has sent (both u32)."""

    uptime_ms: int
    frames: int
    node: str | None = None


@dataclass(frozen=True)
class Log:
    """A line of the node's log: level 0 debug, 1 info, 2 warn, 3 error."""

    level: int
    text: str
    node: str | None = None


@dataclass(frozen=True)
class ReaderFault:
    """A seat's reader is broken (code 1 no chip answer, 2 version mismatch, 3 timeout)."""

    seat: int
    code: int
    node: str | None = None


@dataclass(frozen=True)
class Status:
    """A node's availability on MQTT: ``online`` or ``offline`` (the Last Will)."""

    node: str
    online: bool


@dataclass(frozen=True)
class Unknown:
    """A frame of a type this companion does not know (a newer node): skipped, not fatal."""

    type: int
    payload: bytes


Record = Hello | Snapshot | Heartbeat | Log | ReaderFault


@dataclass(frozen=True)
class Frame:
    """One decoded serial frame: the link's frame counter and the record it carries."""

    seq: int
    record: Record | Unknown


# --- validation --------------------------------------------------------------------


def check_uint(value: Any, bits: int, field: str) -> int:
    """An unsigned integer of ``bits`` bits (booleans refused)."""
    top = (1 << bits) - 1
    return whole(value, field, f"must be an integer in 0..{top}, got {value!r}", low=0, high=top)


def check_node_id(value: Any, field: str = "node") -> str:
    """A node id: 1-32 characters safe in an MQTT topic level."""
    if not isinstance(value, str) or not _NODE_ID.match(value):
        raise MalformedInput(f"must be 1-32 of A-Z a-z 0-9 _ . -, got {value!r}", field=field)
    return value


def check_ascii(value: Any, field: str, limit: int = 64) -> str:
    """Non-empty ASCII text of at most ``limit`` characters."""
    if not isinstance(value, str) or not value.isascii() or not 0 < len(value) <= limit:
        raise MalformedInput(f"must be 1-{limit} ASCII characters, got {value!r}", field=field)
    return value


def check_uid(value: Any, field: str = "tags") -> str:
    """A UID as upper-case hex of 4, 7, 8 or 10 bytes."""
    if not isinstance(value, str) or not _HEX.match(value) or len(value) % 2:
        raise MalformedInput(f"must be upper-case hex, no separators: {value!r}", field=field)
    if len(value) // 2 not in UID_LENGTHS:
        raise MalformedInput(f"UID must be 4, 7, 8 or 10 bytes, got {value!r}", field=field)
    return value


def check_tags(values: Any) -> tuple[str, ...]:
    """A list of distinct UIDs, returned sorted."""
    if not isinstance(values, list | tuple | set | frozenset):
        raise MalformedInput("must be a list of UIDs", field="tags")
    if len(values) > MAX_TAGS:
        raise MalformedInput(f"at most {MAX_TAGS} tags in one snapshot", field="tags")
    tags = tuple(sorted({check_uid(v) for v in values}))
    if len(tags) != len(values):
        raise MalformedInput("duplicate UID", field="tags")
    return tags


def check_seat(value: Any, field: str = "seat") -> int:
    """A seat index, 0 to :data:`MAX_SEAT`."""
    message = f"must be a seat 0..{MAX_SEAT}, got {value!r}"
    return whole(value, field, message, low=0, high=MAX_SEAT)


def check_seats(values: Any) -> tuple[int, ...]:
    """A non-empty list of distinct seat indices."""
    if not isinstance(values, list | tuple) or not values:
        raise MalformedInput("must be a non-empty list of seat indices", field="seats")
    seats = tuple(check_seat(s, "seats") for s in values)
    if len(set(seats)) != len(seats):
        raise MalformedInput("a seat is listed twice", field="seats")
    return seats


def check_fw(value: Any) -> str:
    """A firmware version: 1 to :data:`FW_LENGTH` printable ASCII characters."""
    text = check_ascii(value, "fw", FW_LENGTH)
    if not text.isprintable():
        raise MalformedInput(f"must be printable, got {value!r}", field="fw")
    return text


def check_fault_code(value: Any) -> int:
    """A reader fault code of the protocol (1 no chip answer, 2 version mismatch, 3 timeout)."""
    if not is_whole(value) or value not in FAULT_CODES:
        raise MalformedInput(f"must be one of {sorted(FAULT_CODES)}, got {value!r}", field="code")
    return value


# --- field dictionaries (golden vectors, logs) ---------------------------------------------

_TYPE_NAMES = {
    Hello: "hello",
    Snapshot: "snapshot",
    Heartbeat: "heartbeat",
    Log: "log",
    ReaderFault: "reader_fault",
    Status: "status",
}
_BY_NAME = {name: cls for cls, name in _TYPE_NAMES.items()}


def to_fields(record: Record | Status | Unknown) -> dict[str, Any]:
    """A record as plain JSON data with a ``type`` name (the golden vectors' ``fields``)."""
    if isinstance(record, Unknown):
        return {"type": "unknown", "type_code": record.type, "payload": record.payload.hex()}
    data: dict[str, Any] = {"type": _TYPE_NAMES[type(record)]}
    for key, value in record.__dict__.items():
        if value is not None:
            data[key] = list(value) if isinstance(value, tuple) else value
    return data


def from_fields(fields: dict[str, Any]) -> Record | Status:
    """The record described by :func:`to_fields` data."""
    kind = _BY_NAME.get(fields.get("type"))  # type: ignore[arg-type]
    if kind is None:
        raise MalformedInput(f"unknown record type {fields.get('type')!r}", field="type")
    args = {k: v for k, v in fields.items() if k != "type"}
    for key in ("seats", "tags"):
        if key in args:
            args[key] = tuple(args[key])
    try:
        return kind(**args)
    except TypeError as error:
        raise MalformedInput(str(error), field="fields") from error
