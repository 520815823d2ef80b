"""Colours the camera tells apart: six House Coaster rings and five kinds of token.

Rulebook, Ingredients: "6 Goblets (with 6 Coaster rings in 6 colors)" and "52 plastic tokens: 21
Wine (red) | 15 Poison (black) | 14 Antidote (white) | 1 Unicorn Antidote (blue) | 1 Ogre Poison
(green)". The ring colours and the colour-blind patterns are read from
``companion.core.games.goblets.houses.RING_LOOKS``, the table the dashboard draws from too, so a
printed ring set matches the screen. Colours are RGB as seen under neutral light on the reference
cloth; :mod:`vision.frame` normalises a frame's lighting to that reference before colours are
compared.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from companion.core.games.goblets.houses import HOUSE_IDS, RING_LOOKS

RGB = tuple[int, int, int]

RING_COLOURS: Mapping[str, RGB] = {
    house: (int(look.colour[1:3], 16), int(look.colour[3:5], 16), int(look.colour[5:7], 16))
    for house, look in RING_LOOKS.items()
}
"""House id -> ring colour, from the one table (``companion.core.games.goblets.houses``)."""

RING_PATTERNS: Mapping[str, str] = {house: look.pattern for house, look in RING_LOOKS.items()}
"""House id -> the white pattern printed over the ring colour (the same table)."""

TOKEN_COLOURS: Mapping[str, RGB] = {
    "wine": (150, 25, 45),
    "poison": (26, 26, 30),
    "antidote": (238, 236, 228),
    "unicorn_antidote": (35, 90, 205),
    "ogre_poison": (40, 150, 60),
}
"""Token kind (the tracker's and the engine's names) -> colour."""

CLOTH: RGB = (128, 124, 116)
"""The reference table cloth: a mid grey that both black and white tokens stand out on."""
PEWTER: RGB = (168, 168, 172)
"""A goblet's foot and bowl seen from above."""
BOWL: RGB = (62, 56, 60)
"""The dark opening of the bowl."""
PATTERN: RGB = (236, 236, 236)
"""The white of the ring patterns."""

assert tuple(RING_COLOURS) == HOUSE_IDS, "one ring colour per House, in rulebook order"


def lab(colours: Mapping[str, RGB]) -> tuple[list[str], np.ndarray]:
    """Names and an ``(n, 3)`` float array of the colours in OpenCV's 8-bit Lab."""
    names = list(colours)
    rgb = np.array([[colours[n] for n in names]], dtype=np.uint8)
    values = cv2.cvtColor(rgb, cv2.COLOR_RGB2Lab)[0].astype(np.float32)
    return names, values


class Classifier:
    """Nearest reference colour for every pixel of an 8-bit Lab image, by a lookup table.

    Lightness weighs less than the colour axes (``weights``): shading and highlights change it
    most. The table holds the answer for every Lab value quantised to ``2 ** bits`` levels per
    axis, so classifying a frame is one indexing, not a distance per pixel and reference.
    """

    def __init__(self, refs: np.ndarray, weights=(0.6, 1.0, 1.0), bits: int = 6) -> None:
        self.shift = 8 - bits
        levels = (np.arange(1 << bits, dtype=np.float32) + 0.5) * (1 << self.shift)
        grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1)
        w = np.asarray(weights, np.float32)
        best = np.zeros(grid.shape[:3], np.uint8)
        best_d = np.full(grid.shape[:3], np.inf, np.float32)
        for index, ref in enumerate(refs):
            d = (((grid - ref) * w) ** 2).sum(axis=-1)
            closer = d < best_d
            best[closer] = index
            best_d[closer] = d[closer]
        self.table = best
        self.distance = np.sqrt(best_d).clip(0, 255).astype(np.uint8)
        """The weighted Lab distance to the nearest reference, per cell."""

    def __call__(self, lab_image: np.ndarray) -> np.ndarray:
        """The index of the nearest reference for every pixel (uint8, the image's shape)."""
        q = lab_image >> self.shift
        return self.table[q[..., 0], q[..., 1], q[..., 2]]

    def nearest(self, lab_image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The nearest reference's index and the distance to it, for every pixel."""
        q = lab_image >> self.shift
        index = (
            (q[..., 0].astype(np.intp) << (2 * (8 - self.shift)))
            | (q[..., 1].astype(np.intp) << (8 - self.shift))
            | q[..., 2]
        )
        return self.table.reshape(-1)[index], self.distance.reshape(-1)[index]
