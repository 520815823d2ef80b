"""``companion serve``: the whole companion, the dashboard and (without hardware) a virtual table.

With no hardware configured the demo table plays a live game, so the dashboard shows a game moving
at once, until the Host starts a game of their own (then the demo stays away until the Host asks for
it again). ``--mqtt URL`` and/or ``--serial PORT`` read real reader nodes instead, and/or
``--camera [auto|pi|synthetic|INDEX|URL]`` the overhead camera (``[camera]`` in the settings;
games played "camera", see :mod:`companion.service.camera`). ``--camera synthetic`` without reader
nodes is the default virtual table photographed: the demo's hands play for the synthetic camera,
whose frames go through the detector into the demo's camera-played game
(:func:`start_camera_demo`).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from companion import config as settings
from companion.core.errors import MalformedInput
from companion.core.games.goblets.tags import TagRegistry
from companion.service import Service, VirtualTable
from companion.service.hardware import HardwareTable
from companion.service.sensed_demo import SensedDemo
from companion.signals import on_stop_signals
from companion.web import create_app
from companion.web.auth import host_pin
from companion.web.mdns import Advertiser, local_address
from companion.web.server import WebServer

if TYPE_CHECKING:
    from companion.service.camera import CameraTable

log = logging.getLogger("companion.serve")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser("serve", help="run the companion and its dashboard")
    parser.add_argument("--config", type=Path, help="TOML settings file")
    parser.add_argument("--data", type=Path, help="data directory (default ./data)")
    parser.add_argument("--bind", help="address to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=int, help="port (default 8080; 0 picks a free one)")
    parser.add_argument("--mqtt", metavar="URL", help="read reader nodes from this MQTT broker")
    parser.add_argument("--serial", metavar="PORT", help="read a reader node on this serial port")
    parser.add_argument(
        "--camera",
        nargs="?",
        const="auto",
        metavar="SRC",
        help="read the overhead camera: auto (the default), pi, synthetic, a device index or a URL",
    )
    parser.add_argument(
        "--virtual",
        choices=("sensed", "engine"),
        help="virtual table: simulated readers through the tracker (sensed, the default) "
        "or random legal actions straight into the engine",
    )
    parser.add_argument("--pace", type=float, help="engine mode: seconds between actions")
    parser.add_argument("--speed", type=float, help="sensed mode: faster than real hands by")
    parser.add_argument(
        "--noise",
        choices=("none", "moderate", "heavy", "brutal"),
        help="sensed mode: the simulated readers' missed reads and crosstalk (default moderate)",
    )
    parser.add_argument("--no-mdns", action="store_true", help="do not advertise cupbearer.local")
    parser.set_defaults(func=run)


def build_config(args: argparse.Namespace) -> settings.Config:
    """Settings from the file, then the command line's overrides."""
    config = settings.load(args.config)
    changes = {}
    for flag, key in (
        ("data", "data_dir"),
        ("bind", "web.bind"),
        ("port", "web.port"),
        ("mqtt", "hardware.mqtt"),
        ("serial", "hardware.serial"),
        ("camera", "camera.source"),
        ("pace", "virtual.pace"),
        ("speed", "virtual.speed"),
        ("noise", "virtual.noise"),
        ("virtual", "virtual.mode"),
    ):
        value = getattr(args, flag)
        if value is not None:
            changes[key] = str(value) if isinstance(value, Path) else value
    if args.no_mdns:
        changes["mdns.enabled"] = False
    return settings.replace(config, **changes) if changes else config


def virtual_table(service: Service, config: settings.Config):
    """The demo table the settings ask for (not started yet; it has ``start()`` and ``stop()``).

    Made before the journal is replayed, so a resumed demo game knows it is read by simulated
    readers. It plays only while the Host's demo switch is on, and only its own games.
    """
    if config.virtual.mode == "sensed" and "goblets" in service.games:
        # The legal puppet game, read by simulated readers; a resumed game (mid-Course too) is
        # taken up where the journal left it (companion/service/sensed_demo.py).
        return SensedDemo(
            service,
            options=config.game.options or None,
            speed=config.virtual.speed,
            noise=config.virtual.noise,
            reveal=config.sensing.reveal,
            settle=config.sensing.settle,
        )
    return VirtualTable(service, pace=config.virtual.pace)


