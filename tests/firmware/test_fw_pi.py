"""The same drivers on the Pi: spidev and gpiod adapters (fakes of both modules route to the
chip models), and paho-mqtt behind the umqtt.simple interface against a real mosquitto."""

import json
import socket
import subprocess
import threading
import time
import types

import cbconfig
import cbnode
import paho.mqtt.client as mqtt
import pi_gpio
import pi_node
import pytest
import report
from fw_paths import FIRMWARE
from fw_sim_bus import SimClock, SimPin, SimSPI
from fw_sim_mfrc522 import ChipMFRC522, Field, Tag14443A
from fw_sim_pn5180 import ChipPN5180, Tag15693
from polling import wait_for

# `gpiodetect` on real boards (raspberrypi/linux PR #6144, WiringPi issue #280).
PI5_KERNEL_6_6_45 = {  # and later: the header's pinctrl-rp1 is gpiochip0, the SoC's from 10
    "/dev/gpiochip0": "pinctrl-rp1",
    "/dev/gpiochip10": "gpio-brcmstb@107d508500",
    "/dev/gpiochip11": "gpio-brcmstb@107d508520",
    "/dev/gpiochip12": "gpio-brcmstb@107d517c00",
    "/dev/gpiochip13": "gpio-brcmstb@107d517c20",
}
PI5_BEFORE_6_6_45 = {
    "/dev/gpiochip0": "gpio-brcmstb@107d508500",
    "/dev/gpiochip1": "gpio-brcmstb@107d508520",
    "/dev/gpiochip2": "gpio-brcmstb@107d517c00",
    "/dev/gpiochip3": "gpio-brcmstb@107d517c20",
    "/dev/gpiochip4": "pinctrl-rp1",
}
PI4 = {"/dev/gpiochip0": "pinctrl-bcm2711", "/dev/gpiochip1": "raspberrypi-exp-gpio"}
PI3 = {"/dev/gpiochip0": "pinctrl-bcm2835", "/dev/gpiochip1": "raspberrypi-exp-gpio"}


def _fake_pi(spi, lines, chips=PI5_KERNEL_6_6_45):
    """Fake ``spidev`` and ``gpiod`` modules; ``lines`` maps offsets to SimPins, ``chips`` the
    board's GPIO chips (path -> label); ``gpiod.requested`` lists the chips lines were asked of."""

    class SpiDev:
        def open(self, bus, device):
            self.bus = (bus, device)

        def xfer2(self, data):
            out = bytearray(len(data))
            spi.write_readinto(bytes(data), out)
            return list(out)

        def close(self):
            self.bus = None

    spidev = types.ModuleType("spidev")
    spidev.SpiDev = SpiDev

    class Value:
        ACTIVE, INACTIVE = "active", "inactive"

    class Direction:
        INPUT, OUTPUT = "input", "output"

    class LineSettings:
        def __init__(self, direction, output_value=None):
            self.direction, self.output_value = direction, output_value

    class Request:
        def __init__(self, config):
            self.config = config
            for offset, settings in config.items():
                lines.setdefault(offset, SimPin(f"gpio{offset}"))
                if settings.output_value is not None:
                    lines[offset](settings.output_value == Value.ACTIVE)

        def set_value(self, offset, value):
            assert self.config[offset].direction == Direction.OUTPUT
            lines[offset](value == Value.ACTIVE)

        def get_value(self, offset):
            return Value.ACTIVE if lines[offset]() else Value.INACTIVE

        def release(self):
            self.config = {}

    class Chip:
        def __init__(self, path):
            if path not in chips:
                raise FileNotFoundError(2, "No such file or directory", path)
            if chips[path] is None:
                raise PermissionError(13, "Permission denied", path)
            self.path = path

        def get_info(self):
            return types.SimpleNamespace(label=chips[self.path])

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.path = None

    def request_lines(chip, consumer, config):
        if chips.get(chip) is None:
            raise FileNotFoundError(2, "No such file or directory", chip)
        gpiod.requested.append(chip)
        return Request(config)

    gpiod = types.ModuleType("gpiod")
    gpiod.line = types.SimpleNamespace(Value=Value, Direction=Direction)
    gpiod.LineSettings = LineSettings
    gpiod.Chip = Chip
    gpiod.request_lines = request_lines
    gpiod.requested = []
    return spidev, gpiod


def test_pi_adapters_run_the_drivers_on_the_models():
    cfg = cbconfig.check(
        {
            "node_id": "pi",
            "spi": {"id": 0, "sck": 11, "mosi": 10, "miso": 9},
            "readers": {
                "rc": {"type": "mfrc522", "cs": 8},
                "pn": {"type": "pn5180", "cs": 7, "busy": 24, "rst": 25},
            },
            "seats": [{"seat": 0, "reader": "rc"}, {"seat": 1, "reader": "pn"}],
        }
    )
    clock = SimClock()
    spi = SimSPI(clock)
    ring = Tag14443A(bytes.fromhex("04A1B2C3D4E5F6"))
    token = Tag15693(bytes.fromhex("E004015012345678"))
    rc = ChipMFRC522([Field([ring])], clock)
    pn = ChipPN5180(Field([token]), clock)
    lines = {8: spi.attach(rc, "ce-rc"), 7: spi.attach(pn, "ce-pn")}
    lines[24] = SimPin("busy", reader=pn.busy)
    spidev, gpiod = _fake_pi(spi, lines)
    scheduler, _ = pi_node.build(cfg, spidev_module=spidev, gpiod_module=gpiod, clock=clock)
    events = scheduler.poll() + scheduler.poll()
    snaps = {e[1]: e[4] for e in events if e[0] == "snapshot"}
    assert snaps == {0: [ring.uid], 1: [token.uid]}
    assert lines[25].writes >= 2  # reset pulsed


