"""Hard independent frames (a low side lamp, glossy tokens, a poor camera): causes fixed one by
one stay fixed, each case below failing before its fix (the pattern of
``test_independent.test_causes_fixed_stay_fixed``). Covered areas (a goblet's bowl over the
area) are refused or read right, never misread."""

import pytest
from independent.score import frame, seat_read

from vision.calibrate import Calibration
from vision.detect import detect


@pytest.mark.parametrize(
    ("seed", "level", "seat"),
    [
        # A goblet's dark opening leaning in over the area's inner edge on green felt, a piece
        # of under half a token that no centre explains: it reaches in over the edge, and the
        # area is either not seen or read right (the rule-based reader once counted one Poison
        # too many, a misread).
        (60018, "hard", 0),
    ],
)
def test_a_bowl_over_the_area_is_never_misread(seed, level, seat):
    image, truth = frame(seed, level, (640, 480))
    assert seat in truth.covered
    found = detect(image, Calibration(truth.seats, truth.homography, (640, 480)))
    assert found.tokens[seat] in (None, truth.tokens[seat])


@pytest.mark.parametrize(
    ("seed", "level", "seat", "want"),
    [
        # Antidotes on dark blue at 640x480: their rims blur into the dark cloth and a centre
        # in a clump sits off by a pixel or two, so the darkest tenth of the face is grey; the
        # darkest quarter stays white (the rule-based reader once named each one Poison).
        (62004, "hard", 1, {"wine": 2, "poison": 1, "antidote": 2, "unicorn_antidote": 1}),
        (60058, "hard", 0, {"wine": 2, "poison": 1, "antidote": 4}),
        # A sheened Poison among Wine tokens on a red cloth at 640x480: its blurred rim mixes
        # with the red into what is named Wine (not trusted there), leaving a grey core too
        # small for a blob (the rule-based reader once found no Poison).
        (60052, "hard", 1, {"wine": 4, "poison": 1}),
        # The same Poison touching an Antidote: its core joins the Antidote's blob, a piece
        # too small to count as a token hemmed in (before, no Poison).
        (60049, "hard", 3, {"wine": 2, "poison": 1, "antidote": 2}),
        # A Poison in a clump on dark blue whose core its neighbours' centres leave unexplained
        # (before, one Poison short).
        (62014, "hard", 1, {"wine": 1, "poison": 4, "antidote": 1}),
        # Areas in plain view under a low lamp's hot spot, sharper than the light's fit: the
        # bare grey cloth round the area relit brighter than the fit (the rule-based reader once
        # refused it as covered).
        (60023, "hard", 1, {}),
        (60029, "hard", 1, {"wine": 1, "unicorn_antidote": 1}),
    ],
)
def test_hard_causes_fixed_stay_fixed(seed, level, seat, want):
    truth, found = seat_read(seed, level, (640, 480), seat)
    assert {k: n for k, n in truth.tokens[seat].items() if n} == want
    assert seat not in truth.covered
    assert found == truth.tokens[seat]


def test_an_antidote_shown_only_by_its_clipped_sheen_is_found():
    # An Antidote on cream linen whose brightest channel relit stays under the cloth's: all
    # that shows of it is its sheen, clipped (the rule-based reader once refused the area).
    # At 1280x720 only since 2026-12-07: at 640x480 the network's peak there is 0.57, its mirror
    # images' 0.37, and the area read in them (tokennet.mirrored_maps) misses it, one of the
    # hard areas that reading lost for the many it won (docs/benchmarks.md, "2026-12-07
    # (later)").
    truth, found = seat_read(60039, "hard", (1280, 720), 3)
    assert {k: n for k, n in truth.tokens[3].items() if n} == {"wine": 2, "antidote": 1}
    assert found == truth.tokens[3]


def test_a_bowl_on_grey_cloth_is_never_misread():
    # A pewter bowl over the area on a grey cloth is the cloth's own colour: the area cannot be
    # refused by what covers its band, but the tokens against the bowl are counted right (the
    # pieces their neighbours' centres leave unexplained are tokens: before, one Wine short).
    image, truth = frame(60023, "hard", (640, 480))
    assert 2 in truth.covered
    found = detect(image, Calibration(truth.seats, truth.homography, (640, 480)))
    assert found.tokens[2] in (None, truth.tokens[2])
