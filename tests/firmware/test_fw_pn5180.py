"""The PN5180 driver against the time-faithful model: slots, masks, collisions, BUSY, TIMER1.

The model (fw_sim_pn5180) plays the chip's events on the modelled clock: a configuration that
would fail on a real chip (the timer not stopped by a tag's SOF, a window shorter than t1, no
power-up time for the tags, NSS released before BUSY rose) fails here by its timing.
"""

import fw_paths  # noqa: F401
import fw_sim_pn5180 as sim
import pn5180
import pytest
from fw_rigs import pn5180_rig, random_15693_tags, rng_for
from fw_sim_pn5180 import Tag15693, crc15693

TOKEN = Tag15693(bytes.fromhex("E004015012345678"))


def test_crc15693_check_value():
    assert crc15693(b"123456789") == 0x906E


def test_init_resets_the_chip_and_loads_the_iso15693_rf_configuration():
    driver, chip, clock = pn5180_rig()
    chip.irq = 0  # whatever the chip had before: the reset's boot sets IDLE_IRQ again
    assert driver.init() == b"\x00\x04"
    assert chip.rf_config == (0x0D, 0x8D)
    assert clock.us >= sim.BOOT_US  # the driver waited for the boot (BUSY low, IDLE_IRQ)
    assert not chip.rf_on  # the field is on only during an inventory
    assert chip.violations == 0


@pytest.mark.parametrize("k", range(1, 17))
def test_inventory_reads_k_stacked_tokens_exactly(k):
    tags = random_15693_tags(rng_for(2000 + k), k)
    driver, chip, _ = pn5180_rig(tags, seed=k)
    driver.init()
    got = driver.inventory()
    assert sorted(got) == sorted(t.uid for t in tags)
    assert all(uid[:2] == b"\xe0\x04" for uid in got)  # most significant byte first
    assert chip.violations == 0  # BUSY was respected around every frame
    assert chip.t2_violations == 0  # no slot EOF came sooner than t2 after an answer


@pytest.mark.parametrize("k", [1, 3, 12])
@pytest.mark.parametrize(
    ("config", "counts"),
    [
        (0x00000801, None),  # the old value: no stop on RX started
        (0x00000801, 2712),  # the old value and the old window (200 us at 13.56 MHz)
        (pn5180.TIMER1_CONFIG_SLOT, 2712),  # stop on RX started, but the window ends before t1
    ],
)
def test_the_old_timer_configuration_loses_the_answers(k, config, counts):
    tags = random_15693_tags(rng_for(40 + k), k)
    driver, chip, _ = pn5180_rig(tags, seed=k)
    driver.timer1_config = config
    driver.init()
    if counts is not None:
        driver.request_counts = driver.eof_counts = counts
    assert len(driver.inventory()) < k  # the timer expired while the answers were arriving
    assert chip.irq & sim.IRQ_TIMER1
    fixed, _, _ = pn5180_rig(tags, seed=k)
    fixed.init()
    assert len(fixed.inventory()) == k


@pytest.mark.parametrize("k", [1, 5, 16])
def test_firmware_below_3_8_gets_the_digital_delay_in_its_windows(k):
    # NXP adds 321 us to every window for firmware < 3.8; the model delays the chip's receive
    # events by as much. Without the delay the EOF window (476 us) closes before the SOF.
    tags = random_15693_tags(rng_for(70 + k), k)
    driver, chip, _ = pn5180_rig(tags, seed=k, firmware_version=(0x05, 0x03))
    driver.init()
    assert driver.eof_counts == 10807  # (476 + 321) us at 13.56 MHz
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)
    assert chip.violations == chip.t2_violations == 0
    blind, _, _ = pn5180_rig(tags, seed=k, firmware_version=(0x05, 0x03))
    blind.init()
    blind.request_counts, blind.eof_counts = 8597, 6455  # the windows of firmware >= 3.8
    assert len(blind.inventory()) < k


