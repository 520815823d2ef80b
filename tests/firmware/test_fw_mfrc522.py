"""The MFRC522 driver against the register-level chip model: every tag, every time."""

import fw_paths  # noqa: F401
import mfrc522
import pytest
from fw_rigs import mfrc522_rig, random_14443_tags, rng_for
from fw_sim_bus import SimClock, SimSPI
from fw_sim_mfrc522 import ChipMFRC522, Field, Tag14443A, Unmodelled, crc_a


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


# --- versions --------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [0x90, 0x82, 0x89, 0xB2, 0x88, 0x12, 0x91])
def test_documented_clone_versions_are_accepted(version):
    tags = [Tag14443A(b"\x04\x10\x20\x30\x40\x50\x60")]
    driver, _, _ = mfrc522_rig(tags, version=version)
    assert driver.init() == version
    assert driver.inventory() == [tags[0].uid]


@pytest.mark.parametrize("version", [0x80, 0x93, 0x8A, 0x01])
def test_undocumented_versions_are_still_refused(version):
    driver, _, _ = mfrc522_rig(version=version)
    with pytest.raises(mfrc522.ReaderFault) as err:
        driver.init()
    assert err.value.code == 2


# --- the driver judged by the time-faithful model ----------------------------------------------


def _rig_k(k, seed=0):
    tags = random_14443_tags(rng_for(2000 + k + 100 * seed), k, sizes=(4, 7, 10))
    driver, chip, clock = mfrc522_rig(tags, seed=k)
    driver.init()
    return driver, chip, clock, {t.uid for t in tags}


def test_the_driver_waits_out_the_soft_reset_and_loses_no_write():
    driver, chip, _ = mfrc522_rig()
    driver.init()
    assert chip.lost_writes == 0
    assert chip.regs[0x2A] == 0x80  # TAuto, as the driver wrote it
    assert chip.regs[0x2D] == mfrc522.T_RELOAD


def test_a_driver_that_does_not_wait_for_the_soft_reset_reads_no_version():
    # Neither sleeps nor looks at PowerDown: its version read falls inside the reset.
    driver, _, clock = mfrc522_rig()

    class NoSleep:
        ticks_us = clock.ticks_us
        ticks_diff = clock.ticks_diff

        def sleep_us(self, us):
            pass

    driver.clock = NoSleep()
    real = driver.read
    driver.read = lambda reg: 0x00 if reg == mfrc522.REG_COMMAND else real(reg)
    with pytest.raises(mfrc522.ReaderFault) as err:
        driver.init()
    assert err.value.code == 1


@pytest.mark.parametrize("k", [1, 4, 16])
def test_a_driver_that_reads_the_fifo_without_waiting_loses_the_tags(k):
    # As if RxIRq were set the moment StartSend is written: the old, synchronous model let
    # this pass. On modelled time the FIFO is still empty then.
    driver, _, _, uids = _rig_k(k)
    real = driver.read
    driver.read = lambda reg: mfrc522.IRQ_RX if reg == mfrc522.REG_COM_IRQ else real(reg)
    assert driver.inventory() == []
    assert uids


@pytest.mark.parametrize("k", [1, 4, 16])
def test_a_driver_that_reads_the_first_fifo_byte_early_loses_the_tags(k):
    # Takes the answer as soon as some of it is in the FIFO: the rest is still on the air.
    driver, _, _, uids = _rig_k(k)
    real = driver.read

    def read(reg):
        if reg == mfrc522.REG_COM_IRQ:
            timer = real(reg) & mfrc522.IRQ_TIMER
            return mfrc522.IRQ_RX if real(mfrc522.REG_FIFO_LEVEL) else timer
        return real(reg)

    driver.read = read
    assert not set(driver.inventory()) >= uids


def test_the_window_boundary_is_the_frame_delay_time_plus_five_bits(monkeypatch):
    # From the end of transmission to the answer's fifth bit: the tag's first edge comes
    # (1044 + ModWidth + 1) / fc after the end of the frame (ISO/IEC 14443-3 6.2.1.1 with
    # the pause of ModWidthReg 0x26), then 5 bits of 128 / fc: 1723 / fc = 127.1 us.
    # Reload 4 (5 ticks of 25 us = 125 us) closes the window before that bit, reload 5
    # (150 us) after it.
    assert 5 * 339 < 1044 + 0x26 + 1 + 5 * 128 < 6 * 339
    tags = random_14443_tags(rng_for(9), 5, sizes=(4, 7))
    uids = sorted(t.uid for t in tags)
    monkeypatch.setattr(mfrc522, "T_RELOAD", 5)
    driver, _, _ = mfrc522_rig(tags)
    driver.init()
    assert sorted(driver.inventory()) == uids
    for t in tags:
        t.state = "IDLE"
    monkeypatch.setattr(mfrc522, "T_RELOAD", 4)
    driver, _, _ = mfrc522_rig(tags)
    driver.init()
    assert driver.inventory() == []


