"""Coaster rings: which House's ring stands at which seat (pure: an array in, detections out).

Rulebook: "Each player also receives the Coaster ring of the same color as their House and
attaches it to the base of the Goblet in front of them"; "The colored rings are just a way to help
you keep track of each single goblet during the game". Input: the canonical view relit by
:func:`vision.frame.normalise`. Every pixel of the goblet circle that the cloth model does not
call cloth is given the House whose ring could show its colour, by chromaticity (a shadow keeps
it, see :func:`_house_table`), or none (pewter, the bowl's opening, white). The pixels of any
House, closed over the patterns and matched against a ring's annulus, say where rings may stand;
at each such place each House's own pixels are matched again, near it, and where one House's
cover at least ``MIN_FILL`` of a ring's body, its ring stands there (one ring per House, the
best-matched first). A goblet's bowl stands above its ring and, seen from a tilted camera,
hides up to half of it, shades it, and shows its pewter tinted by alloy and light: the bowl is
no House's colour, or another House's, so it neither names the ring nor pulls its centre. At a
goblet spot where no ring was found, the Houses no ring found has are looked for again, fainter
colours and the cloth mixed in at a ring's edge counted too (:func:`_second_look`). A ring
within ``SEAT_TOLERANCE`` of a seat's goblet spot stands at that seat; others are loose (in a
hand, mid-move).

The tracker (``companion.core.games.goblets.tracking``) consumes per-seat snapshots of tag UIDs. The
camera speaks the same language: :func:`observations` turns a reading into one
:class:`~companion.core.observations.Observation` per seat whose tags are pseudo-UIDs, one per
House (:func:`ring_uid`, hex because the tracker's UIDs are hex), and :func:`ring_registry`
enrols them as the Coaster rings of Goblets named by House. A tracker fed only by the camera
then reports rotations, swaps and lifts exactly as with readers (the camera sees no pours).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from companion.core.errors import MalformedInput
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation
from vision import layout, palette
from vision.frame import Cloth, annulus_kernel
from vision.layout import TableLayout

RING_AREA = math.pi * (layout.RING_OUTER**2 - layout.RING_INNER**2)
MIN_FILL = 0.35
"""Ring colours covering this fraction of a ring's body make a ring (the closing fills most of
the pattern; shading takes some, and a goblet's bowl, standing above the ring, hides up to half
of it from a tilted camera)."""
SEAT_TOLERANCE = layout.RING_OUTER
"""A ring whose centre is this close to a seat's goblet spot stands at that seat."""
ZONE = layout.GOBLET_CIRCLE + layout.RING_OUTER + 16
"""Rings are looked for within this radius of the table's centre (clear of the reveal areas,
where a Wine token's red would look like the Arañeros ring)."""

CHROMA_OFF = 0.06
"""How far a ring's pixel's chromaticity ((r, g, b) / (r + g + b)) may lie off its House's line."""
MIN_CHROMA = 0.05
"""How far from white a pixel's chromaticity must lie along its House's line to be that
House's (a goblet's pewter, tinted by its alloy and the light, lies mostly closer)."""
FAINT_CHROMA = 0.025
"""How far from white a pixel's chromaticity must lie along its House's line to count for that
House's ring at a goblet spot where no ring was found (:func:`_second_look`): purple
Aconitiers' white cross covers 48% of it, and at half resolution, blurred, most of its pixels lie
0.03-0.045 from white on its line, under :data:`MIN_CHROMA` (which keeps a tinted pewter bowl
from naming a ring where one was found). Development (allr2): 0.02-0.03 read six Aconitiers
rings on white linen and grey cloth the first look missed, 0.04 four, 0.05 none; nothing else
changed."""
SHADE = (0.3, 1.35)
"""A ring's pixel is its colour (mixed with its pattern's white) times a shading in this range:
a bowl's shadow takes up to 0.6 of the light, the lamp's gradient adds a little."""
SHADE_COST = 0.10
"""Chromaticity distance charged per unit of ``|ln shading|`` when two Houses' lines both fit a
pixel. The relit view shows a lit surface at its own brightness, so a pixel's brightness against
the mix's says how much light it had, and most of a ring is lit: brown De Miceti is a dark,
weakly coloured ring whose lit pixels are also a yellow Wespendorf one in a 0.6-0.7 shadow or a
red Arañeros one in a 0.7-0.8 shadow, and on a hard frame (a low lamp, a blurring camera) the
cloth mixed in at the ring's edges tips its chromaticity onto those Houses' lines. Development
(allr2, both sets, both sizes): 0.02 -> 0.10 took the hard frames' ring errors from 21 to 13,
nothing lost (0.05: 17, 0.08: 14; 0.12: 13, two rings on white linen lost for two more
gained); extra seeds hard 57000-57059 11 -> 5, realistic 57100-57199 unchanged (every ring
right)."""
_NONE = 255
"""The label of a pixel that is no House's ring colour."""


