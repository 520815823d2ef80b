"""The token reader: a small network that finds every revealed token in a reveal area.

Each seat's reveal area is cropped from the relit canonical view (:mod:`vision.area`), halved
to :data:`INPUT` pixels a side and read by a fully convolutional network (``tokennet.onnx``,
on ONNX Runtime where it is installed, else OpenCV's DNN module; one thread) into
:data:`OUTPUT` x :data:`OUTPUT` cells of six maps: one per token kind, peaking at each token's
centre (a heat map, CenterNet's way of counting objects that touch), and one of what covers the
area (a hand, a goblet's bowl, glare, a card). The tokens are the maps' peaks above
:data:`PEAK` inside the area; an area whose cover map covers more than :data:`COVERED` of it is
not seen (None), never guessed. Where an area reaches a marker, the marker's keep-out is not
looked at (:func:`clear_of_markers`). An area whose maps show the network hesitating
(:func:`doubtful`) is read again in its three mirror images and its tokens decided on the four
readings' mean (:func:`mirrored_maps`).

The network was taught on frames of :mod:`training.scenes` (its own renderer, sharing no code
with the judge in ``tests/vision/independent``), through the detector's own light fit and
relighting: ``training/README.md`` says how to teach it again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision import area, layout, palette

KINDS = tuple(palette.TOKEN_COLOURS)
"""The token kinds, in the order of the network's first maps."""
CROP = 2 * area.HALF + 1
"""The side of a reveal area's crop in the canonical view (px)."""
INPUT = 76
"""The side of the network's input: the crop halved (a token's radius is 5.5 px there)."""
OUTPUT = INPUT // 2
"""The side of the network's maps: a cell is about 4 canonical px."""
CELL = CROP / OUTPUT
"""Canonical pixels per output cell."""
MODEL = Path(__file__).with_name("tokennet.onnx")


def prepare(crop: np.ndarray) -> np.ndarray:
    """A reveal area's crop (``CROP`` a side, BGR uint8) at the network's input size."""
    return cv2.resize(crop, (INPUT, INPUT), interpolation=cv2.INTER_AREA)


Runner = Callable[[np.ndarray], np.ndarray]
"""A loaded network: an (N, 3, INPUT, INPUT) float32 blob in, its (N, 6, OUTPUT, OUTPUT) maps
out."""


@lru_cache(maxsize=1)
def opencv_runner() -> Runner:
    """The network on OpenCV's DNN module (its threads: ``cv2.setNumThreads``)."""
    net = cv2.dnn.readNetFromONNX(str(MODEL))

    def run(blob: np.ndarray) -> np.ndarray:
        net.setInput(blob)
        return net.forward()

    return run


@lru_cache(maxsize=1)
def onnxruntime_runner() -> Runner | None:
    """The network on ONNX Runtime, one thread (None where it is not installed: its wheels are
    for 64-bit machines only, pyproject.toml). On this network it takes half OpenCV's time for
    the same maps (to 1e-6; docs/benchmarks.md, "the token reader on ONNX Runtime")."""
    try:
        import onnxruntime
    except ImportError:
        return None
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # one core, as the detector's OpenCV calls
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(MODEL), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    return lambda blob: session.run(None, {name: blob})[0]


USE_ONNXRUNTIME = True
"""Run the network on ONNX Runtime where it is installed (False: on OpenCV's DNN module always,
``scripts/bench_vision.py --opencv-dnn``)."""


def _network() -> Runner:
    return (USE_ONNXRUNTIME and onnxruntime_runner()) or opencv_runner()


def runner_name() -> str:
    """Which runner reads the areas: ``"onnxruntime"`` or ``"opencv"``."""
    return "opencv" if _network() is opencv_runner() else "onnxruntime"