def test_a_tag_without_its_power_up_time_is_not_heard():
    driver, chip, _ = pn5180_rig([TOKEN], driver_args={"field_off_between": False})
    chip.tag_power_up_us = 3000  # slower than the 1 ms the driver waits
    driver.init()  # field on, 1 ms
    assert driver.inventory() == []  # the request began before the token had power
    assert driver.inventory() == [TOKEN.uid]  # by now it has
    hasty, _, _ = pn5180_rig([TOKEN])
    hasty.power_up_us = 0  # request right after TX_RFON
    hasty.init()
    assert hasty.inventory() == []


def test_the_field_is_off_between_inventories_and_tags_power_up_each_time():
    driver, chip, clock = pn5180_rig([TOKEN])
    driver.init()
    for _ in range(3):
        assert driver.inventory() == [TOKEN.uid]
        assert not chip.rf_on
    on = chip.field_on_us()
    clock.advance(50_000)
    assert chip.field_on_us() == on  # off while idle
    assert on > 3 * pn5180.TAG_POWER_UP_US


@pytest.mark.parametrize("seed", range(25))
def test_busy_is_respected_across_seeds(seed):
    rng = rng_for(seed)
    tags = random_15693_tags(rng, rng.randint(1, 16))
    busy_us = rng.choice([0.0, 3.0, 20.0, 150.0])
    driver, chip, _ = pn5180_rig(tags, seed=seed, busy_us=busy_us)
    driver.init()
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)
    assert chip.violations == 0


def test_nss_released_before_busy_rose_is_a_violation():
    # The model catches the old driver's habit of raising NSS right after the last byte.
    driver, chip, _ = pn5180_rig()
    driver.init()
    before = chip.violations
    cs = chip.cs_pin
    cs(0)
    driver.spi.write(bytes([0x04, 0x02]))  # READ_REGISTER IRQ_STATUS
    cs(1)  # BUSY rises only BUSY_RISE_US after the last byte
    assert chip.violations == before + 1


def test_deep_collisions_extend_the_mask_recursively():
    # Same low 12 bits: slots collide under masks of 0, 4 and 8 bits; 16 bits split them.
    base = 0xE004_0000_0000_0ABC
    tags = [Tag15693((base | (i << 12)).to_bytes(8, "big")) for i in range(3)]
    driver, chip, _ = pn5180_rig(tags)
    driver.init()
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)
    assert chip.exchanges >= 16 * 4


def test_empty_field_costs_one_round_of_windows():
    driver, chip, clock = pn5180_rig([])
    driver.init()
    before = clock.us
    assert driver.inventory() == []
    assert chip.exchanges == 16
    assert clock.us - before >= pn5180.REQUEST_WINDOW_US + 15 * pn5180.EOF_WINDOW_US


@pytest.mark.parametrize("seed", range(10))
def test_a_token_leaving_mid_inventory_is_survived(seed):
    rng = rng_for(900 + seed)
    tags = random_15693_tags(rng, 10)
    driver, chip, _ = pn5180_rig(tags, seed=seed)
    driver.init()
    leaver = tags[rng.randrange(10)]
    when = rng.randint(1, 30)

    def hook(c):
        if c.exchanges == when:
            c.field.remove(leaver.uid)

    chip.on_exchange = hook
    got = set(driver.inventory())
    stayed = {t.uid for t in tags if t is not leaver}
    assert stayed <= got <= stayed | {leaver.uid}


@pytest.mark.parametrize(("version", "code"), [((0, 0), 1), ((0xFF, 0xFF), 1), ((0, 9), 2)])
def test_a_wrong_product_version_is_a_reader_fault(version, code):
    driver, _, _ = pn5180_rig(product_version=version)
    with pytest.raises(pn5180.ReaderFault) as err:
        driver.init()
    assert err.value.code == code


def test_busy_stuck_high_times_out_in_modelled_microseconds():
    driver, chip, clock = pn5180_rig()
    driver.init()
    chip.stuck_busy = True
    before = clock.us
    with pytest.raises(pn5180.ReaderFault) as err:
        driver.read_reg(pn5180.REG_IRQ_STATUS)
    assert err.value.code == 3
    waited = clock.us - before
    assert pn5180.BUSY_TIMEOUT_US <= waited <= pn5180.BUSY_TIMEOUT_US + 10