@pytest.mark.parametrize("reload", [0, 2, 3])
def test_a_window_shorter_than_the_frame_delay_time_loses_every_tag(monkeypatch, reload):
    monkeypatch.setattr(mfrc522, "T_RELOAD", reload)
    driver, chip, _, _ = _rig_k(8)
    assert driver.inventory() == []
    assert chip.exchanges == 1  # the WUPA's answer came after the driver had given up


def test_a_slow_crc_coprocessor_is_waited_for():
    driver, chip, _, uids = _rig_k(6)
    chip.crc_byte_us = 40.0  # 9 bytes: 360 us, far beyond one register read
    assert set(driver.inventory()) == uids


def test_a_driver_that_does_not_wait_for_crcirq_sends_a_wrong_select():
    driver, chip, _, uids = _rig_k(6)
    chip.crc_byte_us = 40.0
    real = driver.read
    driver.read = lambda reg: mfrc522.DIV_CRC if reg == mfrc522.REG_DIV_IRQ else real(reg)
    assert driver.inventory() == []  # every SELECT carried the CRC of the frame before
    assert uids


def test_a_chip_that_never_interrupts_is_given_the_microsecond_limit():
    driver, chip, clock = mfrc522_rig([])
    driver.init()
    chip.regs[0x2A] = 0x00  # no TAuto: nothing ends a silent transceive
    before = clock.us
    with pytest.raises(mfrc522.ReaderFault) as err:
        driver.inventory()
    assert err.value.code == 3
    assert clock.us - before >= mfrc522.TRANSCEIVE_TIMEOUT_US


def test_the_driver_needs_a_clock_with_ticks_us_on_cpython():
    with pytest.raises(TypeError):
        mfrc522.MFRC522(SimSPI(), lambda v: None)


# --- the model's timer, register by register (datasheet 8.5, table 106) ------------------------

TICK_US = 339 / 13.56  # prescaler 169: (2 * 169 + 1) / 13.56 MHz = 25.0 us


def _chip(tags=(), mode=0x00, reload=3):
    clock = SimClock()
    chip = ChipMFRC522([Field(list(tags))], clock)
    clock.advance(100)  # power-on: no reset pending
    chip.write_reg(0x2A, mode)
    chip.write_reg(0x2B, 169)
    chip.write_reg(0x2C, reload >> 8)
    chip.write_reg(0x2D, reload & 0xFF)
    chip.write_reg(0x04, 0x7F)  # clear the reset's IdleIRq/LoAlertIRq
    return chip, clock


def _irq(chip):
    return chip.read_reg(0x04)


def test_tstartnow_counts_reload_plus_one_ticks_then_timerirq():
    chip, clock = _chip(reload=3)
    chip.write_reg(0x0C, 0x40)  # TStartNow
    assert chip.read_reg(0x07) & 0x08  # Status1Reg TRunning
    clock.advance(1.5 * TICK_US)
    assert (chip.read_reg(0x2E), chip.read_reg(0x2F)) == (0, 2)  # TCounterValReg counts down
    clock.advance(2.4 * TICK_US)  # 3.9 ticks
    assert not _irq(chip) & 0x01
    clock.advance(0.2 * TICK_US)  # 4.1 ticks = (reload + 1) ticks passed
    assert _irq(chip) & 0x01
    assert not chip.read_reg(0x07) & 0x08  # stopped at zero (TAutoRestart = 0)
    chip.write_reg(0x04, 0x01)
    clock.advance(10 * TICK_US)
    assert not _irq(chip) & 0x01


def test_tstopnow_stops_the_count():
    chip, clock = _chip(reload=3)
    chip.write_reg(0x0C, 0x40)
    clock.advance(2.5 * TICK_US)
    chip.write_reg(0x0C, 0x80)  # TStopNow
    clock.advance(10 * TICK_US)
    assert not _irq(chip) & 0x01
    assert chip.read_reg(0x2F) == 1  # where it stopped


