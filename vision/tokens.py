"""Revealed tokens counted by kind in each seat's reveal area (pure: an array in, counts out).

Rulebook, The Toast: "each player takes the Goblet in front of them, no matter the color of its
Coaster, and reveals its contents"; Ingredients: "Wine (red) | Poison (black) | Antidote (white)
| Unicorn Antidote (blue) | Ogre Poison (green)". The counts are what
``companion.core.sensed`` takes at the reveal ("counts: per place, the camera's counts").

Input: the canonical view relit by :func:`vision.frame.relight` and its cloth model. In each
reveal area a pixel the cloth model calls cloth (lit or shaded) is cloth, any other is given the
nearest reference colour (the five tokens; a lamp's sheen on a token is given back to it); an
area something else covers (a hand, glare, a goblet's bowl) is not seen and counts None;
each kind's mask is cleaned and its holes filled (a token's highlight), then touching or slightly
overlapping tokens of one colour are separated by the mask's distance transform: a token's centre
lies about one token radius deep, the neck between two touching tokens is much shallower, and the
deepest points at least ``MERGE`` apart are the centres. Where a blob's area (against the lone
tokens of its colour in the same frame) says clearly more or fewer tokens than its centres, the
area wins: blur can melt a tight clump into one hill or close the hole between three tokens.
Tokens of different colours are told apart by colour alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import frame, layout, palette
from vision.frame import Cloth
from vision.layout import TableLayout

KINDS = tuple(palette.TOKEN_COLOURS)
R = layout.TOKEN_RADIUS
PEAK = 0.5 * R
"""A point this deep in a mask (a token's inscribed radius is shrunk by blur and by a white
token's grey rim) can be a token's centre."""
MERGE = 1.4 * R
"""A point closer than this to a deeper centre is not a token (two tokens' centres are at least
1.8 R apart; the hole between three touching tokens is 1.15 R from each centre)."""
TOKEN_AREA = math.pi * R * R
MIN_AREA = 0.3 * TOKEN_AREA
"""A blob smaller than this is noise, not a token."""
LONE = 1.35
"""A one-peak blob up to this many tokens' area is a lone token (measures a token's area)."""
AREA_MARGIN = 0.8
"""Tokens by area and by centres must differ by this much for the area to win (chosen over
synthetic frames at every noise level: 0.75-0.85 make the fewest errors)."""
DEFAULT_AREA = 0.8 * TOKEN_AREA
"""A token's seen area when no lone token is in sight."""

BORDER = (layout.REVEAL_RADIUS + 1, layout.REVEAL_RADIUS + 7)
"""The band just outside a reveal area: tokens poured in the area stay inside it, so something
that is not cloth there (a hand and its arm reaching in, a goblet's bowl leaning over) covers
the area."""
COVER_BORDER = 80
COVER_INNER = 300
"""The same on the band's inner half (towards the table's centre), where a goblet's bowl,
standing above the table, leans over the area's edge on a tilted camera without hiding it: a
hand's arm reaches in from the player's side, the outer half."""
"""Pixels of not-cloth in the band (after opening) that make the area not seen."""
SATURATED = frame.SATURATED
"""Saturated pixels (marked by :func:`vision.frame.relight`) are glare: colours there are lost."""
COVER_GLARE = 5 * TOKEN_AREA
"""Saturated pixels in an area beyond this many tokens' area are glare (a white token under a
bright lamp saturates too, but glare spreads over the cloth: even a small lamp's reflection
covers 7 tokens' area or more), as is any saturated pixel in the band round it."""

_REFS = {
    **palette.TOKEN_COLOURS,
    "cloth": palette.CLOTH,
    "shadow": tuple(int(v * 0.7) for v in palette.CLOTH),
}
_NAMES, _LAB = palette.lab(_REFS)
_CLASSIFY = palette.Classifier(_LAB)
_HALF = round(layout.REVEAL_RADIUS + 8)
_CLOTH = _NAMES.index("cloth")
_SHADOW = _NAMES.index("shadow")
_POISON = _NAMES.index("poison")
_ANTIDOTE = _NAMES.index("antidote")
_COLOURED = [_NAMES.index(k) for k in ("wine", "poison", "unicorn_antidote", "ogre_poison")]
SHEEN_AREA = 0.7 * TOKEN_AREA
"""A white patch smaller than this touching a coloured token is that token's sheen."""
_TABLE = np.ones((layout.SIZE, layout.SIZE), np.uint8)
for _marker in layout.MARKER_IDS:
    _mx, _my = layout.marker_centre(_marker)
    cv2.circle(_TABLE, (round(_mx), round(_my)), round(layout.MARKER_KEEP_OUT), 0, -1)
