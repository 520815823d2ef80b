"""A camera frame checked, warped to the canonical table and normalised for lighting.

Bad input is a :class:`~companion.core.errors.MalformedInput` naming the field, never a crash
deep inside OpenCV. Lighting: a smooth cubic surface per colour channel is fitted to the cloth
(robustly, so rings, goblets and tokens are left out): how the light varies over the table. The
markers' white paper is the white reference: it gives the cloth's own colour, and the frame is
divided by the surface and multiplied by that colour, so uneven light, vignetting and a colour
cast all become the reference light on any cloth or wooden table. :class:`Cloth`, learned per
frame, tells the cloth (lit or in shadow, by chromaticity) from everything on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.core.errors import MalformedInput
from vision import layout, palette
from vision.order import median, percentile

MIN_SIDE = 64


def check_image(image: Any, field: str = "image") -> np.ndarray:
    """``image`` if it is a non-empty 8-bit BGR frame (``H x W x 3`` uint8), else MalformedInput."""
    if not isinstance(image, np.ndarray):
        raise MalformedInput(f"must be a numpy array, got {type(image).__name__}", field=field)
    if image.size == 0:
        raise MalformedInput("is empty", field=field)
    if image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 1):
        raise MalformedInput(
            "is grayscale: ring and token colours need a colour (BGR) frame", field=field
        )
    if image.ndim != 3 or image.shape[2] != 3:
        raise MalformedInput(f"must be H x W x 3 (BGR), got shape {image.shape}", field=field)
    if image.dtype != np.uint8:
        raise MalformedInput(f"must be 8-bit (uint8), got {image.dtype}", field=field)
    if min(image.shape[:2]) < MIN_SIDE:
        raise MalformedInput(
            f"is {image.shape[1]}x{image.shape[0]}: at least {MIN_SIDE} pixels a side", field=field
        )
    return image


def warp(image: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The frame warped by ``homography`` (frame -> canonical) to the canonical table view."""
    return cv2.warpPerspective(
        image,
        homography,
        (layout.SIZE, layout.SIZE),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


_FIT = 64  # the lighting is fitted on a _FIT x _FIT thumbnail: light varies slowly


def _design(n: int) -> np.ndarray:
    u = np.linspace(-1.0, 1.0, n, dtype=np.float32)
    x, y = np.meshgrid(u, u)
    terms = [np.ones_like(x), x, y, x * x, x * y, y * y, x**3, x * x * y, x * y * y, y**3]
    return np.stack(terms, axis=-1)


_DESIGN = _design(_FIT)


def _table_mask(n: int) -> np.ndarray:
    scale = n / layout.SIZE
    mask = np.zeros((n, n), np.uint8)
    c = (round(layout.CENTRE[0] * scale), round(layout.CENTRE[1] * scale))
    cv2.circle(mask, c, int(layout.TABLE_RADIUS * 0.95 * scale), 1, -1)
    for marker in layout.MARKER_IDS:  # the markers are black and white, not cloth
        mx, my = layout.marker_centre(marker)
        cv2.circle(
            mask, (round(mx * scale), round(my * scale)), int(layout.MARKER_SIZE * scale), 0, -1
        )
    return mask.astype(bool)


_MASK = _table_mask(_FIT)
_DESIGN_ON_TABLE = _DESIGN[_MASK]
_DESIGN_ON_TABLE64 = _DESIGN_ON_TABLE.astype(np.float64)
_DESIGN_FLAT = np.ascontiguousarray(_DESIGN.reshape(-1, _DESIGN.shape[-1]))


def lighting(canonical: np.ndarray) -> tuple[np.ndarray, float]:
    """The fitted cloth colour (float32 BGR) at every canonical pixel, and the fraction of the
    table that looked like cloth (the rest is goblets, tokens, hands, shadows)."""
    surface, cloth = _fit(canonical)
    return cv2.resize(surface, (canonical.shape[1], canonical.shape[0])), cloth


def _fit(canonical: np.ndarray) -> tuple[np.ndarray, float]:
    """:func:`lighting` on the ``_FIT`` x ``_FIT`` thumbnail."""
    return _fit_thumbnail(cv2.resize(canonical, (_FIT, _FIT), interpolation=cv2.INTER_AREA))


def _row_sums(values: np.ndarray) -> np.ndarray:
    """The sum of each row of a 2-D float array (numpy's sum along a short row is slow)."""
    return cv2.reduce(values, 1, cv2.REDUCE_SUM).reshape(-1)


def _fit_thumbnail(thumbnail: np.ndarray) -> tuple[np.ndarray, float]:
    """The robust cubic fit of :func:`_fit` to a ``_FIT`` x ``_FIT`` thumbnail of the table."""
    small = thumbnail.astype(np.float32)
    values = small[_MASK]
    values64 = values.astype(np.float64)
    keep = np.ones(len(values), bool)
    for _ in range(4):
        a = _DESIGN_ON_TABLE64[keep]
        # Normal equations by OpenCV's products and solver: numpy's matrix products go through
        # a multi-threaded BLAS, slow on a busy machine (and numpy's lstsq on a Pi).
        normal = cv2.mulTransposed(a, True)
        _, coef = cv2.solve(
            normal,
            cv2.gemm(a, values64[keep], 1.0, None, 0.0, flags=cv2.GEMM_1_T),
            flags=cv2.DECOMP_CHOLESKY,
        )
        coef32 = coef.astype(np.float32)
        fitted = cv2.gemm(_DESIGN_ON_TABLE, coef32, 1.0, None, 0.0)
        # Pixels far from the cloth (rings, goblets, tokens, shadows) do not light the table.
        err = _row_sums(cv2.absdiff(values, fitted)) / np.maximum(_row_sums(fitted), 1.0)
        keep = err < max(0.06, 2.5 * median(err[keep]))
    surface = cv2.gemm(_DESIGN_FLAT, coef32, 1.0, None, 0.0).reshape(_FIT, _FIT, 3)
    return np.maximum(surface, 4.0), float(keep.mean())


MIN_CLOTH = 0.55
"""At least this fraction of the table must look like cloth (a laid table: 0.8-0.95, 0.6 with
the long shadows of a low side lamp); else the table is covered, or the calibration does not put
the table where it is."""
MIN_LIGHT = 20.0
"""The cloth's mean level (0-255) below which the table is too dark to tell colours."""
_CLOTH_BGR = np.array(palette.CLOTH[::-1], np.float32)
SATURATED = 255
"""The relit view's mark for a pixel the camera saturated (see :func:`relight`)."""
CLIPS_AT = SATURATED - 4
"""A channel at this level or above clipped in the camera (JPEG rounds a clip down a little)."""
CLOTH_CLIPS = 0.90
"""A clipped pixel relit to within this fraction of the cloth's own brightness (or brighter
than the cloth) may be cloth at the clip: it keeps its relit value (see :func:`_relit`). A
cloth's weave is brighter than its mean in its threads: on a cloth within a tenth of the
camera's clip (white linen under a lamp) the brightest threads clip, a channel at a time, and
lifted they stood out as specks that the token reader took for Antidotes (0.97 before;
docs/benchmarks.md, "the weave at the clip")."""
PAPER = 236.0
"""The white of the printed markers under the reference light (the white reference)."""
_MARKER_R = round(layout.MARKER_SIZE * 0.65)
_THIRD = np.full((1, 3), 1.0 / 3.0)
Box = tuple[int, int, int, int]
"""A part of the canonical view: rows ``y0:y1``, columns ``x0:x1``."""
WHOLE: Box = (0, layout.SIZE, 0, layout.SIZE)


@dataclass(frozen=True)
class Cloth:
    """The table's own surface in the relit view: its colour (BGR, float32) and how far a
    pixel's chromaticity may stray from it (``tolerance``) and still be cloth, lit or shaded.

    Learned per frame from the frame itself (the markers' white paper sets the white point),
    so any cloth or a wooden table works, not only ``palette.CLOTH``."""

    bgr: np.ndarray
    tolerance: float = 0.03

    def mask(
        self, bgr: np.ndarray, darkest: float = 0.3, brightest: float = 1.22, looser: float = 1.0
    ) -> np.ndarray:
        """Pixels that are the cloth, in light or in shadow: a shadow dims a surface but keeps
        its chromaticity (the light's colour is the same in and out of the shadow), so the
        test is chromaticity close to the cloth's and a brightness ratio in
        ``[darkest, brightest]``; ``looser`` widens the chromaticity tolerance."""
        return self.masks(bgr, [(darkest, brightest, looser)])[0]

    def masks(self, bgr: np.ndarray, options: list[tuple[float, float, float]]) -> list[np.ndarray]:
        """:meth:`mask` for each ``(darkest, brightest, looser)`` of ``options``, the
        chromaticity measured once."""
        # Chromaticity from a 3x3 mean: sensor noise would scatter it most where it is dark.
        b, g, r = (c.astype(np.float32) for c in cv2.split(cv2.blur(bgr, (3, 3))))
        total = b + g + r
        total += 1.0
        whole = float(self.bgr.sum()) + 1.0
        ref = self.bgr / whole
        # The chromaticity distance d = |(b, r) / total - ref|, squared and times total**2
        # (no division per pixel): off = d**2 * total**2.
        db = cv2.scaleAdd(total, -float(ref[0]), b)
        dr = cv2.scaleAdd(total, -float(ref[2]), r)
        off = cv2.add(cv2.multiply(db, db), cv2.multiply(dr, dr))
        ratio = total * (1.0 / whole)
        # In a shadow the same noise is a larger share of a smaller signal: the tolerance
        # grows as 1 / sqrt(ratio), so d**2 * clip(ratio) is held to tolerance**2.
        off *= np.clip(ratio, 0.3, 1.0)
        total2 = cv2.multiply(total, total)
        out = []
        for darkest, brightest, looser in options:
            limit = (looser * self.tolerance) ** 2
            out.append((off < limit * total2) & (ratio > darkest) & (ratio < brightest))
        return out


def _at(surface: np.ndarray, x: float, y: float) -> np.ndarray:
    """The thumbnail surface's value at canonical ``(x, y)``."""
    scale = _FIT / layout.SIZE
    return surface[min(int(y * scale), _FIT - 1), min(int(x * scale), _FIT - 1)]


def _marker_box(marker: int) -> Box:
    """The part of the canonical view round marker ``marker`` where its paper is looked for."""
    mx, my = (round(v) for v in layout.marker_centre(marker))
    return (my - _MARKER_R, my + _MARKER_R, mx - _MARKER_R, mx + _MARKER_R)


def _white(canonical: np.ndarray, surface: np.ndarray) -> np.ndarray | None:
    """The cloth's colour relative to the markers' white paper (per channel), the median over
    the markers whose bright pixels are plausibly paper; None when no marker shows."""
    patches = []
    for marker in layout.MARKER_IDS:
        y0, y1, x0, x1 = _marker_box(marker)
        patches.append(canonical[y0:y1, x0:x1])
    return _white_of(patches, surface)


def _white_of(patches: list[np.ndarray], surface: np.ndarray) -> np.ndarray | None:
    """:func:`_white` from the canonical patches round the markers (in marker order)."""
    ratios = []
    for marker, patch in zip(layout.MARKER_IDS, patches, strict=True):
        mx, my = layout.marker_centre(marker)
        # The mean of the channels and the means of the brightest and darkest pixels by
        # OpenCV (numpy's reductions along a short axis are slow).
        patch = patch.astype(np.float32)
        grey = cv2.transform(patch, _THIRD)
        flat = grey.reshape(-1)
        low, high = percentile(flat, 15), percentile(flat, 85)
        white = np.array(cv2.mean(patch, cv2.compare(grey, high, cv2.CMP_GE))[:3], np.float32)
        dark = np.array(cv2.mean(patch, cv2.compare(grey, low, cv2.CMP_LE))[:3], np.float32)
        cloth = _at(surface, mx, my)
        # A marker is paper and ink: its whites clearly brighter than its blacks, and not
        # much darker than the cloth (a shadowed or covered marker is no white reference).
        if white.mean() > 2.5 * dark.mean() + 10 and white.mean() > 0.8 * cloth.mean():
            ratios.append(cloth / np.maximum(white, 1.0))
    if not ratios:
        return None
    return np.median(np.array(ratios), axis=0)


def relight(canonical: np.ndarray) -> tuple[np.ndarray, Cloth]:
    """The canonical view relit to the reference light, and the cloth model.

    The fitted cloth surface says how the light varies over the table; the markers' white paper
    says what colour the cloth is (cloth / paper, times :data:`PAPER`). Dividing by the surface
    and multiplying by that colour leaves every pixel its own colour under the reference light,
    whatever the cloth. Without a readable marker the cloth is taken to be ``palette.CLOTH``.
    A table too dark to see, or mostly not cloth, is MalformedInput (a frame not to trust)."""
    surface, cloth = _fit(canonical)
    colour = _cloth_colour(surface, cloth, _white(canonical, surface))
    gain = cv2.resize(colour / surface, (canonical.shape[1], canonical.shape[0]))
    blurred = cv2.blur(canonical, (3, 3))[::_STRIDE, ::_STRIDE]
    cloth_model = _cloth_model(blurred, gain[::_STRIDE, ::_STRIDE], colour)
    return _relit(canonical, gain, float(colour.max())), cloth_model


_UPSCALE = layout.SIZE / _FIT
"""Canonical pixels per thumbnail pixel (12.5)."""
_TILE = round(2 * _UPSCALE)
"""Two thumbnail pixels span this many canonical ones, a whole number (25)."""


@dataclass(frozen=True)
class Light:
    """How one frame is relit: the gain (the cloth's reference colour over the fitted light,
    per channel) on the fit's ``_FIT x _FIT`` thumbnail, and the cloth model. The gain at a
    canonical pixel is the thumbnail's, upsampled bilinearly (as ``cv2.resize`` would), worked
    out only for the parts of the view that are relit."""

    small: np.ndarray
    cloth: Cloth

    def gain_of(self, box: Box | None = None, stride: int = 1) -> np.ndarray:
        """The gain over the canonical view's part ``box`` (default: all of it), every
        ``stride``-th pixel (float32, rows x columns x 3): the thumbnail upsampled bilinearly
        with pixel centres aligned and edges replicated, the values ``cv2.resize`` to the
        whole view gives there. (Not by numpy's matrix products: a multi-threaded BLAS makes
        them slow on a busy machine.)"""
        y0, y1, x0, x1 = box or WHOLE
        if stride == 1:
            return self._resized(y0, y1, x0, x1)
        scale = _FIT / layout.SIZE
        to_small = np.array(
            [
                [scale * stride, 0.0, (x0 + 0.5) * scale - 0.5],
                [0.0, scale * stride, (y0 + 0.5) * scale - 0.5],
            ]
        )
        size = (-(-(x1 - x0) // stride), -(-(y1 - y0) // stride))
        return cv2.warpAffine(
            self.small,
            to_small,
            size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )

    def _resized(self, y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
        """The whole view's ``cv2.resize`` of the thumbnail, only over rows ``y0:y1`` and
        columns ``x0:x1``: a piece of the thumbnail resized by the same factor. A thumbnail
        pixel spans ``_UPSCALE`` canonical ones, so a piece starting at an even thumbnail
        pixel starts at a whole canonical one, and with a pixel to spare on every side (or
        the thumbnail's edge, replicated as the whole resize does) its pixels are the same."""
        t0y, t0x = max(2 * (y0 // _TILE) - 2, 0), max(2 * (x0 // _TILE) - 2, 0)
        # An even number of thumbnail pixels: a whole number of canonical ones, the same scale.
        t1y = min(t0y + 2 * -(-(-(-y1 * _FIT // layout.SIZE) + 2 - t0y) // 2), _FIT)
        t1x = min(t0x + 2 * -(-(-(-x1 * _FIT // layout.SIZE) + 2 - t0x) // 2), _FIT)
        piece = self.small[t0y:t1y, t0x:t1x]
        out = cv2.resize(piece, (round((t1x - t0x) * _UPSCALE), round((t1y - t0y) * _UPSCALE)))
        oy, ox = round(t0y * _UPSCALE), round(t0x * _UPSCALE)
        return out[y0 - oy : y1 - oy, x0 - ox : x1 - ox]

    @property
    def gain(self) -> np.ndarray:
        """The gain at every canonical pixel (:meth:`gain_of` the whole view)."""
        return self.gain_of()


def light_of(image: np.ndarray, homography: np.ndarray) -> Light:
    """The light of a frame as :func:`relight` finds it, without warping the whole view: the
    light is fitted on a sparse warp (every fourth canonical pixel of the frame smoothed over
    about three canonical pixels, as the 3x3 mean :func:`relight` measures the cloth on), the
    markers' white on warps of their patches."""
    h = np.asarray(homography, np.float64)
    src = image
    k = math.ceil(3 * _frame_pixels_per_canonical(h))
    if k > 1:
        src = cv2.blur(image, (k, k))
    sparse = warp_box(src, h, WHOLE, _STRIDE)
    surface, cloth = _fit_thumbnail(cv2.resize(sparse, (_FIT, _FIT), interpolation=cv2.INTER_AREA))
    patches = [warp_box(image, h, _marker_box(m)) for m in layout.MARKER_IDS]
    colour = _cloth_colour(surface, cloth, _white_of(patches, surface))
    light = Light(np.ascontiguousarray(colour / surface, np.float32), Cloth(colour))
    model = _cloth_model(sparse, light.gain_of(WHOLE, _STRIDE), colour)
    return Light(light.small, model)


def relit_box(
    image: np.ndarray, homography: np.ndarray, light: Light, box: Box, stride: int = 1
) -> np.ndarray:
    """The part ``box`` of the relit canonical view (every ``stride``-th pixel), warped from
    the frame alone: the same pixels as the whole view's there."""
    gain = light.gain_of(box, stride)
    part = warp_box(image, np.asarray(homography, np.float64), box, stride)
    return _relit(part, gain, float(light.cloth.bgr.max()))


def relit_parts(
    image: np.ndarray, homography: np.ndarray, boxes: list[Box] | None = None
) -> tuple[np.ndarray, Cloth]:
    """The frame warped to the canonical table and relit as :func:`relight` does it (the light
    by :func:`light_of`), but only ``boxes`` of the view (the rest is 0; None: the whole view)."""
    light = light_of(image, homography)
    view = np.zeros((layout.SIZE, layout.SIZE, 3), np.uint8)
    for box in [WHOLE] if boxes is None else boxes:
        y0, y1, x0, x1 = box
        view[y0:y1, x0:x1] = relit_box(image, homography, light, box)
    return view, light.cloth


def _frame_pixels_per_canonical(homography: np.ndarray) -> float:
    """How many frame pixels one canonical pixel spans at the table's centre."""
    inverse = np.linalg.inv(homography)
    points = inverse @ np.array([[400.0, 401.0, 400.0], [400.0, 400.0, 401.0], [1.0, 1.0, 1.0]])
    x, y = points[0] / points[2], points[1] / points[2]
    return float(np.sqrt(abs((x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]))))


def warp_box(image: np.ndarray, homography: np.ndarray, box: Box, stride: int = 1) -> np.ndarray:
    """The canonical view's part ``box`` (every ``stride``-th pixel) warped from the frame:
    the same pixels :func:`warp` gives there."""
    y0, y1, x0, x1 = box
    shift = np.array([[1.0 / stride, 0, -x0 / stride], [0, 1.0 / stride, -y0 / stride], [0, 0, 1]])
    size = (-(-(x1 - x0) // stride), -(-(y1 - y0) // stride))
    return cv2.warpPerspective(
        image, shift @ homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _cloth_colour(surface: np.ndarray, cloth: float, ratio: np.ndarray | None) -> np.ndarray:
    """The cloth's colour under the reference light (float32 BGR), after refusing a table too
    dark to see or mostly not cloth (MalformedInput)."""
    level = float(surface[_FIT * 3 // 8 : _FIT * 5 // 8, _FIT * 3 // 8 : _FIT * 5 // 8].mean())
    if level < MIN_LIGHT:
        raise MalformedInput(
            f"the table is too dark to see (cloth level {level:.0f})", field="image"
        )
    if cloth < MIN_CLOTH:
        raise MalformedInput(
            f"only {cloth:.0%} of the table looks like cloth: covered, or a wrong calibration",
            field="image",
        )
    colour = _CLOTH_BGR if ratio is None else np.clip(ratio * PAPER, 8.0, 250.0)
    return colour.astype(np.float32)


def _relit(part: np.ndarray, gain: np.ndarray, cloth_top: float) -> np.ndarray:
    """A part of the canonical view times its gain, with saturated pixels marked
    (``cloth_top``: the cloth's brightest channel under the reference light)."""
    # uint8 x float32 straight into float32 (no float copy of the whole view): the same values.
    view = cv2.convertScaleAbs(cv2.multiply(part, gain, dtype=cv2.CV_32F))
    np.minimum(view, SATURATED - 1, out=view)
    # A pixel is lost when every channel saturated (glare adds white until all three clip):
    # 255 on all three channels there (the view is <= 254 elsewhere, so a maximum with the mark
    # sets it without a boolean scatter). One channel clipped is not glare: white linen under
    # a warm lamp clips its red and keeps green and blue, where a token still shows.
    b, g, r = cv2.split(part)
    # A pixel with some channel clipped is at least that bright: relit, the clip would be
    # darker than the thing was (a white Antidote's face under a bright exposure, relit to
    # 207, would pass for a sheened Poison). Where the clip lies well above the cloth, what
    # clipped is no cloth: its brightest channel is set to the view's top and the others
    # scaled with it, which keeps its chromaticity. Where the cloth itself reaches the clip
    # (white linen under a lamp) a clipped pixel may be just cloth, and is left as relit:
    # lifted, the cloth's clipped pixels would stand out from their unclipped neighbours as a
    # mottle brighter than any token.
    clipped = cv2.compare(cv2.max(cv2.max(b, g), r), CLIPS_AT, cv2.CMP_GE)
    ys, xs = np.nonzero(clipped)
    if ys.size:
        pixels = view[ys, xs].astype(np.float32)
        top = np.maximum(pixels.max(axis=1, keepdims=True), 1.0)
        lift = np.where(top * CLOTH_CLIPS > cloth_top, (SATURATED - 1) / top, 1.0)
        view[ys, xs] = np.minimum(pixels * lift + 0.5, SATURATED - 1)
    lost = cv2.compare(cv2.min(cv2.min(b, g), r), CLIPS_AT, cv2.CMP_GE)
    cv2.max(view, cv2.merge((lost, lost, lost)), dst=view)
    return view


_TABLE = _table_mask(layout.SIZE)


def saturated_share(canonical: np.ndarray) -> float:
    """The share of the table (markers left out) where the camera clipped every channel: the
    pixels :func:`_relit` marks lost. On a frame of the empty table it says whether the exposure
    suits the cloth: a white Antidote on white linen that clipped is white on white, and the
    reveal areas there are refused as not seen (``vision/README.md``, Limits)."""
    b, g, r = cv2.split(canonical)
    lost = cv2.min(cv2.min(b, g), r) >= CLIPS_AT
    return float(np.count_nonzero(lost & _TABLE)) / float(np.count_nonzero(_TABLE))


_STRIDE = 4
_SAMPLE = np.zeros((layout.SIZE, layout.SIZE), bool)
_SAMPLE[::_STRIDE, ::_STRIDE] = True
_SAMPLE &= cv2.circle(
    np.zeros((layout.SIZE, layout.SIZE), np.uint8),
    (round(layout.CENTRE[0]), round(layout.CENTRE[1])),
    round(0.95 * layout.TABLE_RADIUS),
    1,
    -1,
).astype(bool)
_SAMPLE_GRID = _SAMPLE[::_STRIDE, ::_STRIDE]
"""The sampled pixels (every fourth row and column, on the table) on the sample grid."""
_SAMPLE_AT = np.flatnonzero(_SAMPLE_GRID)
"""The same as flat indices into the sample grid (row-major, the order the mask picks)."""


def _cloth_model(sparse: np.ndarray, gain: np.ndarray, colour: np.ndarray) -> Cloth:
    """The cloth's chromaticity spread measured on the table (texture, noise, grain): six
    times the median distance of the table's cloth-like pixels (a robust scale: the goblets,
    tokens and hands on the table are a minority and lie beyond it). ``sparse``: every fourth
    pixel of the canonical view smoothed over 3x3 (sensor noise), ``gain`` the relighting
    there (smooth, so relit smoothed = smoothed times gain)."""
    # Only the table's samples, relit; rounded as the 8-bit view is (its quantisation is part
    # of the spread the tolerance has to cover).
    at = _SAMPLE_AT
    samples = np.take(sparse.reshape(-1, 3), at, axis=0).astype(np.float32)
    samples *= np.take(np.ascontiguousarray(gain).reshape(-1, 3), at, axis=0)
    table = np.minimum(np.rint(samples), SATURATED - 1)
    total = _row_sums(table) + 1.0
    ref = colour / (float(colour.sum()) + 1.0)
    d = np.hypot(table[:, 0] / total - ref[0], table[:, 2] / total - ref[2])
    near = d[d < 0.06]
    spread = median(near) if near.size else 0.01
    return Cloth(colour, float(np.clip(6.0 * spread, 0.025, 0.06)))


def normalise(canonical: np.ndarray) -> np.ndarray:
    """The canonical view relit to the reference light (see :func:`relight`)."""
    return relight(canonical)[0]


def annulus_kernel(inner: float, outer: float) -> np.ndarray:
    """A kernel averaging over the annulus between radii ``inner`` and ``outer`` (pixels): a
    ring's body, a token's rim, the cloth just outside it, a face (``inner`` 0: a disc)."""
    half = math.ceil(outer) + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1]
    r = np.hypot(xx, yy)
    k = ((r >= inner) & (r <= outer)).astype(np.float32)
    return k / k.sum()
