"""A virtual reader node: simulated snapshots sent over the real wire formats.

:class:`VirtualNode` behaves like the firmware (``docs/protocol.md``): HELLO on start and every
30 s, HEARTBEAT every second, a SNAPSHOT of a seat after every reading of it (and at least every
2 s when readings stop), each seat with its own sequence number. Its readings come from any
iterator of :class:`~companion.core.observations.Observation` whose ``t`` is seconds since the
start: a scripted JSONL file (:func:`read_script`) or TRACKING's simulated readers
(:func:`simulated_readings`, a random Course through :mod:`companion.virtual` with noise). It
speaks through a transport: :class:`MqttTransport` (a real broker, Last Will included),
:class:`SerialTransport` (frames to a serial port) or :class:`PtyTransport` (frames into a pty
whose other end is a stable symlink, as a USB node's udev name would be).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import threading
import time
import tty
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol

import serial

from companion.core.errors import MalformedInput
from companion.core.observations import Observation
from companion.links import wire
from companion.links.mqtt import MqttNode
from companion.links.wire import Heartbeat, Hello, Record, Snapshot

log = logging.getLogger(__name__)
HELLO_EVERY = 30.0
HEARTBEAT_EVERY = 1.0
REFRESH_EVERY = 2.0


class Transport(Protocol):
    """Where a node's records go."""

    def send(self, record: Record) -> None:
        """Send one record (may drop it when the line is full: snapshots repeat)."""

    def close(self) -> None:
        """Shut down cleanly."""


class MqttTransport:
    """Records to a broker through :class:`~companion.links.mqtt.MqttNode` (Will: offline)."""

    def __init__(self, url: str, hello: Hello, connect_timeout: float = 10.0) -> None:
        self.node = MqttNode(url, hello).start()
        if not self.node.connected.wait(connect_timeout):
            log.warning("node %s: broker not reachable yet; will keep trying", hello.node)

    def send(self, record: Record) -> None:
        """Publish one record (hello and snapshots retained)."""
        if isinstance(record, Snapshot):
            self.node.snapshot(record)  # kept, to be republished after a reconnect
        else:
            self.node.publish(record)

    def close(self) -> None:
        """Publish ``offline`` and disconnect."""
        self.node.stop()


class _FrameWriter:
    """Frame numbering shared by the serial transports."""

    def __init__(self) -> None:
        self.seq = 0
        self.dropped = 0

    def frame(self, record: Record) -> bytes:
        data = wire.encode_frame(record, self.seq)
        self.seq = (self.seq + 1) & 0xFF
        return data


class SerialTransport(_FrameWriter):
    """Frames written to a serial port (any pyserial URL); a write that stalls is dropped."""

    def __init__(self, port: str, baudrate: int = 115200) -> None:
        super().__init__()
        self.port = serial.serial_for_url(port, baudrate=baudrate, write_timeout=1.0)

    def send(self, record: Record) -> None:
        """Write one frame."""
        try:
            self.port.write(self.frame(record))
        except serial.SerialTimeoutException:
            self.dropped += 1

    def close(self) -> None:
        """Close the port."""
        self.port.close()


