"""The MFRC522 driver against the register-level chip model: every tag, every time."""

import fw_paths  # noqa: F401
import mfrc522
import pytest
from fw_rigs import mfrc522_rig, random_14443_tags, rng_for
from fw_sim_bus import SimSPI
from fw_sim_mfrc522 import ChipMFRC522, Field, Tag14443A, crc_a


def test_crc_a_check_value():
    # ISO/IEC 14443-3 Annex B: CRC_A of 0x00 0x00 is 0x1EA0 (sent A0 1E).
    assert crc_a(b"\x00\x00") == (0xA0, 0x1E)
    assert crc_a(b"\x12\x34") == (0x26, 0xCF)


def test_init_reports_the_version_and_switches_the_antenna_on():
    driver, chip, _ = mfrc522_rig()
    assert driver.init() == 0x92
    assert chip.regs[0x14] & 0x03 == 0x03
    assert chip.regs[0x2A] & 0x80  # TAuto


@pytest.mark.parametrize("k", range(1, 17))
def test_inventory_reads_k_tags_exactly(k):
    rng = rng_for(1000 + k)
    tags = random_14443_tags(rng, k, sizes=(4, 7, 10))
    driver, _, _ = mfrc522_rig(tags, seed=k)
    driver.init()
    got = driver.inventory()
    assert sorted(got) == sorted(t.uid for t in tags)
    assert all(t.state == "HALT" for t in tags)


@pytest.mark.parametrize("seed", range(40))
def test_inventory_across_seeds_twice_in_a_row(seed):
    rng = rng_for(seed)
    k = rng.randint(1, 16)
    tags = random_14443_tags(rng, k)
    driver, _, _ = mfrc522_rig(tags, seed=seed)
    driver.init()
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)
    # The tags are HALTed now: the next inventory's WUPA must wake them all again.
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)


def test_collisions_are_resolved_bit_by_bit():
    # Two UIDs that differ only in their very last bit, plus one sharing the first byte.
    tags = [
        Tag14443A(b"\x04\x11\x22\x33\x44\x55\x60"),
        Tag14443A(b"\x04\x11\x22\x33\x44\x55\x61"),
        Tag14443A(b"\x04\x91\x22\x33\x44\x55\x61"),
    ]
    driver, chip, _ = mfrc522_rig(tags)
    driver.init()
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)
    # CL1 (second UID byte differs) and CL2 (last bit differs) both collide.
    assert chip.collisions >= 2


def test_same_four_byte_prefix_in_different_cascade_levels():
    # A 4-byte UID equal to the second cascade level of a 7-byte one.
    tags = [
        Tag14443A(b"\x04\x05\x06\x07"),
        Tag14443A(b"\x01\x02\x03\x04\x05\x06\x07"),
    ]
    driver, _, _ = mfrc522_rig(tags)
    driver.init()
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)


def test_empty_field_times_out_and_returns_nothing():
    driver, chip, clock = mfrc522_rig([])
    driver.init()
    before = clock.us
    assert driver.inventory() == []
    # One WUPA and its timer window, nothing else went to the air.
    assert chip.exchanges == 1
    assert clock.us - before >= chip.timeout_us()


@pytest.mark.parametrize("seed", range(12))
def test_a_tag_leaving_mid_inventory_is_survived(seed):
    rng = rng_for(500 + seed)
    tags = random_14443_tags(rng, 8)
    driver, chip, _ = mfrc522_rig(tags, seed=seed)
    driver.init()
    leaver = tags[rng.randrange(8)]
    when = rng.randint(2, 40)

    def hook(c):
        if c.exchanges == when:
            c.field.remove(leaver.uid)

    chip.on_exchange = hook
    got = driver.inventory()
    stayed = {t.uid for t in tags if t is not leaver}
    assert stayed <= set(got) <= stayed | {leaver.uid}
    assert len(got) == len(set(got))


def test_a_tag_arriving_mid_inventory_is_read_next_time():
    tags = [Tag14443A(b"\x04\x10\x20\x30\x40\x50\x60")]
    late = Tag14443A(b"\x11\x22\x33\x44")
    driver, chip, _ = mfrc522_rig(tags)
    driver.init()

    def hook(c):
        if c.exchanges == 3 and late not in c.field.tags:
            c.field.tags.append(late)

    chip.on_exchange = hook
    first = set(driver.inventory())
    assert tags[0].uid in first
    assert set(driver.inventory()) == {tags[0].uid, late.uid}


def test_corrupted_answers_are_retried():
    # A noisy field: one frame in ten is lost (the antenna drivers drop out for it).
    rng = rng_for(77)
    tags = random_14443_tags(rng, 6)
    driver, chip, _ = mfrc522_rig(tags)
    driver.init()

    def hook(c):
        if rng.random() < 0.1:
            c.regs[0x14] &= ~0x03
        else:
            c.regs[0x14] |= 0x03

    chip.on_exchange = hook
    everyone = {t.uid for t in tags}
    got = set()
    for _ in range(6):
        once = set(driver.inventory())
        assert once <= everyone  # a lost frame may cost a tag this time, never invent one
        got |= once
    assert got == everyone
    assert driver.errors > 0


@pytest.mark.parametrize(("version", "code"), [(0x00, 1), (0xFF, 1), (0x55, 2)])
def test_a_wrong_version_register_is_a_reader_fault(version, code):
    driver, _, _ = mfrc522_rig(version=version)
    with pytest.raises(mfrc522.ReaderFault) as err:
        driver.init()
    assert err.value.code == code


def test_shared_miso_fault_is_detected_not_hidden():
    # A second module that keeps MISO low while deselected makes the first read 0x00.
    spi = SimSPI()
    driver, _, _ = mfrc522_rig([], spi=spi)
    culprit = ChipMFRC522([Field()])
    culprit.holds_miso = True
    spi.attach(culprit, "cs2")
    with pytest.raises(mfrc522.ReaderFault) as err:
        driver.init()
    assert err.value.code == 1
    culprit.holds_miso = False  # the fix: a tri-state buffer (or the 74HC125) on MISO
    assert driver.init() == 0x92


def test_a_chip_that_never_interrupts_is_a_timeout_fault():
    driver, chip, _ = mfrc522_rig([Tag14443A(b"\x01\x02\x03\x04")])
    driver.init()
    chip.regs[0x2A] = 0x00  # timer not automatic: nobody ends the transceive
    chip.fields = [Field()]
    with pytest.raises(mfrc522.ReaderFault) as err:
        driver.inventory()
    assert err.value.code == 3


def test_max_tags_bounds_the_loop():
    rng = rng_for(3)
    tags = random_14443_tags(rng, 10)
    driver, _, _ = mfrc522_rig(tags)
    driver.init()
    got = driver.inventory(max_tags=4)
    assert len(got) == 4
    assert set(got) <= {t.uid for t in tags}


def test_a_reader_unplugged_mid_game_is_a_fault_not_an_empty_seat():
    driver, chip, _ = mfrc522_rig([Tag14443A(b"\x01\x02\x03\x04")])
    driver.init()
    assert driver.inventory() == [b"\x01\x02\x03\x04"]
    chip.xfer = lambda mosi: 0xFF  # MISO floats high: nobody drives it
    with pytest.raises(mfrc522.ReaderFault) as err:
        driver.inventory()
    assert err.value.code == 1
