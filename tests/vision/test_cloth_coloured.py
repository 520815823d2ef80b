"""Tokens of the cloth's own colour and what passes for them on
independent frames (``tests/vision/independent/``) at 640x480: each case failed the rule-based
reader once, before the fix named with it."""

import pytest
from independent.render import render
from independent.score import seat_read

from vision.calibrate import Calibration
from vision.detect import detect


@pytest.mark.parametrize(
    ("seed", "level", "seat", "want"),
    [
        # White linen, a low lamp: a glossy Poison's sheen greys it until the colour path
        # misses it, but its rim rings it like an Antidote's; its face, darker than the linen
        # round it (the tokens found by colour left out), makes it a Poison, not an Antidote.
        (62038, "hard", 2, {"wine": 2, "poison": 1}),
        (62008, "hard", 3, {"wine": 3, "poison": 4}),
    ],
)
def test_a_dark_face_in_a_rim_on_linen_is_a_poison(seed, level, seat, want):
    truth, found = seat_read(seed, level, (640, 480), seat)
    assert {k: n for k, n in truth.tokens[seat].items() if n} == want
    assert seat not in truth.covered
    assert found == truth.tokens[seat]


def test_a_face_lit_all_over_by_a_sheen_votes_alone():
    # A red cloth under a low lamp (hard): two glossy Wine tokens touching, their faces lit all
    # over, the dark of their rims and contact shadows merging them into one ragged blob whose
    # outline found one centre (before: a Wine short).
    image, truth = render(62039, "hard", (1280, 720))
    seat = 2
    assert truth.tokens[seat] == {
        "wine": 3,
        "poison": 1,
        "antidote": 2,
        "unicorn_antidote": 0,
        "ogre_poison": 0,
    }
    found = detect(image, Calibration(truth.seats, truth.homography, (1280, 720)))
    assert found.tokens[seat] == truth.tokens[seat]