_DISC = np.zeros((2 * _HALF + 1, 2 * _HALF + 1), np.uint8)
cv2.circle(_DISC, (_HALF, _HALF), round(layout.REVEAL_RADIUS + 4), 1, -1)
_BAND = np.zeros_like(_DISC)
cv2.circle(_BAND, (_HALF, _HALF), round(BORDER[1]), 1, -1)
cv2.circle(_BAND, (_HALF, _HALF), round(BORDER[0]), 0, -1)
_GY, _GX = np.mgrid[-_HALF : _HALF + 1, -_HALF : _HALF + 1].astype(np.float32)
_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_OPEN5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_NEAR = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, -1)
    return filled


@dataclass(frozen=True)
class Blob:
    """One connected region of one token colour: its area (pixels) and the token centres its
    distance transform shows."""

    area: int
    peaks: list[tuple[float, float]]


def _spread(xs: np.ndarray, ys: np.ndarray, apart: float) -> list[tuple[float, float]]:
    """The points (integer pixels, best first) at least ``apart`` from every point taken before
    them: each taken point rules out the later candidates nearer than ``apart`` at once, so the
    work grows with the centres, not with candidates times centres. Squared distances of pixels
    are integers and none lies within 0.005 px of ``apart`` (MERGE, MIN_APART), so ``d2 >=
    apart**2`` decides exactly as ``hypot >= apart`` would."""
    xs = xs.astype(np.int64)
    ys = ys.astype(np.int64)
    alive = np.ones(len(xs), bool)
    limit = apart * apart
    centres: list[tuple[float, float]] = []
    start = 0
    while True:
        rest = np.flatnonzero(alive[start:])
        if rest.size == 0:
            return centres
        i = start + int(rest[0])
        x, y = int(xs[i]), int(ys[i])
        centres.append((float(x), float(y)))
        start = i + 1
        alive[start:] &= (xs[start:] - x) ** 2 + (ys[start:] - y) ** 2 >= limit


def find_blobs(mask: np.ndarray) -> list[Blob]:
    """The blobs of a binary mask of one colour, each with its token centres."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN5)
    mask = _fill_holes(mask)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return []
    dt = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    # Every pixel deep enough inside is a candidate, highest first, and a candidate far enough
    # from every centre taken so far is a new centre. A token's core (deeper than PEAK) is
    # smaller than MERGE across, so it gives one centre even when blur leaves it no local peak.
    ys, xs = np.nonzero(dt >= PEAK)
    order = np.argsort(-dt[ys, xs], kind="stable")
    centres = _spread(xs[order], ys[order], MERGE)
    blobs = [Blob(int(stats[b, cv2.CC_STAT_AREA]), []) for b in range(n)]
    for x, y in centres:
        blobs[labels[round(y), round(x)]].peaks.append((x, y))
    return [b for b in blobs[1:] if b.area >= MIN_AREA or b.peaks]


def single_area(blobs: list[Blob]) -> float | None:
    """The area of one token of a colour in this frame: the median area of the blobs that look
    like one lone token (one peak, not much bigger than a token). Blur and a white token's grey
    rim shrink what is seen, so the area is measured, not assumed."""
    lone = [b.area for b in blobs if len(b.peaks) == 1 and b.area <= LONE * TOKEN_AREA]
    return float(np.median(lone)) if lone else None


def blob_count(blob: Blob, one: float) -> int:
    """How many tokens a blob holds: its peaks, unless its area in tokens differs from them by
    ``AREA_MARGIN`` or more (a tight clump blurred into one hill shows fewer peaks than tokens,
    or an extra one where the hole between three tokens is blurred shut). Areas vary by about
    +-20% from token to token (size, shading, blur), so small differences trust the peaks."""
    by_area = blob.area / one
    if abs(by_area - len(blob.peaks)) >= AREA_MARGIN:
        return max(round(by_area), 1)
    return max(len(blob.peaks), 1 if blob.area >= MIN_AREA else 0)


def _sheen_to_token(classes: np.ndarray) -> None:
    """A glossy token's specular highlight is white: a white patch smaller than a token that
    touches a coloured token is that token's sheen, not an Antidote (in place)."""
    white = (classes == _ANTIDOTE).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(white, connectivity=8)
    for label in range(1, n):
        if stats[label, cv2.CC_STAT_AREA] >= SHEEN_AREA:
            continue
        x, y, w, h = (int(v) for v in stats[label, :4])
        y0, x0 = max(y - 3, 0), max(x - 3, 0)
        part = labels[y0 : y + h + 3, x0 : x + w + 3] == label
        around = cv2.dilate(part.astype(np.uint8), _NEAR) > 0
        near = classes[y0 : y + h + 3, x0 : x + w + 3][around & ~part]
        near = near[np.isin(near, _COLOURED)]
        if near.size:
            classes[y0 : y + h + 3, x0 : x + w + 3][part] = np.bincount(near).argmax()


