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

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.core.errors import MalformedInput
from vision import layout, palette

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


def lighting(canonical: np.ndarray) -> tuple[np.ndarray, float]:
    """The fitted cloth colour (float32 BGR) at every canonical pixel, and the fraction of the
    table that looked like cloth (the rest is goblets, tokens, hands, shadows)."""
    surface, cloth = _fit(canonical)
    return cv2.resize(surface, (canonical.shape[1], canonical.shape[0])), cloth


def _fit(canonical: np.ndarray) -> tuple[np.ndarray, float]:
    """:func:`lighting` on the ``_FIT`` x ``_FIT`` thumbnail."""
    small = cv2.resize(canonical, (_FIT, _FIT), interpolation=cv2.INTER_AREA).astype(np.float32)
    design = _DESIGN[_MASK]
    values = small[_MASK]
    keep = np.ones(len(values), bool)
    surface = np.empty((_FIT, _FIT, 3), np.float32)
    for _ in range(4):
        a = design[keep].astype(np.float64)
        # Normal equations solved by OpenCV: numpy's lstsq is slow on a busy multi-core Pi.
        _, coef = cv2.solve(
            a.T @ a, a.T @ values[keep].astype(np.float64), flags=cv2.DECOMP_CHOLESKY
        )
        fitted = design @ coef.astype(np.float32)
        # Pixels far from the cloth (rings, goblets, tokens, shadows) do not light the table.
        err = np.abs(values - fitted).sum(axis=1) / np.maximum(fitted.sum(axis=1), 1.0)
        keep = err < max(0.06, 2.5 * float(np.median(err[keep])))
    surface[...] = _DESIGN @ coef.astype(np.float32)
    return np.maximum(surface, 4.0), float(keep.mean())


MIN_CLOTH = 0.55
"""At least this fraction of the table must look like cloth (a laid table: 0.8-0.95, 0.6 with
the long shadows of a low side lamp); else the table is covered, or the calibration does not put
the table where it is."""
MIN_LIGHT = 20.0
"""The cloth's mean level (0-255) below which the table is too dark to tell colours."""
_CLOTH_BGR = np.array(palette.CLOTH[::-1], np.float32)
_CENTRE_PATCH = (slice(300, 500), slice(300, 500))
SATURATED = 255
"""The relit view's mark for a pixel the camera saturated (see :func:`relight`)."""
PAPER = 236.0
"""The white of the printed markers under the reference light (the white reference)."""
_MARKER_R = round(layout.MARKER_SIZE * 0.65)
_ONES = np.ones((1, 3), np.float32)


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
        # Chromaticity from a 3x3 mean: sensor noise would scatter it most where it is dark.
        f = cv2.blur(bgr, (3, 3)).astype(np.float32)
        total = cv2.transform(f, _ONES) + 1.0
        ref = self.bgr / (float(self.bgr.sum()) + 1.0)
        d = np.hypot(f[..., 0] / total - ref[0], f[..., 2] / total - ref[2])
        ratio = total / (float(self.bgr.sum()) + 1.0)
        # In a shadow the same noise is a larger share of a smaller signal.
        tolerance = looser * self.tolerance / np.sqrt(np.clip(ratio, 0.3, 1.0))
        return (d < tolerance) & (ratio > darkest) & (ratio < brightest)


def _at(surface: np.ndarray, x: float, y: float) -> np.ndarray:
    """The thumbnail surface's value at canonical ``(x, y)``."""
    scale = _FIT / layout.SIZE
    return surface[min(int(y * scale), _FIT - 1), min(int(x * scale), _FIT - 1)]


def _white(canonical: np.ndarray, surface: np.ndarray) -> np.ndarray | None:
    """The cloth's colour relative to the markers' white paper (per channel), the median over
    the markers whose bright pixels are plausibly paper; None when no marker shows."""
    ratios = []
    for marker in layout.MARKER_IDS:
        mx, my = (round(v) for v in layout.marker_centre(marker))
        patch = canonical[my - _MARKER_R : my + _MARKER_R, mx - _MARKER_R : mx + _MARKER_R]
        patch = patch.reshape(-1, 3).astype(np.float32)
        grey = patch.mean(axis=1)
        white = patch[grey >= np.percentile(grey, 85)].mean(axis=0)
        dark = patch[grey <= np.percentile(grey, 15)].mean(axis=0)
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
    ratio = _white(canonical, surface)
    colour = _CLOTH_BGR if ratio is None else np.clip(ratio * PAPER, 8.0, 250.0)
    # The gain varies as slowly as the light: computed on the thumbnail, then enlarged.
    gain = cv2.resize(colour.astype(np.float32) / surface, (canonical.shape[1], canonical.shape[0]))
    # uint8 x float32 straight into float32 (no float copy of the whole view): the same values.
    view = cv2.convertScaleAbs(cv2.multiply(canonical, gain, dtype=cv2.CV_32F))
    np.minimum(view, SATURATED - 1, out=view)
    # A pixel is saturated when any channel is: 255 on all three channels there (the view is
    # <= 254 elsewhere, so a maximum with the mark sets it without a boolean scatter).
    b, g, r = cv2.split(canonical)
    lost = cv2.compare(cv2.max(cv2.max(b, g), r), SATURATED - 4, cv2.CMP_GE)
    cv2.max(view, cv2.merge((lost, lost, lost)), dst=view)
    return view, _cloth_model(view, colour.astype(np.float32))


_SAMPLE = np.zeros((layout.SIZE, layout.SIZE), bool)
_SAMPLE[::4, ::4] = True
_SAMPLE &= cv2.circle(
    np.zeros((layout.SIZE, layout.SIZE), np.uint8),
    (round(layout.CENTRE[0]), round(layout.CENTRE[1])),
    round(0.95 * layout.TABLE_RADIUS),
    1,
    -1,
).astype(bool)


_SAMPLE_AT = np.flatnonzero(_SAMPLE)
"""The sampled pixels as flat indices (in row-major order, as the boolean mask picks them)."""


def _cloth_model(view: np.ndarray, colour: np.ndarray) -> Cloth:
    """The cloth's chromaticity spread measured on the table (texture, noise, grain): six
    times the median distance of the table's cloth-like pixels (a robust scale: the goblets,
    tokens and hands on the table are a minority and lie beyond it)."""
    blurred = cv2.blur(view, (3, 3)).reshape(-1, 3)
    table = blurred[_SAMPLE_AT].astype(np.float32)
    total = table.sum(axis=1) + 1.0
    ref = colour / (float(colour.sum()) + 1.0)
    d = np.hypot(table[:, 0] / total - ref[0], table[:, 2] / total - ref[2])
    near = d[d < 0.06]
    spread = float(np.median(near)) if near.size else 0.01
    return Cloth(colour, float(np.clip(6.0 * spread, 0.025, 0.06)))


def normalise(canonical: np.ndarray) -> np.ndarray:
    """The canonical view relit to the reference light (see :func:`relight`)."""
    return relight(canonical)[0]