def test_busy_stuck_high_through_the_boot_times_out_too():
    driver, chip, clock = pn5180_rig()
    chip.stuck_busy = True
    with pytest.raises(pn5180.ReaderFault) as err:
        driver.init()
    assert err.value.code == 3
    assert pn5180.BOOT_TIMEOUT_US <= clock.us <= pn5180.BOOT_TIMEOUT_US + 200


def test_a_reader_unplugged_mid_game_is_a_fault_not_an_empty_seat():
    driver, chip, _ = pn5180_rig([TOKEN])
    driver.init()
    assert len(driver.inventory()) == 1
    chip.xfer = lambda mosi: 0xFF  # MISO floats high: nobody drives it
    with pytest.raises(pn5180.ReaderFault) as err:
        driver.inventory()
    assert err.value.code == 1


# --- the model itself: reset and TIMER1, bit by bit (NXP phhalHw_Pn5180_Reg.h) ---------------


def _booted():
    driver, chip, clock = pn5180_rig([TOKEN])
    driver.init()
    return driver, chip, clock


def _timer_fires_after(driver, chip, clock, config, reload, limit_us=20_000, action=None):
    """Microseconds from writing TIMER1_CONFIG (then ``action``) until TIMER1_IRQ, or None."""
    driver.write_reg(pn5180.REG_TIMER1_CONFIG, 0)
    driver.write_reg(pn5180.REG_TIMER1_RELOAD, reload)
    driver.write_reg(pn5180.REG_IRQ_CLEAR, 0xFFFFFFFF)
    start = clock.us
    driver.write_reg(pn5180.REG_TIMER1_CONFIG, config)
    if action is not None:
        action()
    while clock.us - start < limit_us:
        if chip.irq & sim.IRQ_TIMER1:
            return clock.us - start
        clock.advance(1)
        chip.sync()
    return None


NOW = sim.T1_ENABLE | sim.T1_START_NOW


@pytest.mark.parametrize(
    ("config", "reload", "expect_us"),
    [
        (NOW, 13560, 1000),  # MODE_SEL clear: 13.56 MHz
        (NOW | sim.T1_MODE_SEL, 6780, 1000),  # prescaler 000b: 6.78 MHz
        (NOW | sim.T1_MODE_SEL | (1 << 3), 6780, 2000),  # 001b: 3.39 MHz
        (NOW | sim.T1_MODE_SEL | (7 << 3), 53, 1000),  # 111b: 53 kHz
        (NOW | (7 << 3), 13560, 1000),  # PRESCALE_SEL is ignored while MODE_SEL is clear
    ],
)
def test_timer1_counts_at_the_selected_frequency(config, reload, expect_us):
    driver, chip, clock = _booted()
    fired = _timer_fires_after(driver, chip, clock, config, reload)
    assert fired == pytest.approx(expect_us, rel=0.02)


def test_timer1_does_not_run_without_enable():
    driver, chip, clock = _booted()
    assert _timer_fires_after(driver, chip, clock, sim.T1_START_NOW, 1000) is None


def test_timer1_reload_enable_fires_again():
    driver, chip, clock = _booted()
    for reload_enable, again in ((sim.T1_RELOAD_ENABLE, True), (0, False)):
        assert _timer_fires_after(driver, chip, clock, NOW | reload_enable, 1356) is not None
        chip.irq &= ~sim.IRQ_TIMER1
        clock.advance(150)
        chip.sync()
        assert bool(chip.irq & sim.IRQ_TIMER1) is again


def _transceive(driver):
    driver.write_reg(pn5180.REG_SYSTEM_CONFIG, 0)
    driver.write_reg(pn5180.REG_SYSTEM_CONFIG, 3)
    driver._req[:4] = bytes([0x26, 0x01, 0x00, 0x00])  # 1-slot inventory, no mask
    driver.send_data(driver._req, 3)


REQUEST_US = sim.VCD_SOF_US + 5 * 8 * sim.BIT_US + sim.VCD_EOF_US
SOF_AT_US = REQUEST_US + sim.T1_US + sim.VICC_SOF_US
END_AT_US = SOF_AT_US + sim.ANSWER_BITS * sim.BIT_US + sim.VICC_EOF_US


