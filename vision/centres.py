"""Token centres found by their rims: a circle Hough transform of one radius (pure).

Tokens lie flat and the homography takes the perspective out, so in the canonical view every
token is a disc of one known radius (``layout.TOKEN_RADIUS``, 11 px). Each boundary pixel of a
mask of tokens votes for the point one radius inwards along the mask's normal: a token's rim,
whole or the arc a sheen or a neighbour leaves of it, votes for its centre; the neck between
two touching tokens and a sheen's hollow scatter their votes. The best-voted points at least
:data:`MIN_APART` apart whose disc is mostly token are the centres (:func:`find_blobs`); what
of a blob they leave unexplained (beyond :data:`EXPLAINED`) may be a token no rim shows.
:mod:`vision.tokens` builds the masks and names each centre's kind.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import layout, palette

KINDS = tuple(palette.TOKEN_COLOURS)
R = layout.TOKEN_RADIUS
TOKEN_AREA = math.pi * R * R
MIN_AREA = 0.3 * TOKEN_AREA
"""A blob smaller than this is noise, not a token."""
VOTE_REACH = (R - 2.5, R - 1.5, R - 0.5)
"""How far inwards a boundary pixel votes (a mask's boundary lies half a pixel inside the
token's edge, blur and a white token's grey rim shrink it by one or two)."""
MIN_VOTES = 0.25 * 2 * math.pi * R
"""Votes (out of about one per pixel of rim) that make a token's centre: a quarter of its rim
(a token in a chain of three shows two short arcs; 0.3 lost the middle one of dark tokens on a
dark cloth: on development frames 0.25 gave 36 exact scenes of 40 where 0.3 gave 31)."""
MIN_VOTES_COLOUR = 0.21 * 2 * math.pi * R
"""The same for the rims of the tokens' colour masks: a token's colour marks its own edge, where
a disc standing out from the table by brightness alone (:func:`_cloth_coloured`) can be drawn
by noise too. A Poison hemmed in by others in a clump, or whose face a lamp's sheen greys to the
cloth, shows only short arcs of rim: on development frames (realistic 61000-61099, hard
62000-62039, both sizes) 0.21 gave 148 exact scenes of 280 where 0.25 gave 144 and 0.23 145;
0.21 on the brightness discs too saw Antidotes on bare white linen."""
MIN_COVER = 0.6
"""The least fraction of the disc of :data:`COVER_RADIUS` round a centre tokens must cover."""
COVER_RADIUS = 0.7 * R
MIN_APART = 1.6 * R
"""Two centres are at least this far apart (touching tokens: 2 R; overlapping by 10%: 1.8 R)."""

EXPLAINED = 3.0
"""A centre accounts for its blob's pixels up to this far beyond a token's radius (blur)."""
UNEXPLAINED = 0.55
"""Unexplained pixels covering this fraction of a token's area are a token."""
THICK = 0.4 * R
"""Unexplained pixels are a token only where they are this deep somewhere."""
SHEEN_MOST = 1.1 * TOKEN_AREA
"""A sheen lies on its token's face: a bright patch larger than a token (with its blur) is
something else (a hot spot of light is broad)."""

OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
"""OpenCV's 3x3 ellipse (a cross): opening a mask with it takes away specks and threads a
pixel wide."""
NEAR = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
"""OpenCV's 7x7 ellipse: dilating a mask with it takes in what lies within 3 px (a token's blurred
margin)."""
_COVER_DISC = cv2.circle(
    np.zeros((2 * round(COVER_RADIUS) + 1,) * 2, np.float32),
    (round(COVER_RADIUS),) * 2,
    round(COVER_RADIUS),
    1.0,
    -1,
)
_COVER_DISC /= _COVER_DISC.sum()
_COVER_DY, _COVER_DX = (v - round(COVER_RADIUS) for v in np.nonzero(_COVER_DISC))
_COVER_ROWS = np.unique(_COVER_DY)
_COVER_LO = np.array([_COVER_DX[np.equal(_COVER_DY, d)].min() for d in _COVER_ROWS])
_COVER_HI = np.array([_COVER_DX[np.equal(_COVER_DY, d)].max() + 1 for d in _COVER_ROWS])
assert (_COVER_HI - _COVER_LO).sum() == len(_COVER_DY), "the disc is one run per row"