def _house_table(
    bits: int = 6, play: frozenset[int] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Lab lookup table: the House whose ring could show this colour, or :data:`_NONE`.

    A ring's pixel is its colour C mixed with its pattern's white W (blur, the camera's
    resolution) and dimmed or brightened by shading. Shading keeps chromaticity (rgb / sum), and
    a mix of two colours has a chromaticity on the segment between theirs, so a House's pixels
    lie on the chromaticity segment from W to C, whatever the light: near it (``CHROMA_OFF``),
    far enough from white (``MIN_CHROMA``), at a brightness the mix times a shading in
    :data:`SHADE` can have. A shaded yellow keeps yellow's chromaticity where in Lab it nears
    brown; that confusion is what the Lab median made under a bowl's shadow.

    Also each House's cost per cell where its line fits down to :data:`FAINT_CHROMA` from white
    (``inf`` elsewhere), for the second look at an empty goblet spot (:func:`_second_look`).
    With ``play`` (House indices), a cell is only ever one of those Houses'.
    """
    shift = 8 - bits
    levels = ((np.arange(1 << bits) << shift) + (1 << shift) // 2).astype(np.uint8)
    grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1)
    rgb = cv2.cvtColor(grid.reshape(1, -1, 3), cv2.COLOR_Lab2RGB).reshape(-1, 3)
    rgb = rgb.astype(np.float32)
    total = rgb.sum(axis=1) + 1e-3
    chroma = rgb / total[:, None]
    white = np.asarray(palette.PATTERN, np.float32)
    w_sum, w = float(white.sum()), white / float(white.sum())
    best = np.full(len(rgb), np.inf, np.float32)
    table = np.full(len(rgb), _NONE, np.uint8)
    costs = np.full((len(palette.RING_COLOURS), len(rgb)), np.inf, np.float32)
    for index, colour in enumerate(palette.RING_COLOURS.values()):
        c = np.asarray(colour, np.float32)
        c_sum = float(c.sum())
        v = c / c_sum - w
        along = (chroma - w) @ v / float(v @ v)  # 0 at white, 1 at the pure colour
        t = np.clip(along, 0.0, 1.0)
        off = np.linalg.norm(chroma - w - t[:, None] * v, axis=1)
        # The mix's share of ring colour by amount (not by light) and the brightness it has.
        share = t * w_sum / (t * w_sum + (1 - t) * c_sum)
        shade = total / (share * c_sum + (1 - share) * w_sum)
        cost = off + SHADE_COST * np.abs(np.log(np.maximum(shade, 1e-3)))
        away = along * float(np.linalg.norm(v))
        fits = (off <= CHROMA_OFF) & (away >= FAINT_CHROMA) & (shade >= SHADE[0])
        fits &= shade <= SHADE[1]
        costs[index, fits] = cost[fits]
        if play is not None and index not in play:
            continue  # its cost stays for the second look; no cell is named for it
        ok = fits & (away >= MIN_CHROMA) & (cost < best)
        best[ok] = cost[ok]
        table[ok] = index
    return table.reshape((1 << bits,) * 3), costs


_HOUSES = list(palette.RING_COLOURS)
_BITS = 6
_SHIFT = 8 - _BITS
_TABLE, _FAINT = _house_table(_BITS)
"""The House of each Lab cell, and each House's cost per cell with the :data:`FAINT_CHROMA`
floor (inf: not that House), for the second look."""
_FLAT = _TABLE.reshape(-1)
"""The table flat: a pixel's cell is ``(L >> 2) << 12 | (a >> 2) << 6 | (b >> 2)``."""


@lru_cache(maxsize=16)
def _flat_for(play: frozenset[int]) -> np.ndarray:
    """:data:`_FLAT` for a game of the Houses ``play`` (indices): a cell is only theirs."""
    if len(play) == len(_HOUSES):
        return _FLAT
    return _house_table(_BITS, play)[0].reshape(-1)


def _in_play(houses: Iterable[str] | None) -> frozenset[int]:
    """The indices of ``houses`` (None: every House), or MalformedInput naming one unknown."""
    if houses is None:
        return frozenset(range(len(_HOUSES)))
    play = set()
    for house in houses:
        if house not in _HOUSES:
            raise MalformedInput(f"unknown House {house!r}", field="houses")
        play.add(_HOUSES.index(house))
    return frozenset(play)


_ZONE_MASK = np.zeros((layout.SIZE, layout.SIZE), np.uint8)
cv2.circle(_ZONE_MASK, (round(layout.CENTRE[0]), round(layout.CENTRE[1])), round(ZONE), 1, -1)
_Y0, _Y1 = round(layout.CENTRE[1] - ZONE), round(layout.CENTRE[1] + ZONE) + 1
_X0, _X1 = round(layout.CENTRE[0] - ZONE), round(layout.CENTRE[0] + ZONE) + 1
_CLOSE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
"""Closes the ring colour over its white pattern (at half resolution: 6 canonical px)."""
BOX = (_Y0, _Y1, _X0, _X1)
"""The part of the canonical view the rings are read from (rows y0:y1, columns x0:x1), at
half resolution (:data:`COARSE`: every second row and column)."""


@dataclass(frozen=True)
class RingDetection:
    """One ring seen: its House, its centre (canonical pixels), the seat it stands at (None:
    loose) and its area as a fraction of a ring's."""

    house: str
    x: float
    y: float
    seat: int | None
    fill: float

    def to_json(self) -> dict:
        """JSON-able form."""
        return {
            "house": self.house,
            "x": round(self.x, 1),
            "y": round(self.y, 1),
            "seat": self.seat,
            "fill": round(self.fill, 2),
        }


@dataclass(frozen=True)
class RingReading:
    """Every seat's ring (House or None), every ring detected (seated or loose), and the seats
    where more than one ring stands close (``crowded``: seat -> Houses, fullest first): there
    ``seats`` names the fullest ring, and the uncertainty is stated, not hidden."""

    seats: dict[int, str | None]
    rings: list[RingDetection] = field(default_factory=list)
    crowded: dict[int, list[str]] = field(default_factory=dict)

    def houses_at(self, seat: int) -> list[str]:
        """Every House whose ring stands at ``seat`` (usually one, or none)."""
        if seat in self.crowded:
            return list(self.crowded[seat])
        house = self.seats.get(seat)
        return [] if house is None else [house]

    def to_json(self) -> dict:
        """``{"seats": {"0": HOUSE | null, ...}, "rings": [...], "crowded": {"2": [...]}}``."""
        return {
            "seats": {str(s): h for s, h in sorted(self.seats.items())},
            "rings": [r.to_json() for r in self.rings],
            "crowded": {str(s): hs for s, hs in sorted(self.crowded.items())},
        }


_COARSE = 2
"""Rings are read at half resolution (every second canonical pixel): a ring is 68 px across,
its pattern's strokes 2 px (at half resolution their mix with the ring's colour lies on the
same chromaticity line, and is read as the House), and every step costs a quarter as much."""
COARSE = _COARSE
_BODY = annulus_kernel((layout.RING_INNER + 1) / _COARSE, (layout.RING_OUTER - 1) / _COARSE)
_HOLE = annulus_kernel(0, (layout.RING_INNER - 6) / _COARSE)
_PEAK = np.ones((2 * int(layout.RING_INNER / _COARSE) + 1,) * 2, np.uint8)
"""A square neighbourhood for the peaks (a square max filter is separable, so fast); two
places closer than :data:`PLACE_APART`, two rings closer than :data:`MIN_APART`, are thinned
out after."""
MIN_APART = 1.6 * layout.RING_OUTER
"""Two rings' centres are at least this far apart (two goblets' feet cannot overlap)."""
HOLE_WEIGHT = 0.25
"""A House's colour where the goblet's foot stands counts against a ring there (a blob is no
ring), but weakly: a foot's pewter tinted like its ring's colour is that House's colour too."""
_HALF = _BODY.shape[0] // 2
_SCORE = _BODY.copy()
_pad = (_BODY.shape[0] - _HOLE.shape[0]) // 2
_SCORE[_pad : _pad + _HOLE.shape[0], _pad : _pad + _HOLE.shape[1]] -= HOLE_WEIGHT * _HOLE
_SCORE /= 255.0  # the masks are 0/255
OUTSIDE_WEIGHT = 0.5
"""A House's colour just outside a ring's outer edge (2-8 px beyond it) counts against that
House's ring there: a ring's colour stops at its edge, cloth lies round it. The cloth darkened
and mixed at a ring's edge can take another House's colour (a brown De Miceti ring on a red
cloth is ringed by Arañeros red), a halo round the ring that matches a ring's annulus only from
outside."""
_OUTSIDE = annulus_kernel((layout.RING_OUTER + 2) / _COARSE, (layout.RING_OUTER + 8) / _COARSE)
_pad = (_OUTSIDE.shape[0] - _SCORE.shape[0]) // 2
_OWN_SCORE = -OUTSIDE_WEIGHT * _OUTSIDE / 255.0
_OWN_SCORE[_pad : _pad + _SCORE.shape[0], _pad : _pad + _SCORE.shape[1]] += _SCORE
"""One House's match at a place: :data:`_SCORE` less :data:`OUTSIDE_WEIGHT` of the fill just
outside the ring."""


def _match(mask: np.ndarray, kernel: np.ndarray = _SCORE) -> tuple[np.ndarray, np.ndarray]:
    """A 0/255 ring-colour mask at half resolution closed over the white pattern, and its
    match against a ring: the annulus' fill less :data:`HOLE_WEIGHT` of the foot's (and, with
    ``kernel`` :data:`_OWN_SCORE`, less :data:`OUTSIDE_WEIGHT` of the fill outside it)."""
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSE).astype(np.float32)
    # float32 in: OpenCV filters a large kernel by DFT then (uint8 in, directly: 5x slower).
    return closed, cv2.filter2D(closed, -1, kernel, borderType=cv2.BORDER_CONSTANT)


