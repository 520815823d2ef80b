"""Hard independent frames (a low side lamp, glossy tokens, a poor camera): causes fixed one by
one stay fixed, each case below failing before its fix (the pattern of
``test_independent.test_causes_fixed_stay_fixed``). Covered areas (a goblet's bowl over the
area) must be refused, never misread: there "not seen" is the only right answer these hold."""

import functools

import pytest
from independent.render import render

from vision.calibrate import Calibration
from vision.detect import detect


@functools.lru_cache(maxsize=8)
def frame(seed, level, size):
    """One independent frame and its truth, drawn once per test session."""
    return render(seed, level, size)


@pytest.mark.parametrize(
    ("seed", "level", "seat"),
    [
        # A goblet's dark opening leaning in over the area's inner edge on green felt, a piece
        # of under half a token that no centre explains: it reaches in over the edge, and the
        # area is not seen (before: counted as one Poison too many, a misread).
        (60018, "hard", 0),
    ],
)
def test_a_bowl_over_the_area_is_not_seen(seed, level, seat):
    image, truth = frame(seed, level, (640, 480))
    assert seat in truth.covered
    found = detect(image, Calibration(truth.seats, truth.homography, (640, 480)))
    assert found.tokens[seat] is None
