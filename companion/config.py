"""Typed settings for ``companion serve``, read from a TOML file (tomllib) with defaults.

Every key has a default, so no file is needed. An unknown key is an error naming it (a typo must
not silently become a default), and so is a value of the wrong type. Example::

    data_dir = "./data"

    [web]
    bind = "0.0.0.0"
    port = 8080
    threads = 8                   # Flask's workers (a live stream holds none)
    streams_per_address = 16
    connections_per_address = 48
    header_timeout = 10.0

    [host]
    pin = "2718"          # absent: a random PIN is made once and kept in the data directory

    [hardware]
    mqtt = "mqtt://user:password@localhost:1883"
    serial = "/dev/ttyACM0"
    recordings_mb = 256           # the readers' recordings' cap (0: record nothing)

    [camera]
    source = "auto"       # the overhead camera: auto, pi, synthetic, a device index or a URL
    calibration = "./data/vision-calibration.json"  # default: in the data directory
    rate_hz = 5.0         # frames read and detected a second
    exposure = 0.0        # the Pi camera's exposure compensation in stops (-1: darker), -8 to 8

    [sensing]
    reveal = "readers"    # the Goblets poured out on the readers at the Toast, or "tracked"
    settle = 2.0          # seconds a seat's flat read must hold before it is taken
    fusion_grace = 3.0    # readers and camera: seconds they may disagree before the Host is asked

    [game]
    name = "goblets"
    options = { players = 5 }

    [virtual]
    mode = "sensed"       # or "engine": random legal actions straight into the engine
    speed = 1.0           # sensed mode: times real time (the hands and the readers)
    noise = "moderate"    # sensed mode: the simulated readers (none, moderate, heavy, brutal)
    pace = 1.5            # engine mode: seconds between the virtual table's actions
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from companion.core.checks import is_number, is_whole
from companion.core.errors import MalformedInput


@dataclass(frozen=True)
class WebSettings:
    """Where the dashboard listens and how many requests it serves at once."""

    bind: str = "0.0.0.0"
    port: int = 8080
    threads: int = 8
    """Flask's worker threads for pages and the API (a live stream holds none)."""
    streams_per_address: int = 16
    """Live SSE streams one device (client address) may hold at once (more: 429)."""
    connections_per_address: int = 48
    """Open connections one device may hold at once (more are answered 429 and closed)."""
    header_timeout: float = 10.0
    """Seconds a request's headers may take to arrive (a slow-headers client is closed)."""
    heartbeat: float = 15.0
    """Seconds between SSE heartbeat comments (keeps proxies and sleeping phones honest)."""


@dataclass(frozen=True)
class HostSettings:
    """The host's login: a PIN, and how hard guessing it is made."""

    pin: str | None = None
    max_attempts: int = 5
    """Wrong PINs in a row answered at once; after them each try waits (1 s doubling)."""
    lockout: float = 30.0
    """The longest wait between two tries (the Host is never locked out for longer)."""


@dataclass(frozen=True)
class HardwareSettings:
    """The reader links; none configured means the virtual table."""

    mqtt: str | None = None
    serial: str | None = None
    registry: str | None = None
    """The enrolled tags (JSON, as ``companion track`` reads); default
    ``<data_dir>/registry.json``."""
    recordings_mb: int = 256
    """The most megabytes the readers' recordings (``<data_dir>/recordings``) may hold; 0: none."""

    @property
    def is_configured(self) -> bool:
        """True when any real reader link is configured."""
        return bool(self.mqtt or self.serial)


@dataclass(frozen=True)
class CameraSettings:
    """The overhead camera (``companion serve --camera``); no ``source``: no camera."""

    source: str | None = None
    """"auto" (picamera2, else VideoCapture 0, else the synthetic camera), "pi", "synthetic", a
    device index ("0") or a URL / video file (``vision/camera.py``)."""
    calibration: str | None = None
    """The calibration JSON; default ``<data_dir>/vision-calibration.json``."""
    rate_hz: float = 5.0
    """Frames read and detected a second (a frame the detector has not finished is skipped)."""
    exposure: float = 0.0
    """The Pi camera's exposure compensation in stops, -8 to 8 (libcamera's ``ExposureValue``)
    until it is calibrated: a calibration that found the camera clipping the empty table lowers
    it and keeps its own, which then wins over this one."""

    @property
    def is_configured(self) -> bool:
        """True when a camera source is configured."""
        return bool(self.source)


