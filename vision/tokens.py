"""Revealed tokens counted by kind in each seat's reveal area (pure: an array in, counts out).

Rulebook, The Toast: "each player takes the Goblet in front of them, no matter the color of its
Coaster, and reveals its contents"; Ingredients: "Wine (red) | Poison (black) | Antidote (white)
| Unicorn Antidote (blue) | Ogre Poison (green)". The counts are what
``companion.core.games.goblets.sensed`` takes at the reveal ("counts: per place, the camera's
counts").

Input: the canonical view relit by :func:`vision.frame.relight` and its cloth model; each area
is read from its crop (:mod:`vision.area`). An area something neither cloth nor token covers (a
hand, glare, a goblet's bowl: the tests are :mod:`vision.cover`'s) is not seen and counts None.
Elsewhere, tokens are found by shape and named by colour:

1. *What is token.* A pixel is cloth when the cloth model calls it cloth (lit or shaded, by
   chromaticity) or when it is nearer to the frame's own cloth at some shade than to every token
   colour (a colourless pixel only on a colourless cloth). A lamp's sheen greys a Poison token to
   the colour of the cloth in shadow: what is colourless and much darker than the table round
   it at a token's scale is such a token (shadows on the table are broad), and so is a disc of
   a token's size darker than the lit cloth just outside its rim (a shadow goes on beyond it).
2. *Where the tokens are.* Tokens are discs of one known radius in the canonical view (they lie
   flat on the table, and the homography takes the perspective out), so the boundary of each
   colour's mask votes for the point one radius inwards (a circle Hough transform): a token's
   rim, whole or the arc a sheen or a neighbour leaves of it, votes for its centre, the neck
   between two touching tokens and a sheen's hollow do not. The best-voted points at least
   ``MIN_APART`` apart whose disc is mostly token are the centres. A token hemmed in by others
   of its colour shows no rim: pixels no centre explains count too.
3. *Which kind.* The colour of the darkest quarter of the token's face (sheen only adds white),
   lit back to full light by the shade of the table round it, nearest of the five colours.
4. *Tokens of the cloth's colour* (Wine on a red cloth, Antidotes on white linen) have no colour
   to show: they are found as token-sized discs standing out from the table in brightness alone
   (a sheen lightens them, a rim and a contact shadow darken their edge), or by their sheen
   alone where a small frame blurs their rims into the cloth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import frame, layout, palette
from vision.area import BAND, DEPTH, DISC, GX, GY, HALF, IN_BAND, INSIDE, TABLE
from vision.centres import (
    EXPLAINED,
    KINDS,
    MIN_APART,
    MIN_AREA,
    MIN_COVER,
    NEAR,
    OPEN,
    SHEEN_MOST,
    THICK,
    TOKEN_AREA,
    UNEXPLAINED,
    Blob,
    R,
    covered,
    find_blobs,
    spread,
)
from vision.cover import (
    BAND_BRIGHTEST,
    CLOTH_CLIPS,
    COVER_BORDER,
    COVER_GLARE,
    COVER_INNER,
    EDGE_CENTRE,
    INTRUDES,
    cover_unexplained,
    crossing,
    lost_sheens,
    lost_unexplained,
    reaches_beyond,
    reaching_in,
    straddles,
    unexplained_at_edge,
    untextured,
)
from vision.frame import Cloth
from vision.kinds import (
    NO_KIND,
    SHADOW_CHROMA,
    SHADOW_FACE,
    SHADOW_FACE_BROAD,
    chroma_kind,
    chromatic,
    classify,
    kind_of,
    shadow_face,
)
from vision.layout import TableLayout
from vision.order import median

SATURATED = frame.SATURATED
"""Saturated pixels (marked by :func:`vision.frame.relight`) are glare: colours there are lost."""

_NAMES, _LAB = palette.lab(palette.TOKEN_COLOURS)
_WEIGHTS = np.array([0.6, 1.0, 1.0], np.float32)
_SQUARED_WEIGHTS = (_WEIGHTS.astype(np.float64) ** 2).reshape(1, 3)
SHADES = (1.15, 1.0, 0.82, 0.66, 0.52, 0.42)
"""The cloth's brightness under the lamp's hot spot, in full light and in ever deeper shadow (a
goblet's takes at most 0.6 of the light, a token's contact shadow a quarter more): a pixel nearer
to one of these than to every token colour is cloth."""
_POISON = _NAMES.index("poison")
_ANTIDOTE = _NAMES.index("antidote")
_NOT_TOKEN = 255
_COLOURED = [_NAMES.index(k) for k in ("wine", "poison", "unicorn_antidote", "ogre_poison")]
SHEEN_AREA = 0.7 * TOKEN_AREA
"""A white patch smaller than this touching a coloured token is that token's sheen."""
_RING_R = round(2.6 * R)
_RING = cv2.circle(np.zeros((2 * _RING_R + 1,) * 2, np.uint8), (_RING_R,) * 2, _RING_R, 1, -1) > 0
_RING &= cv2.circle(np.zeros_like(_RING, np.uint8), (_RING_R,) * 2, round(1.3 * R), 1, -1) == 0
"""The cloth round a token, where its shade is measured."""
_AROUND = cv2.getStructuringElement(cv2.MORPH_RECT, (round(3.8 * R) | 1, round(3.8 * R) | 1))
"""A closing this wide takes away whatever dark is no wider than a token or two."""
CLOTH_LOOSER = 1.6
"""In a reveal area the cloth's chromaticity tolerance is this much wider than the cloth
model's (the contact shadows round tokens are dark and their chromaticity noisy; no token is
the colour of a cloth meant for the game)."""
NEAR_CLOTH = 22.0
"""A token colour within this weighted Lab distance of the cloth is the cloth's colour."""
STANDS_OUT = 0.08
"""A token of the cloth's colour is this much brighter or darker than the table round it."""
_MEDIAN = round(3.8 * R) | 1
SHEEN_DARK = 0.68
"""Darker than this fraction of the table round it is no token's contact shadow (a quarter
darker) nor wood grain, but may be a sheened Poison token (about half as bright)."""
VIVID = 64
"""Channels differing by this much are a token's own face, never its edge blurred into the cloth
(a Wine token's face keeps about 125 whatever sheen lightens it, its blurred edge half that)."""


def _sheen_to_token(classes: np.ndarray) -> None:
    """A glossy token's specular highlight is white: a white patch smaller than a token that
    touches a coloured token is that token's sheen, not an Antidote (in place)."""
    white = (classes == _ANTIDOTE).astype(np.uint8)
    if not cv2.countNonZero(white):
        return
    n, labels, stats, _ = cv2.connectedComponentsWithStats(white, connectivity=8)
    for label in range(1, n):
        if stats[label, cv2.CC_STAT_AREA] >= SHEEN_AREA:
            continue
        x, y, w, h = (int(v) for v in stats[label, :4])
        y0, x0 = max(y - 3, 0), max(x - 3, 0)
        part = labels[y0 : y + h + 3, x0 : x + w + 3] == label
        around = cv2.dilate(part.astype(np.uint8), NEAR) > 0
        near = classes[y0 : y + h + 3, x0 : x + w + 3][around & ~part]
        near = near[np.isin(near, _COLOURED)]
        if near.size:
            classes[y0 : y + h + 3, x0 : x + w + 3][part] = np.bincount(near).argmax()