def start_virtual_table(service: Service, config: settings.Config):
    """Start the demo table (after the journal's game, if any, was resumed); returns it."""
    driver = virtual_table(service, config)
    service.resume()
    if service.demo_on and (service.table is None or service.table.record.is_demo):
        if service.table is None:
            game = "goblets" if isinstance(driver, SensedDemo) else config.game.name
            options = driver.options if isinstance(driver, SensedDemo) else config.game.options
            service.new_game(game, options, play="demo")
        for seat in range(service.table.state.num_seats):
            service.set_reader(seat, "virtual")
    return driver.start()


def load_registry(config: settings.Config) -> TagRegistry:
    """The enrolled tags the readers will see (a clear error when there are none)."""
    path = Path(config.hardware.registry or config.data_dir / "registry.json")
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise MalformedInput(
            f"no tag registry at {path}: enroll the rings and tokens first", field="registry"
        ) from None
    except (OSError, ValueError) as error:
        raise MalformedInput(f"{path}: {error}", field="registry") from None
    return TagRegistry.from_json(data)


def start_hardware(service: Service, config: settings.Config) -> HardwareTable:
    """Read the reader nodes over MQTT and/or serial into the sensed table.

    A table with no game yet starts the configured game, played with the readers.
    """
    registry = load_registry(config)
    hardware = HardwareTable(
        service,
        registry,
        mqtt=config.hardware.mqtt,
        serial=config.hardware.serial,
        data_dir=config.data_dir,  # recordings/game-<id>.jsonl: what the tracker read
        recordings_mb=config.hardware.recordings_mb,
        reveal=config.sensing.reveal,
        settle=config.sensing.settle,
    )
    service.resume()
    if service.table is None:
        service.new_game(config.game.name, config.game.options, play="readers")
    log.info(
        "reading reader nodes: mqtt=%s serial=%s", config.hardware.mqtt, config.hardware.serial
    )
    return hardware.start()


def need_opencv() -> None:
    """The camera reads its frames with OpenCV, the ``vision`` extra: a clear error naming the
    way out when it is not installed, not a traceback from deep in the camera's import."""
    try:
        import cv2  # noqa: F401  (only whether it imports)
    except ImportError:
        raise MalformedInput(
            "needs OpenCV, the project's vision extra: pip install -e '.[vision]' "
            "(scripts/run installs it)",
            field="camera.source",
        ) from None


def start_camera(service: Service, config: settings.Config) -> CameraTable:
    """Open the overhead camera and read it into the sensed table of games played "camera", and
    beside the readers in games played "readers" (``companion.service.camera.CameraWitness``).

    A table with no game yet (and no reader nodes) starts the configured Raise Your Goblets game,
    played with the camera. Without a calibration the camera waits for the Host's.
    """
    # Imported here: OpenCV and numpy are loaded only when a camera is asked for.
    from companion.service.camera import CameraTable
    from vision.camera import open_camera

    options = config.game.options or {}
    players = options.get("players", 4) if isinstance(options, dict) else 4
    seats = players if isinstance(players, int) and 2 <= players <= 6 else 6
    camera = open_camera(
        config.camera.source or "auto", seats=seats, exposure=config.camera.exposure
    )
    table = CameraTable(
        service,
        camera,
        calibration_path=config.calibration_path,
        rate_hz=config.camera.rate_hz,
        settle=config.sensing.settle,
        grace=config.sensing.fusion_grace,  # with reader nodes too: the camera is their witness
    )
    service.resume()
    if service.table is None and config.game.name == "goblets":
        service.new_game(config.game.name, config.game.options, play="camera")
    log.info(
        "reading the camera %s (%s)",
        config.camera.source,
        "calibrated" if table.calibration is not None else "not calibrated: the Host calibrates",
    )
    return table.start()