PEAK = 0.4
"""A kind's map must reach this at a token's centre (and be the highest of its 3x3 cells)."""
REACH = layout.REVEAL_RADIUS + 4
"""Peaks this far from the area's centre count (canonical px): tokens lie inside the area, and
a token at its very edge blurs this much beyond it."""
COVERED = 12.0
"""An area whose cover map sums to more than this over the cells inside it is not seen: about
130 canonical px, 1% of the area (the judge holds an area covered from 1%)."""
_G = (np.arange(OUTPUT) + 0.5) * CROP / OUTPUT - CROP / 2
_D = np.hypot(_G[None, :], _G[:, None])
INSIDE = _D <= REACH
"""The output cells whose centres lie inside the area (and its blurred edge)."""
_IN_AREA = _D <= layout.REVEAL_RADIUS


def blob_of(crops: list[np.ndarray]) -> np.ndarray:
    """Reveal-area crops (BGR, CROP a side) as the network's input: (N, 3, INPUT, INPUT)
    float32, channels first."""
    blob = np.stack([prepare(c) for c in crops]).astype(np.float32).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(blob)


def maps_of(crops: list[np.ndarray]) -> np.ndarray:
    """The network's six maps (N, 6, OUTPUT, OUTPUT) for reveal-area crops (BGR, CROP a side)."""
    return _network()(blob_of(crops))


@lru_cache(maxsize=8)
def clear_of_markers(seats: int) -> tuple[np.ndarray, ...]:
    """Per seat, the output cells of its crop farther than :data:`layout.MARKER_KEEP_OUT` from
    every marker's centre (True), the only ones looked at.

    A marker is part of the table and no token lies on it (vision/README.md, Calibration: keep
    tokens off them; the detector ignores 42 canonical px round each): where a reveal area
    reaches a marker (seats 2 and 3 of five), its white paper and black code are neither an
    Antidote nor a card covering the area."""
    table = layout.TableLayout(seats)
    markers = [layout.marker_centre(m) for m in layout.MARKER_IDS]
    out = []
    for seat in range(seats):
        cx, cy = table.reveal_centre(seat)
        clear = np.ones((OUTPUT, OUTPUT), bool)
        for mx, my in markers:
            clear &= np.hypot(_G[None, :] + cx - mx, _G[:, None] + cy - my) > layout.MARKER_KEEP_OUT
        out.append(clear)
    return tuple(out)


