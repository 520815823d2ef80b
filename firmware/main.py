"""Reader node entry point (MicroPython on ESP32 or Pico W): the ONLY file that touches machine.

It reads ``config.json``, builds the SPI bus and pins, hands them to the drivers, joins Wi-Fi
when the transport is MQTT, and runs the portable loop in ``lib/cbnode.py`` under a hardware
watchdog. Everything below this file is tested on CPython against chip models.
"""

import sys
import time

import cbconfig
import cbnode
import machine
import report
import seats
from mfrc522 import MFRC522
from pn5180 import PN5180


class Clock:
    """MicroPython's wrapping tick arithmetic, as the loop and the drivers' timeouts expect it."""

    ticks_ms = staticmethod(time.ticks_ms)
    ticks_us = staticmethod(time.ticks_us)
    ticks_diff = staticmethod(time.ticks_diff)
    ticks_add = staticmethod(time.ticks_add)
    sleep_ms = staticmethod(time.sleep_ms)
    sleep_us = staticmethod(time.sleep_us)


def pulse_resets(cfg):
    """Hard-reset the MFRC522 readers once at boot; a PN5180's driver pulses its own pin."""
    pins = []
    for reader in cfg["readers"].values():
        if reader["type"] == "pn5180":
            continue
        if reader["rst"] is not None and reader["rst"] not in pins:
            pins.append(reader["rst"])
    for number in pins:
        pin = machine.Pin(number, machine.Pin.OUT, value=0)
        time.sleep_ms(10)
        pin(1)
    if pins:
        time.sleep_ms(50)


def build_readers(cfg, spi, clock):
    """One driver per configured reader, each with its own chip select (and reset pin)."""
    readers = {}
    for name, r in cfg["readers"].items():
        cs = machine.Pin(r["cs"], machine.Pin.OUT, value=1)
        if r["type"] == "pn5180":
            busy = machine.Pin(r["busy"], machine.Pin.IN)
            rst = None
            if r["rst"] is not None:
                rst = machine.Pin(r["rst"], machine.Pin.OUT, value=1)
            readers[name] = PN5180(spi, cs, busy, rst=rst, clock=clock)
        else:
            readers[name] = MFRC522(spi, cs)
    return readers


def join_wifi(wifi, wdt):
    """Join the table's Wi-Fi; the watchdog is fed while waiting, for at most 30 s."""
    import network

    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    if not wlan.isconnected():
        wlan.connect(wifi["ssid"], wifi["password"])
        for _ in range(300):
            if wlan.isconnected():
                break
            wdt.feed()
            time.sleep_ms(100)
    return wlan


def main():
    """Boot the node and loop forever."""
    with open("config.json") as f:
        cfg = cbconfig.load(f.read())
    wdt = machine.WDT(timeout=cfg["watchdog_ms"])
    s = cfg["spi"]
    spi = machine.SPI(
        s["id"],
        baudrate=s["baudrate"],
        polarity=0,
        phase=0,
        sck=machine.Pin(s["sck"]),
        mosi=machine.Pin(s["mosi"]),
        miso=machine.Pin(s["miso"]),
    )
    pulse_resets(cfg)
    clock = Clock()
    readers = build_readers(cfg, spi, clock)
    seat_list = [seats.Seat(c["seat"], c["reader"]) for c in cfg["seats"]]
    scheduler = seats.Scheduler(readers, seat_list, clock, rate_hz=cfg["rate_hz"])
    indices = [c["seat"] for c in cfg["seats"]]
    if cfg["transport"] == "mqtt":
        from umqtt.simple import MQTTClient

        if cfg["wifi"] is not None:
            join_wifi(cfg["wifi"], wdt)
        m = cfg["mqtt"]

        def factory():
            return MQTTClient(
                cfg["node_id"],
                m["broker"],
                port=m["port"],
                user=m["user"],
                password=m["password"],
                keepalive=m["keepalive"],
            )

        reporter = report.MqttReporter(factory, cfg["node_id"], cbnode.FW_VERSION, indices, clock)
    else:
        reporter = report.SerialReporter(sys.stdout.buffer)
    node = cbnode.Node(cfg["node_id"], scheduler, reporter, clock, wdt, cfg["poll_ms"])
    node.run()


main()
