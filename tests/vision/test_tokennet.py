"""The token reader (vision/tokennet.py): how its maps become counts, the network's shapes,
and the lessons it was taught from (training/).

The judge of what the network learned is the independent renderer
(tests/vision/test_independent.py and the cause files beside it); these pin the decoding rules
the module states on maps written by hand, and the teacher's lessons on its own frames.
"""

import math
import platform

import cv2
import numpy as np
import pytest

from training import crops, scenes
from vision import layout, tokennet
from vision.tokennet import CELL, CROP, KINDS, OUTPUT


def _maps() -> np.ndarray:
    return np.zeros((len(KINDS) + 1, OUTPUT, OUTPUT), np.float32)


def _cell(dx: float, dy: float) -> tuple[int, int]:
    """The output cell (row, column) ``(dx, dy)`` canonical px from the area's centre."""
    return int((dy + CROP / 2) / CELL), int((dx + CROP / 2) / CELL)


def _peak(maps, kind: str, dx: float, dy: float, value: float = 0.9) -> None:
    y, x = _cell(dx, dy)
    maps[KINDS.index(kind), y - 1 : y + 2, x - 1 : x + 2] = value * 0.5
    maps[KINDS.index(kind), y, x] = value


def test_each_peak_is_one_token_of_its_kind():
    maps = _maps()
    _peak(maps, "wine", 0, 0)
    _peak(maps, "wine", 25, 0)
    _peak(maps, "poison", -25, 10)
    _peak(maps, "ogre_poison", 0, -30)
    assert tokennet.counts_of(maps) == {
        "wine": 2,
        "poison": 1,
        "antidote": 0,
        "unicorn_antidote": 0,
        "ogre_poison": 1,
    }


def test_two_kinds_peaking_at_one_place_are_one_token_of_the_stronger():
    maps = _maps()
    _peak(maps, "ogre_poison", 10, 10, 0.8)
    _peak(maps, "antidote", 10, 10, 0.6)
    counts = tokennet.counts_of(maps)
    assert counts["ogre_poison"] == 1
    assert sum(counts.values()) == 1


def test_two_equal_touching_peak_cells_are_one_token():
    # A token centred between two cells, read in its mirror images too, peaks equally in both.
    maps = _maps()
    y, x = _cell(-20, 5)
    maps[KINDS.index("poison"), y - 1 : y + 2, x - 1 : x + 3] = 0.3
    maps[KINDS.index("poison"), y, x : x + 2] = 0.73
    _peak(maps, "poison", 20, 5)  # and a second token, two diameters away
    assert tokennet.counts_of(maps)["poison"] == 2


def test_a_weak_peak_or_one_beyond_the_area_is_no_token():
    maps = _maps()
    _peak(maps, "wine", 0, 0, tokennet.PEAK - 0.05)
    _peak(maps, "poison", layout.REVEAL_RADIUS + 8, 0)  # in the band outside the area
    assert sum(tokennet.counts_of(maps).values()) == 0