@dataclass(frozen=True)
class _ClothRefs:
    """What the reveal areas' readers need to know of one frame's cloth, worked out once per
    frame rather than once per area: its Lab colour at each of :data:`SHADES`, its grey level,
    the token kinds of its colour and the coloured kind its chroma points to."""

    shades: np.ndarray
    level: float
    near: list[str]
    chroma: int
    bright: bool
    """The cloth is so light that a token's face has no room to stand out above it (its
    brightest channel within :data:`BRIGHT_CLOTH` of the view's top)."""

    @staticmethod
    def of(cloth: Cloth) -> _ClothRefs:
        """The references of ``cloth``."""
        shades = np.array([[np.clip(cloth.bgr * k, 0, 255) for k in SHADES]], np.uint8)
        refs = cv2.cvtColor(shades, cv2.COLOR_BGR2Lab)[0].astype(np.float64)
        level = float(cv2.cvtColor(_bgr8(cloth.bgr), cv2.COLOR_BGR2GRAY)[0, 0])
        bright = float(cloth.bgr.max()) >= BRIGHT_CLOTH * (frame.SATURATED - 1)
        return _ClothRefs(refs, level, near_cloth(cloth), chroma_kind(cloth.bgr), bright)


def _nearer_cloth(lab: np.ndarray, token_distance: np.ndarray, refs: _ClothRefs) -> np.ndarray:
    """Where a pixel's weighted Lab distance to the frame's cloth at the nearest of its
    :data:`SHADES` is no more than its distance to the nearest token colour (the same weights
    as the token classifier's). OpenCV's per-element arithmetic: a third of the time numpy's
    temporaries take on a Pi."""
    f = lab.astype(np.float32)
    best = None
    for ref in refs.shades:
        d = cv2.subtract(f, (*ref.tolist(), 0.0))
        d = cv2.transform(cv2.multiply(d, d), _SQUARED_WEIGHTS)
        best = d if best is None else cv2.min(best, d)
    return cv2.sqrt(best) <= token_distance


def _bgr8(bgr: np.ndarray) -> np.ndarray:
    """A colour as a 1x1 8-bit image."""
    return np.clip(bgr, 0, 255).astype(np.uint8).reshape(1, 1, 3)


def _shade_near(grey: np.ndarray, cloth_like: np.ndarray, x: int, y: int, level: float) -> float:
    """How lit the table is round ``(x, y)``: the median cloth pixel's brightness between 1.3
    and 2.6 token radii from it, over the cloth's reference brightness (1: full light)."""
    r = round(2.6 * R)
    y0, x0 = max(y - r, 0), max(x - r, 0)
    patch = grey[y0 : y + r + 1, x0 : x + r + 1]
    keep = cloth_like[y0 : y + r + 1, x0 : x + r + 1] & _RING[: patch.shape[0], : patch.shape[1]]
    if y0 == 0 or x0 == 0:  # at the crop's edge the ring is cut: use whatever cloth is there
        keep = cloth_like[y0 : y + r + 1, x0 : x + r + 1]
    values = patch[keep]
    if values.size < 20:
        return 1.0
    return float(np.clip(median(values) / max(level, 1.0), 0.4, 1.25))


SHADOW_EXPLAINED = 0.7
"""A blob whose centres account for less than this share of its pixels (within
:data:`EXPLAINED` of a token's radius) is broader than its tokens: a centre in it whose face
looks like the cloth in shadow (:func:`vision.kinds.shadow_face`) is a piece of a goblet's
shadow, not a token. On development frames (realistic 61000-61099, hard 62000-62039 and
66000-66039, both sizes) the Poisons taken from shadows lay in blobs explained 13-65% (two at
78%), every Poison token whose face looked like shadow in one explained 100%."""
SHADOW_BROAD = 0.55
"""A blob its centres explain little more than half of is mostly no token: there a centre whose
face keeps the cloth's chromaticity over :data:`vision.kinds.SHADOW_FACE_BROAD` of it is a
shadow's piece (the Poisons taken from shadows on development and test frames lay in blobs
explained 13-51%, Poison tokens whose faces looked like shadow in blobs explained 60% or more:
midway)."""


def _explained(inside: np.ndarray, peaks: list[tuple[float, float]]) -> float:
    """The share of a blob's pixels (``inside``) within a token's radius and its blurred edge
    of one of its centres."""
    total = int(cv2.countNonZero(inside.view(np.uint8)))
    if total == 0:
        return 1.0
    near = np.zeros(inside.shape, np.uint8)
    for x, y in peaks:
        cv2.circle(near, (round(x), round(y)), round(R + EXPLAINED), 1, -1)
    return int(cv2.countNonZero(near & inside.view(np.uint8))) / total


def _unexplained(
    inside: np.ndarray, peaks: list[tuple[float, float]], classes: np.ndarray
) -> list[str]:
    """The kinds of the tokens in a blob that no centre accounts for: its pixels further than a
    token (and its blurred edge) from every centre, in pieces of at least half a token, one
    token per :data:`TOKEN_AREA` (a token hemmed in by others of its colour shows no rim)."""
    far = inside.copy()
    for x, y in peaks:
        cv2.circle(far.view(np.uint8), (round(x), round(y)), round(R + EXPLAINED), 0, -1)
    far = cv2.morphologyEx(far.view(np.uint8), cv2.MORPH_OPEN, OPEN)
    least = (UNEXPLAINED if peaks else MIN_AREA / TOKEN_AREA) * TOKEN_AREA
    if int(cv2.countNonZero(far)) < least:  # no piece can be big enough: nothing to label
        return []
    n, labels, stats, _ = cv2.connectedComponentsWithStats(far, connectivity=8)
    depth = cv2.distanceTransform(far, cv2.DIST_L2, 3)
    kinds = []
    for part in range(1, n):
        size = int(stats[part, cv2.CC_STAT_AREA])
        # A blob no rim explains at all is a token blurred out of shape if big enough, and
        # thick (not a colour fringe's arc round a token).
        if size < least:
            continue
        if float(depth[labels == part].max()) < THICK:
            continue
        votes = np.bincount(classes[labels == part], minlength=256)[: len(KINDS)]
        kinds += [KINDS[int(np.argmax(votes))]] * max(round(size / TOKEN_AREA), 1)
    return kinds


