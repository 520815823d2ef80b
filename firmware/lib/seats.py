"""Inventory scheduling: which reader reads which seat, and when.

A node serves one or more seats. Each seat names its reader: one reader per seat, several
readers sharing one SPI bus, each with its own chip select (hardware/README.md, "Node
topology"). Every seat is read ``rate_hz`` times a second (docs/protocol.md: about 10), one
inventory per ``poll()``; when the seats' inventories together take longer than the period,
the due seats are read round-robin as fast as the readers allow (see docs/benchmarks.md).

Every inventory of a seat gives one snapshot, raw: the set the reader saw, missed reads
included, with the seat's 16-bit sequence number incremented each time. The node does not
debounce: the companion's tracker counts snapshots (a pour after 3 reads, a lift after 5 or
more empty snapshots over 0.5 s) and conserves tokens, so a node that held back or smoothed
readings would starve it (docs/protocol.md, "Send every inventory round, raw"). A reader that
faults is reported once per onset and re-initialised every ``retry_ms``; until it recovers its
seat publishes nothing, rather than an empty set.
"""


class Seat:
    """One seat: its reader, snapshot counter and when it is next due."""

    def __init__(self, index, reader_name):
        self.index = index
        self.reader_name = reader_name
        self.snap_seq = 0  # the sequence number of the next snapshot
        self.reads = 0  # inventories completed
        self.due = None  # ticks when the next inventory is due, None = now
        self.fault = 0  # wire fault code while the reader is broken, else 0
        self.retry_at = 0


class Scheduler:
    """Paced inventories over the seats; returns what should be reported."""

    def __init__(self, readers, seats, clock, rate_hz=10, retry_ms=5000):
        if rate_hz <= 0:
            raise ValueError("rate_hz must be positive")
        self.readers = readers  # name -> driver with init() and inventory()
        self.seats = seats
        self.clock = clock
        self.period_ms = 1000 // rate_hz
        self.retry_ms = retry_ms
        self.ready = {}  # reader name -> True once init() succeeded
        self.next_seat = 0
        self.inventories = 0

    def init_reader(self, name):
        """Initialise one reader; raises the driver's ReaderFault."""
        self.readers[name].init()
        self.ready[name] = True

    def _wait(self, seat, now):
        """Milliseconds until ``seat`` is due (0 or less: due now)."""
        if seat.due is None:
            return 0
        return self.clock.ticks_diff(seat.due, now)

    def wait_ms(self):
        """Milliseconds until the next seat is due (0 when one is due now)."""
        if not self.seats:
            return self.period_ms
        now = self.clock.ticks_ms()
        return max(0, min(self._wait(seat, now) for seat in self.seats))

    def poll(self):
        """Inventory the next due seat (round-robin among the due ones), if any.

        Returns a list of events: ``("snapshot", seat, snap_seq, t_ms, uids)`` (``uids``
        sorted raw bytes), ``("fault", seat, code, message)``, ``("recovered", seat)``.
        An empty list when no seat is due yet.
        """
        n = len(self.seats)
        now = self.clock.ticks_ms()
        for k in range(n):
            i = (self.next_seat + k) % n
            seat = self.seats[i]
            if self._wait(seat, now) <= 0:
                self.next_seat = (i + 1) % n
                return self.poll_seat(seat)
        return []

    def poll_seat(self, seat):
        """One inventory of ``seat`` and the events it causes."""
        events = []
        now = self.clock.ticks_ms()
        name = seat.reader_name
        try:
            if not self.ready.get(name):
                if seat.fault and self.clock.ticks_diff(now, seat.retry_at) < 0:
                    seat.due = seat.retry_at
                    return events
                self.init_reader(name)
            uids = self.readers[name].inventory()
        except Exception as err:  # the driver's ReaderFault, or OSError from the bus
            self.ready[name] = False
            code = getattr(err, "code", 3)
            seat.retry_at = self.clock.ticks_add(now, self.retry_ms)
            seat.due = seat.retry_at
            if seat.fault != code:
                seat.fault = code
                events.append(("fault", seat.index, code, str(err)))
            return events
        self.inventories += 1
        seat.reads += 1
        # Keep the seat's phase (steady 10 Hz when there is time to spare); a seat that fell
        # behind is due again at once and waits only for its turn in the round.
        due = now if seat.due is None else seat.due
        due = self.clock.ticks_add(due, self.period_ms)
        seat.due = now if self.clock.ticks_diff(due, now) < 0 else due
        if seat.fault:
            seat.fault = 0
            events.append(("recovered", seat.index))
        seq = seat.snap_seq
        seat.snap_seq = (seq + 1) & 0xFFFF
        events.append(("snapshot", seat.index, seq, now, sorted(set(bytes(u) for u in uids))))
        return events


def self_test():
    """Checks that run under MicroPython too; returns the number of checks."""

    class Clock:
        t = 0

        def ticks_ms(self):
            return self.t

        def ticks_diff(self, a, b):
            return a - b

        def ticks_add(self, a, b):
            return a + b

    class Reader:
        def __init__(self):
            self.tags = []

        def init(self):
            return 1

        def inventory(self):
            return list(self.tags)

    clock = Clock()
    reader = Reader()
    sched = Scheduler({"r": reader}, [Seat(4, "r")], clock, rate_hz=10)
    first = sched.poll()
    assert first[0][:3] == ("snapshot", 4, 0)
    assert sched.poll() == [] and sched.wait_ms() == 100  # not due again before 100 ms
    clock.t = 100
    assert sched.poll()[0][:3] == ("snapshot", 4, 1)  # unchanged, sent again: every reading
    reader.tags = [b"\x01\x02\x03\x04", b"\x01\x02\x03\x04"]
    clock.t = 200
    event = sched.poll()[0]
    assert event[2] == 2 and event[4] == [b"\x01\x02\x03\x04"]
    reader.tags = []
    clock.t = 300
    event = sched.poll()[0]
    assert (event[2], event[4]) == (3, [])  # a missed tag is reported missed: raw
    return 5
