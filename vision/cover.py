"""What hides a reveal area, so that it is not seen (pure: masks in, yes or no out).

Rulebook, The Toast: each player "reveals its contents", and the Toast is scored from what was
revealed; a count guessed from part of an area would misjudge a player. So an area that
something neither cloth nor token covers (a hand and its arm reaching in, a goblet set down over
its edge or its bowl leaning over it on a tilted camera, glare the camera clipped, a token lying
over its edge) is *not seen* (:func:`vision.tokens.area_blobs` gives None), never counted.
Tokens poured in an area stay inside it, so what covers it shows in the band just outside
(:data:`vision.area.BORDER`):

- what is not cloth there, in pieces that cross the band (:func:`crossing`): on the half towards
  the player (:data:`COVER_BORDER` that no token's margin explains, :func:`cover_unexplained`);
  on the half towards the table's centre (:data:`COVER_INNER`) where it also reaches into the
  area beyond the tokens found (:func:`reaches_beyond`), and, however little of the band it
  covers, where what reaches in deeper than :data:`INTRUDES` holds a piece no token's rim
  explains (:func:`unexplained_at_edge`);
- a centre found beyond :data:`EDGE_CENTRE` with the band's not-cloth round it: a token lying
  over the edge (:func:`straddles`);
- glare (every channel clipped: its colour is lost): over :data:`COVER_GLARE` in the area, any
  on what covers the band, or :data:`LOST_UNEXPLAINED` pixels on no token found
  (:func:`lost_unexplained`) that are no Antidote's sheen on white linen (:func:`lost_sheens`),
  unless the cloth itself clips round the area (:data:`CLOTH_CLIPS`);
- on a textured table (wood), a patch that passes for cloth but lacks the grain
  (:func:`untextured`: a hand the colour of the wood).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision import layout
from vision.area import AREA_AND_BAND, BORDER, DEPTH, IN_BAND
from vision.centres import (
    EXPLAINED,
    MIN_APART,
    MIN_AREA,
    NEAR,
    OPEN,
    SHEEN_MOST,
    THICK,
    TOKEN_AREA,
    UNEXPLAINED,
    R,
)
from vision.order import median

BAND_BRIGHTEST = 1.35
"""How much brighter than the fitted light the cloth in the band may be and still be cloth
(inside the area a pixel above 1.22 is no cloth). A low side lamp's hot spot is sharper than the
light's cubic fit (:func:`vision.frame.light_of`) can follow: the bare cloth round an area
under it came out 1.23-1.30 times the fit on hard development frames (grey cloth and wood,
whose chromaticity still matched), and its band read as covered. What covers a band is
either off the cloth's chromaticity (a hand, a bowl's pewter on a coloured cloth) or far
brighter (an Antidote on grey: about 1.8). On the development sets this stopped 7 refusals of
areas in plain view (grey and wood, hard) and changed nothing else."""
COVER_BORDER = 80
"""Pixels of not-cloth in the band's outer half (towards the player, after opening) that make
the area not seen: a hand and its arm reaching in (260 px or more on independent frames), a
goblet set down over the area's edge. A neighbouring goblet's bowl can reach it too (up to 160
px): a safe refusal, where a lower bar would misread a goblet's cover."""
TOKEN_MARGIN = 11.0
"""How far beyond a token's radius (px) its margin reaches into the band when it lies at the
area's edge: the blur, and a JPEG's colour ringing round a vivid token (one chroma block of a
640x480 frame is about 3 canonical px; on development frames a Wine on dark blue rang 8 px out,
a Unicorn Antidote on grey at the hard level's JPEG 8-14 px, enough to refuse areas in plain
view). At 14 px a hand beside a token at the edge was taken for its margin once (a misread)."""
COVER_INNER = 260
"""The same on the band's inner half (towards the table's centre), where a goblet's bowl,
standing above the table, leans over the area's edge on a tilted camera without hiding it (up
to 250 px on independent frames; a hand reaching in over it, 290 px or more). Beyond it,
what reaches deep into the area must be explained by the tokens found
(:func:`reaches_beyond`): a bowl at 640x480 covers 270-400 px with tokens against it."""


