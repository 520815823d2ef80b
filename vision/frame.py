"""A camera frame checked, warped to the canonical table and normalised for lighting.

Bad input is a :class:`~companion.core.errors.MalformedInput` naming the field, never a crash
deep inside OpenCV. Lighting: the table cloth is the white reference ("grey world" over the
cloth). A smooth cubic surface per colour channel is fitted to the cloth (robustly, so rings,
goblets and tokens are left out), and the frame is divided by it and multiplied by the reference
cloth colour: uneven light, vignetting and a colour cast all become the reference light.
"""

from __future__ import annotations

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
    surface = np.maximum(surface, 4.0)
    full = cv2.resize(surface, (canonical.shape[1], canonical.shape[0]))
    return full, float(keep.mean())


MIN_CLOTH = 0.72
"""At least this fraction of the table must look like cloth (a laid table: 0.8-0.95); else the
table is covered, or the calibration does not put the table where it is."""
MIN_LIGHT = 20.0
"""The cloth's mean level (0-255) below which the table is too dark to tell colours."""
_CLOTH_BGR = np.array(palette.CLOTH[::-1], np.float32)
_CENTRE_PATCH = (slice(300, 500), slice(300, 500))


def normalise(canonical: np.ndarray) -> np.ndarray:
    """The canonical view relit to the reference: cloth everywhere ``palette.CLOTH``.

    A table too dark to see, or mostly not cloth, is MalformedInput (a frame not to trust)."""
    light, cloth = lighting(canonical)
    level = float(light[_CENTRE_PATCH].mean())
    if level < MIN_LIGHT:
        raise MalformedInput(
            f"the table is too dark to see (cloth level {level:.0f})", field="image"
        )
    if cloth < MIN_CLOTH:
        raise MalformedInput(
            f"only {cloth:.0%} of the table looks like cloth: covered, or a wrong calibration",
            field="image",
        )
    gain = _CLOTH_BGR / light
    return np.clip(canonical.astype(np.float32) * gain, 0, 255).astype(np.uint8)