def test_tautorestart_raises_timerirq_every_period():
    chip, clock = _chip(mode=0x10, reload=3)
    chip.write_reg(0x0C, 0x40)
    clock.advance(4.1 * TICK_US)
    assert _irq(chip) & 0x01
    chip.write_reg(0x04, 0x01)
    clock.advance(3.8 * TICK_US)  # 7.9 ticks
    assert not _irq(chip) & 0x01
    clock.advance(0.4 * TICK_US)  # 8.3 ticks: the second period is over
    assert _irq(chip) & 0x01
    assert chip.read_reg(0x07) & 0x08  # still running


def test_tprescaleven_divides_by_2_tprescaler_plus_2():
    # 1000 ticks: 339 cycles each = 25.000 ms, 340 with TPrescalEven = 25.074 ms.
    for even, fired in ((False, True), (True, False)):
        chip, clock = _chip(reload=999)
        if even:
            chip.write_reg(0x19, 0x4D | 0x10)  # DemodReg TPrescalEven
        chip.write_reg(0x0C, 0x40)
        clock.advance(25_037)
        assert bool(_irq(chip) & 0x01) == fired


@pytest.mark.parametrize("gated", [0x20, 0x40, 0x60])
def test_tgated_is_a_loud_error_not_a_free_running_timer(gated):
    chip, _ = _chip(mode=gated, reload=3)
    with pytest.raises(Unmodelled):
        chip.write_reg(0x0C, 0x40)


def _send(chip, data, tx_last=0):
    chip.write_reg(0x14, 0x83)  # antenna on
    chip.write_reg(0x01, 0x00)  # Idle (clears RcvOff)
    chip.write_reg(0x0A, 0x80)
    for b in data:
        chip.write_reg(0x09, b)
    chip.write_reg(0x0D, tx_last)
    chip.write_reg(0x01, 0x0C)  # Transceive
    chip.write_reg(0x0D, 0x80 | tx_last)  # StartSend
    return chip.clock.us


def test_tauto_starts_the_timer_at_the_end_of_transmission():
    chip, clock = _chip(mode=0x80, reload=3)  # 100 us window, nobody in the field
    t0 = _send(chip, b"\x26", tx_last=7)  # REQA: 9 bits on the air
    tx_end = t0 + 9 * 128 / 13.56
    clock.advance(tx_end - clock.us - 1)
    assert not _irq(chip) & 0x40  # TxIRq not yet
    clock.advance(2)
    assert _irq(chip) & 0x40
    clock.advance(tx_end + 4 * TICK_US - clock.us - 1)
    assert not _irq(chip) & 0x01
    clock.advance(2)
    assert _irq(chip) & 0x01


def test_without_tauto_a_transmission_starts_no_timer():
    chip, clock = _chip(mode=0x00, reload=3)
    _send(chip, b"\x26", tx_last=7)
    clock.advance(10_000)
    assert not _irq(chip) & 0x01


def test_tauto_stops_the_timer_at_the_answers_fifth_bit():
    # Window 6 ticks = 150 us: the fifth bit (127.1 us after the end of the REQA, see the
    # boundary test above) beats it, the end of the ATQA (269 us) would not have.
    tag = Tag14443A(b"\x11\x22\x33\x44")
    chip, clock = _chip([tag], mode=0x80, reload=5)
    _send(chip, b"\x26", tx_last=7)
    clock.advance(2_000)
    irq = _irq(chip)
    assert irq & 0x20  # the ATQA arrived
    assert not irq & 0x01  # and the timer stopped at its fifth bit
    assert chip.read_reg(0x0A) == 2


def test_a_timer_that_expires_first_does_not_stop_the_reception():
    tag = Tag14443A(b"\x11\x22\x33\x44")
    chip, clock = _chip([tag], mode=0x80, reload=4)  # 125 us: before the fifth bit
    _send(chip, b"\x26", tx_last=7)
    clock.advance(2_000)
    irq = _irq(chip)
    assert irq & 0x01  # TimerIRq ...
    assert irq & 0x20  # ... and the answer still came: the driver decides what TimerIRq means
    assert [chip.read_reg(0x09), chip.read_reg(0x09)] == list(tag.atqa)


def test_rxmultiple_is_a_loud_error():
    chip, _ = _chip(mode=0x80)
    chip.write_reg(0x13, 0x04)
    with pytest.raises(Unmodelled):
        _send(chip, b"\x26", tx_last=7)


