"""Runs INSIDE MicroPython (the WebAssembly port): the MFRC522 and PN5180 drivers inventory
1..16 tags in the chip models, so the drivers' runtime (memoryviews, buffers, bit fiddling) is
MicroPython's, not only its compiler. Prints "drivers <inventories>"."""

import mfrc522
import pn5180
from fw_sim_bus import SimClock, SimPin, SimSPI
from fw_sim_mfrc522 import ChipMFRC522, Field, Tag14443A
from fw_sim_pn5180 import ChipPN5180, Tag15693

state = [12345]


def byte():
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 8) & 0xFF


done = 0
for k in range(1, 17):
    clock = SimClock()
    spi = SimSPI(clock, call_us=20)  # a node's host time per call (fw_course.HOST_CALL_US)
    cards = [Tag14443A(bytes([4] + [byte() for _ in range(6)])) for _ in range(k)]
    chip = ChipMFRC522([Field(cards)], clock, seed=k)
    reader = mfrc522.MFRC522(spi, spi.attach(chip, "cs-rc"), clock=clock)
    reader.init()
    if sorted(reader.inventory()) != sorted(t.uid for t in cards):
        raise AssertionError(f"mfrc522 missed a tag, k={k}")
    tokens = [Tag15693(bytes([0xE0, 4] + [byte() for _ in range(6)])) for _ in range(k)]
    chip2 = ChipPN5180(Field(tokens), clock, seed=k)
    busy2 = SimPin("busy", reader=chip2.busy)
    rst2 = SimPin("rst", 1, on_change=chip2.reset_line)
    reader2 = pn5180.PN5180(spi, spi.attach(chip2, "cs-pn"), busy2, rst=rst2, clock=clock)
    reader2.init()
    if sorted(reader2.inventory()) != sorted(t.uid for t in tokens):
        raise AssertionError(f"pn5180 missed a tag, k={k}")
    if chip2.violations or chip2.t2_violations:
        raise AssertionError(f"pn5180 broke BUSY or t2, k={k}")
    done += 2
print("drivers", done)
