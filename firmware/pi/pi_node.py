"""The reader node's loop on the Raspberry Pi itself, for a table with no microcontroller.

The same drivers and loop as on an ESP32 (``firmware/lib``), with spidev and gpiod adapters in
place of ``machine``, and paho-mqtt behind the umqtt.simple interface publishing to the Pi's own
mosquitto. Run it with the repository's venv (paho is a dependency; install ``spidev`` and
``gpiod`` on the Pi)::

    .venv/bin/python firmware/pi/pi_node.py --config firmware/pi/config.pi.json

The config is the board's ``config.json`` format; ``spi.id`` is the spidev bus, pins are BCM
line offsets of the header's GPIO chip, found by its label (``pi_gpio.header_chip``: it is
gpiochip0 or, on a Pi 5 before kernel 6.6.45, gpiochip4); ``--chip`` names another.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))

import cbconfig  # noqa: E402  (firmware/lib, as on the board)
import cbnode  # noqa: E402
import report  # noqa: E402
import seats  # noqa: E402
from mfrc522 import MFRC522  # noqa: E402
from pi_gpio import GpiodPin, header_chip  # noqa: E402
from pi_spi import SpidevBus  # noqa: E402
from pn5180 import PN5180  # noqa: E402


class MonotonicClock:
    """``time.ticks_*`` for CPython: milliseconds from a monotonic clock (no wrap)."""

    def ticks_ms(self):
        """Milliseconds."""
        return int(time.monotonic() * 1000)

    def ticks_diff(self, a, b):
        """a - b."""
        return a - b

    def ticks_add(self, a, b):
        """a + b."""
        return a + b

    def sleep_ms(self, ms):
        """Sleep."""
        time.sleep(ms / 1000)

    def ticks_us(self):
        """Microseconds (the drivers' timeouts)."""
        return int(time.monotonic() * 1_000_000)

    def sleep_us(self, us):
        """Sleep ``us`` microseconds (the OS may oversleep; the drivers only need "at least")."""
        time.sleep(us / 1_000_000)


class PahoAsUmqtt:
    """paho-mqtt 2.x behind the calls the MqttReporter makes of umqtt.simple."""

    def __init__(self, client_id, server, port, user, password, keepalive, paho_module=None):
        if paho_module is None:
            import paho.mqtt.client as paho_module
        self.server, self.port, self.keepalive = server, port, keepalive
        self.client = paho_module.Client(
            paho_module.CallbackAPIVersion.VERSION2, client_id=client_id
        )
        self.client.username_pw_set(user, password)
        self.sock = self

    def set_last_will(self, topic, msg, retain=False, qos=0):
        """Last Will, before connect."""
        self.client.will_set(topic, msg, qos=qos, retain=retain)

    def connect(self):
        """Connect and start paho's network thread; OSError when the broker is away."""
        self.client.connect(self.server, self.port, self.keepalive)
        self.client.loop_start()

    def publish(self, topic, msg, retain=False, qos=0):
        """Publish; OSError when paho reports the connection lost."""
        info = self.client.publish(topic, msg, qos=qos, retain=retain)
        if info.rc != 0:
            raise OSError(info.rc, "paho publish failed")

    def close(self):
        """Drop the connection without a DISCONNECT (the Last Will then fires)."""
        self.client.loop_stop()
        sock = self.client.socket()
        if sock is not None:
            sock.close()

    def disconnect(self):
        """Clean disconnect (no Last Will)."""
        self.client.disconnect()
        self.client.loop_stop()


def build(cfg, chip=None, spidev_module=None, gpiod_module=None, clock=None):
    """The Node for ``cfg`` with Pi adapters (modules injectable for tests)."""
    if chip is None:
        chip = header_chip(gpiod_module)
    spi = SpidevBus(cfg["spi"]["id"], 0, cfg["spi"]["baudrate"], spidev_module)
    pins = {}

    def pin(offset, output=True, value=1):
        if offset not in pins:
            pins[offset] = GpiodPin(offset, output, value, chip, gpiod_module)
        return pins[offset]

    resets = []  # MFRC522 reset lines; a PN5180's driver pulses its own in init()
    for r in cfg["readers"].values():
        if r["type"] != "pn5180" and r["rst"] is not None and r["rst"] not in resets:
            resets.append(r["rst"])
    for offset in resets:  # pulse each line once
        reset = pin(offset)
        reset(0)
        time.sleep(0.001)
        reset(1)
    if resets:
        time.sleep(0.05)
    clock = clock or MonotonicClock()
    readers = {}
    for name, r in cfg["readers"].items():
        if r["type"] == "pn5180":
            rst = pin(r["rst"]) if r["rst"] is not None else None
            busy = pin(r["busy"], output=False)
            readers[name] = PN5180(spi, pin(r["cs"]), busy, rst=rst, clock=clock)
        else:
            readers[name] = MFRC522(spi, pin(r["cs"]), clock=clock)
    seat_list = [seats.Seat(c["seat"], c["reader"]) for c in cfg["seats"]]
    scheduler = seats.Scheduler(readers, seat_list, clock, rate_hz=cfg["rate_hz"])
    return scheduler, clock


def main(argv=None):
    """Entry point: ``pi_node.py --config FILE [--chip /dev/gpiochipN] [--serial]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True)
    parser.add_argument("--chip", default=None, help="default: the header's, by its label")
    args = parser.parse_args(argv)
    with open(args.config) as f:
        try:
            cfg = cbconfig.load(f.read())
        except cbconfig.ConfigError as err:
            print("config error: %s" % err, file=sys.stderr)
            return 2
    scheduler, clock = build(cfg, args.chip)
    indices = [c["seat"] for c in cfg["seats"]]
    if cfg["transport"] == "mqtt":
        m = cfg["mqtt"]

        def factory():
            return PahoAsUmqtt(
                cfg["node_id"], m["broker"], m["port"], m["user"], m["password"], m["keepalive"]
            )

        reporter = report.MqttReporter(factory, cfg["node_id"], cbnode.FW_VERSION, indices, clock)
    else:
        reporter = report.SerialReporter(sys.stdout.buffer)
    node = cbnode.Node(cfg["node_id"], scheduler, reporter, clock, None, cfg["poll_ms"])
    node.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