def area_blobs(
    normalised: np.ndarray, cx: float, cy: float, cloth: Cloth | None = None
) -> dict[str, list[Blob]] | None:
    """The blobs of each token colour in the reveal area centred at ``(cx, cy)``; None when
    something neither cloth nor token covers the area (:data:`BORDER`, :data:`SATURATED`)."""
    cloth = cloth or Cloth(np.array(palette.CLOTH[::-1], np.float32))
    x0, y0 = round(cx) - _HALF, round(cy) - _HALF
    crop = normalised[y0 : y0 + 2 * _HALF + 1, x0 : x0 + 2 * _HALF + 1]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab)
    classes = _CLASSIFY(lab)
    # Darker than 0.4 of the cloth is no shadow here (a goblet's takes at most 0.6 of the
    # light) but may be a Poison token's blurred edge, which its area count needs.
    bare = cloth.mask(crop, darkest=0.4)
    table = _TABLE[y0 : y0 + 2 * _HALF + 1, x0 : x0 + 2 * _HALF + 1]
    area = _DISC & table
    band = cv2.morphologyEx((~bare & (_BAND & table > 0)).astype(np.uint8), cv2.MORPH_OPEN, _OPEN)
    ux, uy = cx - layout.CENTRE[0], cy - layout.CENTRE[1]
    outer = (_GX * ux + _GY * uy) > 0
    inner_count = int(band[~outer].sum())
    lost = cv2.inRange(crop, (SATURATED,) * 3, (SATURATED,) * 3) > 0
    glare = int((lost & (area > 0)).sum()) >= COVER_GLARE or int((lost & (band > 0)).sum()) > 0
    if int(band[outer].sum()) >= COVER_BORDER or inner_count >= COVER_INNER or glare:
        return None
    # The cloth model says what is cloth, lit or shaded. A dark grey that is no cloth, next to
    # a Poison token's black, is that token greyed by a lamp's specular sheen.
    classes = np.where(bare, _CLOTH, classes)
    black = (classes == _POISON).astype(np.uint8)
    sheen = (classes == _SHADOW) & (cv2.dilate(black, _NEAR) > 0)
    classes[sheen] = _POISON
    _sheen_to_token(classes)
    out: dict[str, list[Blob]] = {}
    for index, kind in enumerate(KINDS):
        mask = ((classes == index) & (area > 0)).astype(np.uint8)
        out[kind] = [Blob(b.area, [(x + x0, y + y0) for x, y in b.peaks]) for b in find_blobs(mask)]
    return out


def count_tokens(
    normalised: np.ndarray, seats: int, cloth: Cloth | None = None
) -> dict[int, dict[str, int] | None]:
    """Every seat's revealed tokens: seat -> {kind: count} (every kind, zeros included), or
    None for an area not seen (a hand, glare or a goblet over it: counting would misread)."""
    table = TableLayout(seats)
    found = {s: area_blobs(normalised, *table.reveal_centre(s), cloth) for s in range(seats)}
    blobs = {s: b for s, b in found.items() if b is not None}
    everything = [b for by_kind in blobs.values() for bs in by_kind.values() for b in bs]
    fallback = single_area(everything) or DEFAULT_AREA
    counts: dict[int, dict[str, int] | None] = {s: None for s in range(seats)}
    for kind in KINDS:
        one = single_area([b for s in blobs for b in blobs[s][kind]]) or fallback
        for seat in blobs:
            per = counts[seat] if counts[seat] is not None else {}
            per[kind] = sum(blob_count(b, one) for b in blobs[seat][kind])
            counts[seat] = per
    return counts