DEMO_CAMERA_SIZE = (640, 480)
"""The synthetic camera's frames in the camera demo: a Pi detects them in time at 5 Hz."""


def start_camera_demo(service: Service, config: settings.Config, *, frame=None, clock=None):  # type: ignore[no-untyped-def]
    """The demo table photographed by the synthetic camera (``--camera synthetic``, no readers).

    The camera is calibrated from its own empty table's markers, as a Host would, into
    ``<data_dir>/synthetic-calibration.json`` (never the real camera's calibration). Returns the
    started drivers (the camera's frame thread, the demo's thread); ``frame`` and ``clock``: a
    test reads the camera in step with the show instead (nothing is started then).
    """
    from companion.service.camera import CameraTable
    from vision import render
    from vision.camera import SyntheticCamera

    options = {**(config.game.options or {})}
    demo_options = {"players": options.get("players", 4)}
    seats = demo_options["players"] if isinstance(demo_options["players"], int) else 4
    camera = SyntheticCamera(seats=seats, size=DEMO_CAMERA_SIZE, still=True)
    camera.scene = render.Scene(seats)  # the empty table, for the calibration
    extra = {} if clock is None else {"clock": clock}
    table = CameraTable(
        service,
        camera,
        calibration_path=config.data_dir / "synthetic-calibration.json",
        rate_hz=config.camera.rate_hz,
        settle=config.sensing.settle,
        **extra,
    )
    if table.calibration is None:
        table.calibrate()
    demo = SensedDemo(
        service, options=demo_options, speed=config.virtual.speed, camera=table, frame=frame
    )
    service.resume()
    if service.demo_on and service.table is None:
        service.new_game("goblets", demo.options, play="demo")
    log.info("the demo table, photographed by the synthetic camera")
    if frame is not None:
        return [table, demo]
    return [table.start(), demo.start()]


def run(args: argparse.Namespace) -> int:
    """Run until SIGINT or SIGTERM; returns the exit status."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    config = build_config(args)
    config.data_dir.mkdir(parents=True, exist_ok=True)
    service = Service(config)
    if config.camera.is_configured and not config.is_virtual:
        need_opencv()
    drivers = []
    if config.is_virtual:
        drivers.append(start_virtual_table(service, config))
    elif config.camera.source == "synthetic" and not config.hardware.is_configured:
        drivers.extend(start_camera_demo(service, config))
    else:
        if config.hardware.is_configured:
            drivers.append(start_hardware(service, config))
        if config.camera.is_configured:
            drivers.append(start_camera(service, config))
    app = create_app(service, config)
    web = config.web
    server = WebServer(
        app,
        host=web.bind,
        port=web.port,
        threads=web.threads,
        connections_per_address=web.connections_per_address,
        header_timeout=web.header_timeout,
        streams_per_address=web.streams_per_address,
    )
    advertiser = Advertiser(config.mdns.name, server.port) if config.mdns.enabled else None
    if advertiser is not None:
        threading.Thread(target=advertiser.start, name="mdns", daemon=True).start()
    shown = local_address() if config.web.bind in ("0.0.0.0", "") else server.host
    print(f"Cupbearer is serving http://{shown}:{server.port}/", flush=True)
    if advertiser is not None:
        print(f"  (also http://{config.mdns.name}.local:{server.port}/ on the local network)")
    print(f"  Host PIN: {host_pin(config.data_dir, config.host.pin)}", flush=True)
    if service.table is not None:
        print(f"  game {service.table.record.id} ({service.table.record.game})", flush=True)

    def stop() -> None:
        service.hub.close()  # ends every SSE stream so the worker threads can finish
        server.stop()

    on_stop_signals(stop)
    try:
        server.run()
    finally:
        for driver in reversed(drivers):
            driver.stop()
        if advertiser is not None:
            advertiser.close()
        service.close()
    print("Cupbearer stopped.", file=sys.stderr)
    return 0
