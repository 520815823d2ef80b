"""A camera that clips the cloth: the calibration lowers a Pi camera's exposure itself or warns
the Host, and less exposure brings back what the clip hid
(``companion.service.camera_calibration``: ``calibrate_exposed``, ``exposure_warning``).

Judged on the independent renderer's frames (``tests/vision/independent/``), whose ``stops``
turns the camera's exposure down as ``[camera] exposure`` does on a Pi camera.
"""

import json
import math
import random
import re
import sys
import types

import cv2
import pytest
from independent.render import render
from independent.score import Tally, judge

from companion import config
from companion.cli import main
from companion.core import registry
from companion.service import Service
from companion.service.camera import CameraTable
from companion.service.camera_calibration import (
    MAX_SATURATED,
    calibrate_frame,
    not_empty_warning,
)
from vision.calibrate import Calibration
from vision.camera import open_camera
from vision.detect import detect
from vision.frame import saturated_share, warp
from vision.render import render_frame

SIZE = (640, 480)


def _empty_table(seed: int, level: str, stops: float = 0.0):
    return render(seed, level, SIZE, empty=True, stops=stops)


def test_a_clipped_cloth_is_calibrated_with_a_warning_to_lower_the_exposure():
    # Hard 64031: white linen under a lamp; the camera clips 3% of the table (its hot spot).
    image, truth = _empty_table(64031, "hard")
    assert saturated_share(warp(image, truth.homography)) > MAX_SATURATED
    calibration, warning, markers = calibrate_frame(image, truth.seats, accept_ellipse=False)
    assert calibration.method == "markers" and len(markers) == 4
    assert warning is not None
    assert re.search(r"saturates 3% of the empty table", warning)
    assert "[camera] exposure" in warning
    assert "straight down" not in warning  # the markers were read: no outline warning

    # Half a stop down, nothing clips and nothing is said.
    image, truth = _empty_table(64031, "hard", stops=-0.5)
    assert saturated_share(warp(image, truth.homography)) <= MAX_SATURATED
    assert calibrate_frame(image, truth.seats, accept_ellipse=False)[1] is None


def test_a_well_exposed_table_gets_no_warning():
    image, truth = _empty_table(63000, "realistic")
    assert calibrate_frame(image, truth.seats, accept_ellipse=False)[1] is None


def test_a_table_that_is_not_bare_is_calibrated_with_a_warning_naming_what_is_on_it():
    # Realistic 63001 set for play: Goblets on their rings, tokens poured out.
    image, truth = render(63001, "realistic", SIZE)
    calibration, warning, _ = calibrate_frame(image, truth.seats, accept_ellipse=False)
    assert calibration.method == "markers"
    assert warning is not None and warning.startswith("the table is not bare")
    rings = [seat for seat, house in sorted(truth.rings.items()) if house is not None]
    poured = [seat for seat, counts in sorted(truth.tokens.items()) if any(counts.values())]
    assert len(rings) > 1 and len(poured) > 1
    listed = lambda seats: ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"  # noqa: E731
    assert f"Coaster rings at seats {listed(rings)}" in warning
    assert f"tokens in the reveal area of seats {listed(poured)}" in warning
    assert "calibrate again" in warning


@pytest.mark.parametrize(
    ("seed", "level"), [(63000, "realistic"), (63002, "hard"), (64031, "hard")]
)
def test_a_bare_table_names_nothing_on_it(seed, level):
    # 64031 is the clipped linen above: its warning is the exposure's alone.
    image, truth = _empty_table(seed, level)
    assert not_empty_warning(image, Calibration(truth.seats, truth.homography, SIZE)) is None
    twin, twin_truth = render_frame(seed, noise="realistic", size=SIZE, empty=True)
    calibration = Calibration(twin_truth.scene.seats, twin_truth.homography, SIZE)
    assert not_empty_warning(twin, calibration) is None


def test_what_the_clip_hid_is_not_seen_and_is_read_once_the_exposure_is_lowered():
    # The same scene: seat 1's two Antidotes lie on clipped linen. As shot, the area is held as
    # not seen (never misread); a stop down the scene is read exactly.
    image, truth = render(64031, "hard", SIZE)
    calibration = Calibration(truth.seats, truth.homography, SIZE)
    assert truth.tokens[1]["antidote"] == 2 and 1 not in truth.covered
    assert detect(image, calibration).tokens[1] is None

    tally = Tally()
    image, truth = render(64031, "hard", SIZE, stops=-1)
    judge(tally, 64031, image, truth)
    assert tally.failures == [] and tally.exact == 1


