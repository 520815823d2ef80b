"""The detector judged by the independent renderer (``tests/vision/independent/``).

The bar the detector is meant to reach (every realistic scene exact at 1280x720, 95% at 640x480,
80% on hard frames) is measured, not asserted here: the figures are in docs/benchmarks.md
("Vision", the independent tables, measured by ``scripts/bench_vision.py --independent``; the hard
frames at 640x480 are at the bar, not past it). What these tests hold is what must never regress:
clean frames are read, the cloth model learns any cloth, an area under a hand or glare is reported
as not seen, never as a wrong count, the realistic frames below stay exact (today's figure on their
seeds: every scene), and the causes fixed one by one stay fixed (each case below failed before its
fix), so a change that loses ground fails.
"""

import math

import numpy as np
import pytest
from independent.render import SURFACES, render
from independent.score import Tally, frame, judge, seat_read

from vision.area import boxes
from vision.calibrate import Calibration, error_px, find_markers, from_markers
from vision.detect import detect, relit_view


def tally(seeds, level, size, **options):
    """Judge the detector on independent frames of ``seeds``."""
    result = Tally()
    for seed in seeds:
        image, truth = frame(seed, level, size, **options)
        judge(result, seed, image, truth)
    return result


def test_the_judge_puts_the_markers_where_aruco_finds_them():
    # The renderer's ground truth is right: its marker corners project where OpenCV reads them.
    for seed in (1, 2):
        image, truth = render(seed, "clean", (1280, 720), empty=True)
        found = find_markers(image)
        assert sorted(found) == [0, 1, 2, 3]
        for marker, (x, y) in found.items():
            cx, cy = truth.markers[marker].mean(axis=0)
            assert math.dist((x, y), (cx, cy)) < 1.5


def test_clean_frames_rings_and_token_counts_are_exact():
    result = tally(range(600, 606), "clean", (1280, 720))
    assert result.refused == 0
    assert result.tokens == result.seats > 0
    assert result.rings == result.seats


@pytest.mark.parametrize(
    "surface", ["wood", "green_felt", "dark_blue", "red", "white_linen", "grey"]
)
def test_the_cloth_model_learns_any_cloth_from_the_markers_white(surface):
    # Not palette.CLOTH: the table's own colour, found against the markers' white paper. The
    # renderer spreads each cloth's albedo by +-6% per channel, hence the tolerance.
    image, truth = render(700, "realistic", (640, 480), surface=surface)
    _, cloth = relit_view(image, Calibration(truth.seats, truth.homography, (640, 480)))
    want = np.array(SURFACES[surface][::-1], np.float32) * 236 / (0.93 * 255)
    assert np.abs(cloth.bgr - want).max() <= 0.15 * want.max() + 6, (cloth.bgr, want)


@pytest.mark.parametrize(
    ("size", "seeds"), [((1280, 720), range(800, 812)), ((640, 480), range(812, 820))]
)
def test_realistic_frames_stay_exact(size, seeds):
    # Today (2026-12-02): every ring and every seat's tokens right on seeds 800-811 at 1280x720
    # and 812-819 at 640x480 (before the relighting kept partly clipped pixels, 31/32 at
    # 640x480: a clump of Antidotes on white linen).
    result = tally(seeds, "realistic", size)
    assert result.failures == []
    assert result.exact == result.frames


@pytest.mark.parametrize(
    ("seed", "seat", "want"),
    [
        # White linen under a warm lamp: the camera clipped its red channel over the area, not
        # green or blue. A pixel is lost only when every channel clipped (glare): once, any
        # clipped channel refused the whole area.
        (51008, 1, {"wine": 1}),
        # On a red cloth, a goblet's shadow cut by the area's circle is dark all through: no
        # Wine token (a Wine token the cloth's colour is darker only at its rim).
        (51019, 1, {"wine": 3, "antidote": 2}),
        # A clump of Antidotes on white linen under a lamp shows only their saturated sheens,
        # one on each face: each lost patch no token found explains, a sheen's size and apart
        # from the tokens found, is an Antidote (the rule-based reader once held it not seen,
        # and before that counted one Antidote short).
        (51035, 5, {"wine": 1, "poison": 2, "antidote": 4}),
        # A lamp's hot spot on white linen: the weave clips in a mottle in the area and round
        # it. Those saturated pixels are the cloth's, no lost token (before: not seen).
        (61037, 2, {"wine": 2, "poison": 2}),
        # Wine tokens on a red cloth at 640x480: their rims blur into the cloth and only their
        # sheens stand out, discs too small for a rim's votes; a sheen, off the cloth's
        # chromaticity and wholly inside the area, is a token (before, one Wine short each).
        (61027, 1, {"wine": 4, "poison": 1, "antidote": 2}),
        (61054, 2, {"wine": 3, "antidote": 4, "ogre_poison": 1}),
        # White linen: the bare cloth between dark tokens looks bright beside them, and their
        # margins ring it like a rim; hemmed in by them and no brighter than the linen round it
        # (the tokens left out), it is no Antidote (before, one too many).
        (65050, 3, {"wine": 3, "poison": 2}),
    ],
)
def test_clipped_light_and_cloth_coloured_shadows(seed, seat, want):
    image, truth = render(seed, "realistic", (640, 480))
    found = detect(image, Calibration(truth.seats, truth.homography, (640, 480)))
    assert {k: n for k, n in truth.tokens[seat].items() if n} == want
    assert found.tokens[seat] == truth.tokens[seat]