def _fill(small: np.ndarray, x: int, y: int) -> float:
    """The fraction of a ring's body (the annulus round coarse ``(x, y)``) that ``small`` fills."""
    y0, x0 = y - _HALF, x - _HALF
    win = small[max(y0, 0) : y + _HALF + 1, max(x0, 0) : x + _HALF + 1]
    k = _BODY[max(-y0, 0) : max(-y0, 0) + win.shape[0], max(-x0, 0) : max(-x0, 0) + win.shape[1]]
    return float((win * k).sum()) / 255.0


PLACE_FILL = 0.3
"""A place where rings may stand: any Houses' colours fill this much of an annulus there."""
PLACE_APART = 0.8 * layout.RING_OUTER
"""Places are kept this far apart (closer than :data:`MIN_APART`: a bowl's colour next to a ring
can make the union's best peak lie between them, the ring's own House then finds its centre)."""
_SEARCH = 10
"""How far (coarse pixels) from a place found in the union of colours one House's ring is
looked for: a tinted bowl can pull the union's peak 30 px off the ring."""
_WINDOW = _HALF + _SEARCH + 1
_ENOUGH = round(0.2 * RING_AREA / _COARSE**2)
"""A House is tried at a place when this much of its colour lies in the window there."""


def detect_rings(
    normalised: np.ndarray,
    seats: int,
    cloth: Cloth | None = None,
    houses: Iterable[str] | None = None,
) -> RingReading:
    """The rings on the canonical, relit view ``normalised`` of a table of ``seats`` seats.

    Places are the peaks of any House's colour matched against a ring's annulus (less a penalty
    where the goblet's foot should be); at each, every House with enough of its colour there is
    matched on its own, and the best-matched (House, centre) pairs are rings, one per House, so
    two goblets touching are two rings and a bowl's tint names nothing. Pixels the ``cloth``
    model calls cloth (lit or shaded) are never ring (default: the reference cloth
    ``palette.CLOTH``). ``houses``: the Houses in play (default: all six), the only rings read.
    """
    y0, y1, x0, x1 = BOX
    return read_rings(normalised[y0:y1:_COARSE, x0:x1:_COARSE], seats, cloth, houses)