class PtyTransport(_FrameWriter):
    """Frames written into a new pty; ``link`` becomes a symlink to its other end (the "port").

    Bytes nobody reads pile up in the pty; once it is full, frames are dropped, not blocked on,
    as a USB node's would be when the host stops reading.
    """

    def __init__(self, link: str | Path) -> None:
        super().__init__()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.link = Path(link)
        tmp = self.link.with_name(self.link.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(self.slave))
        os.replace(tmp, self.link)

    def send(self, record: Record) -> None:
        """Write one frame (whole, or not at all when the pty is full)."""
        data = self.frame(record)
        try:
            written = os.write(self.master, data)
        except BlockingIOError:
            self.dropped += 1
            return
        if written < len(data):  # never leave half a frame: finish it, waiting if need be
            os.set_blocking(self.master, True)
            try:
                os.write(self.master, data[written:])
            finally:
                os.set_blocking(self.master, False)

    def close(self) -> None:
        """Remove the symlink and close the pty (the reader sees the port vanish)."""
        if self.link.is_symlink():
            self.link.unlink()
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class VirtualNode:
    """Plays ``readings`` for the node's seats through ``transport`` at ``speed`` x real time.

    ``speed`` 0 sends as fast as possible. Only readings of ``hello.seats`` are used.
    ``hello_every``: seconds between HELLOs (30 like the firmware; tests use less, because a
    serial reader that opens the port late would otherwise wait that long to learn the node id).
    Every reading is sent (one snapshot per inventory round: the tracker's debounce counts
    snapshots); ``on_change`` sends only changes and a refresh every 2 s, the protocol's floor.
    """

    def __init__(
        self,
        hello: Hello,
        transport: Transport,
        speed: float = 1.0,
        hello_every: float = HELLO_EVERY,
        on_change: bool = False,
    ) -> None:
        self.hello = hello
        self.on_change = on_change
        self.transport = transport
        self.speed = speed
        self.hello_every = hello_every
        self.boot = time.monotonic()
        self.frames = 0
        self.stopping = threading.Event()
        self.seq: dict[int, int] = {}
        self.last: dict[int, tuple[tuple[str, ...], float]] = {}
        self._next_hello = self._next_heartbeat = 0.0

    def _send(self, record: Record) -> None:
        self.transport.send(record)
        self.frames += 1

    def uptime_ms(self) -> int:
        """The node's monotonic clock in ms (u32, wraps like the firmware's)."""
        return int((time.monotonic() - self.boot) * 1000) & 0xFFFFFFFF

    def report(self, seat: int, tags: Iterable[str], force: bool = False) -> None:
        """Send a seat's snapshot (with ``on_change``: if changed, due for a refresh, or forced)."""
        tags = tuple(sorted(tags))
        now = time.monotonic()
        last = self.last.get(seat)
        fresh = last and last[0] == tags and now - last[1] < REFRESH_EVERY
        if self.on_change and not force and fresh:
            return
        self.seq[seat] = (self.seq.get(seat, -1) + 1) & 0xFFFF
        self.last[seat] = (tags, now)
        self._send(Snapshot(seat, self.seq[seat], self.uptime_ms(), tags, self.hello.node))

    def tick(self) -> float:
        """Send what is due (hello, heartbeat, refreshes); returns seconds until the next duty."""
        now = time.monotonic()
        if now >= self._next_hello:
            self._send(self.hello)
            self._next_hello = now + self.hello_every
        if now >= self._next_heartbeat:
            self._send(Heartbeat(self.uptime_ms(), self.frames + 1, self.hello.node))
            self._next_heartbeat = now + HEARTBEAT_EVERY
        for seat, (tags, sent) in list(self.last.items()):
            if now - sent >= REFRESH_EVERY:
                self.report(seat, tags, force=True)
        due = [self._next_hello, self._next_heartbeat]
        due += [sent + REFRESH_EVERY for _, sent in self.last.values()]
        return max(0.0, min(due) - time.monotonic())

    def run(self, readings: Iterable[Observation], linger: float = 0.0) -> int:
        """Play every reading at its time, then keep heartbeating ``linger`` seconds.

        Returns the number of readings played; stops early when :attr:`stopping` is set.
        """
        seats = set(self.hello.seats)
        start = time.monotonic()
        played = 0
        for obs in readings:
            if obs.seat not in seats:
                continue
            due = start + obs.t / self.speed if self.speed > 0 else 0.0
            while not self.stopping.is_set():
                wait = min(self.tick(), due - time.monotonic())
                if wait <= 0:
                    break
                self.stopping.wait(wait)
            if self.stopping.is_set():
                return played
            self.report(obs.seat, obs.tags)
            played += 1
        end = time.monotonic() + linger
        while not self.stopping.is_set() and time.monotonic() < end:
            self.stopping.wait(min(self.tick(), end - time.monotonic()))
        return played


def read_script(lines: Iterable[str], source: str = "script") -> Iterator[Observation]:
    """Observations from JSONL lines ``{"t": s, "seat": i, "tags": [uid, ...]}``.

    A malformed line is logged with its number and skipped; the stream goes on.
    """
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield Observation.from_json(json.loads(line))
        except (ValueError, MalformedInput) as error:
            log.warning("%s line %d: %s", source, number, error)


def simulated_readings(
    seed: int, seats: int, noise: str = "moderate", rate: float = 10.0, node: str | None = None
) -> tuple[Iterator[Observation], dict]:
    """A random Course at ``seats`` seats through noisy simulated readers (companion.virtual).

    Returns the readings and the Course's tag registry as JSON (for ``companion track``).
    """
    from companion.virtual import NOISE, Scenario, SimulatedReaders

    if noise not in NOISE:
        raise MalformedInput(f"unknown noise {noise!r}; one of {sorted(NOISE)}", field="noise")
    rng = random.Random(seed)
    scenario = Scenario.generate(rng, seats)
    readers = SimulatedReaders(scenario, NOISE[noise], rng, rate=rate, node=node)
    return readers.snapshots(), scenario.registry.to_json()