def near_cloth(cloth: Cloth) -> list[str]:
    """The token kinds whose colour is the cloth's own (within :data:`NEAR_CLOTH`), nearest
    first: Wine on a red cloth, Antidotes on white linen."""
    cloth_lab = cv2.cvtColor(_bgr8(cloth.bgr), cv2.COLOR_BGR2Lab)[0, 0].astype(np.float32)
    d = np.sqrt((((_LAB - cloth_lab) * _WEIGHTS) ** 2).sum(axis=1))
    return [KINDS[i] for i in np.argsort(d) if d[i] < NEAR_CLOTH]


def _cloth_coloured(
    grey: np.ndarray,
    token: np.ndarray,
    hidden: np.ndarray,
    area: np.ndarray,
    near: list[str],
    blobs: list[Blob],
    bright: bool = False,
    off_cloth: np.ndarray | None = None,
) -> list[Blob]:
    """Tokens of the cloth's own colour (Wine on a red cloth, Antidotes on white linen), found
    as discs of a token's size that stand out from the table round them in brightness alone
    (a lamp's sheen lightens a token, its rim and contact shadow darken its edge), away from
    the tokens the colours found. Only looked for when some token's colour is that near the
    cloth's (elsewhere the colours find every token)."""
    if not near:
        return []
    local = cv2.medianBlur(grey, _MEDIAN)
    ratio = grey.astype(np.float32) / np.maximum(local, 1).astype(np.float32)
    odd = (np.abs(ratio - 1.0) > STANDS_OUT) & (area > 0)
    odd &= cv2.dilate(token.view(np.uint8), NEAR) == 0
    found_blobs, _ = find_blobs(odd.astype(np.uint8))
    sheens, lit = ([], None) if bright or off_cloth is None else _sheens(ratio, odd, off_cloth)
    if lit is not None:
        # Under a strong sheen (a low lamp, a glossy token) the face is a bright disc of the
        # token's own size, and its outline votes for its centre alone: with the dark of its
        # rim and contact shadow it merges with a touching neighbour's into one ragged blob.
        found_blobs += find_blobs(lit)[0]
    taken = [p for b in blobs for p in b.peaks]
    found = []
    for blob in found_blobs:
        for x, y in blob.peaks:
            # A token of the cloth's colour is darker only at its rim and contact shadow; a
            # shadow's edge cut by the area's circle is dark all through (a bowl's shadow on
            # a red cloth is no Wine token).
            xi, yi = round(x), round(y)
            face = ratio[max(yi - 3, 0) : yi + 4, max(xi - 3, 0) : xi + 4]
            if face.size and median(face.reshape(-1)) < 1.0 - STANDS_OUT:
                continue
            if bright and _bare_gap(grey, token, x, y):
                continue
            if all(math.hypot(x - a, y - b) >= MIN_APART for a, b in taken):
                taken.append((x, y))
                found.append(Blob(round(TOKEN_AREA), [(x, y)], [near[0]]))
    # A glossy token under a lamp shows its sheen, confined to its own face: a small bright
    # patch the cloth, matte, never shows (a hot spot of light is broad). Where the token's
    # rim blurs into the cloth (a small frame) the sheen is all that stands out of it, a disc
    # too small for the rim's votes.
    for x, y in sheens:
        if all(math.hypot(x - a, y - b) >= MIN_APART for a, b in taken):
            taken.append((x, y))
            found.append(Blob(round(TOKEN_AREA), [(x, y)], [near[0]]))
    # A token whose face cannot be brighter than the cloth (an Antidote on white linen, both
    # near the camera's clip: ``bright``) shows only its darker rim and its contact shadow, an
    # open ring
    # of a token's radius: where that ring is dark and the cloth just outside it and the face
    # inside it are not (a shadow's edge is dark on one side all along; a dark token's face is
    # dark), a token stands.
    # A dark face in such a ring (against the cloth round it, the tokens found by colour left
    # out) is a Poison whose sheen greyed its colour away, too broad a grey among dark tokens
    # for the colour path's sheened test: not an Antidote, white all over.
    rings = _rings_of(ratio, token, area) if bright else []
    level = _cloth_level(grey, token) if rings else grey
    for x, y in rings:
        kind = "poison" if _dark_face(grey, level, x, y) else near[0]
        if all(math.hypot(x - a, y - b) >= MIN_APART for a, b in taken):
            taken.append((x, y))
            found.append(Blob(round(TOKEN_AREA), [(x, y)], [kind]))
    # Touching tokens of the cloth's colour show a rim only on their outer sides; the scraps of
    # their colour that no centre explains, against the tokens found, are tokens too (as
    # :func:`_unexplained`).
    if taken:
        kind = np.full(grey.shape, KINDS.index(near[0]), np.uint8)
        extra = _unexplained(_hemmed(hidden & (area > 0), taken), taken, kind)
        found += [Blob(round(TOKEN_AREA), [], [k]) for k in extra]
    return found


HEMMED_REACH = 2 * R + EXPLAINED + 2
"""How near a centre found the middle of a scrap of the cloth's colour must lie to be a token
hemmed in by it (27 px): a token touching another has its centre two radii from that one's,
and what of it no centre explains lies round its own centre, off by its blur. On white linen
the scraps of a goblet's shadow's edge (its penumbra, no cloth by its chromaticity) lay 42-50
px from every centre on development frames, a hemmed-in Antidote's 21."""


def _hemmed(scraps: np.ndarray, taken: list[tuple[float, float]]) -> np.ndarray:
    """The pieces of ``scraps`` (pixels of the cloth's colour that are no cloth) that may be
    tokens hemmed in by the tokens found (``taken``): beyond every centre's reach (as
    :func:`_unexplained` cuts them), their middle within :data:`HEMMED_REACH` of a centre. A
    token of the cloth's colour standing alone shows its own rim, and is found by it."""
    far = scraps.astype(np.uint8)
    for x, y in taken:
        cv2.circle(far, (round(x), round(y)), round(R + EXPLAINED), 0, -1)
    n, labels, _, middles = cv2.connectedComponentsWithStats(far, connectivity=8)
    keep = np.ones(n, bool)
    for part in range(1, n):
        mx, my = middles[part]
        keep[part] = any(math.hypot(mx - a, my - b) <= HEMMED_REACH for a, b in taken)
    return scraps & keep[labels]


RINGED_CORE = 0.15 * TOKEN_AREA
"""The least area (px) of a token's core, too small to be a blob of its own, that
:func:`_ringed_cores` looks at: smaller pieces are noise and a white token's glints."""