_ZONE_COARSE = _ZONE_MASK[_Y0:_Y1:_COARSE, _X0:_X1:_COARSE]


def read_rings(
    coarse: np.ndarray,
    seats: int,
    cloth: Cloth | None = None,
    houses: Iterable[str] | None = None,
) -> RingReading:
    """:func:`detect_rings` on the relit view's :data:`BOX` at half resolution (``coarse``:
    every second pixel of it, as :func:`vision.frame.relit_box` warps it straight from the
    frame).

    Rulebook, Setup: "Each player also receives the Coaster ring of the same color as their
    House"; the rings of Houses no one plays stay in the box. Told the ``houses`` in play (as
    the game knows them), a pixel is only ever one of theirs, and no other House's ring is
    looked for: a brown De Miceti ring in a bowl's shadow cannot be read as a red Arañeros one
    when no one plays Arañeros."""
    play = _in_play(houses)
    table = TableLayout(seats)
    cloth = cloth or Cloth(np.array(palette.CLOTH[::-1], np.float32))
    q = (cv2.cvtColor(coarse, cv2.COLOR_BGR2Lab) >> _SHIFT).astype(np.intp)
    cells = (q[..., 0] << 2 * _BITS) | (q[..., 1] << _BITS) | q[..., 2]
    labels = _flat_for(play)[cells]
    unseen = (_ZONE_COARSE == 0) | cloth.mask(coarse)
    labels[unseen] = _NONE
    # Where rings may stand: any House's colour, matched against a ring's annulus.
    mask = cv2.compare(labels, _NONE, cv2.CMP_NE)
    _small, score = _match(mask)
    peaks = (score >= cv2.dilate(score, _PEAK) - 1e-6) & (score >= PLACE_FILL)
    ys, xs = np.nonzero(peaks)
    centres: list[tuple[int, int]] = []
    for i in np.argsort(-score[ys, xs], kind="stable"):
        x, y = int(xs[i]), int(ys[i])
        if all(math.hypot(x - cx, y - cy) >= PLACE_APART / _COARSE for cx, cy in centres):
            centres.append((x, y))
    # Which House stands there, and exactly where: each House's own colour matched against the
    # annulus near that place (a tinted bowl leaning over the ring, or a touching goblet, is
    # another colour and neither pulls the centre nor names the ring).
    candidates: list[tuple[float, float, int, int, int]] = []
    for x, y in centres:
        y0, x0 = max(y - _WINDOW, 0), max(x - _WINDOW, 0)
        win = labels[y0 : y + _WINDOW + 1, x0 : x + _WINDOW + 1]
        votes = np.bincount(win.reshape(-1), minlength=256)[: len(_HOUSES)]
        for index in np.flatnonzero(votes >= _ENOUGH).tolist():
            small, local = _match(cv2.compare(win, index, cv2.CMP_EQ), _OWN_SCORE)
            # Only near the place found: farther off is another place's business.
            cy, cx = y - y0, x - x0
            near = local[
                max(cy - _SEARCH, 0) : cy + _SEARCH + 1, max(cx - _SEARCH, 0) : cx + _SEARCH + 1
            ]
            py, px = np.unravel_index(int(near.argmax()), near.shape)
            py, px = py + max(cy - _SEARCH, 0), px + max(cx - _SEARCH, 0)
            best = float(local[py, px])
            if best >= MIN_FILL:
                ring_x, ring_y = (x0 + px) * _COARSE, (y0 + py) * _COARSE
                candidates.append((best, _fill(small, px, py), index, ring_x, ring_y))
    used = set(range(len(_HOUSES))) - play  # a House not in play is as good as found
    placed: list[tuple[int, int]] = []
    found = _place(candidates, table, used, placed)
    empty = set(range(seats)) - {r.seat for r in found}
    if empty and len(used) < len(_HOUSES):
        found += _second_look(coarse, cells, unseen, cloth, table, sorted(empty), used, placed)
    at: dict[int, list[RingDetection]] = {}
    for ring in sorted(found, key=lambda r: -r.fill):
        if ring.seat is not None:
            at.setdefault(ring.seat, []).append(ring)
    by_seat: dict[int, str | None] = dict.fromkeys(range(seats))
    crowded: dict[int, list[str]] = {}
    for seat, here in at.items():
        # One goblet stands on a spot; two rings there (one being put down beside the other)
        # are reported, the fuller one named.
        by_seat[seat] = here[0].house
        if len(here) > 1:
            crowded[seat] = [r.house for r in here]
    found.sort(key=lambda r: (r.seat is None, r.seat or 0, r.house))
    return RingReading(by_seat, found, crowded)


