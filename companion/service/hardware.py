"""Real reader nodes: MQTT and/or serial links feeding the sensed session of the current game.

The links call their sink from their own threads; the sink here is a queue, and one worker thread
takes the items in order: a seat snapshot goes to the current Raise Your Goblets game's
:class:`~companion.service.sensing.SensingBridge`, a node's hello/online/offline sets its seats'
reader health, and twice a second the tracker's time advances (so a layout that has settled is
believed even when no snapshot arrives). Only a game the Host started to be played with the
readers is read (``play == "readers"``); a game on the phones ignores them. A new game gets a new
session; a Course starts by itself once the previous one was revealed (the Goblets go back to
their Houses' places), or when the Host says so.

With a ``data_dir`` the stream the tracker reads is recorded (:mod:`companion.store.recordings`,
DESIGN.md principle 5: "Raw sensor streams can be recorded and replayed through the tracker"):
one file per game, ``<data_dir>/recordings/game-<id>.jsonl`` (appended to when the game is
resumed), holding every seat snapshot and node status handed to the game's tracker, and the
Host's layout fixes and reveals. The folder is capped (``[hardware] recordings_mb``, 256 MB; 0
records nothing): a new game's recording first deletes the oldest ones to leave it half the cap,
and stops (saying so in its last line) if it reaches that half. ``companion track --registry
<data_dir>/registry.json --seats N --layout <the Houses in play, seat by seat> < game-<id>.jsonl``
replays it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.core.errors import CupbearerError
from companion.core.games.goblets.sensed.pour_out import PourOutConfig
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation
from companion.links.events import NodeHello, NodeOffline, NodeOnline
from companion.service.sensing import INITIAL_POURS, SensingBridge
from companion.service.table import Service
from companion.store.recordings import RecordingWriter, prune, recording_path

log = logging.getLogger(__name__)

TICK = 0.5
"""Seconds between two advances of the tracker's time when no snapshot arrives."""
SILENT_AFTER = 3.0
"""Seconds without a seat's snapshot before its reader is shown offline (a node sends each seat's
snapshot at least every 2 s)."""