def _ringed_cores(
    labels: np.ndarray, blobs: list[Blob], seen: np.ndarray, sheened: np.ndarray
) -> list[Blob]:
    """Tokens whose rim blurs into a cloth of a coloured token's colour: on a red cloth at
    640x480 a grey Poison's blurred rim mixes with the red into what is named Wine (of the
    cloth's colour, not trusted: ``hidden``), leaving a core under :data:`MIN_AREA` with no rim
    to vote (and a Wine token that stands out too little in brightness keeps only its sheen's
    white core). On development frames this found a Poison on red at 640x480 and two
    Wine tokens at 1280x720; on white linen, whose own weave is named Antidote, it found
    tokens on bare cloth and is not used. Such a core (its piece of ``labels`` no blob kept, of
    :data:`RINGED_CORE` or more) is a token where what is not cloth (``seen``: the tokens and
    the scraps of the cloth's colour) covers the disc round its centre as a token's face does
    (:data:`MIN_COVER`), away from every centre found: its kind is its face's. So is the piece
    of a kept blob that its centres leave unexplained, too small for :func:`_unexplained`
    (under :data:`UNEXPLAINED` of a token): such a Poison touching an Antidote joins its blob
    by its core alone (on development frames: nine more Poisons and Wine tokens on red
    and green felt counted, none too many), and on any cloth but white linen a token in a
    clump whose neighbours' centres leave only its core unexplained (three more areas on dark
    blue and grey). Not a piece mostly dark and colourless at a token's scale (``sheened``): a
    goblet's shadow joined to a clump on grey cloth leaves such pieces (one Poison too many on
    extra seeds, where the Poisons it found on grey at 640x480 cost more than they gained).
    Those pieces' blobs take no label (-1): their pixels are their parent blob's, whose
    centres explain them already."""
    kept = {b.label for b in blobs if b.label}
    n = int(labels.max())
    if n == 0:
        return []
    sizes = np.bincount(labels.reshape(-1), minlength=n + 1)
    taken = [p for b in blobs for p in b.peaks]
    found = []
    for label in range(1, n + 1):
        if label in kept or not RINGED_CORE <= sizes[label] < MIN_AREA:
            continue
        ys, xs = np.nonzero(labels == label)
        x, y = round(float(xs.mean())), round(float(ys.mean()))
        if _faced(seen, taken, x, y):
            taken.append((float(x), float(y)))
            found.append(Blob(int(sizes[label]), [(float(x), float(y))], label=label))
    for blob in blobs:  # the pieces a kept blob's centres leave unexplained
        if not blob.label or not blob.peaks:
            continue
        far = (labels == blob.label).astype(np.uint8)
        for x, y in blob.peaks:
            cv2.circle(far, (round(x), round(y)), round(R + EXPLAINED), 0, -1)
        far = cv2.morphologyEx(far, cv2.MORPH_OPEN, OPEN)
        if int(cv2.countNonZero(far)) < RINGED_CORE:
            continue
        m, parts, stats, centroids = cv2.connectedComponentsWithStats(far, connectivity=8)
        for part in range(1, m):
            if not RINGED_CORE <= stats[part, cv2.CC_STAT_AREA] < UNEXPLAINED * TOKEN_AREA:
                continue
            if float(sheened[parts == part].mean()) >= 0.5:  # a shadow's, maybe
                continue
            x, y = (round(float(v)) for v in centroids[part])
            if _faced(seen, taken, x, y):
                taken.append((float(x), float(y)))
                size = int(stats[part, cv2.CC_STAT_AREA])
                found.append(Blob(size, [(float(x), float(y))], label=-1))
    return found


DISC_DARK = 0.9
"""The brightest a face (its disc short of the rim) may be, over the table's level round it
(the closing :func:`area_blobs` takes, ``around``), for :func:`_dark_discs` to take it: a
Poison whose glossy face a lamp's sheen greyed to the cloth in shadow is still darker than the
lit cloth (the 42 found on development frames lay at 0.40-0.87 of it; 0.8 lost three of them, 0.9
changed nothing else)."""
DISC_CONTRAST = 0.1
"""The least by which the cloth just outside a token's rim (2-6 px beyond it) is brighter than
its face (as a share of the table's level): a disc darker than the table round it. On
development frames the Poisons found stood out by 0.12-0.50; 0.1 and 0.15 found the same on
the development sets, 0.1 five more Poisons on the extra seeds, 0.2 lost five."""
DISC_BRIGHT = 0.85
"""A pixel at least this bright, over the table's level round it, is lit cloth."""
DISC_AROUND = 0.7
"""The least share of the cloth just outside a disc's rim (what no token found lies on) that is
lit (:data:`DISC_BRIGHT`): a token lies on the table, its rim ringed by the bare cloth or by
its neighbours; a shadow goes on beyond any disc drawn in it (a goblet's stem's, 0.60-0.62 on
development frames; the Poisons found 0.72-1.0; 0.65 found the same, 0.75 lost two)."""
DISC_FREE = 0.4
"""The least share of that ring clear of the tokens found (beyond a token's radius and a pixel
from their centres) for the disc to be judged at all: hemmed in closer, what rings it is its
neighbours, not the table (the Poisons found 0.46-1.0; 0.3 found the same on development
frames, 0.5 lost one)."""
DISC_CLOTH = 0.5
"""The least share of a face (0.65 of a radius round the centre) the cloth tests call cloth:
what the colour paths saw as token they counted already (the Poisons found 0.52-1.0; 0.7
missed a sheened Poison in a clump on grey cloth, at 0.57 and 0.70, the realistic first
development set's only failing scene; without this test four areas read differently and two
scenes were lost)."""
_DISC_GATE = 0.05
"""The candidates are the darkest points of the table with the tokens found left out (a box a
face wide, the rest filled as lit cloth), at most this much brighter than :data:`DISC_DARK`: the
box's corners take in a little of the rim."""
_DISC_R = round(R + 6)
_DISC_DY, _DISC_DX = (
    v.reshape(-1) for v in np.mgrid[-_DISC_R : _DISC_R + 1, -_DISC_R : _DISC_R + 1]
)
_DISC_D = np.hypot(_DISC_DX, _DISC_DY)
_DISC_PARTS = [
    (_DISC_DY[m], _DISC_DX[m])
    for m in (
        _DISC_D <= R - 2.0,  # the face short of the rim (blur mixes the rim with the cloth)
        (_DISC_D >= R + 2.0) & (_DISC_D <= R + 6.0),  # the cloth just outside the rim
        _DISC_D <= 0.65 * R,  # the face as vision.kinds reads it
    )
]
_DISC_BOX = (2 * round(R) - 3) | 1