OWN_FILL = 0.3
"""On the second look a ring's House's own line (no mix with the cloth) must fill this much of
the ring's body: the cloth mixed in explains a ring's edge, not a whole ring (on a red cloth a
brown ring's pixels all lie between yellow's line and the cloth's; where yellow was the only
House left they were a mix of yellow and red cloth). Development and extra seeds (hard
57000-57119): the rings the second look found right had 0.41-0.76 of their body on their own
line, the one found wrong (57088 seat 0, 640x480, brown named Wespendorf) 0.22."""
_REACH = math.ceil(SEAT_TOLERANCE / _COARSE)
"""How far (coarse pixels) from an empty goblet spot its ring is looked for again."""


_WHITE = np.asarray(palette.PATTERN, np.float32) / float(sum(palette.PATTERN))
_TOWARDS = [
    (np.asarray(c, np.float32) / float(sum(c)) - _WHITE)[::-1]
    for c in palette.RING_COLOURS.values()
]
"""Each House's chromaticity less the pattern's white (BGR order, as the views are)."""


def _mixed(chroma: np.ndarray, index: int, cloth: np.ndarray) -> np.ndarray:
    """Pixels whose chromaticity (BGR, less the pattern's white) lies inside the triangle of
    white, House ``index``'s colour and the cloth's (``cloth``, less white): a mix of the ring,
    its pattern and the cloth the camera's blur put into one pixel at the ring's edge, with the
    ring's share at least :data:`FAINT_CHROMA` from white."""
    u, v = _TOWARDS[index], cloth
    det = float(u[0] * v[1] - u[1] * v[0])
    if abs(det) < 1e-4:  # the cloth is white, or of the House's colour: its line says it all
        return np.zeros(chroma.shape[:2], bool)
    a = (chroma[..., 0] * v[1] - chroma[..., 1] * v[0]) / det
    b = (u[0] * chroma[..., 1] - u[1] * chroma[..., 0]) / det
    return (a * float(np.linalg.norm(u)) >= FAINT_CHROMA) & (b > 0) & (a + b <= 1)