@dataclass(frozen=True)
class SensingSettings:
    """How a sensed table reveals the Goblets at the Toast (docs/rules-notes.md, "The reveal on
    the readers")."""

    reveal: str = "readers"
    """"readers": every player pours their Goblet out onto their seat's reader spot and the Toast
    is scored from the flat read (a stack in a Goblet is read badly); "tracked": the Goblets are
    revealed at once with what the tracker followed into them."""
    settle: float = 2.0
    """Seconds a seat's flat read (and its Goblet's absence) must hold before it is taken."""
    fusion_grace: float = 3.0
    """With reader nodes and a camera both: seconds the two may disagree on which Goblet stands
    where before the Host is asked to settle it (a Goblet in mid-move is no conflict; see
    ``companion.core.games.goblets.sensed.fusion.FusionConfig``)."""


@dataclass(frozen=True)
class GameSettings:
    """The game a fresh table starts (and the virtual table plays)."""

    name: str = "goblets"
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class VirtualSettings:
    """The virtual table that plays a live demo game when no hardware is configured."""

    enabled: bool | None = None
    """None: on exactly when no hardware is configured."""
    mode: str = "sensed"
    """"sensed": a random legal game played by simulated hands (the puppeteer), read by simulated
    readers -> tracker -> the engine recording (Raise Your Goblets, 4-6 players, no Characters);
    "engine": random legal actions played straight into the engine (any game)."""
    pace: float = 1.5
    """Engine mode: seconds between two of its actions (a human pace, to follow the demo)."""
    speed: float = 1.0
    """Sensed mode: how much faster than real hands the simulated Courses run."""
    noise: str = "moderate"
    """Sensed mode: the simulated readers' noise ("none", "moderate", "heavy")."""
    restart_after: float = 20.0
    """Seconds a finished demo game stays on screen before the next starts."""


@dataclass(frozen=True)
class MdnsSettings:
    """The mDNS name the dashboard is advertised under (``cupbearer.local``)."""

    enabled: bool = True
    name: str = "cupbearer"


