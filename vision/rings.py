"""Coaster rings: which House's ring stands at which seat (pure: an array in, detections out).

Rulebook: "Each player also receives the Coaster ring of the same color as their House and
attaches it to the base of the Goblet in front of them"; "The colored rings are just a way to help
you keep track of each single goblet during the game". Input: the canonical view relit by
:func:`vision.frame.normalise`. Every pixel of the goblet circle is given the nearest reference
colour (rings, cloth, cloth in shadow, pewter, the bowl's opening, the white of the patterns);
the pixels of any ring colour are closed over the patterns; where they cover at least
``MIN_FILL`` of a ring's body (an annulus) around a cloth-free centre, a ring stands, of the
House whose colour is nearest to the body's median colour (per-pixel colours are too noisy to
vote). A ring within ``SEAT_TOLERANCE`` of a seat's goblet spot stands at that seat; others are
loose (in a hand, mid-move).

The tracker (``companion.core.tracking``) consumes per-seat snapshots of tag UIDs. The camera
speaks the same language: :func:`observations` turns a reading into one
:class:`~companion.core.observations.Observation` per seat whose tags are pseudo-UIDs, one per
House (:func:`ring_uid`, hex because the tracker's UIDs are hex), and :func:`ring_registry`
enrols them as the Coaster rings of Goblets named by House. A tracker fed only by the camera
then reports rotations, swaps and lifts exactly as with readers (the camera sees no pours).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.observations import Observation
from companion.core.tags import TagRegistry
from vision import layout, palette
from vision.frame import Cloth
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

_PALE = {
    f"{house}~pale": tuple((2 * c + w) // 3 for c, w in zip(rgb, palette.PATTERN, strict=True))
    for house, rgb in palette.RING_COLOURS.items()
}
_DULL = {
    f"{house}~dull": tuple((c + w) // 2 for c, w in zip(rgb, palette.CLOTH, strict=True))
    for house, rgb in palette.RING_COLOURS.items()
}
"""A ring's colour blurred into its white pattern or the cloth is still that ring's colour."""
_REFS = {
    **palette.RING_COLOURS,
    **_PALE,
    **_DULL,
    "cloth": palette.CLOTH,
    "shadow": tuple(int(v * 0.7) for v in palette.CLOTH),
    "pewter": palette.PEWTER,
    "pewter_dark": tuple(int(v * 0.75) for v in palette.PEWTER),
    "bowl": palette.BOWL,
    "pattern": palette.PATTERN,
}
_NAMES, _LAB = palette.lab(_REFS)
_CLASSIFY = palette.Classifier(_LAB)
_RINGISH = 3 * len(palette.RING_COLOURS)
_PURE_OR_PALE = 2 * len(palette.RING_COLOURS)
"""Pixel classes below this index are a ring's colour, pure, pale or dull."""
_MIXES = [
    (palette.PATTERN, 0),
    (palette.PATTERN, 1),
    (palette.PATTERN, 2),
    (palette.CLOTH, 1),
    (palette.CLOTH, 2),
]
_LOOK_HOUSES = [h for h in palette.RING_COLOURS for _ in _MIXES]
_LOOKS = palette.lab(
    {
        f"{h}~{i}": tuple(
            (int(c) * (4 - k) + int(m) * k) // 4 for c, m in zip(rgb, mix, strict=True)
        )
        for h, rgb in palette.RING_COLOURS.items()
        for i, (mix, k) in enumerate(_MIXES)
    }
)[1]
"""How each House's ring looks from afar: its colour mixed with 0, 1/4 and 1/2 of its white
pattern, or with 1/4 and 1/2 of the cloth around it (blur and the camera's resolution mix them)."""
_WEIGHTS = np.array([0.6, 1.0, 1.0], np.float32)
_PATTERN = _NAMES.index("pattern")
_ZONE_MASK = np.zeros((layout.SIZE, layout.SIZE), np.uint8)
cv2.circle(_ZONE_MASK, (round(layout.CENTRE[0]), round(layout.CENTRE[1])), round(ZONE), 1, -1)
_Y0, _Y1 = round(layout.CENTRE[1] - ZONE), round(layout.CENTRE[1] + ZONE) + 1
_X0, _X1 = round(layout.CENTRE[0] - ZONE), round(layout.CENTRE[0] + ZONE) + 1
_CLOSE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


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


def _house_of(lab_pixels: np.ndarray) -> str:
    """The House whose ring colour (pure or blurred into its pattern) is nearest to the median
    colour of a ring's pixels: a median over a thousand pixels is immune to sensor noise."""
    median = np.median(lab_pixels.reshape(-1, 3).astype(np.float32), axis=0)
    d = ((_LOOKS - median) * _WEIGHTS) ** 2
    return _LOOK_HOUSES[int(d.sum(axis=1).argmin())]