def _dark_discs(
    crop: np.ndarray,
    grey: np.ndarray,
    around: np.ndarray,
    cloth_like: np.ndarray,
    blobs: list[Blob],
    level: float,
) -> list[Blob]:
    """Poisons the colour paths missed, found by their shape: a disc of a token's size darker
    than the table just outside it (a matched filter of the face against the ring beyond its
    rim). A lamp's sheen greys a glossy Poison's face to the colour of the cloth in shadow,
    which the cloth tests call cloth, and the sheened test (:data:`SHEEN_DARK`) keeps only a
    crescent of its rim, too short to vote and whose hull covers too little of a disc; but
    the token is still darker than the lit cloth all round it. A shadow on the table is broad
    and soft: drawn in it, the disc's ring is dark too where the shadow goes on
    (:data:`DISC_AROUND`). Each disc lies away from every centre found (and each other, by
    :data:`MIN_APART`), a token's radius or more inside the area (a goblet's shadow the area's
    edge cuts short ends at its edge), its face mostly what the cloth tests call cloth
    (:data:`DISC_CLOTH`), and named Poison by its face (:func:`vision.kinds.kind_of`); the
    best contrast is taken first and leaves the ring of those after it. On development frames
    (both sets, both sizes; extra seeds hard and realistic 57500-57559) this found 42 Poisons
    on white linen and grey cloth (16 on the two sets, 26 on the extra seeds), and one piece of
    a goblet's shadow that a green token in a clump on white linen cut short, in an area
    already wrong (three Wine tokens missed). Without the tokens found, their neighbours'
    ring is judged where the table shows; two missed Poisons touching (each darkening the
    other's ring) are still missed. ``crop``: the area's BGR; ``grey``, ``around``: its
    brightness and the table's level round each pixel; ``cloth_like``: the cloth tests'
    mask; ``blobs``: those found; ``level``: the cloth's grey level."""
    q = grey.astype(np.float32) / np.maximum(around.astype(np.float32), 1.0)
    taken = [p for b in blobs for p in b.peaks]
    free = np.ones(q.shape, np.uint8)
    for a, b in taken:
        cv2.circle(free, (round(a), round(b)), round(R + 1), 0, -1)
    blurred = cv2.boxFilter(np.where(free > 0, q, np.float32(1.0)), -1, (_DISC_BOX, _DISC_BOX))
    ok = (blurred <= DISC_DARK + _DISC_GATE) & (blurred <= cv2.erode(blurred, NEAR))
    ok &= DEPTH >= R
    h, w = q.shape
    ok[:_DISC_R, :] = ok[h - _DISC_R :, :] = False
    ok[:, :_DISC_R] = ok[:, w - _DISC_R :] = False
    if not ok.any():
        return []
    ys, xs = np.nonzero(ok)
    if taken:  # away from every centre found
        t = np.array(taken, np.float64)
        apart = ((xs[:, None] - t[:, 0]) ** 2 + (ys[:, None] - t[:, 1]) ** 2).min(axis=1)
        ys, xs = ys[apart >= MIN_APART**2], xs[apart >= MIN_APART**2]
    # Every candidate at once (a few dozen), by flat offsets into the crop: the face (what of
    # it no neighbour found overlaps), the ring outside its rim, the face as kinds reads it.
    face_at, ring_at, cloth_at = (dy * w + dx for dy, dx in _DISC_PARTS)
    q_flat, free_flat = q.reshape(-1), free.reshape(-1)
    lit = (q > DISC_BRIGHT).reshape(-1)
    cloth_flat = cloth_like.reshape(-1)
    at = ys * w + xs
    found: list[Blob] = []
    while at.size:
        own = np.take(free_flat, at[:, None] + face_at)
        n_own = own.sum(axis=1)
        face = (np.take(q_flat, at[:, None] + face_at) * own).sum(axis=1) / np.maximum(n_own, 1)
        near = np.flatnonzero((face <= DISC_DARK) & (n_own > 0))  # most fail here: cheap first
        ring = at[near, None] + ring_at
        clear = np.take(free_flat, ring)
        n_clear = clear.sum(axis=1)
        contrast = (np.take(q_flat, ring) * clear).sum(axis=1) / np.maximum(n_clear, 1) - face[near]
        ringed = (np.take(lit, ring) & (clear > 0)).sum(axis=1)
        cloth = np.take(cloth_flat, at[near, None] + cloth_at).mean(axis=1)
        good = (n_clear >= DISC_FREE * len(ring_at)) & (contrast >= DISC_CONTRAST)
        good &= (ringed >= DISC_AROUND * n_clear) & (cloth >= DISC_CLOTH)
        if not good.any():
            break
        best = int(near[np.argmax(np.where(good, contrast, -np.inf))])  # the best contrast first
        y, x = divmod(int(at[best]), w)
        if kind_of(crop, grey, _shade_near(grey, cloth_like, x, y, level), x, y) != "poison":
            at = np.delete(at, best)
            continue
        cv2.circle(free, (x, y), round(R + 1), 0, -1)
        found.append(Blob(round(TOKEN_AREA), [(float(x), float(y))], ["poison"]))
        ay, ax = np.divmod(at, w)
        at = at[(ax - x) ** 2 + (ay - y) ** 2 >= MIN_APART**2]
    return found


def _faced(seen: np.ndarray, taken: list[tuple[float, float]], x: int, y: int) -> bool:
    """True when a core at ``(x, y)`` is a token's: away from every centre ``taken`` and
    ringed by what is not cloth (``seen``) over :data:`MIN_COVER` of a token's face."""
    if any(math.hypot(x - a, y - b) < MIN_APART for a, b in taken):
        return False
    return covered(seen.astype(np.uint8), np.array([y]), np.array([x]))[0] >= MIN_COVER


def _cloth_level(grey: np.ndarray, token: np.ndarray) -> np.ndarray:
    """The table's own brightness round each pixel of ``grey``: its median over a window two
    tokens wide, the tokens found by colour (``token``, and their blurred edges) first filled
    with the mean of the cloth round them (among dark tokens the plain median is dark)."""
    off = cv2.dilate(token.view(np.uint8), NEAR)
    clear = (1 - off).astype(np.float32)
    weight = cv2.boxFilter(clear, -1, (_MEDIAN, _MEDIAN))
    mean = cv2.boxFilter(grey.astype(np.float32) * clear, -1, (_MEDIAN, _MEDIAN))
    fill = np.clip(mean / np.maximum(weight, 1e-3), 0, 255).astype(np.uint8)
    return cv2.medianBlur(np.where(off > 0, fill, grey), _MEDIAN)


HEMMED = 0.5
"""The share of a would-be token's rim (its radius +- 2 px) lying against the tokens found by
colour (and their margins) beyond which what bounds it may be they, not a rim of its own: the
bare cloth between dark tokens on white linen lay 0.55-0.59 against them on development frames
(an Antidote hemmed in, up to 0.64)."""
GAP_FACE = 1.03
"""Such a spot is bare cloth when its face (7x7 median) is no brighter than this against the
cloth round it, the tokens found by colour left out (:func:`_cloth_level`): an Antidote is
whiter than the linen (hemmed-in Antidotes 1.053 or more on development frames, the bare gaps
between tokens 0.996-1.013; against the plain median, which the dark tokens pull down, a gap
stood out by 8% and more)."""


