"""Unmodified MFRC522 libraries from PyPI read tags from the chip model.

``mfrc522`` (pimylifeup's MFRC522-python with Simon Monk's SimpleMFRC522, the library most Pi
tutorials use) and ``pi-rc522`` (ondryaso's, which follows a 7-byte UID into cascade level 2)
talk to ``spidev`` and ``RPi.GPIO``. Fake modules of those names, put into
``sys.modules`` only for this test, route its SPI transfers to the chip model. If the model
got the SPI address byte, the FIFO, BitFramingReg, the IRQ bits or the anticollision answer
wrong, this library (written against real chips) would not read the UID.
"""

import importlib.metadata
import importlib.util
import sys
import types

import fw_paths  # noqa: F401
import pytest
from fw_sim_bus import SimSPI
from fw_sim_mfrc522 import ChipMFRC522, Field, Tag14443A


def _fake_hardware(chip):
    # The bus runs on the chip's modelled clock, at the speed the library asks spidev for
    # (both libraries set max_speed_hz = 1 MHz): the time between its register writes is what
    # a SoftReset or an answer is measured against. spidev's own per-transfer overhead on a
    # real Pi (tens of microseconds) is left out, which only makes the library look faster.
    bus = SimSPI(chip.clock)
    cs = bus.attach(chip)

    class SpiDev:
        def __init__(self):
            self.max_speed_hz = 0
            self.opened = None

        def open(self, bus_no, device):
            self.opened = (bus_no, device)

        def xfer2(self, data):
            if self.max_speed_hz:
                bus.baudrate = self.max_speed_hz
            out = bytearray(len(data))
            cs(0)
            bus.write_readinto(bytes(data), out)
            cs(1)
            return list(out)

        def close(self):
            self.opened = None

    spidev = types.ModuleType("spidev")
    spidev.SpiDev = SpiDev
    gpio = types.ModuleType("RPi.GPIO")
    gpio.BOARD, gpio.BCM, gpio.OUT, gpio.IN = 10, 11, 0, 1
    gpio.PUD_UP, gpio.FALLING = 22, 32
    gpio.pins = {}
    gpio.getmode = lambda: None
    gpio.setmode = lambda mode: None
    gpio.setup = lambda pin, mode, **kw: gpio.pins.setdefault(pin, 0)
    gpio.output = lambda pin, value: gpio.pins.__setitem__(pin, value)
    gpio.cleanup = lambda: gpio.pins.clear()
    rpi = types.ModuleType("RPi")
    rpi.GPIO = gpio
    return {"spidev": spidev, "RPi": rpi, "RPi.GPIO": gpio}


def _load_pypi(monkeypatch, chip, dist, package, submodules):
    for name, module in _fake_hardware(chip).items():
        monkeypatch.setitem(sys.modules, name, module)
    # Loaded from its installed files under a private name: firmware/lib has its own mfrc522.
    init = importlib.metadata.distribution(dist).locate_file(package + "/__init__.py")
    private = "pypi_" + package
    spec = importlib.util.spec_from_file_location(
        private, init, submodule_search_locations=[str(init.parent)]
    )
    module = importlib.util.module_from_spec(spec)
    # Registered through monkeypatch as absent, so the package and its submodules are
    # forgotten after the test and the next test's fakes are bound afresh.
    for name in submodules:
        monkeypatch.delitem(sys.modules, private + "." + name, raising=False)
    monkeypatch.setitem(sys.modules, private, module)
    spec.loader.exec_module(module)
    return module


def _load_pypi_mfrc522(monkeypatch, chip):
    return _load_pypi(monkeypatch, chip, "mfrc522", "mfrc522", ("MFRC522", "SimpleMFRC522"))


