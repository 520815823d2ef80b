"""The camera adapter: picamera2 on a Pi, cv2.VideoCapture elsewhere, or the virtual twin.

DESIGN.md: "--camera (picamera2 on a Pi, cv2.VideoCapture elsewhere)" and "Every link has a
virtual twin selected by config". :func:`open_camera` picks the source:

- ``"pi"``: a Raspberry Pi camera through picamera2 (BGR frames of the asked size);
- a number (``"0"``) or a URL / file path (``"rtsp://..."``, ``"http://.../stream.mjpg"``,
  ``"session.mp4"``): ``cv2.VideoCapture``;
- ``"synthetic"``: :class:`SyntheticCamera`, rendered frames of a scene the caller can change;
- ``"auto"``: picamera2 if importable and a camera answers, else VideoCapture 0 if it opens,
  else the synthetic camera. The choice and why is logged (``vision.camera``; a warning when it
  ends at the synthetic camera, which is no camera at all).

picamera2 comes from Raspberry Pi OS's apt (``python3-picamera2``), not PyPI, so a venv sees it
only when made with ``--system-site-packages`` (``scripts/run`` does that when the system Python
can import it). ``"pi"`` without it fails with that said (:data:`PICAMERA_HELP`).

``exposure`` (``[camera] exposure``, stops, -8 to 8): the Pi camera's exposure compensation
(libcamera's ``ExposureValue``, with its automatic exposure on). A lamp over white linen can make
the camera clip the cloth, and a white Antidote then vanishes: the calibration then lowers it a
stop at a time (:meth:`PiCamera.set_exposure`, ``companion.service.camera.CameraTable.calibrate``)
and keeps the exposure it calibrated at. A VideoCapture source has no portable control for it
(set it with ``v4l2-ctl``): the calibration warns instead
(``companion.service.camera_calibration.exposure_warning``), and a non-zero ``exposure`` there
is logged and left alone.

:class:`FrameLoop` reads frames at a steady rate on its own thread, runs
:func:`vision.detect.detect` on each and hands ``(t, detections)`` to a sink; a frame that cannot
be read is counted, never fatal, and :meth:`FrameLoop.stop` ends the thread cleanly. This module
is the only one in ``vision`` that touches devices or a clock.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Protocol

import cv2
import numpy as np

from companion.core.errors import MalformedInput
from vision import render
from vision.calibrate import Calibration
from vision.detect import Detections, detect

log = logging.getLogger(__name__)
PICAMERA_HELP = (
    "on a Raspberry Pi install it with `sudo apt install python3-picamera2` and make the venv "
    "with `python3 -m venv --system-site-packages .venv` (scripts/run does when the system "
    "Python can import picamera2)"
)


class Camera(Protocol):
    """A source of BGR frames."""

    def read(self) -> np.ndarray | None:
        """The next frame, or None when none could be read."""

    def close(self) -> None:
        """Release the device."""


class OpenCVCamera:
    """``cv2.VideoCapture`` on a device index or a URL / file; ``size`` asks for a resolution."""

    def __init__(self, source: int | str, size: tuple[int, int] | None = None) -> None:
        self.source = source
        self._capture = cv2.VideoCapture(source)
        if not self._capture.isOpened():
            self._capture.release()
            raise MalformedInput(f"cannot open camera {source!r}", field="camera")
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray | None:
        """The next frame, or None (end of a file, a dropped stream)."""
        ok, frame = self._capture.read()
        return frame if ok else None

    def close(self) -> None:
        """Release the capture."""
        self._capture.release()


EXPOSURE_FRAMES = 20
"""Frames dropped after the exposure compensation changes. The sensor takes a new exposure a
couple of frames after it is asked, and the Raspberry Pi AGC moves a fifth of the way to its
target each frame (libcamera's ``agc_channel.cpp``: ``speed`` 0.2, its square root within 20%
of the target): a stop down is within 2% after about 14 frames. Two thirds of a second at 30
frames/s, modelled, not measured on a Pi (hardware/README.md)."""


class PiCamera:
    """A Raspberry Pi camera through picamera2 (imported only here, only when asked for)."""

    def __init__(self, size: tuple[int, int] = (1280, 720), exposure: float = 0.0) -> None:
        problem = _picamera_problem()
        if problem is not None:
            raise MalformedInput(
                f"picamera2 cannot be imported by {sys.executable} ({problem}): {PICAMERA_HELP}",
                field="camera",
            )
        from picamera2 import Picamera2  # only on a Pi

        self._cam = Picamera2()
        # picamera2's "RGB888" is laid out B, G, R in memory: OpenCV's order.
        config = self._cam.create_video_configuration(main={"size": size, "format": "RGB888"})
        self._cam.configure(config)
        self.exposure = float(exposure)
        """The exposure compensation in stops now asked of the camera (:meth:`set_exposure`)."""
        if exposure:
            # libcamera's exposure compensation in stops, applied by its automatic exposure.
            self._cam.set_controls({"ExposureValue": float(exposure)})
        self._cam.start()

    def set_exposure(self, stops: float) -> None:
        """Ask for ``stops`` of exposure compensation, and drop the frames shot while the
        automatic exposure follows (:data:`EXPOSURE_FRAMES`), so the next :meth:`read` is
        shot at it (the calibration lowers it when the camera clips the empty table)."""
        self.exposure = float(stops)
        self._cam.set_controls({"ExposureValue": self.exposure})
        for _ in range(EXPOSURE_FRAMES):
            self._cam.capture_array()

    def read(self) -> np.ndarray | None:
        """The next frame."""
        return self._cam.capture_array()

    def close(self) -> None:
        """Stop and release the camera."""
        self._cam.stop()
        self._cam.close()


class SyntheticCamera:
    """The virtual twin: renders :attr:`scene` through a fixed camera pose, fresh noise for
    every frame. Set :attr:`scene` to move goblets or reveal tokens; :attr:`calibration` is
    the true calibration (or calibrate from :meth:`empty_frame` as on a real table).

    ``still``: a scene is drawn once, when it changes (:attr:`renders` counts the drawings), and
    each frame of it gets fresh sensor noise and JPEG, the last two stages of
    :func:`vision.render.render`, so tokens lying still stay where they lie and a still table
    costs a few milliseconds a frame instead of a whole render (the demo of ``companion serve
    --camera synthetic``); otherwise every frame is rendered anew.
    """

    def __init__(
        self,
        seed: int = 0,
        seats: int = 6,
        noise: render.Noise | str = "realistic",
        size: tuple[int, int] = (1280, 720),
        scene: render.Scene | None = None,
        still: bool = False,
    ) -> None:
        self._rng = np.random.default_rng(seed)
        self.noise = noise
        self.size = size
        self.scene = scene or render.random_scene(self._rng, seats, reveal=False)
        level = render.NOISE[noise] if isinstance(noise, str) else noise
        self.pose = render.camera_pose(self._rng, size, level)
        self.calibration = Calibration(
            self.scene.seats, np.linalg.inv(self.pose), size, "synthetic"
        )
        self.frames = 0
        self.still = still
        self.renders = 0
        self._level = level
        self._drawn: tuple[render.Scene, np.ndarray] | None = None

    def read(self) -> np.ndarray | None:
        """A frame of the current scene."""
        self.frames += 1
        scene = self.scene
        if not self.still:
            self.renders += 1
            image, _ = render.render(scene, self._rng, self.noise, self.size, pose=self.pose)
            return image
        if self._drawn is None or self._drawn[0] != scene:
            # Drawn, lit and blurred once; the sensor's noise and the JPEG are the frame's own.
            quiet = dataclasses.replace(self._level, noise=0.0, jpeg=None)
            drawn, _ = render.render(scene, self._rng, quiet, self.size, pose=self.pose)
            self._drawn = (scene, drawn)
            self.renders += 1
        return self._sensor(self._drawn[1])

    def _sensor(self, drawn: np.ndarray) -> np.ndarray:
        """``drawn`` through the sensor as :func:`vision.render.render` does: shot noise (brighter
        pixels noisier), then JPEG."""
        level = self._level
        image = drawn
        if level.noise > 0:
            frame = drawn.astype(np.float32)
            shot = np.sqrt(np.clip(frame, 1, 255) / 128)
            noise = self._rng.standard_normal(frame.shape, dtype=np.float32) * level.noise
            image = np.clip(frame + noise * shot, 0, 255).astype(np.uint8)
        if level.jpeg is not None:
            _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(level.jpeg)])
            image = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return image.copy() if image is drawn else image

    def empty_frame(self) -> np.ndarray:
        """A frame of the bare table (for calibration)."""
        empty = render.Scene(self.scene.seats)
        return render.render(empty, self._rng, self.noise, self.size, pose=self.pose)[0]

    def close(self) -> None:
        """Nothing to release."""


def _picamera_problem() -> str | None:
    """Why picamera2 cannot be imported here, or None when it can."""
    try:
        import picamera2  # noqa: F401 - probing for a Pi
    except ImportError as error:
        return f"{type(error).__name__}: {error}"
    return None


def _auto(size: tuple[int, int], seed: int, seats: int, exposure: float) -> Camera:
    """picamera2, else VideoCapture 0, else the synthetic camera; says which and why."""
    problem = _picamera_problem()
    if problem is None:
        try:
            camera = PiCamera(size, exposure)
        except Exception as error:  # picamera2 with no camera on the ribbon raises its own
            pi_why = f"picamera2 found no camera ({type(error).__name__}: {error})"
        else:
            log.info("camera auto: the Pi camera (picamera2)")
            return camera
    else:
        pi_why = f"picamera2 cannot be imported ({problem}; {PICAMERA_HELP})"
    try:
        camera = OpenCVCamera(0, size)
    except MalformedInput as error:
        log.warning(
            "camera auto: the SYNTHETIC camera (rendered frames, no real camera): %s; "
            "VideoCapture 0: %s",
            pi_why,
            error,
        )
        return SyntheticCamera(seed=seed, seats=seats, size=size)
    log.info("camera auto: VideoCapture 0, since %s", pi_why)
    return camera


def open_camera(
    source: str = "auto",
    size: tuple[int, int] = (1280, 720),
    seed: int = 0,
    seats: int = 6,
    exposure: float = 0.0,
) -> Camera:
    """The camera named by ``source``, with ``exposure`` stops of compensation on a Pi camera
    (see the module docstring)."""
    if not isinstance(source, str) or not source:
        raise MalformedInput(
            f"must be auto, pi, synthetic, an index or a URL: {source!r}", field="camera"
        )
    if source == "pi":
        return PiCamera(size, exposure)
    if source == "auto":
        camera = _auto(size, seed, seats, exposure)
    elif source == "synthetic":
        camera = SyntheticCamera(seed=seed, seats=seats, size=size)
    else:
        camera = OpenCVCamera(int(source) if source.isdigit() else source, size)
    if exposure and not isinstance(camera, PiCamera):
        log.warning(
            "camera: exposure %+g is for the Pi camera only; set this camera's with v4l2-ctl "
            "(or its own settings)",
            exposure,
        )
    return camera


Sink = Callable[[float, Detections], None]


class FrameLoop:
    """Reads ``camera`` at ``rate_hz`` on a thread, detects, and calls ``sink(t, detections)``.

    ``t`` is ``clock()`` when the frame was read (monotonic seconds by default). Counters:
    ``frames`` detected, ``misses`` (no frame), ``errors`` (a frame the detector refused, e.g.
    of the wrong size); ``last_error`` keeps the latest message for the dashboard. ``houses``:
    the Houses in play, whose rings alone are read (None: all six; set by the game).
    """

    def __init__(
        self,
        camera: Camera,
        calibration: Calibration,
        sink: Sink,
        rate_hz: float = 5.0,
        tokens: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not rate_hz > 0:
            raise MalformedInput(f"must be > 0, got {rate_hz!r}", field="rate_hz")
        self.camera, self.calibration, self.sink = camera, calibration, sink
        self.period = 1.0 / rate_hz
        self.tokens = tokens
        self.houses: tuple[str, ...] | None = None
        self.clock = clock
        self.frames = self.misses = self.errors = 0
        self.last_error: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vision-frames", daemon=True)

    def start(self) -> FrameLoop:
        """Start the thread; returns self."""
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the loop to end, wait for it, release the camera."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.camera.close()

    def is_running(self) -> bool:
        """Whether the thread is still reading frames."""
        return self._thread.is_alive()

    def step(self) -> Detections | None:
        """Read and detect one frame now (the thread's body; also usable without a thread)."""
        t = self.clock()
        frame = self.camera.read()
        if frame is None:
            self.misses += 1
            return None
        try:
            detections = detect(frame, self.calibration, tokens=self.tokens, houses=self.houses)
        except MalformedInput as error:
            self.errors += 1
            self.last_error = str(error)
            return None
        self.frames += 1
        self.sink(t, detections)
        return detections

    def _run(self) -> None:
        next_at = self.clock()
        while not self._stop.is_set():
            self.step()
            next_at += self.period
            # A slow frame does not make the loop race to catch up: it skips ahead.
            next_at = max(next_at, self.clock())
            self._stop.wait(max(0.0, next_at - self.clock()))