def _bare_gap(grey: np.ndarray, token: np.ndarray, x: float, y: float) -> bool:
    """True when ``(x, y)``, found by its brightness on white linen, is the bare cloth between
    tokens found by colour (``token``): they bound it more than :data:`HEMMED` round, and its
    face is no brighter than the cloth (:data:`GAP_FACE`)."""
    margin = cv2.dilate(token.view(np.uint8), NEAR)
    xi, yi, r = round(x), round(y), _RIM_K.shape[0] // 2
    padded = cv2.copyMakeBorder(margin, r, r, r, r, cv2.BORDER_CONSTANT, value=0)
    window = padded[yi : yi + 2 * r + 1, xi : xi + 2 * r + 1].astype(np.float32)
    if float((window * _RIM_K).sum()) <= HEMMED:
        return False
    level = _cloth_level(grey, token)
    face = grey[max(yi - 3, 0) : yi + 4, max(xi - 3, 0) : xi + 4].astype(np.float32)
    cloth = level[max(yi - 3, 0) : yi + 4, max(xi - 3, 0) : xi + 4].astype(np.float32)
    return median((face / np.maximum(cloth, 1.0)).reshape(-1)) <= GAP_FACE


def _dark_face(grey: np.ndarray, level: np.ndarray, x: float, y: float) -> bool:
    """True when the face round ``(x, y)`` (its 7x7 median) is darker than the table round it
    (``level``, :func:`_cloth_level`) by :data:`STANDS_OUT`."""
    xi, yi = round(x), round(y)
    rows, cols = slice(max(yi - 3, 0), yi + 4), slice(max(xi - 3, 0), xi + 4)
    face = grey[rows, cols].astype(np.float32) / np.maximum(level[rows, cols], 1).astype(np.float32)
    return face.size > 0 and median(face.reshape(-1)) < 1.0 - STANDS_OUT


SHEEN_LEAST = 0.2 * TOKEN_AREA
"""The least area (px) of a sheen that marks a token of the cloth's colour: a lamp's sheen on
a glossy token is a blur about half its radius wide (Wine tokens' sheens on red cloth at
640x480 stood out over 0.27-0.75 of a token's area on development frames); smaller bright
specks are the cloth's weave, sensor noise and what of a white token's halo the margin round
it leaves."""
SHEEN_THICK = 3.5
"""A sheen is a round blur: somewhere this far (px) inside its edge. What of a white token's
blurred halo lies beyond the margin round the tokens found is a thin arc (1.9-2.3 px deep on
development frames at 640x480, Wine tokens' sheens 4.6-8.8)."""
SHEEN_OFF_CLOTH = 0.5
"""The least share of a sheen's pixels the cloth model calls no cloth by their chromaticity:
a sheen adds white (the dichromatic model), moving a token of the cloth's colour towards white,
while cloth, lit or shaded, keeps its chromaticity (a bare gap between dark tokens looks bright
beside them, but is cloth)."""


def _sheens(
    ratio: np.ndarray, odd: np.ndarray, off_cloth: np.ndarray
) -> tuple[list[tuple[float, float]], np.ndarray | None]:
    """The centres of the sheens in ``odd`` (the area's pixels that stand out from the table,
    away from the tokens found by colour): small patches brighter than the table round them
    (``ratio``), mostly off the cloth's chromaticity (``off_cloth``), wholly inside the area
    (a bright thing its circle cuts, a ring's rim or a bowl's highlight beyond, is no token);
    and the bright patches larger than a token (0/1; None when there is none), for their
    outlines to vote on."""
    bright = cv2.morphologyEx((odd & (ratio > 1.0)).astype(np.uint8), cv2.MORPH_OPEN, OPEN)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(bright, connectivity=8)
    if n <= 1:
        return [], None
    large = stats[:, cv2.CC_STAT_AREA] > SHEEN_MOST
    large[0] = False
    lit = large.astype(np.uint8)[labels] if large.any() else None
    depth = cv2.distanceTransform(bright, cv2.DIST_L2, 3)
    out = []
    for i in range(1, n):
        size = int(stats[i, cv2.CC_STAT_AREA])
        extent = max(int(stats[i, cv2.CC_STAT_WIDTH]), int(stats[i, cv2.CC_STAT_HEIGHT]))
        if not SHEEN_LEAST <= size <= SHEEN_MOST or extent > 2 * R + 2:
            continue
        x, y, w, h = (int(v) for v in stats[i, :4])
        box = (slice(y, y + h), slice(x, x + w))
        part = labels[box] == i
        if float(depth[box][part].max()) < SHEEN_THICK or (DEPTH[box][part] < 0).any():
            continue
        if float(off_cloth[box][part].mean()) < SHEEN_OFF_CLOTH:
            continue
        out.append((float(round(centroids[i][0])), float(round(centroids[i][1]))))
    return out, lit


_RIM_K = frame.annulus_kernel(R - 2.0, R + 2.0)
_OUTSIDE_K = frame.annulus_kernel(R + 4.0, R + 7.0)
_FACE_K = frame.annulus_kernel(0.0, 0.6 * R)
BRIGHT_CLOTH = 0.9
"""A cloth whose brightest channel (relit) is this near the view's top leaves a token of its
colour no room to stand out by a sheen: such tokens are looked for by their rims too."""
RIM_DARK = 0.35
"""The least fraction of a token's rim (its radius +- 2 px) darker than the table round it
that makes a token of the cloth's colour: the rim darkens all round, the contact shadow on
the side away from the lamp."""
AROUND_DARK = 0.2
"""The most of the ring just outside (4-7 px beyond the rim) or of the face that may be dark."""


def _rings_of(ratio: np.ndarray, token: np.ndarray, area: np.ndarray) -> list[tuple[float, float]]:
    """Centres (best first) of dark open rings of a token's radius in ``ratio`` (brightness
    over the table's round it) inside ``area``, away from the tokens found by colour
    (``token``): the rims and contact shadows of tokens whose faces do not stand out."""
    dark = (ratio < 1.0 - STANDS_OUT) & (cv2.dilate(token.view(np.uint8), NEAR) == 0)
    dark = dark.astype(np.float32)
    rim = cv2.filter2D(dark, -1, _RIM_K, borderType=cv2.BORDER_CONSTANT)
    ok = (rim >= RIM_DARK) & (rim >= cv2.dilate(rim, OPEN)) & (area > 0)
    if not ok.any():
        return []
    outside = cv2.filter2D(dark, -1, _OUTSIDE_K, borderType=cv2.BORDER_CONSTANT)
    face = cv2.filter2D(dark, -1, _FACE_K, borderType=cv2.BORDER_CONSTANT)
    ok &= (outside <= AROUND_DARK) & (face <= AROUND_DARK)
    ys, xs = np.nonzero(ok)
    order = np.argsort(-rim[ys, xs], kind="stable")
    # One arc, not several: a token's rim and contact shadow darken one unbroken sweep of the
    # circle round it; a bare spot between touching tokens is ringed by their rims in short,
    # separate arcs where each neighbour touches it.
    ys, xs = ys[order], xs[order]
    keep = [i for i in range(len(xs)) if _longest_arc(dark, int(xs[i]), int(ys[i])) >= ARC]
    return spread(xs[keep], ys[keep], MIN_APART)


