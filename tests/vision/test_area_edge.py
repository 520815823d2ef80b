"""What the reveal area's edge cuts: a goblet's shadow reaching in is no token, a token inside
counts, a token just outside does not.

Drawn straight into the canonical view (the relit table the token reader reads): grey cloth, a
black Poison token with a lens's blur, a soft shadow as a goblet's bowl casts one. On the
independent renderer's frames, Poisons counted at the edge were such shadows
(``tests/vision/test_independent.py`` holds one of them).
"""

import math

import cv2
import numpy as np
import pytest

from vision import layout, palette
from vision.layout import TableLayout
from vision.tokennet import read_areas

CLOTH = tuple(reversed(palette.CLOTH))
SEATS = 4
SEAT = 0


def _table() -> np.ndarray:
    return np.full((layout.SIZE, layout.SIZE, 3), CLOTH, np.uint8)


def _outwards(distance: float) -> tuple[float, float]:
    """The point ``distance`` px from seat 0's reveal centre, away from the table's centre."""
    cx, cy = TableLayout(SEATS).reveal_centre(SEAT)
    ux, uy = cx - layout.CENTRE[0], cy - layout.CENTRE[1]
    norm = math.hypot(ux, uy)
    return cx + distance * ux / norm, cy + distance * uy / norm


def _poison(view: np.ndarray, x: float, y: float) -> np.ndarray:
    token = np.zeros(view.shape[:2], np.float32)
    centre, radius = (round(x * 4), round(y * 4)), round(layout.TOKEN_RADIUS * 4)
    cv2.circle(token, centre, radius, 1.0, -1, cv2.LINE_AA, 2)
    token = cv2.GaussianBlur(token, (0, 0), 1.0)[..., None]
    return (view * (1 - token) + np.array([38, 36, 40]) * token).astype(np.uint8)


def _shadow(view: np.ndarray, x: float, y: float) -> np.ndarray:
    """A stem's or small bowl's shadow (a token's size) taking 0.6 of the light, its edge a
    penumbra of 3 px; dark enough at its core to be no cloth by the cloth model."""
    dark = np.zeros(view.shape[:2], np.float32)
    cv2.circle(dark, (round(x), round(y)), 12, 1.0, -1)
    dark = cv2.GaussianBlur(dark, (0, 0), 3.0)[..., None]
    return (view * (1 - 0.6 * dark)).astype(np.uint8)


@pytest.mark.parametrize("distance", [40.0, 50.0])
def test_a_token_in_the_area_counts(distance):
    view = _poison(_table(), *_outwards(distance))
    assert read_areas(view, SEATS)[SEAT]["poison"] == 1


def test_a_shadow_reaching_in_over_the_edge_is_no_token():
    # Centred on the area's edge: what reaches in is a dark crescent of a token's size (the
    # heuristic reader of 2026-12-02 counted it as one Poison until it looked at its centre).
    view = _shadow(_table(), *_outwards(layout.REVEAL_RADIUS))
    counts = read_areas(view, SEATS)[SEAT]
    assert counts is not None and sum(counts.values()) == 0


def test_a_token_just_outside_the_area_is_not_counted():
    # Wholly outside, its rim 3 px from the area's edge: a token left beside the reveal
    # area is not revealed (and the area is still seen).
    view = _poison(_table(), *_outwards(layout.REVEAL_RADIUS + layout.TOKEN_RADIUS + 3))
    assert read_areas(view, SEATS)[SEAT] == dict.fromkeys(palette.TOKEN_COLOURS, 0)