def _cap_depth(share: float) -> float:
    """The depth of the cap (a disc of a token's radius cut by a straight edge) that holds
    ``share`` of the disc's area."""
    low, high = 0.0, 2 * layout.TOKEN_RADIUS
    for _ in range(40):
        h = (low + high) / 2
        d = layout.TOKEN_RADIUS - h
        cap = layout.TOKEN_RADIUS**2 * math.acos(d / layout.TOKEN_RADIUS) - d * math.sqrt(
            max(2 * layout.TOKEN_RADIUS * h - h * h, 0.0)
        )
        low, high = (h, high) if cap < share * math.pi * layout.TOKEN_RADIUS**2 else (low, h)
    return low


HIDDEN_SHARE = 1 / 3
INTRUDES = _cap_depth(HIDDEN_SHARE) + 1.1
"""Where the inner band is covered (:data:`COVER_INNER`), the area is still seen unless what
covers the band reaches further into the area than this (px): tokens poured out lie at least
1.1 px inside the area's edge, so no more than :data:`HIDDEN_SHARE` of any token can be hidden,
and every token keeps well over the 60% of its face (:data:`vision.centres.MIN_COVER`) and the
quarter of its rim it is found by. What of the occluder lies inside the area is no token."""
CROSSING = round(layout.TOKEN_RADIUS * (BORDER[1] - BORDER[0]))
"""A piece of not-cloth in the band smaller than this (a token's radius times the band's width,
66 px) cannot belong to anything wide enough to hide a token: it does not count."""
COVER_GLARE = 5 * TOKEN_AREA
"""Saturated pixels in an area beyond this many tokens' area are glare (a white token under a
bright lamp saturates too, but glare spreads over the cloth: even a small lamp's reflection
covers 7 tokens' area or more), as is any saturated pixel in the band round it."""
GRAIN_WINDOW = 13
"""Local contrast is measured over this many pixels: more than one period of a wood grain."""
TEXTURED = 0.03
"""A table whose grain has this much local contrast (wood) shows a hand the colour of it."""
SMOOTH = 0.5
SMOOTH_AREA = 2 * TOKEN_AREA
"""Less than :data:`SMOOTH` of the grain over this many pixels is no table (sensor noise gives
skin a local contrast of 2-4%; a 7 px opening keeps the grain's own low-contrast stripes out)."""
EDGE_CENTRE = layout.REVEAL_RADIUS - R + 4.0
"""The furthest a token's centre found can lie from its area's centre (px). Tokens poured out
lie at least 1.1 px inside the area's edge (their centres within 53 px of its centre), and at
640x480 a centre in a clump is found up to 4 px out. Further out is something the area's
circle cuts: a goblet's shadow reaching in from beyond, its edge curved like a rim where the
circle meets it (on development frames every Poison counted there was such a shadow)."""
STRADDLES = 12
"""Pixels of not-cloth in the band within a token's reach of a centre beyond
:data:`EDGE_CENTRE` that make it a token lying over the area's edge (the area is then not
seen: whether it counts is not the camera's to say) rather than a shadow the area's edge cuts
(the cloth model calls a shadow cloth)."""
CLOTH_CLIPS = 0.02
"""The share of the band round an area (cloth: tokens lie inside the area) saturated that
says the cloth itself clips there: a lamp's hot spot on white linen saturates the weave in a
mottle, inside the area as round it (on development frames 2.7-15% of the band). Round an
area whose saturated pixels are tokens' sheens the band has none, and a thin glint crossing
it reached 1% (an Antidote's sheen in that area, lost, must still refuse it). An Antidote in a
hot spot is found by its rim (:func:`vision.tokens._rings_of`)."""
LOST_UNEXPLAINED = 12
"""Saturated pixels (every channel clipped) in an area that lie on no token found: a white
thing the camera lost, which may be a token that cannot be counted. A token's own sheen lies on
it; on white linen an Antidote may show nothing but its sheen (:func:`lost_sheens`: a clump
of Antidotes under a lamp, or one touching a dark token)."""
LOST_SHEEN_JOIN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
"""Saturated pieces this near (a 5x5 closing: 4 px) are one sheen, which JPEG's blocks and the
cloth's weave mottle at its edge; two touching tokens' sheens, at the same place on each face
(one lamp), lie two radii (22 px) apart."""


def _far_from(mask: np.ndarray, centres: list[tuple[float, float]], reach: float) -> np.ndarray:
    """``mask`` (0/1 uint8) without the discs of radius ``reach`` round ``centres``: what of it
    no token found explains."""
    far = mask.astype(np.uint8)
    for x, y in centres:
        cv2.circle(far, (round(x), round(y)), round(reach), 0, -1)
    return far