@pytest.mark.parametrize(
    ("seed", "level", "seat", "want"),
    [
        # White linen near the camera's clip: an Antidote's face cannot stand out above it,
        # only its rim and contact shadow do (an open dark ring). Before, the clipped cloth was
        # lifted to the view's top in a mottle of clipped and unclipped pixels, and the area
        # refused.
        (53013, "realistic", 0, {"wine": 2, "antidote": 1}),
        # A goblet's bowl leaning over the area's inner edge without reaching 9 px into it
        # (the truth: it covers under 1% of the area): read, not refused.
        (51017, "realistic", 0, {"wine": 2}),
        # Specks of a dark cloth's chroma noise in the band round the area (none as wide as
        # a token's radius across the band): nothing that could hide a token, read.
        (53006, "realistic", 0, {"wine": 6, "poison": 1, "ogre_poison": 1}),
        # Glossy Poison tokens whose sheen greys their faces to the cloth, leaving crescents of
        # rim: their centres' faces are looked for within the blob's convex hull (before: one
        # Poison short and one Wine too many).
        (52015, "hard", 4, {"wine": 1, "poison": 3, "antidote": 3}),
        # A goblet's shadow reaching in over the area's edge, closed by the area's circle into
        # a token-sized dark disc: no Poison (the rule-based reader once counted one too many).
        (61005, "realistic", 2, {"poison": 4, "antidote": 3}),
        # A goblet's bowl over the inner band of an area on a dark blue cloth, joined to the
        # Wine tokens against it by their thin dark fringe: the tokens found explain all that
        # reaches in thick, so the area is read (before: not seen, as if a hand reached in).
        (61021, "realistic", 2, {"wine": 5, "poison": 2}),
        # On wood, a Wine token hemmed in by two others (no rim of its own) in a clump a bowl at
        # the inner edge joins: a token inside the edge, not what reaches in over it (before:
        # not seen).
        (61075, "realistic", 3, {"wine": 3, "poison": 1, "ogre_poison": 1}),
        # A goblet's stem-and-bowl shadow beside an Antidote under a low side lamp: its end
        # votes like a rim, but its face keeps the cloth's chromaticity and its blob is far
        # broader than a token: no Poison (the rule-based reader once counted one too many).
        # Likewise 62013 seat 0.
        (62002, "hard", 1, {"antidote": 1}),
        (62013, "hard", 0, {"wine": 3, "poison": 1, "antidote": 2}),
        # Glossy Poisons whose sheen tints their faces into scraps of other colours' classes
        # (Antidote, Ogre Poison), splitting their rims among the colours' votes: the whole
        # mask's rim votes too (before, one Poison short, on a dark blue and a red cloth).
        (62010, "hard", 3, {"wine": 5, "poison": 1, "antidote": 1}),
        (62024, "hard", 2, {"wine": 4, "poison": 2, "antidote": 1}),
        # Poisons hemmed in by others, or greyed by a sheen, show only short arcs of rim: a
        # token is found from a fifth of its rim (the rule-based reader was once one Poison short
        # on a red cloth, realistic and hard).
        (61014, "realistic", 1, {"wine": 2, "poison": 1, "antidote": 1, "ogre_poison": 1}),
        (62021, "hard", 2, {"poison": 3, "antidote": 1}),
        # Antidotes under the lamp's hot spot on green felt: their darkest tenth is no longer
        # divided by a shade above 1 (a white face clips at the view's top there), and they
        # are no Poisons (before, both named Poison at 1280x720, one at 640x480).
        (62037, "hard", 1, {"wine": 2, "antidote": 2}),
        # An Antidote tinted lavender by the lamp's cast and the relit cloth: chromatic, but
        # barely saturated: no Unicorn Antidote.
        (62039, "hard", 0, {"wine": 2, "antidote": 1}),
    ],
)
def test_causes_fixed_stay_fixed(seed, level, seat, want):
    truth, found = seat_read(seed, level, (640, 480), seat)
    assert {k: n for k, n in truth.tokens[seat].items() if n} == want
    assert seat not in truth.covered
    assert found == truth.tokens[seat]


