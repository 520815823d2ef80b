"""The camera adapter: the synthetic twin, VideoCapture on a recorded file, the frame loop."""

import logging
import subprocess
import sys
import threading
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.core.errors import MalformedInput
from vision.calibrate import calibrate, error_px
from vision.camera import FrameLoop, OpenCVCamera, SyntheticCamera, open_camera
from vision.render import Scene

REPO = Path(__file__).resolve().parents[2]


def test_synthetic_camera_keeps_its_pose_and_calibrates_like_a_real_table():
    camera = SyntheticCamera(seed=3, seats=4)
    a, b = camera.read(), camera.read()
    assert a.shape == b.shape == (720, 1280, 3) and a.dtype == np.uint8
    assert not np.array_equal(a, b)  # fresh sensor noise every frame
    found = calibrate(camera.empty_frame(), 4)
    assert error_px(found, camera.calibration.homography, 4) < 3.0
    assert camera.frames == 2


def test_open_camera_chooses_sources_and_refuses_bad_ones(tmp_path):
    assert isinstance(open_camera("synthetic", size=(640, 480), seats=3), SyntheticCamera)
    with pytest.raises(MalformedInput) as error:
        open_camera(str(tmp_path / "missing.mp4"))
    assert error.value.field == "camera"
    with pytest.raises(MalformedInput):
        open_camera("")


def test_video_capture_reads_a_recorded_session_to_its_end(tmp_path):
    camera = SyntheticCamera(seed=1, seats=4, size=(640, 480), noise="none")
    path = tmp_path / "session.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (640, 480))
    frames = [camera.read() for _ in range(3)]
    for frame in frames:
        writer.write(frame)
    writer.release()
    video = open_camera(str(path))
    assert isinstance(video, OpenCVCamera)
    got = [video.read() for _ in range(4)]
    video.close()
    assert [g is None for g in got] == [False, False, False, True]
    assert got[0].shape == (480, 640, 3)
    assert np.abs(got[0].astype(int) - frames[0]).mean() < 6  # MJPG is lossy


def test_frame_loop_detects_at_a_rate_and_stops_cleanly():
    scene = Scene(4, {0: "araneros", 1: "van_visser", 2: "mctoadery", 3: "de_miceti"})
    camera = SyntheticCamera(seed=2, seats=4, size=(640, 480), scene=scene)
    seen = []
    enough = threading.Event()

    def sink(t, detections):
        seen.append((t, detections))
        if len(seen) >= 3:
            enough.set()

    loop = FrameLoop(camera, camera.calibration, sink, rate_hz=50, tokens=False).start()
    assert enough.wait(60)
    loop.stop()
    assert not loop.is_running()
    count = len(seen)
    assert loop.frames == count >= 3 and loop.misses == loop.errors == 0
    assert [t for t, _ in seen] == sorted(t for t, _ in seen)
    assert all(d.rings.seats == dict(scene.rings) for _, d in seen)
    assert loop.step() is not None and len(seen) == count + 1  # stepping by hand still works


class _Flaky:
    def __init__(self, frames):
        self.frames = list(frames)

    def read(self):
        return self.frames.pop(0) if self.frames else None

    def close(self):
        self.frames = []


def test_frame_loop_counts_missing_and_refused_frames():
    camera = SyntheticCamera(seed=2, seats=4, size=(640, 480))
    flaky = _Flaky([None, np.zeros((10, 10, 3), np.uint8), camera.read()])
    seen = []
    loop = FrameLoop(flaky, camera.calibration, lambda t, d: seen.append(d), clock=lambda: 7.0)
    assert [loop.step() is None for _ in range(3)] == [True, True, False]
    assert (loop.misses, loop.errors, loop.frames, len(seen)) == (1, 1, 1, 1)
    assert "at least 64" in loop.last_error
    with pytest.raises(MalformedInput) as error:
        FrameLoop(flaky, camera.calibration, print, rate_hz=0)
    assert error.value.field == "rate_hz"


def test_auto_falls_back_from_the_pi_to_video_capture_to_the_synthetic_camera(monkeypatch):
    import vision.camera as camera_module

    def no_device(source, size=None):
        raise MalformedInput(f"cannot open camera {source!r}", field="camera")

    monkeypatch.setattr(camera_module, "_picamera_problem", lambda: "ImportError: none here")
    monkeypatch.setattr(camera_module, "OpenCVCamera", no_device)
    assert isinstance(open_camera("auto", size=(640, 480)), SyntheticCamera)
    opened = []
    monkeypatch.setattr(camera_module, "OpenCVCamera", lambda s, size=None: opened.append(s) or s)
    assert open_camera("auto") == 0 and open_camera("2") == 2
    assert open_camera("rtsp://pi.local/table") == "rtsp://pi.local/table"
    assert opened == [0, 2, "rtsp://pi.local/table"]
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as on a machine without it
    with pytest.raises(MalformedInput, match="picamera2 cannot be imported"):
        open_camera("pi")


def _fake_picamera2(monkeypatch, fail=None):
    """A picamera2 module whose Picamera2 is a camera on the ribbon (or ``fail`` raised)."""
    module = types.ModuleType("picamera2")

    class Picamera2:
        def __init__(self):
            if fail is not None:
                raise fail
            self.started = False

        def create_video_configuration(self, main):
            return {"main": main}

        def configure(self, config):
            self.size = config["main"]["size"]

        def set_controls(self, controls):
            self.controls = dict(controls)

        def start(self):
            self.started = True

        def capture_array(self):
            assert self.started
            return np.zeros((self.size[1], self.size[0], 3), np.uint8)

        def stop(self):
            self.started = False

        def close(self):
            pass

    module.Picamera2 = Picamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)


