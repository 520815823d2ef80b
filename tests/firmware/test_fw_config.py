"""config.json is checked on the board before anything is built; errors name the field."""

import copy
import json

import cbconfig
import pytest
from fw_paths import FIRMWARE

GOOD = json.loads((FIRMWARE / "config.json").read_text())


def _with(change):
    cfg = copy.deepcopy(GOOD)
    change(cfg)
    return cfg


def test_the_shipped_config_loads_with_defaults():
    cfg = cbconfig.load((FIRMWARE / "config.json").read_text())
    assert cfg["readers"]["r0"]["type"] == "pn5180"
    assert "mux" not in cfg and "antenna" not in cfg["seats"][0]
    assert cfg["rate_hz"] == 10 and cfg["poll_ms"] == 10


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda c: c.update(colour="red"), "colour"),
        (lambda c: c.pop("node_id"), "node_id"),
        (lambda c: c.update(node_id="n 1"), "node_id"),
        (lambda c: c.update(transport="carrier pigeon"), "transport"),
        (lambda c: c["spi"].pop("miso"), "spi.miso"),
        (lambda c: c["readers"]["r0"].update(type="rc522"), "readers.r0.type"),
        (lambda c: c["readers"]["r0"].pop("busy"), "readers.r0.busy"),
        (lambda c: c["readers"]["r1"].update(cs=5), "readers.r1.cs"),
        (lambda c: c["readers"]["r1"].update(cs=19), "readers.r1.cs"),
        (lambda c: c["readers"]["r0"].update(cs="5"), "readers.r0.cs"),
        # A PN5180's driver pulses its reset in init(): a shared line would reset the others.
        (lambda c: c["readers"]["r1"].update(rst=GOOD["readers"]["r0"]["rst"]), "readers.r1.rst"),
        (lambda c: c["readers"]["r1"].update(rst=5), "readers.r1.rst"),
        (lambda c: c["seats"][1].update(seat=0), "seats[1].seat"),
        (lambda c: c["seats"][1].update(reader="r9"), "seats[1].reader"),
        (lambda c: c["mqtt"].update(user="n2"), "mqtt.user"),
        (lambda c: c.pop("mqtt"), "mqtt"),
        (lambda c: c.update(rate_hz=0), "rate_hz"),
        (lambda c: c.update(rate_hz=10.5), "rate_hz"),
        (lambda c: c.update(rate_hz=51), "rate_hz"),
        (lambda c: c.update(seats=[]), "seats"),
    ],
)
def test_bad_values_name_their_field(change, field):
    with pytest.raises(cbconfig.ConfigError) as err:
        cbconfig.check(_with(change))
    assert err.value.field == field


def test_not_json_is_named():
    with pytest.raises(cbconfig.ConfigError) as err:
        cbconfig.load("{node_id: n1")
    assert err.value.field == "config.json"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda c: c.update(mux={"pins": [12, 13]}), "mux"),
        (lambda c: c.update(mux=None), "mux"),  # even the old shipped "mux": null
        (lambda c: c["seats"][1].update(antenna=1), "seats[1].antenna"),
    ],
)
def test_an_antenna_mux_config_is_refused_saying_why(change, field):
    # hardware/README.md, "Node topology": the ADG904 switch cannot carry a PN5180 transmitter,
    # so the variant was dropped; an old config must not boot a node that reads the wrong seat.
    with pytest.raises(cbconfig.ConfigError) as err:
        cbconfig.check(_with(change))
    assert err.value.field == field
    assert "antenna-mux variant was dropped" in str(err.value)
    assert "PN5180 transmitter" in str(err.value)


def test_serial_transport_needs_no_broker():
    cfg = cbconfig.check(_with(lambda c: (c.update(transport="serial"), c.pop("mqtt"))))
    assert cfg["mqtt"] is None


@pytest.mark.parametrize(
    ("key", "value"), [("debounce", {"appear": 1, "vanish": 3}), ("refresh_ms", 2000)]
)
def test_a_firmware_1_0_config_names_the_removed_key(key, value):
    # Firmware 1.1 sends every reading raw (docs/protocol.md): the node no longer debounces
    # nor refreshes, and an old config says so instead of booting with a silent change.
    with pytest.raises(cbconfig.ConfigError) as err:
        cbconfig.check(_with(lambda c: c.update({key: value})))
    assert err.value.field == key and "removed in firmware 1.1" in str(err.value)


def test_rate_defaults_to_ten_readings_a_second():
    cfg = cbconfig.check(_with(lambda c: c.pop("rate_hz")))
    assert cfg["rate_hz"] == 10
