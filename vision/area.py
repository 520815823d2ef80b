"""The crop round a seat's reveal area (pure: constants of the canonical view).

Rulebook, The Toast: "each player takes the Goblet in front of them [...] and reveals its
contents", poured out in the seat's reveal area (:mod:`vision.layout`). The homography takes the
perspective out, so every seat's area is the same disc in the canonical view: each is read from
a square crop of one size round its centre (:func:`boxes`), which :mod:`vision.tokennet` reads.
"""

from __future__ import annotations

from vision import layout
from vision.layout import TableLayout

HALF = round(layout.REVEAL_RADIUS + 10)
"""Half the side of the square crop round a reveal area's centre (px): the area, a token at
its very edge blurred 4 px beyond it, and a few pixels of table round it (what the token reader
sees of a hand or a bowl reaching in). The crop is ``2 * HALF + 1`` a side, the area's centre at
``(HALF, HALF)``."""


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