class HardwareTable:
    """Reader links -> queue -> the sensed session; :meth:`stop` ends links and worker."""

    def __init__(
        self,
        service: Service,
        registry: TagRegistry,
        *,
        mqtt: str | None = None,
        serial: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        data_dir: Path | None = None,
        recordings_mb: int = 256,
        reveal: str = "readers",
        settle: float = 2.0,
    ) -> None:
        self.service = service
        self.reveal = reveal
        self.pour_out = PourOutConfig(settle=settle)
        self.data_dir = data_dir if recordings_mb > 0 else None
        self.recordings_bytes = recordings_mb * 1024 * 1024
        self.recording: RecordingWriter | None = None
        self.recording_path: Path | None = None
        self.registry = registry
        self.clock = clock
        self.items: queue.Queue[Any] = queue.Queue()
        self.links: list[Any] = []
        if mqtt:
            from companion.links.mqtt import MqttLink

            self.links.append(MqttLink(mqtt, self.items.put, clock=clock))
        if serial:
            from companion.links.serial import SerialLink

            self.links.append(SerialLink(serial, self.items.put, clock=clock))
        self.node_seats: dict[str, tuple[int, ...]] = {}
        self.bridge: SensingBridge | None = None
        self.observed = 0
        self.ignored_seats: set[int] = set()
        self.last_snapshot: dict[int, float] = {}
        """When each seat's reader last reported: a reader is online while it reports, even
        before its node's HELLO (a node already running when the link opened says hello only
        every 30 s)."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hardware-table", daemon=True)
        service.sense("readers")  # the Host may now start games played with the reader nodes

    def start(self) -> HardwareTable:
        """Start the worker and the links."""
        self._thread.start()
        for link in self.links:
            link.start()
        return self

    def stop(self) -> None:
        """Stop the links, then the worker."""
        for link in self.links:
            link.stop()
        self._stop.set()
        self.items.put(None)
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        if self.recording is not None:
            self.recording.close()

    # -- the worker --------------------------------------------------------------------------

    def session(self) -> SensingBridge | None:
        """The sensed session of the current game played with the readers (made and started when
        needed); None when the game at the table is not read by them."""
        table = self.service.table
        if table is None or table.record.play != "readers" or table.state.is_over():
            return None
        if self.bridge is None or self.bridge.game_id != table.record.id:
            previous = self.bridge
            self.bridge = SensingBridge(
                self.service, self.registry, reveal=self.reveal, pour_out=self.pour_out
            )
            self.bridge.take_over(previous)
            self._record_game(table.record.id)
        bridge = self.bridge
        state = bridge.session.state
        if state.phase in INITIAL_POURS and bridge.session.table.started_course != state.course:
            bridge.start_course()  # the previous Course was revealed: the next one begins
        return bridge

    def _record_game(self, game_id: int) -> None:
        """Record what the new game's tracker reads to its own file (a new tracker per game)."""
        if self.data_dir is None or self.bridge is None:
            return
        if self.recording is not None:
            self.recording.close()
        self.recording_path = recording_path(self.data_dir, f"game-{game_id}")
        # The folder is kept under its cap: the oldest recordings go first, and one game's
        # file may take half of it.
        for old in prune(self.data_dir, self.recordings_bytes // 2, spare=self.recording_path):
            log.info("recordings: %s deleted to stay under the cap", old.name)
        self.recording = RecordingWriter(self.recording_path, limit=self.recordings_bytes // 2)
        self.bridge.recording = self.recording  # the Host's fixes and reveals go in too

    def _run(self) -> None:
        last_tick = self.clock()
        while not self._stop.is_set():
            try:
                item = self.items.get(timeout=TICK)
            except queue.Empty:
                item = None
            try:
                if item is not None:
                    self._take(item)
                now = self.clock()
                if now - last_tick >= TICK:
                    last_tick = now
                    self._silent_readers(now)
                    bridge = self.session()
                    if bridge is not None:
                        bridge.advance(now)
            except CupbearerError as error:
                log.warning("sensed table: %s", error)
                self.service.notice("sensing", str(error))
            except Exception:
                log.exception("sensed table failed on %r", item)

    def _silent_readers(self, now: float) -> None:
        """Show offline the readers that stopped reporting."""
        for seat, seen in list(self.last_snapshot.items()):
            if now - seen > SILENT_AFTER:
                del self.last_snapshot[seat]
                self.service.set_reader(seat, "offline")

    def _take(self, item: Any) -> None:
        if isinstance(item, Observation):
            self.observed += 1
            if item.seat not in self.last_snapshot:
                self.service.set_reader(item.seat, "online")  # (a "broken" mark stays)
            self.last_snapshot[item.seat] = self.clock()
            bridge = self.session()
            if bridge is None:
                return
            if item.seat >= bridge.session.table.places:
                # A node that reads more seats than this table has: those readers see no Goblet.
                if item.seat not in self.ignored_seats:
                    self.ignored_seats.add(item.seat)
                    self.service.notice("seat", f"seat {item.seat} is not at this table: ignored")
                return
            with bridge.lock:  # recorded in the order the tracker reads
                if self.recording is not None and bridge.session.pouring is None:
                    self.recording.observation(item)
                bridge.observe(item)
        elif isinstance(item, NodeHello):
            self.node_seats[item.node] = tuple(item.seats)
            for seat in item.seats:
                self.service.set_reader(seat, "online")
        elif isinstance(item, NodeOnline | NodeOffline):
            online = isinstance(item, NodeOnline)
            seats = self.node_seats.get(item.node or "", ())
            bridge = self.session()
            if bridge is not None and item.node:
                with bridge.lock:
                    if self.recording is not None:
                        self.recording.node_status(item.node, online, item.t, seats or None)
                    bridge.node_status(item.node, online, item.t, seats or None)
            else:
                for seat in seats:
                    self.service.set_reader(seat, "online" if online else "offline")
