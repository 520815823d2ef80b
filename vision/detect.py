"""One frame through the whole pipe: checked, warped, relit, rings read and tokens counted."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.core.errors import MalformedInput
from vision import area as reveal_area
from vision import bare, frame, layout, tokennet
from vision import rings as ring_reader
from vision.calibrate import Calibration
from vision.frame import Cloth, check_image, relit_parts
from vision.rings import RingReading


@dataclass(frozen=True)
class Detections:
    """What one frame shows: the rings (:class:`~vision.rings.RingReading`) and, when asked
    for, each seat's revealed tokens (seat -> {kind: count}, or None where the area is not seen:
    a hand, glare or a goblet over it, see :attr:`covered`)."""

    rings: RingReading
    tokens: dict[int, dict[str, int] | None] | None

    @property
    def covered(self) -> list[int]:
        """The seats whose reveal area was not seen (their count is None, not a guess)."""
        return [] if self.tokens is None else [s for s, c in self.tokens.items() if c is None]

    def to_json(self) -> dict[str, Any]:
        """``{"seats": {...}, "rings": [...], "tokens": {"0": {KIND: n} | null, ...} | null,
        "covered": [seat, ...]}``."""
        data = self.rings.to_json()
        data["tokens"] = (
            None
            if self.tokens is None
            else {str(s): None if c is None else dict(c) for s, c in sorted(self.tokens.items())}
        )
        data["covered"] = self.covered
        return data


def canonical_view(image: Any, calibration: Calibration) -> np.ndarray:
    """The frame warped to the canonical table and relit (see :mod:`vision.frame`)."""
    return relit_view(image, calibration)[0]


def relit_view(
    image: Any, calibration: Calibration, boxes: list[tuple[int, int, int, int]] | None = None
) -> tuple[np.ndarray, Cloth]:
    """The frame warped to the canonical table and relit, and the cloth model learned from it
    (``boxes``: only those parts relit, see :func:`vision.frame.relight`)."""
    return relit_parts(_checked(image, calibration), calibration.homography, boxes)


def _checked(image: Any, calibration: Calibration) -> np.ndarray:
    """``image`` if it is a frame of the calibration's size (else MalformedInput)."""
    image = check_image(image)
    if (image.shape[1], image.shape[0]) != tuple(calibration.image_size):
        raise MalformedInput(
            f"is {image.shape[1]}x{image.shape[0]}, the calibration is for "
            f"{calibration.image_size[0]}x{calibration.image_size[1]}",
            field="image",
        )
    return image


def detect(
    image: Any,
    calibration: Calibration,
    tokens: bool = True,
    houses: Iterable[str] | None = None,
) -> Detections:
    """Rings at seats and (``tokens``) revealed token counts in one BGR frame; ``houses``: the
    Houses in play, whose rings alone are read (default: all six, see
    :func:`vision.rings.read_rings`)."""
    image = _checked(image, calibration)
    seats, h = calibration.seats, calibration.homography
    # Only the parts the readers look at are warped and relit: the ring zone at half
    # resolution, the reveal areas whole.
    light = frame.light_of(image, h)
    zone = frame.relit_box(image, h, light, ring_reader.BOX, ring_reader.COARSE)
    rings = ring_reader.read_rings(zone, seats, light.cloth, houses)
    if not tokens:
        return Detections(rings, None)
    view = np.zeros((layout.SIZE, layout.SIZE, 3), np.uint8)
    for box in reveal_area.boxes(seats):
        y0, y1, x0, x1 = box
        view[y0:y1, x0:x1] = frame.relit_box(image, h, light, box)
    unchanged = None
    if calibration.bare is not None:  # where the frame shows the bare table, no token lies
        unchanged = [
            functools.partial(_unchanged, image, h, calibration.bare, box)
            for box in reveal_area.boxes(seats)
        ]
    return Detections(rings, tokennet.read_areas(view, seats, unchanged))


def _unchanged(image, homography, reference, box, peaks: np.ndarray) -> np.ndarray:
    """Which of an area's ``peaks`` show the bare table (:func:`vision.bare.unchanged_cells`),
    the area warped as shot only when it has a peak."""
    y0, y1, x0, x1 = box
    shot = frame.warp_box(image, homography, box)
    return bare.unchanged_cells(shot, reference[y0:y1, x0:x1], peaks)
