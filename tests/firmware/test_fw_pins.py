"""hardware/pins.toml is the single pin map: the shipped firmware config must agree with it."""

import json
import tomllib

import cbconfig
from fw_paths import FIRMWARE, ROOT

PINS = tomllib.loads((ROOT / "hardware" / "pins.toml").read_text())
CONFIG = cbconfig.load((FIRMWARE / "config.json").read_text())
INPUT_ONLY = {34, 35, 36, 37, 38, 39}
FLASH = {6, 7, 8, 9, 10, 11}


def test_node_and_spi_bus_agree():
    assert PINS["node"]["node_id"] == CONFIG["node_id"]
    for key in ("id", "sck", "mosi", "miso"):
        assert PINS["spi"][key] == CONFIG["spi"][key], key


def test_every_reader_agrees_pin_for_pin():
    assert set(PINS["readers"]) == set(CONFIG["readers"])
    for name, pins in PINS["readers"].items():
        reader = CONFIG["readers"][name]
        for key in ("type", "cs", "busy", "rst"):
            assert pins.get(key) == reader[key], name + "." + key


def test_seats_agree():
    from_pins = {pins["seat"]: name for name, pins in PINS["readers"].items()}
    from_config = {s["seat"]: s["reader"] for s in CONFIG["seats"]}
    assert from_pins == from_config


def test_pins_fit_the_esp32():
    outputs = [CONFIG["spi"]["sck"], CONFIG["spi"]["mosi"]]
    outputs += [r["cs"] for r in CONFIG["readers"].values()]
    outputs += [r["rst"] for r in CONFIG["readers"].values() if r["rst"] is not None]
    inputs = [CONFIG["spi"]["miso"]] + [r["busy"] for r in CONFIG["readers"].values()]
    assert not INPUT_ONLY & set(outputs), "an output on an input-only pin"
    assert not FLASH & set(outputs + inputs), "a pin of the flash"
    chip_selects = [r["cs"] for r in CONFIG["readers"].values()]
    assert len(set(chip_selects)) == len(chip_selects)


def test_the_shipped_config_is_what_the_mosquitto_acl_expects():
    # hardware/mosquitto/README.md: node n1 reads seats 0-5 and logs in as its node id.
    assert CONFIG["mqtt"]["user"] == CONFIG["node_id"] == "n1"
    assert sorted(s["seat"] for s in CONFIG["seats"]) == [0, 1, 2, 3, 4, 5]
    assert json.loads((FIRMWARE / "config.json").read_text())["transport"] == "mqtt"