def _strongest(maps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The strongest kind's map of one area, and where it is the highest of its 3x3 cells."""
    best = maps[: len(KINDS)].max(axis=0)
    return best, best >= cv2.dilate(best, np.ones((3, 3), np.uint8))


def counts_of(
    maps: np.ndarray,
    clear: np.ndarray | None = None,
    unchanged: Callable[[np.ndarray], np.ndarray] | None = None,
) -> dict[str, int] | None:
    """One area's counts by kind from its six maps, or None where something covers it.

    A token is a peak of the strongest kind at each cell (the highest of its 3x3 cells, above
    :data:`PEAK`), named by that kind: tokens overlap by a tenth at most, so two kinds peaking
    at one place are one token the network hesitated over (a sheened Ogre Poison on green felt
    is half Antidote), never two. ``clear``: the cells looked at (:func:`clear_of_markers`),
    all of them by default; ``unchanged``: given the peak cells, those where the frame shows
    the bare table as it was calibrated (:func:`vision.bare.unchanged_cells`): no token."""
    looked = np.ones((OUTPUT, OUTPUT), bool) if clear is None else clear
    if float(maps[len(KINDS)][_IN_AREA & looked].sum()) > COVERED:
        return None
    heat = maps[: len(KINDS)]
    best, highest = _strongest(maps)
    peaks = highest & (best > PEAK) & INSIDE & looked
    if unchanged is not None and peaks.any():
        peaks &= ~unchanged(peaks)
    peaks = peaks.astype(np.uint8)
    # Touching peak cells are one token whose centre lies between them (two equal cells: a map
    # averaged with its mirror image is equal on both sides of a token centred between cells);
    # two tokens' centres lie at least 0.9 of a diameter apart, about five cells.
    found, labels = cv2.connectedComponents(peaks, connectivity=8)
    counts = dict.fromkeys(KINDS, 0)
    for token in range(1, found):
        ys, xs = np.nonzero(labels == token)
        y, x = ys[0], xs[0]
        counts[KINDS[int(heat[:, y, x].argmax())]] += 1
    return counts


DOUBT = (0.15, 0.8)
"""A peak of the strongest kind between these is one the network hesitated over."""
MIRRORS = {1: -1, 0: -2, -1: (-2, -1)}
"""An area's three mirror images: each ``cv2.flip`` code (left to right, top to bottom, both: a
half turn) and the axes of the maps it flips."""


def doubtful(maps: np.ndarray, clear: np.ndarray | None = None) -> bool:
    """Whether one area's maps hold a peak the network hesitated over (:data:`DOUBT`): such an
    area's tokens are read again in its mirror images (:func:`mirrored_maps`). ``clear``: the
    cells looked at, as :func:`counts_of` takes them (a marker's margin in the keep-out, never
    counted, is no reason to read the area again)."""
    best, highest = _strongest(maps)
    looked = INSIDE if clear is None else INSIDE & clear
    peaks = best[highest & looked]
    return bool(((peaks > DOUBT[0]) & (peaks < DOUBT[1])).any())


def mirrored_maps(crops: list[np.ndarray], maps: np.ndarray) -> np.ndarray:
    """Each crop's maps (``maps``, as :func:`maps_of` gave them) averaged with those of its three
    mirror images, each mirrored back (test-time augmentation).

    A reveal area and its tokens look the same in a mirror, but the network's strided
    convolutions are not mirror-symmetric: where it hesitates (an Antidote's face clipped into
    clipped white linen, a gap of pale cloth hemmed in by dark tokens), its four readings
    disagree, a token shows in all four and a phantom in few. The four views form a group
    (mirroring a mirror image gives another of them), so the average is the same whichever of
    them the camera had seen."""
    views = [cv2.flip(crop, code) for code in MIRRORS for crop in crops]
    seen = maps_of(views).reshape(len(MIRRORS), len(crops), *maps.shape[1:])
    total = maps.astype(np.float32)  # a copy: the caller's maps stay as they were
    for axes, each in zip(MIRRORS.values(), seen, strict=True):
        total += np.flip(each, axis=axes)
    return total / (len(MIRRORS) + 1)


def read_areas(
    view: np.ndarray,
    seats: int,
    unchanged: list[Callable[[np.ndarray], np.ndarray]] | None = None,
) -> dict[int, dict[str, int] | None]:
    """Every seat's revealed tokens in the relit canonical view: seat -> {kind: count}, or None
    for an area not seen (``unchanged``: per seat, which peak cells show the bare table, as
    :func:`counts_of` takes it).

    An area the network hesitated over (:func:`doubtful`; about one in six on the judge's
    realistic frames, most on white linen) is decided on its maps averaged over its mirror
    images (:func:`mirrored_maps`); reading every area four times would cost four times the
    network's time for the areas it reads surely anyway."""
    crops = [view[y0:y1, x0:x1] for y0, y1, x0, x1 in area.boxes(seats)]
    maps = maps_of(crops)
    clear = clear_of_markers(seats)
    again = [seat for seat in range(seats) if doubtful(maps[seat], clear[seat])]
    if again:
        # The tokens only: whether something covers the area stays the first reading's, which
        # the judge's hands and glare were measured on (covered areas held, never misread).
        mirrored = mirrored_maps([crops[seat] for seat in again], maps[again])
        maps[again, : len(KINDS)] = mirrored[:, : len(KINDS)]
    return {
        seat: counts_of(maps[seat], clear[seat], None if unchanged is None else unchanged[seat])
        for seat in range(seats)
    }