def test_the_calibrate_command_warns_too(tmp_path, capsys):
    image, truth = _empty_table(64031, "hard")
    path = tmp_path / "empty.png"
    cv2.imwrite(str(path), image)
    assert main(["vision", "calibrate", str(path), "--seats", str(truth.seats)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["method"] == "markers"
    assert captured.err.startswith("warning: the camera saturates")
    cv2.imwrite(str(path), _empty_table(64031, "hard", stops=-1)[0])
    assert main(["vision", "calibrate", str(path), "--seats", str(truth.seats)]) == 0
    assert capsys.readouterr().err == ""


class JudgePicamera2:
    """picamera2's ``Picamera2`` over a scene of the independent renderer: what a Pi camera over
    that table would shoot at the exposure compensation its automatic exposure has reached.

    Modelled on libcamera's Raspberry Pi AGC (``src/ipa/rpi/controller/rpi/agc_channel.cpp``,
    ``filterExposure``), not measured: the exposure it aims at reaches the sensor :data:`DELAY`
    frames later (the sensor's exposure delay), and each frame the exposure moves a fifth of
    the way to its target (``speed`` 0.2, the square root of it within 20% of the target,
    still within 2%). A reader that takes the next frame at once still sees the old exposure.
    ``empty``: the table with nothing on it (set it to False to lay the scene)."""

    DELAY = 2
    SPEED = 0.2

    def __init__(self, seed: int, level: str = "realistic") -> None:
        self.seed, self.level, self.empty = seed, level, True
        self.asked = self.reached = 0.0
        self.delay = 0  # frames until the sensor takes the exposure asked
        self.shots: dict[tuple[bool, float], object] = {}

    def create_video_configuration(self, main):
        return {"main": main}

    def configure(self, config):
        self.size = tuple(config["main"]["size"])

    def set_controls(self, controls):
        self.delay = self.DELAY
        self.asked = float(controls["ExposureValue"])

    def start(self):
        pass

    def capture_array(self):
        if self.delay:
            self.delay -= 1
        else:  # the filter works on the exposure itself (linear), not on stops
            now, target = 2.0**self.reached, 2.0**self.asked
            if abs(now - target) > 0.02 * now:
                speed = self.SPEED**0.5 if 0.8 * target < now < 1.2 * target else self.SPEED
                self.reached = math.log2(speed * target + (1 - speed) * now)
        stops = round(self.reached * 4) / 4  # a render per quarter of a stop
        key = (self.empty, stops)
        if key not in self.shots:
            self.shots[key] = render(
                self.seed, self.level, self.size, empty=self.empty, stops=stops
            )[0]
        return self.shots[key].copy()

    def stop(self):
        pass

    def close(self):
        pass


@pytest.fixture
def service(tmp_path):
    """The service a camera is attached to, on a data folder of its own."""
    settings = config.replace(config.Config(), data_dir=str(tmp_path))
    svc = Service(settings, games=registry.load_all(), rng=random.Random(3))
    yield svc
    svc.close()


@pytest.fixture
def pi_camera(monkeypatch):
    """A Pi camera over realistic scene 140115: white linen under a lamp whose hot spot the
    camera clips on 39% of the empty table (seat 0's clear area is then held as not seen)."""
    lens = JudgePicamera2(140115)
    module = types.ModuleType("picamera2")
    module.Picamera2 = lambda: lens
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return lens


def test_the_calibration_lowers_a_clipping_pi_cameras_exposure_and_the_scene_is_read(
    pi_camera, service, tmp_path
):
    """The Host calibrates once: the calibration finds the camera clipping the empty table,
    lowers the Pi camera's exposure a stop, calibrates on the frame shot there, keeps the
    exposure, and the laid table is then read exactly (as shot at +0 its seat 0 is refused)."""
    path = tmp_path / "vision-calibration.json"
    table = CameraTable(service, open_camera("pi", size=(640, 480)), calibration_path=path)
    try:
        found = table.calibrate(seats=3)
        assert found["warning"] is None
        assert found["exposure"] == (
            "the camera clipped 39% of the empty table at +0 stops, so the calibration lowered "
            "its exposure to -1 stops, where it clips 0%"
        )
        assert pi_camera.asked == -1.0 and table.calibration.exposure == -1.0
        assert json.loads(path.read_text())["exposure"] == -1.0

        pi_camera.empty = False
        image, truth = render(140115, "realistic", (640, 480))
        assert detect(image, table.calibration).tokens[0] is None  # at +0: not seen
        seen = detect(pi_camera.capture_array(), table.calibration)
        assert {seat: seen.tokens[seat] for seat in truth.tokens} == truth.tokens
    finally:
        table.stop()

    # The service starts again with the settings' exposure (+0): the calibration's is set.
    pi_camera.asked = pi_camera.reached = 0.0
    pi_camera.empty = True  # (the frames shot meanwhile are the ones rendered above)
    again = CameraTable(service, open_camera("pi", size=(640, 480)), calibration_path=path)
    try:
        assert pi_camera.asked == -1.0 and again.tap.camera.exposure == -1.0
    finally:
        again.stop()


def test_a_camera_without_an_exposure_control_is_warned_not_changed(service, tmp_path):
    """A USB camera (VideoCapture) takes no exposure compensation here: its calibration keeps
    the warning to lower it, and no exposure is stored."""

    class Shots:
        def __init__(self):
            self.frame = render(140115, "realistic", SIZE, empty=True)[0]

        def read(self):
            return self.frame.copy()

        def close(self):
            pass

    path = tmp_path / "vision-calibration.json"
    table = CameraTable(service, Shots(), calibration_path=path)
    try:
        found = table.calibrate(seats=3)
        assert found["exposure"] is None
        assert found["warning"].startswith("the camera saturates 39% of the empty table")
        assert "exposure" not in json.loads(path.read_text())
    finally:
        table.stop()