@pytest.mark.parametrize("size", [(1280, 720), (640, 480)])
def test_white_linen_whose_weave_reaches_the_clip_is_not_mottled(size):
    # Realistic 120034 on white linen: the cloth's green lies a few percent under the camera's
    # clip and its brighter threads clip it. A clipped pixel is lifted to the view's top only
    # where the clip lies well above the cloth (frame.CLOTH_CLIPS): at 0.97 a quarter of seat
    # 2's area was lifted into specks and the reader counted a third Antidote.
    image, truth = render(120034, "realistic", size, surface="white_linen")
    calibration = Calibration(truth.seats, truth.homography, size)
    view, cloth = relit_view(image, calibration)
    y0, y1, x0, x1 = boxes(truth.seats)[2]
    cloth_pixels = cloth.mask(view[y0:y1, x0:x1])
    at_the_top = view[y0:y1, x0:x1].max(axis=2) >= 250
    # 21-27% of the cloth's pixels at 0.97, under 2% now (clipped on every channel, or bright)
    assert np.count_nonzero(at_the_top & cloth_pixels) < 0.05 * np.count_nonzero(cloth_pixels)
    assert truth.tokens[2] == {
        "wine": 4,
        "poison": 1,
        "antidote": 2,
        "unicorn_antidote": 0,
        "ogre_poison": 1,
    }
    assert detect(image, calibration, houses=truth.houses).tokens[2] == truth.tokens[2]


@pytest.mark.parametrize(
    ("seed", "seat", "want"),
    [
        # White linen clipped under a lamp's hot spot, an Antidote clipped into it beside
        # another and three Poisons: the network's peak on its face hesitates under PEAK in
        # one reading and stands in the mirror images' average (before: one Antidote short,
        # the one scene of the 125 of record not exact at 1280x720).
        (75003, 5, {"poison": 3, "antidote": 2}),
        # A gap of pale linen hemmed in by a Unicorn Antidote, Wines and Poisons: a phantom
        # Antidote in one reading, under PEAK in the average (before: one Antidote too many).
        (140146, 0, {"wine": 4, "poison": 2, "unicorn_antidote": 1}),
    ],
)
def test_an_area_the_reader_hesitates_over_is_read_in_its_mirror_images(seed, seat, want):
    truth, found = seat_read(seed, "realistic", (1280, 720), seat)
    assert {k: n for k, n in truth.tokens[seat].items() if n} == want
    assert seat not in truth.covered
    assert found == truth.tokens[seat]


@pytest.mark.parametrize("extra", ["hand", "glare"])
def test_a_covered_area_is_not_seen_never_misread(extra):
    result = tally(range(900, 910), "realistic", (640, 480), **{extra: True})
    assert result.covered >= 10  # every frame has its hand or glare over an area
    assert result.misread == 0
    assert result.held == result.covered  # today: every covered area of these seeds held


def test_a_hand_over_an_area_says_not_seen_in_the_json():
    image, truth = frame(901, "realistic", (640, 480), hand=True)
    found = detect(image, Calibration(truth.seats, truth.homography, (640, 480)))
    seat = truth.params["hand"]
    assert seat in truth.covered
    assert found.tokens[seat] is None
    assert found.to_json()["tokens"][str(seat)] is None
    # The frame is still used: the other seats are counted.
    assert any(found.tokens[s] is not None for s in range(truth.seats) if s not in truth.covered)


@pytest.mark.parametrize("seed", [67008, 67020])
def test_small_soft_markers_at_640x480_are_read_enlarged(seed):
    # Hard bare tables at 640x480: one 7 cm marker (about 20 px a side, blurred) escapes ArUco
    # at the frame's size and is found in the frame enlarged (vision.calibrate.UPSCALE); the
    # calibration then puts every seat within 3 canonical px of the truth.
    image, truth = frame(seed, "hard", (640, 480), empty=True)
    calibration = from_markers(image, truth.seats)
    assert error_px(calibration, truth.homography, truth.seats) < 3.0
