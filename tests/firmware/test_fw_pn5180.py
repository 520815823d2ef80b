"""The PN5180 driver against the host-interface model: ISO 15693 slots, masks, collisions."""

import fw_paths  # noqa: F401
import pn5180
import pytest
from fw_rigs import pn5180_rig, random_15693_tags, rng_for
from fw_sim_pn5180 import Tag15693, crc15693


def test_crc15693_check_value():
    assert crc15693(b"123456789") == 0x906E


def test_init_loads_the_iso15693_rf_configuration():
    driver, chip, _ = pn5180_rig()
    assert driver.init() == b"\x00\x04"
    assert chip.rf_on
    assert chip.rf_config == (0x0D, 0x8D)
    assert chip.violations == 0


@pytest.mark.parametrize("k", range(1, 17))
def test_inventory_reads_k_stacked_tokens_exactly(k):
    tags = random_15693_tags(rng_for(2000 + k), k)
    driver, chip, _ = pn5180_rig(tags, seed=k)
    driver.init()
    got = driver.inventory()
    assert sorted(got) == sorted(t.uid for t in tags)
    assert all(uid[:2] == b"\xe0\x04" for uid in got)  # most significant byte first
    assert chip.violations == 0  # BUSY was respected before every frame


@pytest.mark.parametrize("seed", range(25))
def test_inventory_across_seeds(seed):
    rng = rng_for(seed)
    tags = random_15693_tags(rng, rng.randint(1, 16))
    driver, _, _ = pn5180_rig(tags, seed=seed, busy_reads=rng.randint(0, 3))
    driver.init()
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)


def test_deep_collisions_extend_the_mask_recursively():
    # Same low 12 bits: slots collide under masks of 0, 4 and 8 bits; 16 bits split them.
    base = 0xE004_0000_0000_0ABC
    tags = [Tag15693((base | (i << 12)).to_bytes(8, "big")) for i in range(3)]
    driver, chip, _ = pn5180_rig(tags)
    driver.init()
    assert sorted(driver.inventory()) == sorted(t.uid for t in tags)
    assert chip.exchanges >= 16 * 4


def test_empty_field_costs_one_round_of_timeouts():
    driver, chip, clock = pn5180_rig([])
    driver.init()
    before = clock.us
    assert driver.inventory() == []
    assert chip.exchanges == 16
    assert clock.us - before >= 16 * pn5180.SLOT_WINDOW_COUNTS / 6.78


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


def test_busy_stuck_high_is_a_timeout_fault():
    driver, chip, _ = pn5180_rig()
    chip.busy_reads = 10**9
    chip._busy_left = 10**9
    with pytest.raises(pn5180.ReaderFault) as err:
        driver.init()
    assert err.value.code == 3


def test_a_reader_unplugged_mid_game_is_a_fault_not_an_empty_seat():
    driver, chip, _ = pn5180_rig([Tag15693(bytes.fromhex("E004015012345678"))])
    driver.init()
    assert len(driver.inventory()) == 1
    chip.reply = b"\xff" * 64
    chip.xfer = lambda mosi: 0xFF  # MISO floats high: nobody drives it
    with pytest.raises(pn5180.ReaderFault) as err:
        driver.inventory()
    assert err.value.code == 1
