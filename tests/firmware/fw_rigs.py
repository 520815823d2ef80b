"""Test rigs: a driver wired to a chip model on a simulated bus, with tags in its field."""

import random

import fw_paths  # noqa: F401  (firmware/lib on sys.path)
import mfrc522
import pn5180
from fw_sim_bus import SimClock, SimPin, SimSPI
from fw_sim_mfrc522 import ChipMFRC522, Field, Tag14443A
from fw_sim_pn5180 import ChipPN5180, Tag15693


def mfrc522_rig(tags=(), seed=0, version=0x92, clock=None, spi=None):
    """(driver, chip, clock): an initialised MFRC522 driver on a model with ``tags``."""
    clock = clock or SimClock()
    spi = spi or SimSPI(clock)
    chip = ChipMFRC522([Field(tags)], clock, version=version, seed=seed)
    cs = spi.attach(chip)
    driver = mfrc522.MFRC522(spi, cs, clock=clock)
    return driver, chip, clock


def pn5180_rig(tags=(), seed=0, clock=None, spi=None, driver_args=None, **chip_args):
    """(driver, chip, clock): a PN5180 driver on a model with ``tags``; BUSY and RESET_N wired.

    The driver gets its own reset pin and the modelled clock (its timeouts are microseconds
    of it); ``driver_args`` go to the driver, ``chip_args`` to the model.
    """
    clock = clock or SimClock()
    spi = spi or SimSPI(clock)
    chip = ChipPN5180(Field(tags), clock, seed=seed, **chip_args)
    cs = spi.attach(chip)
    busy = SimPin("busy", reader=chip.busy)
    rst = SimPin("rst", 1, on_change=chip.reset_line)
    driver = pn5180.PN5180(spi, cs, busy, rst=rst, clock=clock, **(driver_args or {}))
    return driver, chip, clock


def random_14443_tags(rng, k, sizes=(4, 7)):
    """``k`` tags with distinct random UIDs of the given sizes."""
    tags, seen = [], set()
    while len(tags) < k:
        tag = Tag14443A.random(rng, rng.choice(sizes))
        if tag.uid not in seen:
            seen.add(tag.uid)
            tags.append(tag)
    return tags


def random_15693_tags(rng, k):
    """``k`` ISO 15693 tags with distinct random UIDs."""
    tags, seen = [], set()
    while len(tags) < k:
        tag = Tag15693.random(rng)
        if tag.uid not in seen:
            seen.add(tag.uid)
            tags.append(tag)
    return tags


def rng_for(seed):
    """A seeded random source for one test case."""
    return random.Random(seed)
