"""What a link hands to the service besides observations: node events.

Every link (serial, MQTT, virtual) takes one *sink*, a callable that receives, in order, each
:class:`~companion.core.observations.Observation` (a seat snapshot) and each :class:`NodeEvent`
below. The sink is called from the link's own thread, so it should be quick and thread-safe:
``queue.Queue().put`` is the simplest sink (see :class:`QueueSink`). ``t`` is seconds on the
link's clock (``time.monotonic`` unless another is handed in).
"""

from __future__ import annotations

import queue
import threading
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


class QueueSink:
    """A sink that queues every item for a consumer thread: ``link = Link(..., sink=q)``."""

    def __init__(self) -> None:
        self.queue: queue.Queue[LinkItem] = queue.Queue()

    def __call__(self, item: LinkItem) -> None:
        """Queue one item (called from the link's thread)."""
        self.queue.put(item)

    def get(self, timeout: float) -> LinkItem:
        """The next item; raises ``queue.Empty`` after ``timeout`` seconds."""
        return self.queue.get(timeout=timeout)


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


class TableFeed:
    """A sink that drives a table consumer: the tracker, a sensed session or the service.

    ``target`` has ``observe(observation)`` and ``node_status(node, online, t, seats)`` (like
    :class:`companion.core.tracking.Tracker` and ``companion.service.sensing.SensedTable``).
    Observations go to ``observe``; a node's online/offline goes to ``node_status`` with the
    seats its last HELLO announced; what those calls return (tracker events) goes to
    ``on_result``; every other item (heartbeats, faults, logs, hellos) to ``on_other``. Calls
    are serialised by a lock, so several links (threads) can share one feed.
    """

    def __init__(
        self,
        target: object,
        on_result: Callable[[object], None] | None = None,
        on_other: Callable[[LinkItem], None] | None = None,
    ) -> None:
        self.target = target
        self.on_result = on_result
        self.on_other = on_other
        self.seats: dict[str, tuple[int, ...]] = {}
        self.lock = threading.Lock()

    def __call__(self, item: LinkItem) -> None:
        """Route one item from a link."""
        with self.lock:
            result = None
            if isinstance(item, Observation):
                result = self.target.observe(item)  # type: ignore[attr-defined]
            elif isinstance(item, NodeOnline | NodeOffline) and item.node is not None:
                online = isinstance(item, NodeOnline)
                seats = self.seats.get(item.node)
                status = self.target.node_status  # type: ignore[attr-defined]
                result = status(item.node, online, item.t, seats)
            else:
                if isinstance(item, NodeHello):
                    self.seats[item.node] = item.seats
                if self.on_other is not None:
                    self.on_other(item)
                return
            if result is not None and self.on_result is not None:
                self.on_result(result)
