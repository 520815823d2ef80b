"""What a link hands to the service besides observations: node events.

Every link (serial, MQTT, virtual) takes one *sink*, a callable that receives, in order, each
:class:`~companion.core.observations.Observation` (a seat snapshot) and each :class:`NodeEvent`
below. The sink is called from the link's own thread, so it should be quick and thread-safe:
``queue.Queue().put`` is the simplest sink (the service's
:class:`~companion.service.hardware.HardwareTable` is one: a queue and one worker thread). ``t`` is
seconds on the link's clock (``time.monotonic`` unless another is handed in).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.core.observations import Observation
from companion.links.records import Heartbeat, Hello, Log, ReaderFault, Record, Snapshot


@dataclass(frozen=True)
class NodeHello:
    """A node introduced itself (on boot, every 30 s, and retained on MQTT)."""

    t: float
    node: str
    fw: str
    proto: int
    seats: tuple[int, ...]
    link: str


@dataclass(frozen=True)
class NodeOnline:
    """A node is reachable again (first frame after a (re)connect, or ``online`` on MQTT)."""

    t: float
    node: str | None
    link: str


@dataclass(frozen=True)
class NodeOffline:
    """A node is unreachable: ``reason`` is ``port lost``, ``silent``, ``last will`` or ``bye``.

    The table is not changed by this: a silent reader proves nothing about the goblets above it.
    """

    t: float
    node: str | None
    link: str
    reason: str


@dataclass(frozen=True)
class NodeHeartbeat:
    """A node's heartbeat: uptime and frames sent (a drop in uptime means it rebooted)."""

    t: float
    node: str | None
    uptime_ms: int
    frames: int


@dataclass(frozen=True)
class NodeFault:
    """A seat's reader is broken (code 1 no chip answer, 2 version mismatch, 3 timeout)."""

    t: float
    node: str | None
    seat: int
    code: int


@dataclass(frozen=True)
class NodeLog:
    """A line of a node's log (level 0 debug .. 3 error)."""

    t: float
    node: str | None
    level: int
    text: str


NodeEvent = NodeHello | NodeOnline | NodeOffline | NodeHeartbeat | NodeFault | NodeLog
LinkItem = Observation | NodeEvent
Sink = Callable[[LinkItem], None]


def item_of(record: Record, t: float, node: str | None, link: str) -> LinkItem | None:
    """The sink item for a decoded record (``node`` fills in what the transport knows)."""
    node = getattr(record, "node", None) or node
    if isinstance(record, Snapshot):
        return record.to_observation(t, node=node)
    if isinstance(record, Hello):
        return NodeHello(t, record.node, record.fw, record.proto, tuple(record.seats), link)
    if isinstance(record, Heartbeat):
        return NodeHeartbeat(t, node, record.uptime_ms, record.frames)
    if isinstance(record, ReaderFault):
        return NodeFault(t, node, record.seat, record.code)
    if isinstance(record, Log):
        return NodeLog(t, node, record.level, record.text)
    return None