_SECTORS = 12
_ARC_R = np.arange(-round(R + 2), round(R + 2) + 1)
_ARC_DY, _ARC_DX = (v.reshape(-1) for v in np.meshgrid(_ARC_R, _ARC_R, indexing="ij"))
_ARC_D = np.hypot(_ARC_DX, _ARC_DY)
_ON_ARC = (_ARC_D >= R - 2.0) & (_ARC_D <= R + 2.0)
_ARC_DY, _ARC_DX = _ARC_DY[_ON_ARC], _ARC_DX[_ON_ARC]
_ARC_SECTOR = ((np.arctan2(_ARC_DY, _ARC_DX) + math.pi) / (2 * math.pi) * _SECTORS).astype(
    int
) % _SECTORS
_ARC_SIZE = np.bincount(_ARC_SECTOR, minlength=_SECTORS).astype(np.float32)
ARC = 5
"""The least unbroken run of dark sectors (of :data:`_SECTORS`, 30 degrees each) round a token
of the cloth's colour: the contact shadow alone spans about half the circle."""


def _longest_arc(dark: np.ndarray, x: int, y: int) -> int:
    """The longest run of sectors round ``(x, y)`` whose rim pixels are mostly dark (the
    circle wraps round)."""
    h, w = dark.shape
    py, px = _ARC_DY + y, _ARC_DX + x
    inside = (py >= 0) & (py < h) & (px >= 0) & (px < w)
    hits = np.zeros(len(py), np.float32)
    hits[inside] = dark[py[inside], px[inside]]
    dark_sectors = np.bincount(_ARC_SECTOR, weights=hits, minlength=_SECTORS) / _ARC_SIZE >= 0.5
    if dark_sectors.all():
        return _SECTORS
    run = best = 0
    for d in np.concatenate([dark_sectors, dark_sectors]):
        run = run + 1 if d else 0
        best = max(best, run)
    return min(best, _SECTORS)


