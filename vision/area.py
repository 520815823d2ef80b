"""The crop round a seat's reveal area and its masks (pure: constants of the canonical view).

Rulebook, The Toast: "each player takes the Goblet in front of them [...] and reveals its
contents", poured out in the seat's reveal area (:mod:`vision.layout`). The homography takes the
perspective out, so every seat's area is the same disc in the canonical view: each is read from
a square crop of one size round its centre (:func:`boxes`), and the masks over that crop are
worked out once here: the area's disc, the band just outside it where what covers the area
shows (:data:`BORDER`), the table without its markers, and how deep inside the area's edge each
pixel lies. :mod:`vision.tokens` counts the tokens in the crop, :mod:`vision.cover` says when
something hides it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import layout
from vision.layout import TableLayout

BORDER = (layout.REVEAL_RADIUS + 3, layout.REVEAL_RADIUS + 9)
"""The band just outside a reveal area: tokens poured in the area stay inside it, so something
that is not cloth there (a hand and its arm reaching in, a goblet's bowl leaning over) covers
the area. It starts 3 px out: a token at the area's very edge blurs and casts its contact
shadow that far (on a coloured cloth that fringe is no cloth, and refused the area)."""
HALF = round(layout.REVEAL_RADIUS + 10)
"""Half the side of the square crop round a reveal area's centre (px): the area and its band
(:data:`BORDER`) with a pixel to spare. The crop is ``2 * HALF + 1`` a side, the area's centre
at ``(HALF, HALF)``."""
TABLE = np.ones((layout.SIZE, layout.SIZE), np.uint8)
"""The canonical view's pixels that may hold tokens (1), the markers and the cloth round them
kept out (0): tokens left on a marker are not read."""
for _marker in layout.MARKER_IDS:
    _mx, _my = layout.marker_centre(_marker)
    cv2.circle(TABLE, (round(_mx), round(_my)), round(layout.MARKER_KEEP_OUT), 0, -1)
DISC = np.zeros((2 * HALF + 1, 2 * HALF + 1), np.uint8)
"""The crop's pixels read for tokens (0/1): the area and the first 4 px round it, where a token
at its very edge blurs."""
cv2.circle(DISC, (HALF, HALF), round(layout.REVEAL_RADIUS + 4), 1, -1)
BAND = np.zeros_like(DISC)
"""The crop's pixels in the band :data:`BORDER` round the area (0/1)."""
cv2.circle(BAND, (HALF, HALF), round(BORDER[1]), 1, -1)
cv2.circle(BAND, (HALF, HALF), round(BORDER[0]), 0, -1)
AREA_AND_BAND = (DISC | BAND) > 0
"""The crop's pixels in :data:`DISC` or :data:`BAND`."""
INSIDE = cv2.circle(np.zeros_like(DISC), (HALF, HALF), round(layout.REVEAL_RADIUS), 1, -1) > 0
"""The crop's pixels inside the area's own circle."""
_OFFSETS = np.mgrid[-HALF : HALF + 1, -HALF : HALF + 1]
DEPTH = (layout.REVEAL_RADIUS - np.hypot(*_OFFSETS)).astype(np.float32)
"""How far inside the area's edge each pixel of the crop lies (negative: outside)."""
IN_BAND = BAND > 0
""":data:`BAND` as booleans."""
GY, GX = np.mgrid[-HALF : HALF + 1, -HALF : HALF + 1].astype(np.float32)
"""Each pixel of the crop's offset from the area's centre (rows, columns; px)."""


def boxes(seats: int) -> list[tuple[int, int, int, int]]:
    """The parts of the canonical view the reveal areas are read from, one per seat (rows
    y0:y1, columns x0:x1)."""
    table = TableLayout(seats)
    out = []
    for seat in range(seats):
        cx, cy = table.reveal_centre(seat)
        x0, y0 = round(cx) - HALF, round(cy) - HALF
        out.append((y0, y0 + 2 * HALF + 1, x0, x0 + 2 * HALF + 1))
    return out