@pytest.mark.parametrize("command", [0x01, 0x02, 0x04, 0x08, 0x0E, 0x10])
def test_unmodelled_commands_are_loud_errors(command):
    chip, _ = _chip()
    with pytest.raises(Unmodelled):
        chip.write_reg(0x01, command)


# --- air timing (ISO/IEC 14443-3 6.2.1.1) -----------------------------------------------------


@pytest.mark.parametrize(
    ("command", "last_pause"),
    [
        # REQA 0x26, LSB first 0110010: the last bit 0 follows a 1 (sequence Y, no pause), so
        # the last pause is the end of frame's 0 after that 0 (sequence Z): bit 8, at 8 * 128.
        (0x26, 8 * 128),
        # WUPA 0x52, LSB first 0100101: the last bit 1 (sequence X) pauses half a bit in,
        # at 7 * 128 + 64; the end of frame's 0 after a 1 is sequence Y, no pause.
        (0x52, 7 * 128 + 64),
    ],
)
def test_the_answer_keeps_the_fdt_etiquette_for_the_last_bit(command, last_pause):
    tag = Tag14443A(b"\x11\x22\x33\x44")
    chip, clock = _chip([tag], mode=0x00)
    t0 = _send(chip, bytes([command]), tx_last=7)
    pause_end = last_pause + 0x26 + 1  # ModWidthReg 0x26: 39 cycles of 100 % ASK pause
    fdt = 9 * 128 + (84 if command == 0x52 else 20)
    first_edge = t0 + (pause_end + fdt) / 13.56  # us
    first_byte = first_edge + (1 + 8 + 1) * 128 / 13.56  # start bit, 8 bits, parity
    answer_end = first_edge + (1 + 16 + 2 + 1) * 128 / 13.56  # + end of frame
    clock.advance(first_byte - clock.us - 0.5)
    assert chip.read_reg(0x0A) == 0
    clock.advance(first_byte + 0.5 - clock.us)
    assert chip.read_reg(0x0A) == 1
    assert not _irq(chip) & 0x20
    clock.advance(answer_end + 0.5 - clock.us)
    assert chip.read_reg(0x0A) == 2
    assert _irq(chip) & 0x20
    # Both cases put the tag's answer on the same bit grid: 10 bits + 20 cycles + the pause
    # after the start of the reader's last data bit.
    assert (pause_end + fdt) == 7 * 128 + 39 + 1300


def test_soft_reset_takes_its_datasheet_time():
    chip, clock = _chip(mode=0x80)
    chip.write_reg(0x01, 0x0F)
    assert chip.read_reg(0x01) & 0x10  # PowerDown while resetting
    assert chip.read_reg(0x37) == 0x00
    chip.write_reg(0x2A, 0x8D)
    assert chip.lost_writes == 1
    clock.advance(1024 / 27.12 + 0.1)  # datasheet 8.8.2: 1024 crystal cycles
    assert chip.read_reg(0x01) == 0x20  # Idle, RcvOff, PowerDown cleared
    assert chip.read_reg(0x37) == 0x92
    assert chip.regs[0x2A] == 0x00  # reset value, the lost write did not land


def test_a_driver_that_leaves_the_crc_preset_at_reset_sends_selects_no_tag_accepts():
    # ModeReg resets to 0x3F: CRCPreset 11 = 0xFFFF, not CRC_A's 0x6363 (datasheet table 55).
    driver, chip, _ = mfrc522_rig([Tag14443A(b"\x11\x22\x33\x44")])
    real = driver.write
    driver.write = lambda reg, value: None if reg == mfrc522.REG_MODE else real(reg, value)
    driver.init()
    assert chip.regs[0x11] == 0x3F
    assert driver.inventory() == []
    driver.write = real
    driver.init()
    assert driver.inventory() == [b"\x11\x22\x33\x44"]


def test_the_coprocessor_computes_crc_a_from_the_0x6363_preset():
    chip, clock = _chip()
    chip.write_reg(0x11, 0x3D)  # CRCPreset 01
    chip.write_reg(0x09, 0x00)
    chip.write_reg(0x09, 0x00)
    chip.write_reg(0x01, 0x03)  # CalcCRC
    assert not chip.read_reg(0x05) & 0x04  # not done inside the write
    clock.advance(2 * chip.crc_byte_us + 0.01)
    assert chip.read_reg(0x05) & 0x04
    assert (chip.read_reg(0x22), chip.read_reg(0x21)) == (0xA0, 0x1E)  # ISO 14443-3 Annex B