def area_blobs(
    normalised: np.ndarray,
    cx: float,
    cy: float,
    cloth: Cloth | None = None,
    refs: _ClothRefs | None = None,
) -> list[Blob] | None:
    """The blobs of tokens in the reveal area centred at ``(cx, cy)``, each with its token
    centres and their kinds; None when something neither cloth nor token covers the area
    (:mod:`vision.cover`; :data:`vision.area.BORDER`, :data:`SATURATED`)."""
    cloth = cloth or Cloth(np.array(palette.CLOTH[::-1], np.float32))
    refs = refs or _ClothRefs.of(cloth)
    x0, y0 = round(cx) - HALF, round(cy) - HALF
    crop = normalised[y0 : y0 + 2 * HALF + 1, x0 : x0 + 2 * HALF + 1]
    # Darker than 0.4 of the cloth is no shadow here (a goblet's takes at most 0.6 of the
    # light) but may be a Poison token's blurred edge.
    bare, loose, tight, lit = cloth.masks(
        crop,
        [
            (0.4, 1.22, 1.0),
            (0.3, 1.22, CLOTH_LOOSER),
            (0.4, 1.22, SHADOW_CHROMA),
            (0.4, BAND_BRIGHTEST, 1.0),
        ],
    )
    table = TABLE[y0 : y0 + 2 * HALF + 1, x0 : x0 + 2 * HALF + 1]
    area = DISC & table
    band = cv2.morphologyEx((~lit & (BAND & table > 0)).astype(np.uint8), cv2.MORPH_OPEN, OPEN)
    band = crossing(band)
    ux, uy = cx - layout.CENTRE[0], cy - layout.CENTRE[1]
    outer = (GX * ux + GY * uy) > 0
    inner_count = int(band[~outer].sum())
    lost = cv2.inRange(crop, (SATURATED,) * 3, (SATURATED,) * 3) > 0
    glare = int((lost & (area > 0)).sum()) >= COVER_GLARE or int((lost & (band > 0)).sum()) > 0
    if glare:
        return None
    # The band's outer half: a hand or a goblet set down over the edge covers it, and so does
    # the margin of a token lying at the edge, judged once the tokens are found (below).
    border = band & outer
    # Towards the table's centre a goblet's bowl, standing above the table, leans over the
    # band on a tilted camera: it hides the area only where it reaches into it. What reaches
    # in from the band no deeper than :data:`INTRUDES` (a bowl's edge) is no token; deeper, it
    # is a token at the edge touching the band; where the inner band is that covered (a hand
    # reaching in, or a bowl and the tokens against it), only if tokens found explain it all.
    occluder = np.zeros(bare.shape, bool)
    deep_in = occluder
    covered_in = False
    if band.any():
        reaching = reaching_in(~bare & table.astype(bool), band & ~outer)
        inside = reaching & INSIDE
        deep = bool(inside.any()) and float(DEPTH[inside].max()) > INTRUDES
        if not deep:
            occluder = reaching
        else:
            deep_in = reaching
            covered_in = inner_count >= COVER_INNER
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab)
    by_chroma = chromatic(crop)
    classes, token_distance = classify(lab, by_chroma)
    # 1. What is token. Cloth, lit or shaded: by the cloth model's chromaticity, or nearer to
    # the cloth at some shade than to any token colour.
    colourless = (np.abs(lab[..., 1].astype(np.int16) - 128) < 14) & (
        np.abs(lab[..., 2].astype(np.int16) - 128) < 14
    )
    # A colourless pixel is cloth only where the cloth is colourless too: a sheened Poison
    # token on green felt is as dark as the felt in shadow, but grey.
    # A pixel of a token's chroma is cloth only where the cloth is of that chroma too: a
    # sheen lightens a Wine token to the pink of no cloth, nearer in Lab to grey cloth under a
    # lamp than to any token colour, but as red as Wine (vision/kinds.py).
    # Only a vivid one: a token's blurred edge mixes its colour with the cloth's, and is cloth.
    b, g, r = cv2.split(crop)
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    vivid = (by_chroma != NO_KIND) & (by_chroma != refs.chroma)
    vivid &= spread >= VIVID
    cloth_like = bare | (_nearer_cloth(lab, token_distance, refs) & ~(colourless & ~loose) & ~vivid)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    if untextured(grey, cloth_like, table):
        return None
    # A lamp's sheen greys a Poison token to the colour of the cloth in shadow; but a shadow
    # on the table is broad (a goblet's, a hand's), a token small: what is much darker than the
    # table round it at a token's scale, and colourless, is a sheened Poison token.
    # The table's own level round each pixel: dark things no wider than a token or two closed
    # over; what is brighter than the lit cloth (a white token, a marker's paper) clipped
    # first, or the cloth between two white things would look dark.
    level = refs.level
    capped = np.minimum(grey, np.uint8(min(round(1.1 * level), 255)))
    around = cv2.morphologyEx(capped, cv2.MORPH_CLOSE, _AROUND)
    small_dark = grey.astype(np.float32) < SHEEN_DARK * around.astype(np.float32)
    sheened = cloth_like & small_dark & colourless
    token = (~cloth_like | sheened) & (area > 0) & ~occluder
    near = refs.near
    hidden = np.zeros_like(token)
    if near:  # a token the cloth's colour shows by its colour only in scraps: not trusted
        of_cloth = np.zeros_like(token)
        for kind in near:  # one or two kinds: a comparison each (np.isin sorts)
            of_cloth |= classes == KINDS.index(kind)
        hidden = token & of_cloth
        token &= ~hidden
    classes = np.where(token, classes, _NOT_TOKEN).astype(np.uint8)
    classes[sheened] = _POISON
    _sheen_to_token(classes)
    # 2. Where the tokens are (by their rims), 4. those of the cloth's colour, 3. their kinds.
    blobs, labels = find_blobs(token.astype(np.uint8), classes)
    # Centres beyond :data:`EDGE_CENTRE` are no tokens (below): they explain no scraps of the
    # cloth's colour either (a goblet's shadow reaching in on white linen is no Antidote's).
    within = [
        Blob(b.area, [p for p in b.peaks if math.hypot(p[0] - HALF, p[1] - HALF) <= EDGE_CENTRE])
        for b in blobs
    ]
    blobs += _cloth_coloured(grey, token, hidden, area, near, within, refs.bright, ~bare)
    if not near or near[0] != "antidote":  # on white linen its own weave is named Antidote
        blobs += _ringed_cores(labels, blobs, token | hidden, sheened)
    # Poisons a sheen greyed past the colour paths, by their shape (a dark disc).
    blobs += _dark_discs(crop, grey, around, cloth_like, blobs, level)
    # A centre further out than a token in the area can lie is something the area's edge cuts
    # (a goblet's shadow reaching in): no token, if the cloth goes on beyond the edge there; a
    # token rolled over the edge (not cloth beyond it) cannot be counted.
    beyond = ~bare & IN_BAND & (table > 0)
    out = []
    blobs_peaks = {blob.label: blob.peaks for blob in blobs}
    for blob in blobs:
        inside = []
        for x, y in blob.peaks:
            if math.hypot(x - HALF, y - HALF) <= EDGE_CENTRE:
                inside.append((x, y))
            elif straddles(beyond, x, y):
                return None
        if blob.kinds:  # a token of the cloth's colour, found by its rim (or by its scraps)
            if inside or not blob.peaks:
                out.append(Blob(blob.area, [(x + x0, y + y0) for x, y in inside], blob.kinds))
            continue
        # A goblet's shadow cut short (its end, its edge) votes like a rim: a centre whose face
        # looks like the cloth in shadow, in a blob its centres explain little of (a shadow is
        # broad), is no token.
        shades = []
        for x, y in inside:
            xi, yi = round(x), round(y)
            shade = _shade_near(grey, cloth_like, xi, yi, level)
            shades.append((xi, yi, shade, shadow_face(tight, grey, shade, level, xi, yi)))
        least = math.inf  # the least face of shadow that makes a centre no token in this blob
        if any(s[3] >= SHADOW_FACE_BROAD for s in shades):
            explained = _explained(labels == blob.label, blob.peaks)
            if explained < SHADOW_BROAD:
                least = SHADOW_FACE_BROAD
            elif explained < SHADOW_EXPLAINED:
                least = SHADOW_FACE
        kinds, peaks = [], []
        for (x, y), (xi, yi, shade, shadowy) in zip(inside, shades, strict=True):
            if shadowy >= least:
                continue
            kinds.append(kind_of(crop, grey, shade, xi, yi))
            peaks.append((x + x0, y + y0))
        # Every centre found explains its pixels, those at the edge too (a shadow's are no token).
        extra = _unexplained((labels == blob.label) & ~sheened, blob.peaks, classes)
        out.append(Blob(blob.area, peaks, kinds, blob.label, extra))
    # What reaches in deep from the inner band is a token touching it only if a token's rim
    # shows there: a piece of it no centre explains, joined to the band, is a bowl or its
    # shadow, and may hide one (a token hemmed in by its kind deeper in is counted).
    if deep_in.any() and any(
        b.unexplained
        and (deep_in & (labels == b.label)).any()
        and unexplained_at_edge(
            (labels == b.label) & ~sheened, blobs_peaks[b.label], (band > 0) & ~outer
        )
        for b in out
    ):
        return None
    centres = [p for b in blobs for p in b.peaks]
    if covered_in and reaches_beyond(deep_in, centres):
        return None
    if cover_unexplained(border, centres) >= COVER_BORDER:
        return None
    # Saturated pixels no token explains may be tokens the camera lost, unless the cloth itself
    # clips round the area (a lamp's hot spot on white linen): then they are its own weave.
    clips = float(lost[IN_BAND & (table > 0)].mean()) >= CLOTH_CLIPS
    if not clips:
        # On a cloth as light as an Antidote (white linen) an Antidote shows no colour and no
        # brightness of its own: touching a dark token, its rim is lost in that token's margin
        # too, and all that shows of it under a lamp is its sheen, clipped by the camera. The
        # cloth is that light when the Antidote's colour is nearest its own (``near``), clipping
        # or not: a cream linen relit just under :data:`BRIGHT_CLOTH` hid a sheened Antidote too.
        lit_as_antidote = bool(near) and near[0] == "antidote"
        sheens = lost_sheens(lost & (area > 0), centres) if lit_as_antidote else None
        if sheens:
            out += [Blob(round(TOKEN_AREA), [(x + x0, y + y0)], [near[0]]) for x, y in sheens]
        elif sheens is None and lost_unexplained(lost & (area > 0), centres):
            return None
    return out


def count_tokens(
    normalised: np.ndarray, seats: int, cloth: Cloth | None = None
) -> dict[int, dict[str, int] | None]:
    """Every seat's revealed tokens: seat -> {kind: count} (every kind, zeros included), or
    None for an area not seen (a hand, glare or a goblet over it: counting would misread)."""
    table = TableLayout(seats)
    cloth = cloth or Cloth(np.array(palette.CLOTH[::-1], np.float32))
    refs = _ClothRefs.of(cloth)
    found = {s: area_blobs(normalised, *table.reveal_centre(s), cloth, refs) for s in range(seats)}
    counts: dict[int, dict[str, int] | None] = {}
    for seat, blobs in found.items():
        if blobs is None:
            counts[seat] = None
            continue
        per = {kind: 0 for kind in KINDS}
        for blob in blobs:
            for kind in blob.kinds:
                per[kind] += 1
            for kind in blob.unexplained:
                per[kind] += 1
        counts[seat] = per
    return counts
