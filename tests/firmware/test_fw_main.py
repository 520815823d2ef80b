"""firmware/main.py, the only file that builds machine.SPI/Pin, booted on CPython.

Fake ``machine``, ``network``, ``time`` and ``umqtt.simple`` modules stand in for MicroPython's;
the SPI bus they hand out is the simulated one with six PN5180 models on the shipped pin map.
The watchdog stops the loop after a number of feeds.
"""

import json
import runpy
import sys
import types

import pytest
from fw_paths import FIRMWARE
from fw_sim_bus import SimClock, SimPin, SimSPI
from fw_sim_mfrc522 import Field
from fw_sim_pn5180 import ChipPN5180, Tag15693


class StopNode(Exception):
    """Raised by the fake watchdog to end the endless loop."""


def _fakes(cfg, clock, steps):
    spi = SimSPI(clock)
    pins = {}
    chips = {}
    for name, r in cfg["readers"].items():
        chip = ChipPN5180(Field(), clock)
        chips[name] = chip
        pins[r["cs"]] = spi.attach(chip, "cs-" + name)
        pins[r["busy"]] = SimPin("busy-" + name, reader=chip.busy)
        pins[r["rst"]] = SimPin("rst-" + name, 1, on_change=chip.reset_line)
    made = {"spi": [], "wdt": [], "pins": [], "wlan": [], "mqtt": []}

    class Pin:
        OUT, IN = 1, 0

        def __new__(cls, number, mode=None, value=None):
            pin = pins.setdefault(number, SimPin(f"gpio{number}"))
            if value is not None:
                pin(value)
            made["pins"].append((number, mode))
            return pin

    def spi_factory(bus_id, **kw):
        made["spi"].append((bus_id, kw))
        return spi

    class WDT:
        def __init__(self, timeout):
            self.timeout = timeout
            self.feeds = 0
            made["wdt"].append(self)

        def feed(self):
            self.feeds += 1
            if self.feeds >= steps:
                raise StopNode

    machine = types.ModuleType("machine")
    machine.Pin, machine.SPI, machine.WDT = Pin, spi_factory, WDT

    class WLAN:
        def __init__(self, mode):
            self.up = False
            made["wlan"].append(self)

        def active(self, on):
            self.on = on

        def isconnected(self):
            return self.up

        def connect(self, ssid, password):
            self.ssid = ssid
            self.up = True

    network = types.ModuleType("network")
    network.WLAN, network.STA_IF = WLAN, 0

    class MQTTClient:
        def __init__(self, client_id, server, port=0, user=None, password=None, keepalive=0):
            self.args = (client_id, server, port, user, password, keepalive)
            self.published = []
            made["mqtt"].append(self)

        def set_last_will(self, topic, msg, retain=False, qos=0):
            self.will = (topic, msg, retain, qos)

        def connect(self, clean_session=True):
            return 0

        def publish(self, topic, msg, retain=False, qos=0):
            self.published.append((topic, msg, retain, qos))

    umqtt = types.ModuleType("umqtt")
    simple = types.ModuleType("umqtt.simple")
    simple.MQTTClient = MQTTClient
    umqtt.simple = simple

    fake_time = types.ModuleType("time")
    fake_time.ticks_ms = clock.ticks_ms
    fake_time.ticks_diff = clock.ticks_diff
    fake_time.ticks_add = clock.ticks_add
    fake_time.sleep_ms = clock.sleep_ms
    fake_time.ticks_us = clock.ticks_us
    fake_time.sleep_us = clock.sleep_us
    modules = {
        "machine": machine,
        "network": network,
        "umqtt": umqtt,
        "umqtt.simple": simple,
        "time": fake_time,
    }
    return modules, made, chips, pins


def test_main_boots_the_shipped_config_and_publishes(monkeypatch, tmp_path):
    cfg = json.loads((FIRMWARE / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    clock = SimClock()
    modules, made, chips, pins = _fakes(cfg, clock, steps=40)
    chips["r3"].field.tags.append(Tag15693(bytes.fromhex("E004015012345678")))
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StopNode):
        runpy.run_path(str(FIRMWARE / "main.py"), run_name="__main__")
    assert made["spi"][0][0] == 2 and made["spi"][0][1]["baudrate"] == 4000000
    assert made["wdt"][0].timeout == 30000
    assert made["wlan"][0].ssid == "cupbearer-table"
    client = made["mqtt"][0]
    assert client.args[:4] == ("n1", "192.168.4.1", 1883, "n1")
    assert client.will == ("cupbearer/v1/node/n1/status", "offline", True, 1)
    topics = {t: m for t, m, _, _ in client.published}
    assert json.loads(topics["cupbearer/v1/node/n1/hello"])["seats"] == [0, 1, 2, 3, 4, 5]
    seat3 = json.loads(topics["cupbearer/v1/seat/3/snapshot"])
    assert seat3["tags"] == ["E004015012345678"]
    assert all(chip.field_on_us() > 0 for chip in chips.values())  # on for each inventory
    assert all(chip.violations == 0 for chip in chips.values())
    for r in cfg["readers"].values():
        assert pins[r["rst"]].writes >= 2  # each reader's own reset line, pulsed by its driver
