"""The overhead camera as a sensor of ``companion serve``: frames -> observations -> the session.

:class:`CameraTable` is the camera's :class:`~companion.service.hardware.HardwareTable`: it opens
the camera (``[camera] source``, ``companion serve --camera``), reads and detects frames on its own
thread through :class:`vision.camera.FrameLoop` (driven with :meth:`FrameLoop.step`, so a test
steps it without a thread), and turns each frame's detections into one
:class:`~companion.core.observations.Observation` per seat for the sensed session of the game
played ``"camera"`` (``service.sense("camera")``):

- the rings standing at the seat (``vision.rings.observations``: one pseudo-UID per House);
- while the Goblets are poured out (the Toast's reveal), one pseudo-UID per token counted in the
  seat's reveal area (:func:`token_uid`, enrolled as a token of that kind in the camera's own
  registry, :func:`camera_registry`), so the pour-out's stable-set logic settles a seat on the
  camera's counts as it does on a reader's tags. The tokens are left out during play: the camera
  sees no pours ("the camera sees no pours", ``vision/README.md``) and a token lying in a reveal
  area is no pour into the seat's Goblet.

A reveal area the detector reports as not seen (a hand, glare, a goblet over it) gives no
observation for that seat: no snapshot is no news, a wrong one would be a wrong count. A frame
the detector refuses (:class:`FrameLoop` counts it in ``errors``) gives nothing at all.

The camera's game is sensed with ``actor="camera"``, ``reveal_apart=True`` (the reveal areas lie
beside the Goblets' spots: a seat settles on tokens seen in its area, or on its Goblet lifted and
set down again, see :mod:`companion.core.sensed.pour_out`) and ``pours_seen=False`` (its Toast
says the caller's Wine is unknown to the engine). The camera cannot see the initial pour either:
once the Course starts the service draws it as chance (journaled), as on the phones; the
reveal's counts win over the engine's contents anyway. Since play then begins at once, a Course
starts only when the frames show the table gathered up and set out (every Goblet at its House's
place, no token lying in a reveal area: :mod:`companion.core.sensed.gather`), or when the Host
taps "start the Course"; putting the Goblets back after a reveal is never recorded as play.

Beside reader nodes (a game played ``"readers"`` with the camera configured too), the camera is a
witness (:class:`CameraWitness`): it keeps its own tracker of the rings (``vision/README.md``,
"Feeding the tracker"), and after each frame the two trackers' layouts are compared
(:class:`~companion.core.sensed.fusion.LayoutFusion`): a disagreement held past ``[sensing]
fusion_grace`` is a notice to the Host, who settles it by a tap (``{"input": "settle", "source":
"readers" | "camera"}``). A frame that does not show one ring at every seat is no layout to
compare (a hand, a Goblet in the air, a covered ring). At the reveal on the readers the camera
counts its reveal areas as a witness: a seat settles only when both counts agree
(:class:`~companion.core.sensed.fusion.FusedPourOut`), else the Host picks one (``{"input":
"pick", "place": p, "source": ...}``) or counts it by hand. The camera counts its reveal areas,
not the reader spots: calibrated so, the two count the same tokens; otherwise every seat with
tokens differs and the Host is asked (never a silent choice).

Calibration: the homography is read from ``[camera] calibration`` (default
``<data_dir>/vision-calibration.json``); without one the loop only keeps the latest frame and the
Host is told to calibrate (:meth:`calibrate`: from the four ArUco markers on the empty table, or
from the table's outline only when the Host accepts it). The calibration's seat count is the
game's (the homography does not depend on it).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, Mode
from companion.core.games.goblets.tokens import POOL, Token
from companion.core.observations import Observation
from companion.core.sensed.fusion import READERS, SOURCES, FusionConfig, LayoutFusion
from companion.core.sensed.pour_out import PourOut, PourOutConfig
from companion.core.tags import TagRegistry
from companion.core.tracking import Tracker
from companion.service.sensing import SensedTable
from companion.service.table import Service
from companion.store.files import write_json
from vision import rings
from vision.calibrate import Calibration, find_markers, from_ellipse, from_markers
from vision.camera import Camera, FrameLoop
from vision.detect import Detections

log = logging.getLogger(__name__)

MAX_SEATS = 6
"""The camera's canonical table has 2 to 6 seats (``vision/README.md``, "The canonical table")."""
KINDS = tuple(Token)
"""Token kinds in rulebook order ("Wine | Poison | Antidote | Unicorn Antidote | Ogre Poison"):
a pseudo-UID's kind index."""
NO_FRAMES_AFTER = 3.0
"""Seconds without a detected frame before the camera is shown as giving no frames."""
FPS_WINDOW = 5.0
"""Seconds of detected frames the frame rate is measured over."""
HEALTH_EVERY = 5.0
"""Seconds between two publications of the camera's health when nothing else changes."""
CALIBRATE_RULE = "The camera is calibrated from a frame of the empty table with its four markers."
ELLIPSE_WARNING = (
    "calibrated from the table's outline, not the markers: right only for a camera looking "
    "straight down, seat 0 at the bottom of the frame (vision/README.md, Calibration)"
)
NO_CAMERA_RULE = "The camera is configured with companion serve --camera or [camera] source."


