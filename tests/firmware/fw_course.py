"""A Course of Raise Your Goblets played on chip models under the firmware's node loop.

Each seat has its own reader model on one simulated SPI bus: an MFRC522 (the Course's tags are
7-byte NTAG UIDs, ISO 14443A) or a PN5180, as on the shipped node (each UID then becomes an
8-byte ISO 15693 UID ``E0`` + the 7 bytes, and the registry follows). The hands' motions of a
``companion.virtual`` Scenario (pour, lift, place) move tags in and out of the seats' fields as
the modelled clock passes their times; ``miss`` takes each tag out of its field for one step at
a time with that probability (a flicker at the edge of an antenna's range or deep in a stack),
so the node reads what a real one would. The node's serial frames are decoded by the
companion's own ``FrameDecoder`` and fed to its ``Tracker``.
"""

import random

import cbnode
import mfrc522
import pn5180
import report
import seats
from fw_sim_bus import SimClock, SimPin, SimSPI
from fw_sim_mfrc522 import ChipMFRC522, Field, Tag14443A
from fw_sim_pn5180 import ChipPN5180, Tag15693
from fw_table import Stream, run_node

from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tracking import Tracker
from companion.links import wire

HOST_CALL_US = 20.0
"""Host time per SPI transfer call (see ``SimSPI.call_us``), modelled, not measured: a
MicroPython method call and an ESP-IDF SPI transaction's set-up take tens of microseconds on
an ESP32 (hardware/README.md); 20 us is the low end. Without it the drivers' wait loops polled
a register every 4 us of modelled time, a rate no node reaches, and a Course took minutes."""


class CourseTable:
    """``scenario.seats`` MFRC522 seats read by one node; ``play()`` runs the whole Course."""

    def __init__(self, scenario, miss=0.0, seed=0, rate_hz=10, reader="mfrc522"):
        self.scenario = scenario
        self.reader = reader
        self.registry = scenario.registry
        if reader == "pn5180":
            data = scenario.registry.to_json()
            tags = {"E0" + uid: tag for uid, tag in data["tags"].items()}
            self.registry = TagRegistry.from_json({"tags": tags})
        self.miss = miss
        self.rng = random.Random(seed)
        self.clock = SimClock()
        spi = SimSPI(self.clock, call_us=HOST_CALL_US)
        n = scenario.seats
        self.fields = [Field() for _ in range(n)]
        readers = {}
        for i, field in enumerate(self.fields):
            if reader == "pn5180":
                chip = ChipPN5180(field, self.clock, seed=seed + i)
                busy = SimPin(f"busy{i}", reader=chip.busy)
                cs = spi.attach(chip, f"cs{i}")
                readers[f"r{i}"] = pn5180.PN5180(spi, cs, busy, clock=self.clock)
            else:
                chip = ChipMFRC522([field], self.clock, seed=seed + i)
                cs = spi.attach(chip, f"cs{i}")
                readers[f"r{i}"] = mfrc522.MFRC522(spi, cs, clock=self.clock)
        self.seats = [seats.Seat(i, f"r{i}") for i in range(n)]
        scheduler = seats.Scheduler(readers, self.seats, self.clock, rate_hz=rate_hz)
        self.stream = Stream()
        self.node = cbnode.Node("n1", scheduler, report.SerialReporter(self.stream), self.clock)
        self.node.poll_ms = 10
        self.standing = [[g] for g in scenario.layout]  # Goblets on each seat's reader
        self.tags = {g: list(scenario.tags_of(g)) for g in scenario.layout}
        self.present = [{} for _ in range(n)]  # seat -> uid -> Tag (its state survives a miss)
        self.next_motion = 0
        self._place_all()

    def _place_all(self):
        for seat, field in enumerate(self.fields):
            wanted = [uid for g in self.standing[seat] for uid in self.tags[g]]
            here = self.present[seat]
            # A tag that arrives is a fresh, unpowered tag (IDLE); one that stays keeps its state.
            self.present[seat] = {uid: here.get(uid) or self._tag(uid) for uid in wanted}
            field.tags = [
                tag
                for tag in self.present[seat].values()
                if not self.miss or self.rng.random() >= self.miss
            ]

    def _tag(self, uid):
        if self.reader == "pn5180":
            return Tag15693(bytes.fromhex("E0" + uid))
        return Tag14443A(bytes.fromhex(uid))

    def _on_step(self, ms):
        motions = self.scenario.motions
        while self.next_motion < len(motions) and motions[self.next_motion].t * 1000 <= ms:
            m = motions[self.next_motion]
            if m.kind == "pour":
                self.tags[m.goblet].append(m.uid)
            elif m.kind == "lift":
                self.standing[m.seat].remove(m.goblet)
            else:
                self.standing[m.seat].append(m.goblet)
            self.next_motion += 1
        self._place_all()

    def play(self, tail_s=2.0):
        """Run the node through the Course; returns the decoded records."""
        run_node(self.node, self.clock, (self.scenario.duration + tail_s) * 1000, self._on_step)
        decoder = wire.FrameDecoder()
        frames = decoder.feed(bytes(self.stream.data))
        assert decoder.stats.dropped_bytes == decoder.stats.lost_frames == 0
        return [f.record for f in frames]


def track(table, records):
    """The tracker's events for the node's snapshots (``t`` = the node's clock) and its state."""
    tracker = Tracker(table.registry, table.scenario.seats)
    events = []
    last = 0.0
    for record in records:
        if isinstance(record, wire.Snapshot):
            last = record.t_ms / 1000
            events += tracker.observe(record.to_observation(last, node="n1"))
    events += tracker.advance(last + 5.0)
    events.append(tracker.state())
    return events