@pytest.mark.parametrize(
    "uid", [b"\x12\x34\x56\x78", b"\xde\xad\xbe\xef", b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"]
)
def test_simple_mfrc522_reads_the_uid_from_the_model(monkeypatch, uid):
    tag = Tag14443A(uid)
    chip = ChipMFRC522([Field([tag])])
    pypi = _load_pypi_mfrc522(monkeypatch, chip)
    reader = pypi.SimpleMFRC522()
    number = reader.read_id_no_block()
    # SimpleMFRC522 packs the five cascade-level-1 bytes (four UID bytes and BCC) into an int.
    cl1 = tag.cl[0]
    assert number == int.from_bytes(cl1, "big")
    assert tag.state == "READY"  # it ran REQA and ANTICOLL, as its code says
    if len(uid) == 4:
        assert cl1[:4] == uid


def test_the_pypi_library_selects_the_tag_with_the_model_crc(monkeypatch):
    tag = Tag14443A(b"\x11\x22\x33\x44", sak=0x08)
    chip = ChipMFRC522([Field([tag])])
    pypi = _load_pypi_mfrc522(monkeypatch, chip)
    reader = pypi.MFRC522()
    status, _ = reader.MFRC522_Request(reader.PICC_REQIDL)
    assert status == reader.MI_OK
    status, uid = reader.MFRC522_Anticoll()
    assert status == reader.MI_OK
    assert bytes(uid[:4]) == tag.uid
    # SELECT carries a CRC_A from the model's coprocessor; the tag checks it and answers SAK.
    assert reader.MFRC522_SelectTag(uid) == 0x08
    assert tag.state == "ACTIVE"


def test_the_pypi_library_sees_no_tag_in_an_empty_field(monkeypatch):
    chip = ChipMFRC522([Field([])])
    pypi = _load_pypi_mfrc522(monkeypatch, chip)
    assert pypi.SimpleMFRC522().read_id_no_block() is None


@pytest.mark.parametrize(
    "uid", [b"\x12\x34\x56\x78", b"\x04\xa1\xb2\xc3\xd4\xe5\xf6", b"\x04\x11\x22\x33\x44\x55\x66"]
)
def test_pi_rc522_reads_4_and_7_byte_uids_across_cascade_levels(monkeypatch, uid):
    tag = Tag14443A(uid)
    chip = ChipMFRC522([Field([tag])])
    pirc522 = _load_pypi(monkeypatch, chip, "pi-rc522", "pirc522", ("rfid", "util"))
    reader = pirc522.RFID(pin_irq=None)
    # For a 7-byte UID it SELECTs cascade level 1 (CRC_A from the model's coprocessor) and runs
    # ANTICOLLISION at level 2: the model's cascade tag, BCC and SAK must all be right.
    assert bytes(reader.read_id()) == uid
    assert tag.level == (1 if len(uid) == 7 else 0)


def test_pi_rc522_finds_nothing_in_an_empty_field(monkeypatch):
    chip = ChipMFRC522([Field([])])
    pirc522 = _load_pypi(monkeypatch, chip, "pi-rc522", "pirc522", ("rfid", "util"))
    assert pirc522.RFID(pin_irq=None).read_id() is None


@pytest.mark.parametrize(
    ("dist", "package", "submodules", "make"),
    [
        ("mfrc522", "mfrc522", ("MFRC522", "SimpleMFRC522"), lambda m: m.MFRC522()),
        ("pi-rc522", "pirc522", ("rfid", "util"), lambda m: m.RFID(pin_irq=None)),
    ],
)
def test_both_libraries_write_the_timer_before_the_soft_reset_is_over(
    monkeypatch, dist, package, submodules, make
):
    # Found by the time-faithful model, not a model fault: both write TModeReg and
    # TPrescalerReg straight after SoftReset, without waiting for PowerDown to clear. At their
    # 1 MHz (16 us a register write) the first two writes fall inside the reset's 37.7 us
    # (datasheet 8.8.2) and are lost, so their timer never runs (TAuto stays 0). They still
    # read tags because they wait for RxIRq/IdleIRq or 2000 polls, never for TimerIRq.
    chip = ChipMFRC522([Field([Tag14443A(b"\x12\x34\x56\x78")])])
    make(_load_pypi(monkeypatch, chip, dist, package, submodules))
    assert chip.lost_writes == 2
    assert chip.regs[0x2A] == 0x00  # TModeReg kept its reset value, not their 0x8D
    assert chip.regs[0x2D] == 30  # TReloadReg, written after the reset, did arrive