def covered(mask: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The fraction of the disc of :data:`COVER_RADIUS` round each point ``(xs, ys)`` that
    ``mask`` covers (the disc's mean, as a filter over the mask would give it, but only at
    the points asked: the candidates for a centre are few)."""
    # The disc is a run of pixels on each of its rows: its count is a difference of running
    # sums along each row (``mask`` is 0/1), a few lookups per row instead of one per pixel.
    r = round(COVER_RADIUS)
    padded = cv2.copyMakeBorder(mask, r, r, r, r, cv2.BORDER_REFLECT_101)
    sums = np.zeros((padded.shape[0], padded.shape[1] + 1), np.int32)
    np.cumsum(padded, axis=1, out=sums[:, 1:])
    rows = ys[:, None] + r + _COVER_ROWS
    hits = sums[rows, xs[:, None] + r + _COVER_HI] - sums[rows, xs[:, None] + r + _COVER_LO]
    return hits.sum(axis=1).astype(np.float32) / len(_COVER_DY)


def hulls(mask: np.ndarray) -> np.ndarray:
    """``mask`` (0/1) with each blob's convex hull filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = mask.copy()
    for contour in contours:
        cv2.fillConvexPoly(filled, cv2.convexHull(contour), 1)
    return filled


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """``mask`` (0/1) with the holes in its blobs filled (a sheen's white inside a token)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, -1)
    return filled


@dataclass(frozen=True)
class Blob:
    """One connected region of tokens: its area (pixels), the token centres its rims show and
    each centre's kind, and its label in the crop's label image."""

    area: int
    peaks: list[tuple[float, float]]
    kinds: list[str] = field(default_factory=list)
    label: int = 0
    unexplained: list[str] = field(default_factory=list)
    """Tokens no rim shows (one hemmed in by its own kind), found by the blob's pixels that
    no centre explains."""


def spread(xs: np.ndarray, ys: np.ndarray, apart: float) -> list[tuple[float, float]]:
    """The points (integer pixels, best first) at least ``apart`` from every point taken before
    them: each taken point rules out the later candidates nearer than ``apart`` at once, so the
    work grows with the centres, not with candidates times centres. Squared distances of pixels
    are integers and none lies within 0.005 px of ``apart`` (MIN_APART), so ``d2 >=
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


_REACH = np.array(VOTE_REACH, np.float32)[:, None]


def votes(mask: np.ndarray) -> np.ndarray:
    """Each boundary pixel of ``mask`` votes for the point one token radius inwards along the
    mask's normal (a circle Hough transform of one radius): a token's rim, whole or only the arc
    a sheen or a neighbour leaves of it, votes for its centre; the neck between two touching
    tokens and the concave edge of a sheen's hollow vote all over the place."""
    smooth = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 1.2)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    ys, xs = np.nonzero(cv2.subtract(mask, cv2.erode(mask, OPEN)))
    h, w = mask.shape
    if xs.size == 0:
        return np.zeros(mask.shape, np.float32)
    gxs, gys = gx[ys, xs], gy[ys, xs]
    norm = np.hypot(gxs, gys) + 1e-6
    nx, ny = gxs / norm, gys / norm
    # Every reach at once (rows of the arrays), every vote counted at once (np.add.at, one
    # vote at a time, is many times slower).
    vx = np.rint(xs + _REACH * nx).astype(np.intp)
    vy = np.rint(ys + _REACH * ny).astype(np.intp)
    ok = (vx >= 0) & (vx < w) & (vy >= 0) & (vy < h)
    acc = np.bincount(vy[ok] * w + vx[ok], minlength=h * w).astype(np.float32)
    acc *= 1.0 / len(VOTE_REACH)
    return cv2.boxFilter(acc.reshape(h, w), -1, (5, 5), normalize=False)


_VOTE_MARGIN = round(R) + 6
"""Votes land within a token's radius of the rim that casts them, and the smoothing before
the gradients reaches 5 px: a window this much wider than the mask's pixels sees all of it."""