def cover_unexplained(cover: np.ndarray, centres: list[tuple[float, float]]) -> int:
    """The pixels of ``cover`` (bool) no token centred at one of ``centres`` explains (within
    :data:`TOKEN_MARGIN` beyond its radius): a hand or a goblet over the band's outer half, not
    the margin of a token lying at the area's edge."""
    return int(cv2.countNonZero(_far_from(cover, centres, R + TOKEN_MARGIN)))


def crossing(band: np.ndarray) -> np.ndarray:
    """The pieces of the band's not-cloth (0/1) that something able to hide a token leaves
    there: it crosses the band at least a token's radius wide (:data:`CROSSING`). Scattered
    specks (a dark cloth's chroma noise under JPEG) hide nothing."""
    if int(cv2.countNonZero(band)) < CROSSING:
        return np.zeros_like(band)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(band, connectivity=8)
    big = (stats[:, cv2.CC_STAT_AREA] >= CROSSING).astype(np.uint8)
    big[0] = 0
    if int(big.sum()) == n - 1:
        return band
    return big[labels]


def reaching_in(stuff: np.ndarray, band: np.ndarray) -> np.ndarray:
    """The pixels of ``stuff`` (what is not cloth) connected to what of it lies in ``band``."""
    n, labels = cv2.connectedComponents(stuff.view(np.uint8), connectivity=8)
    if n <= 1:
        return np.zeros(stuff.shape, bool)
    touching = np.zeros(n, bool)
    touching[labels[band.astype(bool) & stuff]] = True
    touching[0] = False
    return touching[labels]


def unexplained_at_edge(
    inside: np.ndarray, peaks: list[tuple[float, float]], band: np.ndarray
) -> bool:
    """True when the pixels of a blob (``inside``) that no centre explains form a piece of
    :data:`UNEXPLAINED` of a token or more that touches what covers the band (``band``, its
    not-cloth): what reaches in over the edge (a bowl or its shadow), not a token hemmed in by
    its own kind (the pieces :func:`vision.tokens._unexplained` counts), which lies inside the
    edge. In a blob no centre explains at all the least piece is :data:`MIN_AREA`, as
    :func:`vision.tokens._unexplained` counts it: a bowl's dark opening leaning in over the edge
    on green felt showed a piece of 0.47 of a token, counted as a Poison where the area should
    be refused."""
    least = (UNEXPLAINED if peaks else MIN_AREA / TOKEN_AREA) * TOKEN_AREA
    far = cv2.morphologyEx(_far_from(inside, peaks, R + EXPLAINED), cv2.MORPH_OPEN, OPEN)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(far, connectivity=8)
    near_band = cv2.dilate(band.astype(np.uint8), NEAR) > 0
    return any(
        stats[part, cv2.CC_STAT_AREA] >= least and near_band[labels == part].any()
        for part in range(1, n)
    )


def reaches_beyond(deep_in: np.ndarray, centres: list[tuple[float, float]]) -> bool:
    """True when what reaches into the area from its inner band (``deep_in``) goes deeper
    than :data:`INTRUDES` beyond a token's reach of every centre found, and is thick enough
    there to hide part of a token (:data:`THICK`): something other than tokens (a bowl's body,
    fingers) lies in the area. The tokens' dark fringe on a dark cloth, joining them to a bowl
    at the edge, is thinner."""
    far = _far_from(deep_in & (DEPTH > INTRUDES), centres, R + EXPLAINED)
    if not far.any():
        return False
    return float(cv2.distanceTransform(far, cv2.DIST_L2, 3).max()) >= THICK


def straddles(beyond: np.ndarray, x: float, y: float) -> bool:
    """True when the band's not-cloth (``beyond``) near ``(x, y)`` shows a token lying over
    the area's edge there."""
    xi, yi, r = round(x), round(y), round(R + 3)
    near = beyond[max(yi - r, 0) : yi + r + 1, max(xi - r, 0) : xi + r + 1]
    return int(near.sum()) >= STRADDLES


