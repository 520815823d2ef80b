"""The serial link: one reader node on USB (pyserial), frames in, observations and events out.

Klipper and OctoPrint users' most common faults are USB power, cables and reconnects (DESIGN.md,
sensing facts), so this link never gives up: when the port vanishes (USB unplug) it reports the
node offline, then keeps reopening the same path (a udev symlink such as
``/dev/cupbearer-node1``) with growing backoff until it returns; garbage on the line costs only
itself (:class:`~companion.links.wire.FrameDecoder`). Every complete valid frame is delivered,
and the node resends each seat's snapshot at least every 2 s, so the table resyncs by itself.

Use::

    link = SerialLink("/dev/ttyACM0", sink=callback)   # or "loop://", any pyserial URL
    link.start()  ...  link.stop()
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable

import serial

from companion.links.events import LinkItem, NodeOffline, NodeOnline, Sink, item_of
from companion.links.wire import DecoderStats, FrameDecoder, Hello, Unknown

BAUDRATE = 115200
log = logging.getLogger(__name__)


class SerialLink:
    """Reads frames from one serial port in a thread and feeds the sink.

    ``offline_after``: seconds without a frame before the node is reported ``silent`` (it
    heartbeats every second). ``expire_after``: seconds of quiet in the middle of a frame before
    the partial frame is dropped. ``backoff``: first and longest wait between reopen attempts.
    ``opener`` replaces ``serial.serial_for_url`` (tests hand in a ``loop://`` port).
    """

    def __init__(
        self,
        port: str,
        sink: Sink,
        *,
        baudrate: int = BAUDRATE,
        clock: Callable[[], float] = time.monotonic,
        offline_after: float = 3.0,
        expire_after: float = 0.1,
        backoff: tuple[float, float] = (1.0, 5.0),
        read_timeout: float = 0.05,
        opener: Callable[[], serial.SerialBase] | None = None,
    ) -> None:
        self.port = port
        self.sink = sink
        self.clock = clock
        self.offline_after = offline_after
        self.expire_after = expire_after
        self.backoff = backoff
        self.opener = opener or (
            lambda: serial.serial_for_url(port, baudrate=baudrate, timeout=read_timeout)
        )
        self.link_name = f"serial:{port}"
        self.decoder = FrameDecoder()
        self.node: str | None = None
        self.online = False
        self.connected = threading.Event()
        self.reconnects = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.SerialBase | None = None

    @property
    def stats(self) -> DecoderStats:
        """The frame decoder's counters (frames, dropped bytes, CRC errors, lost frames)."""
        return self.decoder.stats

    def start(self) -> SerialLink:
        """Start reading in a daemon thread; returns self."""
        self._thread = threading.Thread(target=self._run, name=self.link_name, daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop reading and close the port (waits up to ``timeout`` seconds for the thread)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._close()

    def __enter__(self) -> SerialLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the reading thread ------------------------------------------------------------------

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                self._serial = self.opener()
            except (serial.SerialException, OSError, ValueError):
                # The port is not there (yet): unplugged, or the udev name not recreated.
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            delay = self.backoff[0]
            self.decoder.reset()
            self.connected.set()
            try:
                self._read_until_lost()
            except (serial.SerialException, OSError, TypeError, ValueError):
                # The port vanished (TypeError/ValueError: pyserial on a descriptor closed under
                # it); reopen below.
                log.info("%s: port lost", self.link_name)
            except Exception:
                # A bug must not end the link: log it, reopen, keep the table alive.
                log.exception("%s: unexpected error, reopening", self.link_name)
            self.connected.clear()
            self._close()
            if self._stop.is_set():
                break
            self.reconnects += 1
            self._go_offline("port lost")

    def _read_until_lost(self) -> None:
        port = self._serial
        assert port is not None
        last_rx = last_frame = self.clock()
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            now = self.clock()
            if data:
                last_rx = now
                frames = self.decoder.feed(data)
            elif self.decoder.buffer and now - last_rx >= self.expire_after:
                frames = self.decoder.expire()
            else:
                frames = []
            for frame in frames:
                last_frame = now
                self._deliver(frame.record, now)
            if self.online and now - last_frame >= self.offline_after:
                self._go_offline("silent")

    def _deliver(self, record: object, now: float) -> None:
        if isinstance(record, Unknown):
            return
        if not self.online:
            self.online = True
            node = record.node if isinstance(record, Hello) else self.node
            self._emit(NodeOnline(now, node, self.link_name))
        if isinstance(record, Hello):
            self.node = record.node
        item = item_of(record, now, self.node, self.link_name)  # type: ignore[arg-type]
        if item is not None:
            self._emit(item)

    def _go_offline(self, reason: str) -> None:
        if self.online:
            self.online = False
            self._emit(NodeOffline(self.clock(), self.node, self.link_name, reason))

    def _emit(self, item: LinkItem) -> None:
        try:
            self.sink(item)
        except Exception:
            # The consumer's bug is logged, not allowed to stop the link.
            log.exception("%s: sink failed on %r", self.link_name, item)

    def _close(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
