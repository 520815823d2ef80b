"""Bad frames get a clear MalformedInput naming the image, never an OpenCV traceback."""

import numpy as np
import pytest

from companion.core.errors import MalformedInput
from vision.calibrate import Calibration, calibrate
from vision.detect import detect
from vision.frame import check_image
from vision.render import Scene, render, render_frame
from vision.rings import detect_rings
from vision.tokennet import read_areas

CAL = Calibration(6, np.eye(3), (640, 480))


@pytest.mark.parametrize(
    ("image", "words"),
    [
        (np.zeros((480, 640, 3), np.float32), "8-bit"),
        (np.zeros((480, 640, 3), np.uint16), "8-bit"),
        (np.zeros((0, 640, 3), np.uint8), "empty"),
        (np.zeros((480, 640), np.uint8), "grayscale"),
        (np.zeros((480, 640, 1), np.uint8), "grayscale"),
        (np.zeros((480, 640, 4), np.uint8), "H x W x 3"),
        (np.zeros((480, 640, 3, 2), np.uint8), "H x W x 3"),
        (np.zeros((20, 20, 3), np.uint8), "at least 64"),
        ([[0, 0, 0]], "numpy array"),
        (None, "numpy array"),
        (b"\xff\xd8jpeg", "numpy array"),
    ],
)
def test_bad_frames_are_malformed_input(image, words):
    with pytest.raises(MalformedInput, match=words) as error:
        detect(image, CAL)
    assert error.value.field == "image"
    with pytest.raises(MalformedInput):
        calibrate(image, 6)


def test_a_frame_of_another_size_than_the_calibration_is_refused():
    with pytest.raises(MalformedInput, match="calibration is for 640x480") as error:
        detect(np.zeros((720, 1280, 3), np.uint8), CAL)
    assert error.value.field == "image"


def test_a_black_frame_is_too_dark_not_a_table_full_of_poison():
    with pytest.raises(MalformedInput, match="too dark") as error:
        detect(np.zeros((480, 640, 3), np.uint8), CAL)
    assert error.value.field == "image"


def test_a_frame_whose_table_is_not_where_the_calibration_says_is_refused():
    image, truth = render_frame(11, noise="realistic")
    wrong = Calibration(truth.scene.seats, np.eye(3), (1280, 720))
    with pytest.raises(MalformedInput, match="wrong calibration"):
        detect(image, wrong)


def test_an_empty_grey_table_shows_no_ring_and_no_token():
    found = detect(np.full((480, 640, 3), (116, 124, 128), np.uint8), CAL)
    assert found.rings.seats == dict.fromkeys(range(6))
    assert all(sum(c.values()) == 0 for c in found.tokens.values())


def test_a_frame_without_a_table_cannot_calibrate():
    noise = np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    with pytest.raises(MalformedInput, match="markers"):
        calibrate(noise, 6)
    with pytest.raises(MalformedInput, match=r"no (round )?table found"):
        calibrate(noise, 6, allow_ellipse=True)


def test_check_image_returns_the_frame_and_detectors_take_canonical_views():
    frame = np.full((480, 640, 3), 120, np.uint8)
    assert check_image(frame) is frame
    view = np.full((800, 800, 3), (116, 124, 128), np.uint8)
    assert detect_rings(view, 4).seats == dict.fromkeys(range(4))
    assert read_areas(view, 4) == {
        s: dict.fromkeys(["wine", "poison", "antidote", "unicorn_antidote", "ogre_poison"], 0)
        for s in range(4)
    }


def test_a_scene_with_more_tokens_than_a_reveal_area_holds_is_refused():
    with pytest.raises(MalformedInput) as error:
        render(Scene(4, tokens={2: {"wine": 60}}), np.random.default_rng(0))
    assert error.value.field == "tokens.2"