@pytest.mark.parametrize(
    ("event_bit", "after_us"),
    [
        (11, REQUEST_US),  # start on TX ended
        (12, 0.0),  # start on TX started
        (14, SOF_AT_US),  # start on RX started (the tag's SOF received)
        (13, END_AT_US),  # start on RX ended
    ],
)
def test_timer1_start_events(event_bit, after_us):
    driver, chip, clock = _booted()
    driver.field_on()
    t0 = clock.us

    def go():
        nonlocal t0
        _transceive(driver)
        t0 = chip.tx_started_at

    fired = _timer_fires_after(
        driver, chip, clock, sim.T1_ENABLE | (1 << event_bit), 1356, action=go
    )
    assert fired is not None
    assert clock.us - t0 == pytest.approx(after_us + 100, abs=3)


def test_timer1_start_on_rf_on_and_off():
    driver, chip, clock = _booted()
    for bit, action in ((8, driver.field_on), (7, driver.field_off)):
        assert _timer_fires_after(driver, chip, clock, sim.T1_ENABLE | (1 << bit), 1356) is None
        fired = _timer_fires_after(
            driver, chip, clock, sim.T1_ENABLE | (1 << bit), 1356, action=action
        )
        assert fired is not None


def test_timer1_stop_on_rx_started_keeps_the_answer():
    for stop, answered in ((sim.T1_STOP_ON_RX_STARTED, True), (0, False)):
        driver, chip, clock = _booted()
        driver.field_on()
        config = sim.T1_ENABLE | (1 << 11) | stop
        driver.write_reg(pn5180.REG_TIMER1_RELOAD, 12950)  # 955 us
        driver.write_reg(pn5180.REG_TIMER1_CONFIG, config)
        driver.write_reg(pn5180.REG_IRQ_CLEAR, 0xFFFFFFFF)
        _transceive(driver)
        clock.advance(10_000)
        chip.sync()
        assert bool(chip.irq & sim.IRQ_RX) is answered
        assert bool(chip.irq & sim.IRQ_TIMER1) is not answered
        assert chip.irq & sim.IRQ_RX_SOF_DET  # the SOF came either way


@pytest.mark.parametrize(
    ("stop_bit", "action"), [(19, "transceive"), (16, "field_on"), (15, "field_off")]
)
def test_timer1_stop_events(stop_bit, action):
    driver, chip, clock = _booted()
    if action != "field_on":
        driver.field_on()
    act = {"transceive": lambda: _transceive(driver)}.get(action) or getattr(driver, action)
    config = NOW | (1 << stop_bit)
    assert _timer_fires_after(driver, chip, clock, config, 13560 * 3, action=act) is None
    if action == "field_on":
        driver.field_off()
    elif action == "field_off":
        driver.field_on()
    assert _timer_fires_after(driver, chip, clock, NOW, 13560 * 3, action=act) is not None


def test_an_undefined_timer1_bit_or_reload_is_a_loud_model_error():
    driver, _, _ = _booted()
    with pytest.raises(sim.ModelError):
        driver.write_reg(pn5180.REG_TIMER1_CONFIG, pn5180.TIMER1_CONFIG_SLOT | (1 << 21))
    with pytest.raises(sim.ModelError):
        driver.write_reg(pn5180.REG_TIMER1_RELOAD, 1 << 20)


def test_reset_holds_the_chip_and_boots_with_busy_high():
    driver, chip, clock = _booted()
    driver.field_on()
    rst = driver.rst
    rst(0)
    clock.advance(5)
    rst(1)  # shorter than the 10 us RESET_N needs: no reset
    assert chip.rf_on
    rst(0)
    assert chip.busy() == 1  # held in reset
    clock.advance(20)
    rst(1)
    assert not chip.rf_on and chip.busy() == 1
    clock.advance(sim.BOOT_US - 1)
    assert chip.busy() == 1 and not chip.irq & sim.IRQ_IDLE
    clock.advance(2)
    assert chip.busy() == 0 and chip.irq & sim.IRQ_IDLE