def _second_look(
    coarse: np.ndarray,
    cells: np.ndarray,
    unseen: np.ndarray,
    cloth: Cloth,
    table: TableLayout,
    empty: list[int],
    used: set[int],
    placed: list[tuple[int, int]],
) -> list[RingDetection]:
    """Rings at the goblet spots ``empty`` where none was found, of the Houses no ring found
    has (``used``), away from the rings ``placed`` (coarse box pixels times :data:`COARSE`).

    Each House's ring is there once ("6 Coaster rings in 6 colors"), so a pixel whose colour
    fits a House already found elsewhere and another one too is the other one's here (a brown
    De Miceti ring whose pixels are mostly Arañeros red, the Arañeros ring standing at another
    seat); a ring's colour may show faintly (purple Aconitiers under its white cross, blurred),
    so pixels down to :data:`FAINT_CHROMA` from white count; and a pixel is also every free
    House's whose colour, mixed with its pattern's white and the cloth, could show it
    (:func:`_mixed`). Each free House's pixels are matched against a ring's annulus within
    :data:`SEAT_TOLERANCE` of the spot as the first look matches them (:data:`MIN_FILL`), its
    own line's alone filling :data:`OWN_FILL` of it, the best-matched first. Development
    (allr2): the hard frames' ring errors 13 -> 4 (left: a brown ring on green felt read
    Wespendorf, 60008, and an Aconitiers ring the cloth model takes for pinkish white linen,
    60014, at both sizes), nothing lost; extra seeds hard 57000-57059 5 -> 3, hard 57060-57119
    (fresh) 25 -> 18, nothing lost.
    """
    free = [i for i in range(len(_HOUSES)) if i not in used]
    ref = cloth.bgr / float(cloth.bgr.sum()) - _WHITE[::-1]
    candidates: list[tuple[float, float, int, int, int]] = []
    for seat in empty:
        gx, gy = table.goblet_spot(seat)
        x, y = round((gx - _X0) / _COARSE), round((gy - _Y0) / _COARSE)
        half = _HALF + _REACH + 1
        y0, x0 = max(y - half, 0), max(x - half, 0)
        win = cells[y0 : y + half + 1, x0 : x + half + 1]
        seen = ~unseen[y0 : y + half + 1, x0 : x + half + 1]
        part = coarse[y0 : y + half + 1, x0 : x + half + 1].astype(np.float32)
        chroma = part / (part.sum(axis=2, keepdims=True) + 1e-3) - _WHITE[::-1]
        cy, cx = y - y0, x - x0
        near = np.zeros(win.shape, np.uint8)
        cv2.circle(near, (cx, cy), _REACH, 1, -1)
        # Each pixel is the free House whose line fits it best (one House per pixel, as in
        # the first look), and also every free House whose colour, mixed with the pattern's
        # white and the cloth, could show it: the cloth the camera's blur mixed in at a ring's
        # edge tips a purple ring's chromaticity onto blue's line on green felt.
        cost = _FAINT[:, win][free]
        best = np.where(np.isfinite(cost.min(axis=0)), cost.argmin(axis=0), -1)
        for k, index in enumerate(free):
            mine = ((best == k) | _mixed(chroma, index, ref)) & seen
            if int(mine.sum()) < _ENOUGH:
                continue
            small, local = _match(mine.view(np.uint8) * np.uint8(255), _OWN_SCORE)
            local = np.where(near > 0, local, -np.inf)
            py, px = np.unravel_index(int(local.argmax()), local.shape)
            score = float(local[py, px])
            own = ((best == k) & seen).view(np.uint8) * np.uint8(255)
            if score >= MIN_FILL and _fill(_match(own)[0], px, py) >= OWN_FILL:
                ring_x, ring_y = (x0 + px) * _COARSE, (y0 + py) * _COARSE
                candidates.append((score, _fill(small, px, py), index, ring_x, ring_y))
    return _place(candidates, table, used, placed, empty)


