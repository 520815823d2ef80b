"""Calibration recovers the camera's homography; its JSON form refuses bad data by field."""

import numpy as np
import pytest

from companion.core.errors import MalformedInput
from vision import layout
from vision.calibrate import (
    Calibration,
    calibrate,
    error_px,
    find_markers,
    from_ellipse,
    from_markers,
    from_points,
)
from vision.render import Noise, Scene, render, render_frame


@pytest.mark.parametrize("size", [(1280, 720), (640, 480)])
def test_markers_recover_the_homography_within_three_canonical_pixels(size):
    # Any turn of the table, keystone skew, uneven light, noise and JPEG ("realistic").
    for seed in range(6):
        image, truth = render_frame(seed, noise="realistic", size=size, empty=True)
        found = from_markers(image, truth.scene.seats)
        assert found.method == "markers"
        assert found.image_size == size
        assert error_px(found, truth.homography, truth.scene.seats) < 3.0


def test_markers_calibrate_through_goblets_and_tokens_too():
    image, truth = render_frame(7, noise="realistic")
    found = calibrate(image, truth.scene.seats)
    assert found.method == "markers"
    assert error_px(found, truth.homography, truth.scene.seats) < 3.0


def test_four_hand_picked_points_give_the_exact_homography():
    _, truth = render_frame(3, noise="none", empty=True)
    inverse = np.linalg.inv(truth.homography)
    points = []
    for marker in layout.MARKER_IDS:
        p = inverse @ np.array([*layout.marker_centre(marker), 1.0])
        points.append((p[0] / p[2], p[1] / p[2]))
    found = from_points(points, truth.scene.seats, (1280, 720))
    assert error_px(found, truth.homography, truth.scene.seats) < 0.01


def test_table_outline_calibrates_a_camera_looking_straight_down():
    # No markers seen (the affine fallback): seat 0 is at the bottom of the frame.
    overhead = Noise(blur=0.8, noise=4.0, jpeg=85, light=0.25, cast=0.08, skew=0.02)
    for seed in range(3):
        image, truth = render(Scene(6), np.random.default_rng(seed), overhead, turn=0)
        found = from_ellipse(image, 6)
        assert found.method == "ellipse"
        assert error_px(found, truth.homography, 6) < 12.0


def test_calibrate_refuses_the_outline_unless_accepted_when_markers_are_hidden():
    image, truth = render(Scene(4), np.random.default_rng(1), "none", turn=0)
    for marker, (x, y) in find_markers(image).items():
        assert marker in layout.MARKER_IDS
        image[int(y) - 30 : int(y) + 30, int(x) - 30 : int(x) + 30] = (116, 124, 128)
    assert find_markers(image) == {}
    with pytest.raises(MalformedInput, match=r"markers \[0, 1, 2, 3\] not found"):
        from_markers(image, 4)
    # The fallback is refused unless accepted explicitly: it would misplace seat 0 silently.
    with pytest.raises(MalformedInput, match="allow_ellipse=True") as error:
        calibrate(image, 4)
    assert error.value.field == "image" and "markers [0, 1, 2, 3] not found" in str(error.value)
    found = calibrate(image, 4, allow_ellipse=True)
    assert found.method == "ellipse"
    assert error_px(found, truth.homography, 4) < 12.0


def test_calibration_json_round_trip():
    _, truth = render_frame(2, noise="none", empty=True)
    calibration = Calibration(5, truth.homography, (1280, 720), "markers")
    again = Calibration.from_json(calibration.to_json())
    assert again.seats == 5 and again.image_size == (1280, 720) and again.method == "markers"
    assert np.allclose(again.homography, calibration.homography)
    x, y = again.to_frame(*layout.CENTRE)
    assert 0 < x < 1280 and 0 < y < 720
    assert again.exposure is None and "exposure" not in calibration.to_json()
    lowered = Calibration(5, truth.homography, (1280, 720), "markers", -1.0)
    assert Calibration.from_json(lowered.to_json()).exposure == -1.0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seats": 7}, "seats"),
        ({"seats": "6"}, "seats"),
        ({"image_size": [1280]}, "calibration.image_size"),
        ({"image_size": [1280, -1]}, "calibration.image_size"),
        ({"homography": [[1, 0], [0, 1]]}, "calibration.homography"),
        ({"homography": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}, "calibration.homography"),
        ({"homography": "eye"}, "calibration.homography"),
        ({"method": 3}, "calibration.method"),
        ({"colour": "red"}, "calibration.colour"),
        ({"exposure": -9}, "calibration.exposure"),
        ({"exposure": "-1"}, "calibration.exposure"),
        ({"exposure": True}, "calibration.exposure"),
    ],
)
def test_malformed_calibration_names_the_field(change, field):
    data = Calibration(6, np.eye(3), (640, 480)).to_json()
    data.update(change)
    with pytest.raises(MalformedInput) as error:
        Calibration.from_json(data)
    assert error.value.field == field


def test_bad_points_and_seats_are_refused():
    with pytest.raises(MalformedInput) as error:
        from_points([(0, 0), (1, 1), (2, 2)], 6, (640, 480))
    assert error.value.field == "points"
    with pytest.raises(MalformedInput) as error:
        from_points([(0, 0), (1, 1), (2, 2), (3, 3)], 6, (640, 480))
    assert error.value.field == "points"
    with pytest.raises(MalformedInput, match="marker order") as error:
        from_points([(0, 0), (200, 160), (200, 0), (0, 100)], 6, (640, 480))
    assert error.value.field == "points"
    with pytest.raises(MalformedInput) as error:
        from_points([(0, 0), (100, 0), (100, 100), (0, 100)], 1, (640, 480))
    assert error.value.field == "seats"