def lost_unexplained(lost: np.ndarray, centres: list[tuple[float, float]]) -> bool:
    """True when at least :data:`LOST_UNEXPLAINED` saturated pixels lie beyond a token's
    radius (and its blur) from every centre found."""
    if int(lost.sum()) < LOST_UNEXPLAINED:
        return False
    far = lost.astype(np.uint8)
    for x, y in centres:
        cv2.circle(far, (round(x), round(y)), round(R + EXPLAINED), 0, -1)
    return int(far.sum()) >= LOST_UNEXPLAINED


def lost_sheens(
    lost: np.ndarray, centres: list[tuple[float, float]]
) -> list[tuple[float, float]] | None:
    """The centres of the saturated patches in ``lost`` that no token found explains (beyond
    its radius and blur from every centre, as :func:`lost_unexplained`) when each is a sheen
    on a token's face: at least :data:`LOST_UNEXPLAINED` pixels, no larger than a sheen
    (:data:`SHEEN_MOST`, at most a token wide) and wholly inside the area; the pieces too small
    to be one are left to :func:`lost_unexplained`'s bar. None when a patch is no sheen
    (wider, or cut by the area's edge: something the camera lost, which refuses the area) or
    lies nearer a token found than two tokens' centres can (:data:`MIN_APART`)."""
    if int(lost.sum()) < LOST_UNEXPLAINED:
        return []
    far = lost.astype(np.uint8)
    for x, y in centres:
        cv2.circle(far, (round(x), round(y)), round(R + EXPLAINED), 0, -1)
    if int(far.sum()) < LOST_UNEXPLAINED:
        return []
    joined = cv2.morphologyEx(far, cv2.MORPH_CLOSE, LOST_SHEEN_JOIN)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    out, rest = [], 0
    for i in range(1, n):
        x, y, w, h = (int(v) for v in stats[i, :4])
        box = (slice(y, y + h), slice(x, x + w))
        part = (labels[box] == i) & (far[box] > 0)
        size = int(part.sum())
        if size < LOST_UNEXPLAINED:
            rest += size
            continue
        if size > SHEEN_MOST or max(w, h) > 2 * R + 2 or (DEPTH[box][part] < 0).any():
            return None
        ys, xs = np.nonzero(part)
        at = (float(round(xs.mean() + x)), float(round(ys.mean() + y)))
        # A token of its own lies apart from the tokens found: a sheen nearer one of them is
        # on that token's face, which its centre, found off by a rim's blur, does not explain.
        if any(math.hypot(at[0] - a, at[1] - b) < MIN_APART for a, b in centres + out):
            return None
        out.append(at)
    if rest >= LOST_UNEXPLAINED:
        return None
    return out


def untextured(grey8: np.ndarray, cloth_like: np.ndarray, table: np.ndarray) -> bool:
    """True when a wide patch of what looks like cloth lacks the table's grain: a hand or an
    arm the table's own colour (dark skin over wood) hides the area. Only on a textured table
    (wood): the grain's local contrast (standard deviation over mean, which a shadow keeps) is
    measured on the cloth of the band round the area, and a smooth patch of two tokens' area
    or more, in the area or the band, is no table. ``grey8``: the crop's brightness."""
    where = cloth_like & AREA_AND_BAND & (table > 0)
    # The grain is measured on the band round the area: no token lies there to add edges.
    bare_band = where & IN_BAND
    at = np.flatnonzero(bare_band)
    if at.size < SMOOTH_AREA:
        return False
    grey = grey8.astype(np.float32)
    mean = cv2.blur(grey, (GRAIN_WINDOW, GRAIN_WINDOW))
    square = cv2.blur(cv2.multiply(grey, grey), (GRAIN_WINDOW, GRAIN_WINDOW))
    # First on the band's pixels alone (most tables have no grain: no more to do).
    m = np.take(mean.reshape(-1), at)
    band_contrast = np.sqrt(np.maximum(np.take(square.reshape(-1), at) - m * m, 0.0))
    grain = median(band_contrast / np.maximum(m, 1.0))
    if grain < TEXTURED:
        return False
    spread = cv2.sqrt(cv2.max(square - mean * mean, 0.0))
    contrast = spread / cv2.max(mean, 1.0)
    smooth = (where & (contrast < SMOOTH * grain)).astype(np.uint8)
    smooth = cv2.morphologyEx(smooth, cv2.MORPH_OPEN, NEAR)
    n, _, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=8)
    return n > 1 and int(stats[1:, cv2.CC_STAT_AREA].max()) >= SMOOTH_AREA