def _place(
    candidates: list[tuple[float, float, int, int, int]],
    table: TableLayout,
    used: set[int],
    placed: list[tuple[int, int]],
    seats: list[int] | None = None,
) -> list[RingDetection]:
    """The rings among ``candidates`` (score, fill, House index, coarse-box x and y times
    :data:`COARSE`): one per House ("6 Coaster rings in 6 colors"), the best-matched first,
    none nearer a ring ``placed`` than :data:`MIN_APART` (two goblets' feet cannot overlap);
    ``used`` and ``placed`` grow with each ring taken. With ``seats``, only rings standing at
    one of those seats are taken (the second look's empty spots)."""
    found: list[RingDetection] = []
    for _, ring_fill, index, x, y in sorted(candidates, key=lambda c: -c[0]):
        if index in used or any(math.hypot(x - px, y - py) < MIN_APART for px, py in placed):
            continue
        cx, cy = float(x + _X0), float(y + _Y0)
        seat, dist = table.nearest_seat(cx, cy)
        at = seat if dist <= SEAT_TOLERANCE else None
        if seats is not None and at not in seats:
            continue
        used.add(index)
        placed.append((x, y))
        found.append(RingDetection(_HOUSES[index], cx, cy, at, ring_fill))
    return found


def ring_uid(house: str) -> str:
    """The pseudo-UID the camera reports for ``house``'s ring: ``CA3E00`` + the House's index."""
    return f"CA3E00{HOUSE_IDS.index(house):02X}"


def ring_registry(houses: Iterable[str] = HOUSE_IDS) -> TagRegistry:
    """A tag registry enrolling each House's camera pseudo-UID as the ring of Goblet ``house``."""
    registry = TagRegistry()
    for house in houses:
        registry.add_ring(ring_uid(house), house)
    return registry


def observations(
    reading: RingReading, t: float, seq: int | None = None, node: str = "camera"
) -> list[Observation]:
    """One tracker snapshot per seat: the pseudo-UIDs of the rings standing there (usually one,
    or none; both of a crowded seat, for the tracker to judge as it judges readers)."""
    return [
        Observation.of(t, seat, map(ring_uid, reading.houses_at(seat)), seq=seq, node=node)
        for seat in sorted(reading.seats)
    ]