def votes_near(mask: np.ndarray) -> np.ndarray:
    """:func:`votes` of ``mask``, computed only in the window round its pixels (the
    mask of one colour in an area is a few tokens in a crop of two hundred tokens' size); the
    rest of the crop gets none."""
    x, y, w, h = cv2.boundingRect(mask)
    out = np.zeros(mask.shape, np.float32)
    if w == 0:
        return out
    y0, x0 = max(y - _VOTE_MARGIN, 0), max(x - _VOTE_MARGIN, 0)
    y1 = min(y + h + _VOTE_MARGIN, mask.shape[0])
    x1 = min(x + w + _VOTE_MARGIN, mask.shape[1])
    out[y0:y1, x0:x1] = votes(np.ascontiguousarray(mask[y0:y1, x0:x1]))
    return out


def find_blobs(
    mask: np.ndarray, classes: np.ndarray | None = None
) -> tuple[list[Blob], np.ndarray]:
    """The blobs of a binary mask of tokens, each with its token centres, and the blobs' label
    image (0: no blob). With ``classes`` (each pixel's token colour) the rim of each colour
    votes, so two touching tokens of different colours each keep their whole rim; the rim of
    the whole mask votes too (a point keeps the more votes), so a token whose face a sheen splits
    into scraps of several colours keeps its outer rim."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, OPEN)
    if not cv2.countNonZero(mask):  # nothing there: no contours to trace, nothing to label
        return [], np.zeros(mask.shape, np.int32)
    mask = fill_holes(mask)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return [], labels
    if classes is None:
        cast = votes_near(mask)
    else:
        cast = np.zeros(mask.shape, np.float32)
        inside = mask > 0
        present = np.bincount(classes[inside], minlength=256)[: len(KINDS)]
        for index in np.flatnonzero(present).tolist():
            part = ((classes == index) & inside).astype(np.uint8)
            # Opened, filled and voted on in the window round this colour's pixels only: the
            # window :func:`votes_near` takes round what is left of them, or wider (zeros).
            x, y, w, h = cv2.boundingRect(part)
            y0, x0 = max(y - _VOTE_MARGIN, 0), max(x - _VOTE_MARGIN, 0)
            y1 = min(y + h + _VOTE_MARGIN, mask.shape[0])
            x1 = min(x + w + _VOTE_MARGIN, mask.shape[1])
            window = cv2.morphologyEx(part[y0:y1, x0:x1], cv2.MORPH_OPEN, OPEN)
            cast[y0:y1, x0:x1] += votes(fill_holes(window))
        # A lamp's sheen on a glossy Poison token tints its face (white added, the relit
        # cloth's cast) into scraps of other colours' classes (Antidote, Ogre Poison, Unicorn
        # Antidote), which split its rim among the colours' votes, none a quarter of it; the
        # rim of all tokens together still votes whole for its centre where nothing touches it.
        cast = np.maximum(cast, votes_near(mask))
    # A centre: enough of a rim voted for it, and the token's face is there: the blob's, or
    # within its outline's convex hull (a lamp's sheen greys a glossy token's face to the
    # cloth's colour and, reaching its edge, leaves only a crescent of its rim, open towards
    # the lamp: the hollow is no hole to fill).
    ys, xs = np.nonzero(cast >= (MIN_VOTES if classes is None else MIN_VOTES_COLOUR))
    keep = covered(hulls(mask), ys, xs) >= MIN_COVER
    ys, xs = ys[keep], xs[keep]
    order = np.argsort(-cast[ys, xs], kind="stable")
    centres = spread(xs[order], ys[order], MIN_APART)
    blobs = [Blob(int(stats[b, cv2.CC_STAT_AREA]), [], label=b) for b in range(n)]
    for x, y in centres:
        label = labels[round(y), round(x)]
        if label == 0:  # a centre in a crescent's hollow: the blob nearest to it
            near = labels[max(round(y) - 4, 0) : round(y) + 5, max(round(x) - 4, 0) : round(x) + 5]
            label = int(near.max())
        blobs[label].peaks.append((x, y))
    return [b for b in blobs[1:] if b.area >= MIN_AREA or b.peaks], labels
