"""The overhead camera as a sensor of ``companion serve``: frames -> observations -> the session.

:class:`CameraTable` is the camera's :class:`~companion.service.hardware.HardwareTable`: it opens
the camera (``[camera] source``, ``companion serve --camera``), reads and detects frames on its own
thread through :class:`vision.camera.FrameLoop` (driven with :meth:`FrameLoop.step`, so a test
steps it without a thread), and turns each frame's detections into one
:class:`~companion.core.observations.Observation` per seat for the sensed session of the game
played ``"camera"`` (``service.sense("camera")``):

- the rings standing at the seat (``vision.rings.observations``: one pseudo-UID per House);
- while the Goblets are poured out (the Toast's reveal), one pseudo-UID per token counted in the
  seat's reveal area (:mod:`companion.service.camera_tags`). The tokens are left out during play:
  the camera sees no pours (``vision/README.md``) and a token lying in a reveal area is no pour.

A reveal area the detector reports as not seen (a hand, glare, a goblet over it) gives no
observation for that seat: no snapshot is no news, a wrong one would be a wrong count. A frame
the detector refuses (:class:`FrameLoop` counts it in ``errors``) gives nothing at all.

The camera's game is sensed with ``actor="camera"``, ``reveal_apart=True`` (the reveal areas lie
beside the Goblets' spots: a seat settles on tokens seen in its area, or on its Goblet lifted and
set down again, see :mod:`companion.core.games.goblets.sensed.pour_out`) and ``pours_seen=False``
(its Toast says the caller's Wine is unknown to the engine). The camera cannot see the initial pour
either: once the Course starts the service draws it as chance (journaled), as on the phones; the
reveal's counts win over the engine's contents anyway. Since play then begins at once, a Course
starts only when the frames show the table gathered up and set out (every Goblet at its House's
place, no token lying in a reveal area: :mod:`companion.core.games.goblets.sensed.gather`), or when
the Host taps "start the Course"; putting the Goblets back after a reveal is never recorded as play.

Beside reader nodes (a game played ``"readers"`` with the camera configured too) the camera is a
witness (:class:`~companion.service.camera_witness.CameraWitness`). Calibration
(:mod:`companion.service.camera_calibration`): without one the loop only keeps the latest frame
and the Host is told to calibrate (:meth:`calibrate`).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from companion.core.checks import is_number
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, Mode
from companion.core.games.goblets.model import Phase
from companion.core.games.goblets.sensed.fusion import FusionConfig
from companion.core.games.goblets.sensed.pour_out import PourOutConfig
from companion.service.camera_calibration import (
    CALIBRATE_RULE,
    annotated_jpeg,
    calibrate_exposed,
    load_calibration,
    restore_exposure,
    save_calibration,
    seat_points,
)
from companion.service.camera_health import HEALTH_EVERY, FrameHealth
from companion.service.camera_tags import MAX_SEATS, camera_registry, token_uid, with_tokens
from companion.service.camera_witness import CameraWitness
from companion.service.sensing import INITIAL_POURS, SensingBridge
from companion.service.table import Service
from vision import rings
from vision.calibrate import Calibration
from vision.camera import Camera, FrameLoop
from vision.detect import Detections

log = logging.getLogger(__name__)

__all__ = ["CameraTable", "CameraWitness", "camera_registry", "load_calibration", "token_uid"]


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
        if not is_number(rate_hz) or rate_hz <= 0:
            raise MalformedInput(f"must be > 0, got {rate_hz!r}", field="camera.rate_hz")
        self.service = service
        self.tap = _Tap(camera)
        self.calibration_path = Path(calibration_path)
        self.rate_hz = float(rate_hz)
        self.clock = clock
        self.pour_out = PourOutConfig(settle=settle)
        self.registry = camera_registry()
        self.bridge: SensingBridge | None = None
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
        self.frames_seen = FrameHealth()
        self._misses = 0
        self._shown: str | None = None
        self._published = 0.0
        self.loop: FrameLoop | None = None
        self.calibration: Calibration | None = None
        calibration = load_calibration(self.calibration_path)
        if calibration is not None:
            restore_exposure(camera, calibration)
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
                self._fit_to_game(loop)
                detections = loop.step()
        self._show_health()
        return detections

    def _fit_to_game(self, loop: FrameLoop) -> None:
        """The calibration's seats and the rings read are the game's (rulebook, Setup: the rings
        of Houses no one plays stay in the box; the homography is the same for any count)."""
        table = self.service.table
        read = table is not None and table.record.play in ("camera", "readers")
        places = len(table.state.places) if read and table is not None else 0
        if 2 <= places <= MAX_SEATS and loop.calibration.seats != places:
            loop.calibration = dataclasses.replace(loop.calibration, seats=places)
        houses = getattr(getattr(table.state, "opts", None), "houses", None) if read else None
        loop.houses = tuple(houses) if houses else None

    def _sink(self, t: float, detections: Detections) -> None:
        """One detected frame: its observations to the session (called by the frame loop)."""
        areas = detections.tokens or {}
        covered = {seat for seat, counts in areas.items() if counts is None}
        self.frames_seen.frame(t, bool(covered))
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
                    obs = with_tokens(obs, areas.get(obs.seat))
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

    def session(self) -> SensingBridge | None:
        """The sensed session of the current game played with the camera (made and started when
        needed); None when the game at the table is not played with the camera."""
        service = self.service
        table = service.table
        if table is None or table.record.play not in self.plays or table.state.is_over():
            return None
        if self.bridge is None or self.bridge.game_id != table.record.id:
            previous = self.bridge
            self.bridge = SensingBridge(
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
        if service.table is not None and service.table.state.phase in INITIAL_POURS:
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
            or not isinstance(bridge, SensingBridge)
            or bridge.game_id != table.record.id
        ):
            return None
        if self.witness is None or self.witness.bridge is not bridge:
            self.witness = CameraWitness(bridge, self.registry, self.fusion)
        return self.witness

    def _draw_initial_pour(self, bridge: SensingBridge) -> None:
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
                if state.to_move() is not CHANCE or state.phase == Phase.SHOOTOUT:
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

    def calibrate(
        self, *, accept_ellipse: bool = False, seats: int | None = None, in_play: bool = False
    ) -> dict:
        """Calibrate from a fresh frame of the empty table and store it: from the markers, or
        the outline when ``accept_ellipse``; ``in_play``: a person's game is in play, the table's
        contents are not looked at (:func:`camera_calibration.calibrate_frame`). Returns
        ``{"method", "markers": {id: [x, y]}, "seats": [{"seat", "spot", "reveal"}], "warning",
        "exposure"}`` (frame pixels; ``exposure``: how a Pi camera that clipped the empty table
        was lowered first, :func:`camera_calibration.calibrate_exposed`, or None)."""
        table = self.service.table
        if seats is None:
            goblets = table is not None and table.record.game == "goblets"
            seats = len(table.state.places) if goblets else 4
            seats = max(2, min(MAX_SEATS, seats))
        with self.lock:
            frame = self.tap.read()
            if frame is None:
                frame = self.tap.latest
            if frame is None:
                raise IllegalAction("the camera gives no frame", rule=CALIBRATE_RULE)
            calibration, warning, markers, note = calibrate_exposed(
                self.tap, frame, seats, accept_ellipse=accept_ellipse, in_play=in_play
            )
            save_calibration(self.calibration_path, calibration)
            self.warning = warning
            self._use(calibration)
        self._show_health(force=True)
        return {
            "method": calibration.method,
            "markers": markers,
            "seats": seat_points(calibration),
            "warning": warning,
            "exposure": note,
            "image_size": list(calibration.image_size),
        }

    def view(self) -> dict[str, Any]:
        """The Host's camera panel: the calibration (or that there is none) and the warning."""
        calibration = self.calibration
        return {
            "calibrated": calibration is not None,
            "method": None if calibration is None else calibration.method,
            "warning": self.warning,
            "seats": [] if calibration is None else seat_points(calibration),
        }

    def frame_jpeg(self) -> bytes | None:
        """The latest frame as JPEG with the markers' and seats' places drawn (None: no frame)."""
        frame = self.tap.latest
        if frame is None:
            return None
        return annotated_jpeg(frame, self.calibration)

    # -- health ---------------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """``{"fps", "last_frame" (seconds ago, None: never), "errors", "status"}``: nothing
        secret (no image, no counts), for every viewer."""
        loop = self.loop
        return self.frames_seen.report(
            self.clock(),
            calibrated=self.calibration is not None,
            errors=0 if loop is None else loop.errors,
        )

    def _show_health(self, force: bool = False) -> None:
        """Publish when the camera's status changes (and now and then, for its frame rate)."""
        status = self.health()["status"]
        now = self.clock()
        if force or status != self._shown or now - self._published >= HEALTH_EVERY:
            self._shown, self._published = status, now
            self.service.publish()