def _annulus(shape: tuple[int, int], x: float, y: float, inner: float, outer: float) -> np.ndarray:
    yy, xx = np.ogrid[: shape[0], : shape[1]]
    r2 = (xx - x) ** 2 + (yy - y) ** 2
    return (r2 >= inner * inner) & (r2 <= outer * outer)


def _kernel(inner: float, outer: float) -> np.ndarray:
    half = math.ceil(outer) + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1]
    r = np.hypot(xx, yy)
    k = ((r >= inner) & (r <= outer)).astype(np.float32)
    return k / k.sum()


_COARSE = 2
"""Ring centres are searched on the mask at half resolution: a ring is 68 px across, and the
annulus filters cost a quarter as much (the House is still read at full resolution)."""
_BODY = _kernel((layout.RING_INNER + 1) / _COARSE, (layout.RING_OUTER - 1) / _COARSE)
_HOLE = _kernel(0, (layout.RING_INNER - 6) / _COARSE)
_PEAK = np.ones((2 * int(layout.RING_INNER / _COARSE) + 1,) * 2, np.uint8)
"""A square neighbourhood for the peaks (a square max filter is separable, so fast); two
peaks closer than :data:`MIN_APART` are thinned out after."""
MIN_APART = 1.6 * layout.RING_OUTER
"""Two rings' centres are at least this far apart (two goblets' feet cannot overlap)."""


def detect_rings(normalised: np.ndarray, seats: int, cloth: Cloth | None = None) -> RingReading:
    """The rings on the canonical, relit view ``normalised`` of a table of ``seats`` seats.

    Ring centres are the peaks of the ring-coloured mask matched against a ring's annulus (less
    a penalty where the goblet's foot should be), so two goblets touching are still two rings.
    Pixels the ``cloth`` model calls cloth (lit or shaded) are never ring (default: the
    reference cloth ``palette.CLOTH``).
    """
    table = TableLayout(seats)
    cloth = cloth or Cloth(np.array(palette.CLOTH[::-1], np.float32))
    crop = normalised[_Y0:_Y1, _X0:_X1]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab)
    classes = _CLASSIFY(lab)
    zone = _ZONE_MASK[_Y0:_Y1, _X0:_X1]
    bare = cloth.mask(crop)
    mask = ((classes < _RINGISH) & (zone > 0) & ~bare).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSE).astype(np.float32)
    small = cv2.resize(
        closed,
        (closed.shape[1] // _COARSE, closed.shape[0] // _COARSE),
        interpolation=cv2.INTER_AREA,
    )
    fill = cv2.filter2D(small, -1, _BODY, borderType=cv2.BORDER_CONSTANT)
    score = fill - 0.5 * cv2.filter2D(small, -1, _HOLE, borderType=cv2.BORDER_CONSTANT)
    peaks = (score >= cv2.dilate(score, _PEAK) - 1e-6) & (score >= MIN_FILL)
    ys, xs = np.nonzero(peaks)
    centres: list[tuple[int, int]] = []
    fills: list[float] = []
    for i in np.argsort(-score[ys, xs], kind="stable"):
        x = int(xs[i]) * _COARSE + _COARSE // 2
        y = int(ys[i]) * _COARSE + _COARSE // 2
        if all(math.hypot(x - cx, y - cy) >= MIN_APART for cx, cy in centres):
            centres.append((x, y))
            fills.append(float(fill[ys[i], xs[i]]))
    found: list[RingDetection] = []
    reach = math.ceil(layout.RING_OUTER)
    for (x, y), ring_fill in zip(centres, fills, strict=True):
        # Only the window round the ring: the body lies inside it, and its pixels come out in
        # the same (row-major) order as from the whole crop, so the median is the same.
        win = (
            slice(max(y - reach, 0), min(y + reach + 1, mask.shape[0])),
            slice(max(x - reach, 0), min(x + reach + 1, mask.shape[1])),
        )
        yy, xx = np.ogrid[win[0], win[1]]
        r2 = (xx - x) ** 2 + (yy - y) ** 2
        body = (r2 >= (layout.RING_INNER + 2) ** 2) & (r2 <= (layout.RING_OUTER - 2) ** 2)
        cx, cy = float(x + _X0), float(y + _Y0)
        seat, dist = table.nearest_seat(cx, cy)
        # The House from the ring's own pixels: pure or pale ring colours, not the bowl, its
        # shadow, the foot or the cloth showing through (they would pull the median dark).
        own = body & (classes[win] < _PURE_OR_PALE) & ~bare[win]
        if int(own.sum()) < 40:
            own = body & (mask[win] > 0)
        house = _house_of(lab[win][own])
        found.append(
            RingDetection(house, cx, cy, seat if dist <= SEAT_TOLERANCE else None, ring_fill)
        )
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