@dataclass(frozen=True)
class Config:
    """All settings of the companion."""

    data_dir: Path = Path("./data")
    web: WebSettings = field(default_factory=WebSettings)
    host: HostSettings = field(default_factory=HostSettings)
    hardware: HardwareSettings = field(default_factory=HardwareSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    sensing: SensingSettings = field(default_factory=SensingSettings)
    game: GameSettings = field(default_factory=GameSettings)
    virtual: VirtualSettings = field(default_factory=VirtualSettings)
    mdns: MdnsSettings = field(default_factory=MdnsSettings)

    @property
    def is_virtual(self) -> bool:
        """True when the virtual table drives the game."""
        if self.virtual.enabled is None:
            return not (self.hardware.is_configured or self.camera.is_configured)
        return self.virtual.enabled

    @property
    def calibration_path(self) -> Path:
        """Where the camera's calibration is kept."""
        return Path(self.camera.calibration or self.data_dir / "vision-calibration.json")

    @property
    def journal_path(self) -> Path:
        """The SQLite journal inside the data directory."""
        return self.data_dir / "journal.sqlite"


def _check(value: Any, kind: Any, name: str) -> Any:
    """``value`` converted to the annotated ``kind``, or MalformedInput naming ``name``."""
    is_union = get_origin(kind) in (Union, UnionType)
    options = [k for k in get_args(kind) if k is not type(None)] if is_union else [kind]
    if value is None and is_union and type(None) in get_args(kind):
        return None
    base = get_origin(options[0]) or options[0]
    if base is bool:
        ok = isinstance(value, bool)
    elif base is int:
        ok = is_whole(value)
    elif base is float:
        ok = is_number(value)
        value = float(value) if ok else value
    elif base is str:
        ok = isinstance(value, str)
    elif base is dict:
        ok = isinstance(value, dict)
    elif base is Path:
        ok = isinstance(value, str | Path)
        value = Path(value) if ok else value
    else:  # pragma: no cover - a programming error in the dataclasses above
        raise TypeError(f"unsupported setting type {kind}")
    if not ok:
        raise MalformedInput(f"must be {base.__name__}, got {value!r}", field=name)
    return value


def _build(cls: type, data: Mapping[str, Any], prefix: str) -> Any:
    hints = get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    for key in data:
        if key not in names:
            raise MalformedInput("unknown setting", field=f"{prefix}{key}")
    values = {}
    for name in names:
        if name not in data:
            continue
        kind = hints[name]
        if dataclasses.is_dataclass(kind):
            if not isinstance(data[name], Mapping):
                raise MalformedInput("must be a table", field=f"{prefix}{name}")
            values[name] = _build(kind, data[name], f"{prefix}{name}.")
        else:
            values[name] = _check(data[name], kind, f"{prefix}{name}")
    return cls(**values)


def from_mapping(data: Mapping[str, Any]) -> Config:
    """Settings from parsed TOML data; unknown keys and wrong types raise MalformedInput."""
    config = _build(Config, data, "")
    if not 0 <= config.web.port <= 65535:
        raise MalformedInput("must be 0 to 65535", field="web.port")
    if config.virtual.mode not in ("sensed", "engine"):
        raise MalformedInput("must be 'sensed' or 'engine'", field="virtual.mode")
    if config.virtual.noise not in ("none", "moderate", "heavy", "brutal"):
        raise MalformedInput("must be none, moderate, heavy or brutal", field="virtual.noise")
    if config.sensing.reveal not in ("readers", "tracked"):
        raise MalformedInput("must be 'readers' or 'tracked'", field="sensing.reveal")
    if config.camera.source is not None and not config.camera.source.strip():
        raise MalformedInput(
            "must be auto, pi, synthetic, a device index or a URL", field="camera.source"
        )
    if not 0 < config.camera.rate_hz <= 60:
        raise MalformedInput("must be more than 0 and at most 60", field="camera.rate_hz")
    if not -8 <= config.camera.exposure <= 8:
        raise MalformedInput("must be -8 to 8 (stops)", field="camera.exposure")
    if config.camera.calibration is not None and not config.camera.calibration.strip():
        raise MalformedInput("must be a file path", field="camera.calibration")
    if config.sensing.settle <= 0:
        raise MalformedInput("must be positive", field="sensing.settle")
    if config.sensing.fusion_grace <= 0:
        raise MalformedInput("must be positive", field="sensing.fusion_grace")
    if config.hardware.recordings_mb < 0:
        raise MalformedInput("must be 0 or more", field="hardware.recordings_mb")
    if config.web.header_timeout <= 0:
        raise MalformedInput("must be positive", field="web.header_timeout")
    if config.virtual.speed <= 0 or config.virtual.pace <= 0:
        raise MalformedInput("must be positive", field="virtual.speed")
    if config.web.threads < 2:
        raise MalformedInput("must be at least 2", field="web.threads")
    if config.web.streams_per_address < 1 or config.web.connections_per_address < 2:
        raise MalformedInput("must be at least 1 (2 connections)", field="web.streams_per_address")
    if config.host.pin is not None and (len(config.host.pin) < 4 or not config.host.pin.isdigit()):
        raise MalformedInput("must be at least 4 digits", field="host.pin")
    return config


def load(path: str | Path | None = None) -> Config:
    """Settings from the TOML file at ``path`` (defaults only when ``path`` is None)."""
    if path is None:
        return Config()
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except OSError as error:
        raise MalformedInput(f"cannot read {path}: {error.strerror}", field="config") from None
    except tomllib.TOMLDecodeError as error:
        raise MalformedInput(f"{path}: {error}", field="config") from None
    return from_mapping(data)


def replace(config: Config, **changes: Any) -> Config:
    """A copy of ``config`` with dotted-name changes, e.g. ``replace(c, **{"web.port": 0})``."""
    data = dataclasses.asdict(config)
    for dotted, value in changes.items():
        *path, last = dotted.split(".")
        target = data
        for part in path:
            target = target[part]
        target[last] = value
    return from_mapping(data)
