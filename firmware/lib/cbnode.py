"""The reader node's main loop, free of ``machine``: seats in, reports out, watchdog fed.

``firmware/main.py`` builds the hardware objects and hands them over; the tests hand over
chip models, a fake clock and fake links instead. One ``step()``: keep the link up, inventory
the next seat that is due and send its snapshot (every reading, raw: docs/protocol.md), send
the heartbeat every second and the hello every 30 s, feed the watchdog. Between steps the loop
sleeps until the next seat is due, at most ``poll_ms``. An exception escaping a step is logged
and the loop goes on; if the loop itself hangs, the watchdog resets the board.
"""

FW_VERSION = "1.1.0"  # 1.1.0: a snapshot after every inventory, paced by rate_hz, no debounce
HEARTBEAT_MS = 1000
HELLO_MS = 30000
LEVEL_INFO = 1
LEVEL_WARN = 2
LEVEL_ERROR = 3


class Node:
    """Ties a Scheduler to a reporter under a clock, with an optional watchdog."""

    def __init__(self, node_id, scheduler, reporter, clock, watchdog=None, poll_ms=50):
        self.node_id = node_id
        self.scheduler = scheduler
        self.reporter = reporter
        self.clock = clock
        self.watchdog = watchdog
        self.poll_ms = poll_ms
        self.started = clock.ticks_ms()
        self.last_heartbeat = None
        self.last_hello = None
        self.step_errors = 0

    def seat_indices(self):
        """The seats this node reads, as announced in the hello."""
        return [s.index for s in self.scheduler.seats]

    def uptime_ms(self):
        """Milliseconds since the node started."""
        return self.clock.ticks_diff(self.clock.ticks_ms(), self.started)

    def _due(self, last, period):
        return last is None or self.clock.ticks_diff(self.clock.ticks_ms(), last) >= period

    def step(self):
        """One pass of the loop; never raises (a failure is logged and counted)."""
        try:
            self._step()
        except Exception as err:  # keep serving the other seats; the watchdog covers hangs
            self.step_errors += 1
            try:  # noqa: SIM105  (no contextlib on MicroPython)
                self.reporter.log(LEVEL_ERROR, "step failed: %r" % (err,))
            except Exception:
                pass
        if self.watchdog is not None:
            self.watchdog.feed()

    def _step(self):
        rep = self.reporter
        rep.maintain()
        if self._due(self.last_hello, HELLO_MS):
            self.last_hello = self.clock.ticks_ms()
            rep.hello(self.node_id, FW_VERSION, self.seat_indices())
        for event in self.scheduler.poll():
            kind = event[0]
            if kind == "snapshot":
                _, seat, seq, t_ms, uids = event
                rep.snapshot(seat, seq, t_ms, uids)
            elif kind == "fault":
                _, seat, code, message = event
                rep.fault(seat, code)
                rep.log(LEVEL_ERROR, "seat %d: %s" % (seat, message))
            elif kind == "recovered":
                rep.log(LEVEL_INFO, "seat %d: reader recovered" % event[1])
        if self._due(self.last_heartbeat, HEARTBEAT_MS):
            self.last_heartbeat = self.clock.ticks_ms()
            rep.heartbeat(self.uptime_ms())

    def pause_ms(self):
        """How long to sleep after a step: until the next seat is due, at most ``poll_ms``."""
        return min(self.poll_ms, self.scheduler.wait_ms())

    def run(self, steps=None):
        """Loop forever (or ``steps`` times), sleeping ``pause_ms()`` between steps."""
        n = 0
        while steps is None or n < steps:
            self.step()
            pause = self.pause_ms()
            if pause > 0:
                self.clock.sleep_ms(pause)
            n += 1
