"""Inventory scheduling: which reader (and which antenna) reads which seat, and when.

A node serves one or more seats. Each seat names a reader (several readers share one SPI bus,
each with its own chip select) and optionally an antenna of a multiplexer in front of that
reader. Seats are polled round-robin, one inventory per ``poll()``, so the time between two
reads of a seat is the sum of the other seats' inventories (see docs/benchmarks.md).

Each seat keeps a debounced tag set and a 16-bit snapshot sequence number; a snapshot is due
when the steady set changes and at least every ``refresh_ms`` (the retained state stays
fresh). A reader that faults is reported once per onset and re-initialised every
``retry_ms``; until it recovers its seat publishes nothing, rather than an empty set.
"""

from debounce import Debouncer


class Mux:
    """An analog antenna multiplexer: ``pins`` select antenna ``i`` in binary (pin 0 = LSB)."""

    def __init__(self, pins):
        self.pins = pins
        self.selected = -1

    def select(self, index):
        """Route the reader to antenna ``index`` (no-op when already there)."""
        if index == self.selected:
            return
        for bit, pin in enumerate(self.pins):
            pin((index >> bit) & 1)
        self.selected = index


class Seat:
    """One seat: its reader, antenna, debouncer and snapshot counter."""

    def __init__(self, index, reader_name, antenna=None, appear=1, vanish=3):
        self.index = index
        self.reader_name = reader_name
        self.antenna = antenna
        self.debounce = Debouncer(appear, vanish)
        self.snap_seq = 0
        self.last_sent = None  # ticks of the last snapshot, None before the first
        self.fault = 0  # wire fault code while the reader is broken, else 0
        self.retry_at = 0


class Scheduler:
    """Round-robin inventories over the seats; returns what should be reported."""

    def __init__(self, readers, seats, clock, mux=None, refresh_ms=2000, retry_ms=5000):
        self.readers = readers  # name -> driver with init() and inventory()
        self.seats = seats
        self.clock = clock
        self.mux = mux
        self.refresh_ms = refresh_ms
        self.retry_ms = retry_ms
        self.ready = {}  # reader name -> True once init() succeeded
        self.next_seat = 0
        self.inventories = 0

    def _elapsed(self, since):
        return self.clock.ticks_diff(self.clock.ticks_ms(), since)

    def init_reader(self, name):
        """Initialise one reader; raises the driver's ReaderFault."""
        self.readers[name].init()
        self.ready[name] = True

    def poll(self):
        """Inventory the next seat. Returns a list of events:

        ``("snapshot", seat, snap_seq, t_ms, uids)``, ``("fault", seat, code, message)``,
        ``("recovered", seat)``.
        """
        if not self.seats:
            return []
        seat = self.seats[self.next_seat]
        self.next_seat = (self.next_seat + 1) % len(self.seats)
        return self.poll_seat(seat)

    def poll_seat(self, seat):
        """One inventory of ``seat`` and the events it causes."""
        events = []
        now = self.clock.ticks_ms()
        name = seat.reader_name
        try:
            if not self.ready.get(name):
                if seat.fault and self.clock.ticks_diff(now, seat.retry_at) < 0:
                    return events
                self.init_reader(name)
            if self.mux is not None and seat.antenna is not None:
                self.mux.select(seat.antenna)
            uids = self.readers[name].inventory()
        except Exception as err:  # the driver's ReaderFault, or OSError from the bus
            self.ready[name] = False
            code = getattr(err, "code", 3)
            seat.retry_at = now + self.retry_ms
            if seat.fault != code:
                seat.fault = code
                seat.debounce.clear()
                events.append(("fault", seat.index, code, str(err)))
            return events
        self.inventories += 1
        if seat.fault:
            seat.fault = 0
            events.append(("recovered", seat.index))
        changed = seat.debounce.update(uids)
        stale = seat.last_sent is None or self._elapsed(seat.last_sent) >= self.refresh_ms
        if changed or stale:
            if changed:
                seat.snap_seq = (seat.snap_seq + 1) & 0xFFFF
            seat.last_sent = now
            events.append(
                ("snapshot", seat.index, seat.snap_seq, now, sorted(seat.debounce.steady))
            )
        return events


def self_test():
    """Checks that run under MicroPython too; returns the number of checks."""

    class Clock:
        t = 0

        def ticks_ms(self):
            return self.t

        def ticks_diff(self, a, b):
            return a - b

    class Reader:
        def __init__(self):
            self.tags = []

        def init(self):
            return 1

        def inventory(self):
            return list(self.tags)

    clock = Clock()
    reader = Reader()
    sched = Scheduler({"r": reader}, [Seat(4, "r", vanish=1)], clock)
    first = sched.poll()
    assert first[0][:3] == ("snapshot", 4, 0)
    assert sched.poll() == []
    reader.tags = [b"\x01\x02\x03\x04"]
    event = sched.poll()[0]
    assert event[2] == 1 and event[4] == [b"\x01\x02\x03\x04"]
    clock.t = 2500
    assert sched.poll()[0][2] == 1  # refresh: same sequence number, same set
    return 4