@pytest.mark.parametrize(
    ("board", "header"),
    [
        (PI5_KERNEL_6_6_45, "/dev/gpiochip0"),
        (PI5_BEFORE_6_6_45, "/dev/gpiochip4"),
        (PI4, "/dev/gpiochip0"),
        (PI3, "/dev/gpiochip0"),
    ],
    ids=["pi5-6.6.45", "pi5-before-6.6.45", "pi4", "pi3"],
)
def test_the_header_chip_is_found_by_its_label(board, header, monkeypatch):
    _, gpiod = _fake_pi(SimSPI(SimClock()), {}, chips=board)
    assert pi_gpio.header_chip(gpiod, paths=list(board)) == header
    monkeypatch.setattr(pi_gpio, "chip_paths", lambda: list(board))  # the board's /dev
    pin = pi_gpio.GpiodPin(8, gpiod_module=gpiod)  # no chip given: the header's
    assert (pin.chip, gpiod.requested) == (header, [header])


def test_pi_node_asks_its_lines_of_the_header_chip(monkeypatch):
    cfg = cbconfig.check(
        {
            "node_id": "pi",
            "spi": {"id": 0, "sck": 11, "mosi": 10, "miso": 9},
            "readers": {"rc": {"type": "mfrc522", "cs": 8, "rst": 25}},
            "seats": [{"seat": 0, "reader": "rc"}],
        }
    )
    spidev, gpiod = _fake_pi(SimSPI(SimClock()), {}, chips=PI5_BEFORE_6_6_45)
    monkeypatch.setattr(pi_gpio, "chip_paths", lambda: list(PI5_BEFORE_6_6_45))
    pi_node.build(cfg, spidev_module=spidev, gpiod_module=gpiod, clock=SimClock())
    assert gpiod.requested == ["/dev/gpiochip4"] * 2  # chip select and reset, on the header


def test_without_a_header_label_the_first_chip_is_used():
    # A chip this user may not open is skipped; a board with no Pi header label gets gpiochip0.
    board = {"/dev/gpiochip0": "INT34C5:00", "/dev/gpiochip1": None}
    _, gpiod = _fake_pi(SimSPI(SimClock()), {}, chips=board)
    assert pi_gpio.header_chip(gpiod, paths=list(board)) == "/dev/gpiochip0"
    locked = {"/dev/gpiochip0": None, "/dev/gpiochip4": "pinctrl-rp1"}
    _, gpiod = _fake_pi(SimSPI(SimClock()), {}, chips=locked)
    assert pi_gpio.header_chip(gpiod, paths=list(locked)) == "/dev/gpiochip4"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def broker(tmp_path):
    port = _free_port()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    proc = subprocess.Popen(
        ["/usr/sbin/mosquitto", "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _watch(port):
    got = {}
    event = threading.Event()
    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="watcher")

    def on_message(client, userdata, msg):
        got[msg.topic] = msg.payload.decode()
        event.set()

    sub.on_message = on_message
    sub.connect("127.0.0.1", port)
    sub.subscribe("cupbearer/v1/#", qos=1)
    sub.loop_start()
    return sub, got


def test_paho_behind_the_umqtt_interface_on_a_real_broker(broker):
    sub, got = _watch(broker)
    clients = []

    def factory():
        clients.append(pi_node.PahoAsUmqtt("pi", "127.0.0.1", broker, "pi", "secret", 5))
        return clients[-1]

    clock = SimClock()
    rep = report.MqttReporter(factory, "pi", cbnode.FW_VERSION, [0], clock)
    try:
        assert rep.maintain()
        rep.snapshot(0, 3, 1234, [bytes.fromhex("E004015012345678")])
        assert wait_for(lambda: "cupbearer/v1/seat/0/snapshot" in got, seconds=10, step=0.02)
        assert got["cupbearer/v1/node/pi/status"] == "online"
        assert json.loads(got["cupbearer/v1/node/pi/hello"])["fw"] == cbnode.FW_VERSION
        assert json.loads(got["cupbearer/v1/seat/0/snapshot"])["tags"] == ["E004015012345678"]
        clients[0].close()  # the node vanishes without a DISCONNECT: the Last Will fires
        assert wait_for(
            lambda: got.get("cupbearer/v1/node/pi/status") == "offline", seconds=10, step=0.02
        )
    finally:
        for c in clients:
            c.client.loop_stop()
        sub.loop_stop()
        sub.disconnect()


def test_the_pi_example_config_is_valid():
    cfg = cbconfig.load((FIRMWARE / "pi" / "config.pi.json").read_text())
    assert cfg["spi"]["id"] == 0 and cfg["mqtt"]["broker"] == "127.0.0.1"


def test_pi_node_main_names_a_config_error(tmp_path, capsys):
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps({"node_id": "pi"}))
    assert pi_node.main(["--config", str(bad)]) == 2
    assert "spi: missing" in capsys.readouterr().err
