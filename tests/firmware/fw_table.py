"""A simulated reader node: chip models on one SPI bus, the firmware's loop on top.

Seats 0 and 1 have a PN5180 each, seats 2 and 3 an MFRC522 each: one reader per seat, all on
one SPI bus (hardware/README.md, "Node topology"). Everything runs on one SimClock, so modelled
air time and SPI time advance the node's own clock.
"""

import cbnode
import mfrc522
import pn5180
import report
import seats
from fw_sim_bus import SimClock, SimPin, SimSPI
from fw_sim_mfrc522 import ChipMFRC522, Field
from fw_sim_pn5180 import ChipPN5180


class Watchdog:
    """Counts feeds like machine.WDT would be fed."""

    def __init__(self):
        self.feeds = 0

    def feed(self):
        """Feed."""
        self.feeds += 1


class Stream:
    """A USB CDC stand-in collecting bytes."""

    def __init__(self):
        self.data = bytearray()
        self.fail = False

    def write(self, data):
        """Write or fail like a disconnected port."""
        if self.fail:
            raise OSError(5, "EIO")
        self.data += data
        return len(data)


class Table:
    """Four seats, four readers, a node loop and a reporter chosen by the test."""

    def __init__(self, seed=0, rate_hz=10):
        self.clock = SimClock()
        self.spi = SimSPI(self.clock)
        self.fields = [Field(), Field(), Field(), Field()]
        self.pn = [ChipPN5180(self.fields[i], self.clock, seed=seed + i) for i in range(2)]
        self.rc = [ChipMFRC522([self.fields[i]], self.clock, seed=seed + i) for i in (2, 3)]
        readers = {}
        for i, chip in enumerate(self.pn):
            cs = self.spi.attach(chip, f"cs{i}")
            busy = SimPin(f"busy{i}", reader=chip.busy)
            readers[f"r{i}"] = pn5180.PN5180(self.spi, cs, busy, clock=self.clock)
        for i, chip in zip((2, 3), self.rc, strict=True):
            readers[f"r{i}"] = mfrc522.MFRC522(
                self.spi, self.spi.attach(chip, f"cs{i}"), clock=self.clock
            )
        self.readers = readers
        self.seats = [seats.Seat(i, f"r{i}") for i in range(4)]
        self.scheduler = seats.Scheduler(readers, self.seats, self.clock, rate_hz=rate_hz)
        self.watchdog = Watchdog()
        self.node = None

    def serial(self):
        """Use a serial reporter; returns the stream."""
        self.stream = Stream()
        self.start(report.SerialReporter(self.stream))
        return self.stream

    def start(self, reporter):
        """Build the node loop around ``reporter``."""
        self.reporter = reporter
        self.node = cbnode.Node("n1", self.scheduler, reporter, self.clock, self.watchdog, 10)

    def run_for(self, ms, on_step=None):
        """Run the loop until ``ms`` more modelled milliseconds have passed (see ``run_node``)."""
        return run_node(self.node, self.clock, ms, on_step)


def run_node(node, clock, ms, on_step=None):
    """Run ``node``'s loop as ``Node.run`` does until ``ms`` more modelled milliseconds have
    passed; ``on_step(ms)`` is called before each step (to move tags). Returns the steps."""
    end = clock.us + ms * 1000
    steps = 0
    while clock.us < end:
        if on_step is not None:
            on_step(clock.us / 1000)
        node.step()
        pause = node.pause_ms()
        if pause > 0:
            clock.sleep_ms(pause)
        else:
            clock.advance(50)  # a guard: the loop's own CPU time is not modelled
        steps += 1
    return steps