def _no_video_capture(monkeypatch):
    import vision.camera as camera_module

    def no_device(source, size=None):
        raise MalformedInput(f"cannot open camera {source!r}", field="camera")

    monkeypatch.setattr(camera_module, "OpenCVCamera", no_device)


def test_camera_pi_without_picamera2_fails_saying_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # the venv cannot see apt's package
    with pytest.raises(MalformedInput) as error:
        open_camera("pi")
    for words in ("sudo apt install python3-picamera2", "--system-site-packages", sys.executable):
        assert words in str(error.value)
    # The command a user runs says it too, and stops (no synthetic frames instead).
    assert main(["vision", "watch", "--camera", "pi", "--frames", "1"]) != 0
    captured = capsys.readouterr()
    assert "sudo apt install python3-picamera2" in captured.err and captured.out == ""


def test_camera_auto_logs_which_camera_and_why(monkeypatch, caplog):
    import vision.camera as camera_module

    caplog.set_level(logging.INFO, logger="vision.camera")
    monkeypatch.setitem(sys.modules, "picamera2", None)
    _no_video_capture(monkeypatch)
    assert isinstance(open_camera("auto", size=(640, 480)), SyntheticCamera)
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert "SYNTHETIC" in record.message and "python3-picamera2" in record.message
    assert "cannot open camera 0" in record.message

    caplog.clear()
    _fake_picamera2(monkeypatch, fail=RuntimeError("Camera __init__ sequence did not complete"))
    monkeypatch.setattr(camera_module, "OpenCVCamera", lambda s, size=None: ("capture", s))
    assert open_camera("auto") == ("capture", 0)
    (record,) = caplog.records
    assert record.levelno == logging.INFO
    assert "VideoCapture 0" in record.message and "picamera2 found no camera" in record.message

    caplog.clear()
    _fake_picamera2(monkeypatch)
    camera = open_camera("auto", size=(320, 240))
    assert isinstance(camera, camera_module.PiCamera)
    assert camera.read().shape == (240, 320, 3)
    camera.close()
    assert [r.message for r in caplog.records] == ["camera auto: the Pi camera (picamera2)"]


def test_exposure_compensates_the_pi_camera_and_is_only_logged_elsewhere(monkeypatch, caplog):
    """``[camera] exposure``: libcamera's ``ExposureValue`` (stops) on the Pi camera before it
    starts; 0 leaves the camera's own; other sources cannot take it and say so."""
    _fake_picamera2(monkeypatch)
    darker = open_camera("pi", size=(320, 240), exposure=-1.5)
    assert darker._cam.controls == {"ExposureValue": -1.5}
    assert not hasattr(open_camera("pi", size=(320, 240))._cam, "controls")
    assert open_camera("auto", size=(320, 240), exposure=1)._cam.controls == {"ExposureValue": 1.0}

    caplog.set_level(logging.WARNING, logger="vision.camera")
    assert isinstance(open_camera("synthetic", size=(640, 480), exposure=-1), SyntheticCamera)
    (record,) = caplog.records
    assert "exposure -1 is for the Pi camera only" in record.message
    caplog.clear()
    open_camera("synthetic", size=(640, 480))
    assert caplog.records == []


def _make_venv(tmp_path, picamera2):
    """Run scripts/venv.sh's make_venv with a system Python that has (or lacks) picamera2."""
    apt = tmp_path / "apt-dist-packages"
    apt.mkdir(parents=True, exist_ok=True)
    (apt / "picamera2.py").write_text('"""Stands in for apt\'s python3-picamera2."""\n')
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    python = bindir / "python3.11"
    env = f"PYTHONPATH={apt} " if picamera2 else ""
    python.write_text(f'#!/bin/sh\n{env}exec {sys._base_executable} "$@"\n')
    python.chmod(0o755)
    script = REPO / "scripts" / "venv.sh"
    subprocess.run(
        ["bash", "-c", f"set -euo pipefail; source {script}; make_venv {tmp_path / 'venv'}"],
        env={"PATH": f"{bindir}:/usr/bin:/bin"},
        check=True,
        timeout=240,
        capture_output=True,
    )
    return (tmp_path / "venv" / "pyvenv.cfg").read_text()


@pytest.mark.slow
def test_the_venv_sees_the_systems_packages_only_when_the_system_has_picamera2(tmp_path):
    plain = _make_venv(tmp_path / "a", picamera2=False)
    assert "include-system-site-packages = false" in plain
    pi = _make_venv(tmp_path / "b", picamera2=True)
    assert "include-system-site-packages = true" in pi
    # A venv made before `apt install python3-picamera2` is switched over, keeping its packages.
    (tmp_path / "a" / "venv" / "kept.txt").write_text("installed")
    switched = _make_venv(tmp_path / "a", picamera2=True)
    assert "include-system-site-packages = true" in switched
    assert (tmp_path / "a" / "venv" / "kept.txt").read_text() == "installed"
    assert (tmp_path / "a" / "venv" / "bin" / "pip").exists()