def token_uid(seat: int, kind: Token | str, index: int) -> str:
    """The pseudo-UID of the ``index``-th token of ``kind`` the camera counts at ``seat``."""
    return f"CB{seat:02X}{KINDS.index(Token(kind)):02X}{index:02X}"


def camera_registry() -> TagRegistry:
    """The camera's tags: each House's ring (``vision.rings.ring_registry``) and, per seat and
    kind, as many token pseudo-UIDs as the pool has tokens of that kind (no seat can show more)."""
    registry = rings.ring_registry()
    for seat in range(MAX_SEATS):
        for kind in KINDS:
            for index in range(POOL[kind]):
                registry.add_token(token_uid(seat, kind, index), kind.value)
    return registry


def load_calibration(path: Path) -> Calibration | None:
    """The stored calibration at ``path`` (None when there is none; a bad file is an error)."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise MalformedInput(f"{path}: {error}", field="camera.calibration") from None
    return Calibration.from_json(data)


def save_calibration(path: Path, calibration: Calibration) -> None:
    """Write ``calibration`` to ``path`` atomically (a crash leaves the old file or the new)."""
    write_json(path, calibration.to_json())


class _Tap:
    """The camera, keeping the latest frame read (for calibration and the Host's view)."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera
        self.latest: np.ndarray | None = None

    def read(self) -> np.ndarray | None:
        """The next frame (also kept as :attr:`latest`)."""
        frame = self.camera.read()
        if frame is not None:
            self.latest = frame
        return frame

    def close(self) -> None:
        """Release the camera."""
        self.camera.close()


class CameraWitness:
    """The camera beside the readers of one game: its own tracker of the rings and, at the
    reveal, its own pour-out of the reveal areas, compared with the readers' (see the module
    docstring). Made by :class:`CameraTable` for the readers' ``bridge``; attaches itself to it
    (``bridge.witness``), so the Host's answers reach it through the readers' session."""

    def __init__(self, bridge: SensedTable, registry: TagRegistry, config: FusionConfig) -> None:
        self.bridge = bridge
        self.game_id = bridge.game_id
        self.registry = registry
        session = bridge.session
        self.places = session.table.places
        start = session.tracker.layout() or dict(session.table.layout)
        # The readers' layout as the camera's starting belief: the camera joins a table already
        # read, and its first frames then confirm (or contradict) it like any later move.
        self.tracker = Tracker(registry, self.places, initial_layout=start)
        self.fusion = LayoutFusion(config)
        # The Host's "the readers are right" changes no journaled state, so the ruling is kept as
        # a table setting (SQLite, committed): after a restart a camera that still misreads the
        # same is not asked about again.
        self._setting = f"fusion.rulings.{self.game_id}"
        store = bridge.service.store
        for ruling in json.loads(store.setting(self._setting) or "[]"):
            readers, camera = ({int(s): n for s, n in ruling[k].items()} for k in SOURCES)
            self.fusion.ruled(readers, camera)
        self._kept = self.fusion.rulings()
        self.pouring: PourOut | None = None
        bridge.witness = self

    def frame(self, t: float, detections: Detections, seq: int) -> None:
        """One detected frame (called under the readers' session lock)."""
        session = self.bridge.session
        areas = detections.tokens or {}
        covered = {seat for seat, counts in areas.items() if counts is None}
        if session.pouring is not None:
            if self.pouring is not None:
                for obs in rings.observations(detections.rings, t, seq):
                    if obs.seat < self.places and obs.seat not in covered:
                        counted = _with_tokens(obs, areas.get(obs.seat))
                        if counted is not None:
                            self.pouring.observe(counted)
            return
        self.pouring = None
        for obs in rings.observations(detections.rings, t, seq):
            if obs.seat < self.places:
                self.tracker.observe(obs)
        self.tracker.advance(t)
        readers = None if session.table.conflict is not None else session.tracker.layout()
        for notice in self.fusion.compare(t, readers, self._seen(detections)):
            kind = notice["notice"]
            if kind == "disagreement":
                detail = {k: notice[k] for k in ("seats", "readers", "camera")}
                seats = ", ".join(map(str, notice["seats"]))
                message = f"the readers and the camera disagree at seats {seats}: which is right?"
                self.bridge.service.notice(kind, message, detail=detail)
            else:
                self.bridge.service.notice(kind, "the readers and the camera agree again")
            self.bridge.service.publish()
        self._keep()

    def _keep(self) -> None:
        """Store the Host's rulings when they changed (settled, or moot once the two agree)."""
        rulings = self.fusion.rulings()
        if rulings != self._kept:
            self.bridge.service.store.set_setting(self._setting, json.dumps(rulings))
            self._kept = rulings

    def _seen(self, detections: Detections) -> dict[int, str] | None:
        """The camera's believed layout when this frame shows exactly it (one ring at every
        seat), else None: a frame with a seat unread, or one in mid-move, compares nothing."""
        reading = {}
        for seat in range(self.places):
            houses = list(detections.rings.houses_at(seat))
            if len(houses) != 1:
                return None
            reading[seat] = houses[0]
        believed = self.tracker.layout()
        return believed if believed == reading else None

    def begin_pour_out(self, t: float) -> PourOut:
        """The readers' pour-out begins: the camera counts its reveal areas alongside."""
        self.pouring = PourOut(
            {p: "" for p in range(self.places)},
            self.registry,
            rings=False,
            apart=True,
            witness=True,  # the readers' own pour-out says when a seat has poured
            t=t,
            config=self.bridge.session.pour_out_config,
        )
        return self.pouring

    def settle(self, source: str) -> dict[int, str]:
        """The Host's answer to the open disagreement; returns the layout the game goes on with
        (the camera's tracker is put right when the readers were)."""
        layout = self.fusion.settle(source)
        if source == READERS:
            self.tracker.fix_layout(layout)
        self._keep()
        return layout


def _with_tokens(obs: Observation, counts: dict[str, int] | None) -> Observation | None:
    """``obs`` with one pseudo-UID per token counted in its seat's reveal area (None: the frame
    was detected without tokens, so it says nothing about the reveal)."""
    if counts is None:
        return None
    uids = set(obs.tags)
    for kind in KINDS:
        n = int(counts.get(kind.value, 0))
        if n > POOL[kind]:
            # More than the pool holds is a misread: this frame says nothing of the seat.
            return None
        uids.update(token_uid(obs.seat, kind, i) for i in range(n))
    return Observation.of(obs.t, obs.seat, uids, seq=obs.seq, node=obs.node)


class CameraTable:
    """Camera -> detections -> the sensed session of the game played with the camera.

    ``camera``: an opened camera (:func:`vision.camera.open_camera`); ``calibration_path``: where
    the calibration is kept; ``rate_hz``: frames a second; ``settle``: the pour-out's settle time;
    ``clock``: the frames' time in seconds (monotonic); ``grace``: how long the camera and the
    readers may disagree on the layout before the Host is asked (a game played "readers", see
    :class:`CameraWitness`). :meth:`start` runs the thread,
    :meth:`step` reads one frame now, :meth:`stop` ends the thread and releases the camera.
    """

    def __init__(
        self,
        service: Service,
        camera: Camera,
        *,
        calibration_path: Path,
        rate_hz: float = 5.0,
        settle: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        grace: float = 3.0,
    ) -> None:
        if isinstance(rate_hz, bool) or not isinstance(rate_hz, int | float) or rate_hz <= 0:
            raise MalformedInput(f"must be > 0, got {rate_hz!r}", field="camera.rate_hz")
        self.service = service
        self.tap = _Tap(camera)
        self.calibration_path = Path(calibration_path)
        self.rate_hz = float(rate_hz)
        self.clock = clock
        self.pour_out = PourOutConfig(settle=settle)
        self.registry = camera_registry()
        self.bridge: SensedTable | None = None
        self.plays = {"camera"}
        """The plays this camera reads as the game's only sensor ("demo" too when the demo table
        is photographed by the synthetic camera, ``companion.service.sensed_demo``)."""
        self.fusion = FusionConfig(grace=grace)
        self.witness: CameraWitness | None = None
        self.warning: str | None = None
        """Shown to the Host with the calibration (an ellipse-only calibration)."""
        self.lock = threading.Lock()
        """Held while a frame is read and taken (the camera is read by one thread at a time)."""
        self.driven = False
        """True when another thread reads the camera in step with its own clock (:meth:`drive`):
        :meth:`start` then starts no thread."""
        self._health = threading.Lock()
        self._frames: deque[float] = deque()
        self._misses = 0
        self._covered = False
        self._shown: str | None = None
        self._published = 0.0
        self.loop: FrameLoop | None = None
        self.calibration: Calibration | None = None
        calibration = load_calibration(self.calibration_path)
        if calibration is not None:
            self._use(calibration)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera-table", daemon=True)
        service.camera = self
        service.sense("camera")  # the Host may now start games played with the camera

    # -- life cycle ----------------------------------------------------------------------------

    def start(self) -> CameraTable:
        """Start reading frames on the camera's thread (none when :attr:`driven`)."""
        if not self.driven:
            self._thread.start()
        return self

    def drive(self, clock: Callable[[], float]) -> None:
        """Frames are read only by :meth:`step`, at ``clock``'s time: the camera demo reads one
        frame per frame period of its show's table time (``companion.service.sensed_demo``), so
        at any ``--speed`` a Peek lasts as many frames as at 1x. Call before :meth:`start`."""
        self.driven = True
        self.clock = clock
        if self.loop is not None:
            self.loop.clock = clock

    def stop(self) -> None:
        """End the thread, then release the camera."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self.tap.close()

    def _run(self) -> None:
        period = 1.0 / self.rate_hz
        next_at = self.clock()
        while not self._stop.is_set():
            try:
                self.step()
            except Exception:  # a camera or detector fault is logged, never the end of serve
                log.exception("camera frame failed")
            next_at = max(next_at + period, self.clock())  # a slow frame skips ahead
            self._stop.wait(max(0.0, next_at - self.clock()))

    # -- frames ---------------------------------------------------------------------------------

    def step(self) -> Detections | None:
        """Read one frame now: detected and taken when calibrated, else only kept for the Host."""
        with self.lock:
            loop = self.loop
            if loop is None:
                frame = self.tap.read()
                if frame is None:
                    self._misses += 1
                detections = None
            else:
                self._fit_seats(loop)
                detections = loop.step()
        self._show_health()
        return detections

    def _fit_seats(self, loop: FrameLoop) -> None:
        """The calibration's seats are the game's (the homography is the same for any count)."""
        table = self.service.table
        read = table is not None and table.record.play in ("camera", "readers")
        places = len(table.state.places) if read and table is not None else 0
        if 2 <= places <= MAX_SEATS and loop.calibration.seats != places:
            loop.calibration = Calibration(
                places,
                loop.calibration.homography,
                loop.calibration.image_size,
                loop.calibration.method,
            )

    def _sink(self, t: float, detections: Detections) -> None:
        """One detected frame: its observations to the session (called by the frame loop)."""
        areas = detections.tokens or {}
        covered = {seat for seat, counts in areas.items() if counts is None}
        with self._health:
            self._frames.append(t)
            self._covered = bool(covered)
        assert self.loop is not None
        witness = self.beside_readers()
        if witness is not None:
            with witness.bridge.lock:
                witness.frame(t, detections, self.loop.frames)
            return
        bridge = self.session()
        if bridge is None:
            return
        seq = self.loop.frames
        places = bridge.session.table.places
        with bridge.lock:  # pouring or not is decided with the observation taken
            pouring = bridge.session.pouring is not None
            for obs in rings.observations(detections.rings, t, seq):
                if obs.seat >= places or obs.seat in covered:
                    continue  # no snapshot is no news: a covered area is never a wrong count
                if pouring:
                    obs = _with_tokens(obs, areas.get(obs.seat))
                    if obs is None:
                        continue
                bridge.observe(obs)
            tokens = {
                seat: None if counts is None else sum(counts.values())
                for seat, counts in areas.items()
                if seat < places
            }
            # Before the Course has started: is the table gathered up and set out yet?
            if not pouring and bridge.session.set_out(t, tokens):
                bridge.start_course()
                self._draw_initial_pour(bridge)

    # -- the session ----------------------------------------------------------------------------

    def session(self) -> SensedTable | None:
        """The sensed session of the current game played with the camera (made and started when
        needed); None when the game at the table is not played with the camera."""
        service = self.service
        table = service.table
        if table is None or table.record.play not in self.plays or table.state.is_over():
            return None
        if self.bridge is None or self.bridge.game_id != table.record.id:
            previous = self.bridge
            self.bridge = SensedTable(
                service,
                self.registry,
                actor="camera",
                reveal="readers",  # the Goblets are poured out in the reveal areas and counted
                pour_out=self.pour_out,
                reveal_apart=True,
                pours_seen=False,
            )
            self.bridge.take_over(previous)
        bridge = self.bridge
        # The Course is started by the frames once the table is set out (see _sink) or by the
        # Host's tap; once it has been, its initial pour is drawn.
        if service.table is not None and service.table.state.phase == "initial_pour":
            self._draw_initial_pour(bridge)
        return bridge

    def beside_readers(self) -> CameraWitness | None:
        """The camera as the witness of the readers' session of the current game played
        "readers" (made when needed); None when the game at the table is not read by readers."""
        service = self.service
        table = service.table
        bridge = service.sensing
        if (
            table is None
            or table.record.play != "readers"
            or table.state.is_over()
            or not isinstance(bridge, SensedTable)
            or bridge.game_id != table.record.id
        ):
            return None
        if self.witness is None or self.witness.bridge is not bridge:
            self.witness = CameraWitness(bridge, self.registry, self.fusion)
        return self.witness

    def _draw_initial_pour(self, bridge: SensedTable) -> None:
        """The camera cannot see what the hands pour first: once the Course has started, the
        initial pour and the deals due after it are drawn as chance and journaled (the sensed
        session then follows the journal, as after any hand entry)."""
        service = self.service
        with service.lock:
            table = service.table
            if table is None or bridge.session.table.started_course != table.state.course:
                return
            for _ in range(16):  # the initial pour, then the deals it makes due
                state = table.state
                if state.to_move() is not CHANCE or state.phase == "shootout":
                    return
                service.act(
                    state.sample_chance(service.rng), by=HOST, mode=Mode.RECORDING, actor="chance"
                )
                table = service.table
                if table is None:
                    return

    # -- calibration ----------------------------------------------------------------------------

    def _use(self, calibration: Calibration) -> None:
        self.calibration = calibration
        if self.loop is None:
            self.loop = FrameLoop(self.tap, calibration, self._sink, self.rate_hz, clock=self.clock)
        else:
            self.loop.calibration = calibration

    def calibrate(self, *, accept_ellipse: bool = False, seats: int | None = None) -> dict:
        """Calibrate from a fresh frame of the empty table and store it (see the module docstring).

        From the four markers; without them only from the table's outline, and only when
        ``accept_ellipse`` (then with :data:`ELLIPSE_WARNING`). Returns what was found:
        ``{"method", "markers": {id: [x, y]}, "seats": [{"seat", "spot", "reveal"}], "warning"}``
        (frame pixels).
        """
        table = self.service.table
        if seats is None:
            seats = (
                len(table.state.places)
                if table is not None and table.record.game == "goblets"
                else 4
            )
            seats = max(2, min(MAX_SEATS, seats))
        with self.lock:
            frame = self.tap.read()
            if frame is None:
                frame = self.tap.latest
            if frame is None:
                raise IllegalAction("the camera gives no frame", rule=CALIBRATE_RULE)
            markers = find_markers(frame)
            warning = None
            try:
                calibration = from_markers(frame, seats)
            except MalformedInput as error:
                if not accept_ellipse:
                    raise MalformedInput(
                        f"{error.detail}: clear the markers and calibrate again, or send "
                        '{"accept_ellipse": true} to calibrate from the table\'s outline '
                        "(right only for a camera looking straight down)",
                        field="accept_ellipse",
                    ) from None
                calibration = from_ellipse(frame, seats)
                warning = ELLIPSE_WARNING
            save_calibration(self.calibration_path, calibration)
            self.warning = warning
            self._use(calibration)
        self._show_health(force=True)
        return {
            "method": calibration.method,
            "markers": {
                str(m): [round(x, 1), round(y, 1)] for m, (x, y) in sorted(markers.items())
            },
            "seats": _seat_points(calibration),
            "warning": warning,
            "image_size": list(calibration.image_size),
        }

    def view(self) -> dict[str, Any]:
        """The Host's camera panel: the calibration (or that there is none) and the warning."""
        calibration = self.calibration
        return {
            "calibrated": calibration is not None,
            "method": None if calibration is None else calibration.method,
            "warning": self.warning,
            "seats": [] if calibration is None else _seat_points(calibration),
        }

    def frame_jpeg(self) -> bytes | None:
        """The latest frame as JPEG with the markers' and seats' places drawn (None: no frame)."""
        frame = self.tap.latest
        if frame is None:
            return None
        image = frame.copy()
        calibration = self.calibration
        if calibration is not None:
            for point in _seat_points(calibration):
                spot = tuple(round(v) for v in point["spot"])
                reveal = tuple(round(v) for v in point["reveal"])
                cv2.circle(image, spot, 12, (0, 200, 255), 2)
                cv2.circle(image, reveal, 20, (255, 200, 0), 2)
                cv2.putText(
                    image,
                    str(point["seat"]),
                    spot,
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.7,
                    (0, 200, 255),
                    2,
                )
        for _, (x, y) in find_markers(frame).items():
            cv2.drawMarker(image, (round(x), round(y)), (0, 255, 0), cv2.MARKER_CROSS, 24, 2)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return bytes(data) if ok else None

    # -- health ---------------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """``{"fps", "last_frame" (seconds ago, None: never), "errors", "status"}``: nothing
        secret (no image, no counts), for every viewer."""
        now = self.clock()
        with self._health:
            while self._frames and now - self._frames[0] > FPS_WINDOW:
                self._frames.popleft()
            frames = list(self._frames)
            covered = self._covered
        last = frames[-1] if frames else None
        if len(frames) >= 2 and frames[-1] > frames[0]:
            fps = (len(frames) - 1) / (frames[-1] - frames[0])
        else:
            fps = 0.0
        loop = self.loop
        if self.calibration is None:
            status = "not calibrated"
        elif last is None or now - last > NO_FRAMES_AFTER:
            status = "no frames"
        elif covered:
            status = "covered"
        else:
            status = "ok"
        return {
            "fps": round(fps, 1),
            "last_frame": None if last is None else round(now - last, 1),
            "errors": 0 if loop is None else loop.errors,
            "status": status,
        }

    def _show_health(self, force: bool = False) -> None:
        """Publish when the camera's status changes (and now and then, for its frame rate)."""
        status = self.health()["status"]
        now = self.clock()
        if force or status != self._shown or now - self._published >= HEALTH_EVERY:
            self._shown, self._published = status, now
            self.service.publish()


def _points(markers: dict[int, tuple[float, float]]) -> dict[str, list[float]]:
    """Marker id -> its centre in frame pixels."""
    return {str(m): [round(x, 1), round(y, 1)] for m, (x, y) in sorted(markers.items())}


def _seat_points(calibration: Calibration) -> list[dict[str, Any]]:
    """Each seat's goblet spot and reveal centre in frame pixels."""
    layout = calibration.layout
    out = []
    for seat in range(calibration.seats):
        spot = calibration.to_frame(*layout.goblet_spot(seat))
        reveal = calibration.to_frame(*layout.reveal_centre(seat))
        out.append(
            {
                "seat": seat,
                "spot": [round(spot[0], 1), round(spot[1], 1)],
                "reveal": [round(reveal[0], 1), round(reveal[1], 1)],
            }
        )
    return out