def test_a_covered_area_is_none_and_a_covered_band_is_not():
    maps = _maps()
    _peak(maps, "wine", 0, 0)
    cover = maps[len(KINDS)]
    # The band round the area: a hand reaching past it hides no token.
    yy, xx = np.mgrid[0:OUTPUT, 0:OUTPUT]
    d = np.hypot((xx + 0.5) * CELL - CROP / 2, (yy + 0.5) * CELL - CROP / 2)
    cover[d > layout.REVEAL_RADIUS + 2] = 1.0
    assert tokennet.counts_of(maps)["wine"] == 1
    # Over the area: a cell short of COVERED's worth is still seen, a cell beyond it is not.
    y, x = _cell(0, -40)
    patch = [(y + i // 6, x - 3 + i % 6) for i in range(int(tokennet.COVERED) + 1)]
    for cy, cx in patch[:-2]:
        cover[cy, cx] = 1.0
    assert tokennet.counts_of(maps)["wine"] == 1
    for cy, cx in patch[-2:]:
        cover[cy, cx] = 1.0
    assert tokennet.counts_of(maps) is None


def test_a_marker_in_the_area_is_neither_a_token_nor_a_cover():
    # Five seats: seats 2 and 3's areas reach the markers between them (vision/README.md: no
    # token lies within MARKER_KEEP_OUT of one). The marker's white paper and black code, read
    # as a card over the area and an Antidote, must cost neither a refusal nor a token.
    clear = tokennet.clear_of_markers(5)
    reaches = [bool((~c & tokennet.INSIDE).any()) for c in clear]
    assert reaches == [False, False, True, True, False]
    others = [c for n in (2, 3, 4, 6) for c in tokennet.clear_of_markers(n)]
    assert not any((~c & tokennet.INSIDE).any() for c in others)
    maps = _maps()
    _peak(maps, "wine", 0, 0)
    kept_out = ~clear[2] & tokennet.INSIDE
    maps[len(KINDS)][kept_out] = 1.0  # the marker, as the cover map sees it
    cells = np.argwhere(kept_out)
    y, x = cells[len(cells) // 2]
    maps[KINDS.index("antidote"), y, x] = 0.9  # its white margin, as the antidote map sees it
    assert tokennet.counts_of(maps) is None  # (looked at everywhere, the area is covered)
    assert tokennet.counts_of(maps, clear[2]) == {**dict.fromkeys(KINDS, 0), "wine": 1}
    maps[len(KINDS)][~kept_out & tokennet.INSIDE] = 1.0  # a hand over the rest of the area
    assert tokennet.counts_of(maps, clear[2]) is None


@pytest.mark.parametrize("seats", [2, 6])
def test_the_network_reads_any_number_of_areas(seats):
    view = np.full((layout.SIZE, layout.SIZE, 3), (116, 124, 128), np.uint8)
    crops_ = [view[y0:y1, x0:x1] for y0, y1, x0, x1 in tokennet.area.boxes(seats)]
    maps = tokennet.maps_of(crops_)
    assert maps.shape == (seats, len(KINDS) + 1, OUTPUT, OUTPUT)
    assert maps.min() >= 0.0 and maps.max() <= 1.0
    assert tokennet.read_areas(view, seats) == {s: dict.fromkeys(KINDS, 0) for s in range(seats)}


@pytest.mark.parametrize("stress", [False, True])
def test_the_teachers_frames_are_seeded_and_their_tokens_lie_in_the_areas(stress):
    image, scene = scenes.render(7, stress=stress)
    again, _ = scenes.render(7, stress=stress)
    assert np.array_equal(image, again)
    assert (image.shape[1], image.shape[0]) == scene.size
    table = layout.TableLayout(scene.seats)
    for seat, tokens in scene.tokens.items():
        cx, cy = table.reveal_centre(seat)
        for kind, x, y in tokens:
            assert kind in KINDS
            assert math.hypot(x - cx, y - cy) <= layout.REVEAL_RADIUS - 0.9 * layout.TOKEN_RADIUS


@pytest.mark.parametrize("stress", [False, True])
def test_a_lesson_puts_each_token_where_its_colour_is(stress):
    # The labels must sit on the tokens in the crop the network is shown (an off-by-one in the
    # crop's scale would teach it to point beside every token).
    found = crops.lessons(12, stress=stress)
    assert found
    checked = 0
    for crop, rows, _cover in found:
        assert crop.shape == (tokennet.INPUT, tokennet.INPUT, 3)
        for kind, x, y in rows:
            if KINDS[int(kind)] != "wine":
                continue
            b, g, r = crop[round(y), round(x)].astype(int)
            assert r > g + 20 and r > b + 10, (kind, x, y, (b, g, r))
            checked += 1
    assert checked > 0


def _lesson_with_tokens() -> tuple[np.ndarray, list]:
    """A teacher's crop (already at the network's input size) with three tokens or more."""
    for crop, rows, _cover in crops.lessons(12):
        if len(rows) >= 3:
            return crop, rows
    raise AssertionError("no lesson with three tokens in the first twelve frames")


def test_an_area_read_in_its_mirrors_reads_the_same_whichever_mirror_the_camera_saw():
    # The four views are a group: mirroring the crop only mirrors the averaged maps. A mirror
    # undone on the wrong axis breaks this (and puts each token's peak in four places).
    crop, _rows = _lesson_with_tokens()
    seen = tokennet.mirrored_maps([crop], tokennet.maps_of([crop]))[0]
    for code, axes in ((1, -1), (0, -2), (-1, (-2, -1))):
        flipped = cv2.flip(crop, code)
        again = tokennet.mirrored_maps([flipped], tokennet.maps_of([flipped]))[0]
        assert np.allclose(np.flip(again, axis=axes), seen, atol=1e-5), code


def test_an_area_read_in_its_mirrors_keeps_each_token_where_it_lies():
    crop, rows = _lesson_with_tokens()
    maps = tokennet.mirrored_maps([crop], tokennet.maps_of([crop]))[0]
    best = maps[: len(KINDS)].max(axis=0)
    for kind, x, y in rows:
        # Input px to output cells: the maps are half the input's side.
        row, col = int(y / 2), int(x / 2)
        near = best[max(row - 1, 0) : row + 2, max(col - 1, 0) : col + 2]
        assert near.max() > tokennet.PEAK, (KINDS[int(kind)], x, y, near.max())


def test_only_an_area_the_network_hesitated_over_is_read_again():
    maps = _maps()
    _peak(maps, "wine", 0, 0, 0.95)
    maps[len(KINDS), 10:12, 10:14] = 1.0  # a cover the network is unsure of changes nothing
    assert not tokennet.doubtful(maps)  # sure of its one token
    _peak(maps, "antidote", 25, 0, 0.3)  # an Antidote, maybe
    assert tokennet.doubtful(maps)
    maps = _maps()
    _peak(maps, "poison", -25, 0, 0.1)  # a flicker in the cloth, far under PEAK
    assert not tokennet.doubtful(maps)


def test_a_markers_margin_is_no_reason_to_read_an_area_again():
    # Five seats: seat 2's area reaches a marker, whose white margin the network may half take
    # for an Antidote. Those cells are never counted, so they must not cost three more readings.
    clear = tokennet.clear_of_markers(5)[2]
    maps = _maps()
    _peak(maps, "wine", 0, 0, 0.95)
    cells = np.argwhere(~clear & tokennet.INSIDE)
    y, x = cells[len(cells) // 2]
    maps[KINDS.index("antidote"), y, x] = 0.5
    assert tokennet.doubtful(maps)  # looked at everywhere
    assert not tokennet.doubtful(maps, clear)


def test_onnx_runtime_and_opencv_give_the_same_maps(monkeypatch):
    """The network runs on ONNX Runtime where it is installed (pyproject.toml: 64-bit machines),
    else on OpenCV's DNN module; the two must read a crop alike. A runner that fed the blob's
    channels or axes in another order, or another model, would not."""
    onnx = tokennet.onnxruntime_runner()
    if platform.machine() in ("x86_64", "aarch64"):
        assert onnx is not None  # installed with the project's extras here
    assert tokennet._network() is (onnx or tokennet.opencv_runner())
    assert tokennet.runner_name() == ("opencv" if onnx is None else "onnxruntime")
    crop, _rows = _lesson_with_tokens()
    blob = tokennet.blob_of([crop, cv2.flip(crop, 1), np.zeros_like(crop)])
    opencv = tokennet.opencv_runner()(blob)
    assert opencv.shape == (3, len(KINDS) + 1, OUTPUT, OUTPUT) and opencv.max() > tokennet.PEAK
    if onnx is not None:
        assert np.allclose(onnx(blob), opencv, atol=1e-5)
    monkeypatch.setattr(tokennet, "USE_ONNXRUNTIME", False)  # the bench's --opencv-dnn
    assert tokennet._network() is tokennet.opencv_runner() and tokennet.runner_name() == "opencv"
