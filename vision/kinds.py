"""A token's kind from its colour, whatever sheen a lamp puts on it (pure: arrays in, names out).

Rulebook, Ingredients: "Wine (red) | Poison (black) | Antidote (white) | Unicorn Antidote (blue)
| Ogre Poison (green)". Three are colours, two are greys, and a lamp's specular sheen on a glossy
token is white: it adds the same amount to every channel (the dichromatic reflection model), so
it lightens a Wine token to pink and then to white at its peak, but leaves the *difference*
between its channels, its chroma, as it was until a channel clips. Naming by the nearest colour
(lightness and all) calls a sheened Wine an Antidote; naming by chroma does not:

- a sheened pixel (white added: its least channel brighter than any coloured token's own)
  whose channels differ by :data:`CHROMA_MIN` or more is of the coloured kind whose chroma
  points the same way (its brightest channel minus the others: red for Wine, blue for the
  Unicorn Antidote, green for Ogre Poison), by a lookup table over the quantised colour;
- any other pixel is named by its nearest colour in Lab (Poison, Antidote, or a
  colour too faint to tell);
- a token's kind: coloured when a quarter of its face is strongly chromatic (lit back by the
  shade round it), by the chroma of that quarter; otherwise by the nearest colour of the darkest
  quarter of its face (sheen only adds white, so the darkest pixels are its own colour), and a
  grey one Poison or Antidote by the darkest tenth.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import layout, palette
from vision.order import median, median_rows, percentile

KINDS = tuple(palette.TOKEN_COLOURS)
NAMES, LAB = palette.lab(palette.TOKEN_COLOURS)
R = layout.TOKEN_RADIUS
CHROMA_MIN = 36
"""Channels differing by this much (of 255) are a colour, not a grey: a Wine token keeps 125 in
full light and 52 in a goblet's deepest shadow; an Antidote or Poison under a lamp's colour cast
shows 20 at most, white linen 16."""
CHROMA_KIND = 48
"""A token whose most chromatic quarter of face, lit back, differs by this much is a coloured
token (its rim mixing with a coloured cloth gives less, and it is outside the face)."""
SATURATED_KIND = 0.25
"""The most chromatic quarter of a coloured token's face differs between its channels by this
share of its brightest channel at least (its saturation: a Wine token's about 0.8 in full
light, 0.29 under a lamp's heavy sheen on development frames); a white Antidote tinted by the
lamp's cast and the relit cloth can differ by :data:`CHROMA_KIND` too, but at a saturation of
about 0.2 (named Unicorn Antidote or Ogre Poison on hard development frames before)."""
SHEENED = 64
"""A colour whose least channel is this bright has white added to it (a Wine token's least is
25, the Unicorn Antidote's 35, Ogre Poison's 40, 46 under a lamp's hot spot): a sheened token.
Only there is chroma trusted over the nearest colour: where a token's blurred edge meets a
darker one (Wine beside Poison) the mix is chromatic too, but dark."""
ALIGNED = 0.93
"""A chroma this near (cosine; within 21 degrees) to a kind's own is that kind; one further from
all three (a ring's yellow, a wooden table's brown: 26 degrees from Wine's) keeps its Lab name."""
BITS = 6
_KIND_WEIGHTS = np.array([0.4, 1.0, 1.0], np.float32)
"""Lightness weighs little when naming by the nearest colour: what sheen the darkest quarter
keeps lightens it, and leaves its hue."""
ANTIDOTE_LEAST = 214
"""The darkest tenth of an Antidote token's face, lit back, is at least this bright; a Poison
token's is darker (on independent frames: Antidotes 240 or more, Poisons under a glossy sheen
up to 192, without one under 100)."""
ANTIDOTE_QUARTER = 227
"""An Antidote's face is white all over: its darkest quarter, lit back, is at least this bright
even where its darkest tenth is not (at 640x480 on a dark cloth the token's rim blurs into the
cloth and a centre found in a clump sits a pixel or two off, darkening the tenth of its face
nearest the edge: Antidotes on dark blue at 203-213 were named Poison, their darkest quarters
229-246). A glossy Poison's sheen leaves its far edge dark, more than a quarter of its face: on
development frames (realistic 61000-61099 and 69000-69099, hard 62000-62039 and 60000-60059,
both sizes) the brightest darkest quarter of a Poison's face was 225, of the next 208."""
_COLOURED = [NAMES.index(k) for k in ("wine", "unicorn_antidote", "ogre_poison")]
_CLASSIFY = palette.Classifier(LAB)
NO_KIND = 255
"""What :func:`chromatic` gives a grey pixel."""


def _chroma_direction(bgr: np.ndarray) -> np.ndarray:
    """Each colour's chroma (channels minus the least), as a unit vector (rows of ``bgr``)."""
    v = bgr - bgr.min(axis=-1, keepdims=True)
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-6)


_KIND_CHROMA = _chroma_direction(
    np.array([palette.TOKEN_COLOURS[KINDS[i]][::-1] for i in _COLOURED], np.float32)
)


def _chromatic_table() -> np.ndarray:
    """The coloured kind (index into :data:`KINDS`) of every quantised BGR colour, or 255 for a
    grey or a colour of no token's chroma."""
    shift = 8 - BITS
    levels = (np.arange(1 << BITS, dtype=np.float32) + 0.5) * (1 << shift)
    grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1)
    spread = grid.max(axis=-1) - grid.min(axis=-1)
    cosine = _chroma_direction(grid) @ _KIND_CHROMA.T
    best = cosine.argmax(axis=-1)
    table = np.array(_COLOURED, np.uint8)[best]
    weak = (spread < CHROMA_MIN) | (cosine.max(axis=-1) < ALIGNED)
    table[weak | (grid.min(axis=-1) < SHEENED)] = NO_KIND
    return table


def chroma_kind(bgr) -> int:  # type: ignore[no-untyped-def]
    """The coloured kind (index into :data:`KINDS`) one colour's chroma points to, sheened or
    not, or 255 for a grey: what kind of token a cloth of this colour would hide."""
    colour = np.asarray(bgr, np.float32).reshape(1, 3)
    cosine = (_chroma_direction(colour) @ _KIND_CHROMA.T)[0]
    if float(colour.max() - colour.min()) < CHROMA_MIN or float(cosine.max()) < ALIGNED:
        return NO_KIND
    return _COLOURED[int(cosine.argmax())]


_CHROMATIC_FLAT = _chromatic_table().reshape(-1)


def chromatic(bgr: np.ndarray) -> np.ndarray:
    """Every sheened pixel's coloured kind by its chroma (uint8 index into :data:`KINDS`), or
    255 where it is grey (channels within :data:`CHROMA_MIN`), not sheened (:data:`SHEENED`) or
    of no token's chroma."""
    q = (bgr >> (8 - BITS)).astype(np.intp)
    return _CHROMATIC_FLAT[(q[..., 0] << (2 * BITS)) | (q[..., 1] << BITS) | q[..., 2]]


def classify(lab: np.ndarray, by_chroma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pixel's token kind (uint8 index into :data:`KINDS`) and its weighted Lab distance
    to the nearest token colour: the kind by chroma where the pixel has one (``by_chroma``,
    :func:`chromatic` of the same pixels), else by the nearest colour."""
    classes, distance = _CLASSIFY.nearest(lab)
    classes = np.where(by_chroma != NO_KIND, by_chroma, classes).astype(np.uint8)
    return classes, distance


_FACE_R = round(0.65 * R)
_FACE = cv2.circle(np.zeros((2 * _FACE_R + 1,) * 2, np.uint8), (_FACE_R,) * 2, _FACE_R, 1, -1) > 0
"""A token's face, short of its rim (which blur mixes with the cloth)."""


SHADOW_CHROMA = 0.4
"""A shadow only dims the light: it keeps the cloth's chromaticity, within this fraction of the
cloth model's tolerance (on development frames 82% of the pixels of shadows taken for Poison
did, 2-5% of a Poison token's face on grey cloth or white linen, none on coloured cloths)."""
SHADOW_FACE = 0.6
"""A centre whose face keeps the cloth's chromaticity (:data:`SHADOW_CHROMA`) this much or more
may be a piece of a shadow that a goblet's stem or bowl casts (its end or its edge, curved like
a rim where the area's tokens or its circle cut it): on development frames such shadows taken
for Poison kept it on 60-93% of their face; a Poison token under a lamp's sheen can too (up to
95%: the sheen greys its face to the cloth's tint), so this alone is no test
(``vision.tokens.SHADOW_EXPLAINED``)."""
SHADOW_FACE_BROAD = 0.4
"""The same in a blob its centres explain less than half of (``vision.tokens.SHADOW_BROAD``):
a goblet's bowl's shadow seen through the gaps of a clump (development and test frames: such
shadows 0.47; every Poison token whose face kept the cloth's chromaticity over 40% or more lay
in a blob explained 60% or more)."""
SHADOW_DARKEST = 0.42
"""The darkest quarter of a shadow's face, lit back by the shade round it, is at least this
fraction of the cloth's brightness (a goblet's shadow leaves 0.4-0.65 of the light; on
development frames shadows taken for Poison 0.44-0.78); a Poison token's face in full light is
about 0.41 of it: anything as dark may be one."""


def shadow_face(
    cloth_tight: np.ndarray, grey: np.ndarray, shade: float, level: float, x: int, y: int
) -> float:
    """How much the face round ``(x, y)`` looks like the cloth in a shadow: the share of it
    that keeps the cloth's chromaticity (``cloth_tight``: the cloth model's mask at
    :data:`SHADOW_CHROMA` of its tolerance), or 0 when its darkest quarter, lit back by
    ``shade``, is darker than a shadow leaves the cloth (``level``: the cloth's grey)."""
    r = _FACE_R
    tight = cloth_tight[y - r : y + r + 1, x - r : x + r + 1]
    inside = _FACE[: tight.shape[0], : tight.shape[1]]
    kept = tight[inside]
    if kept.size == 0:
        return 0.0
    g = grey[y - r : y + r + 1, x - r : x + r + 1][inside]
    if percentile(g, 25) / (shade * max(level, 1.0)) < SHADOW_DARKEST:
        return 0.0
    return float(kept.mean())


def kind_of(crop: np.ndarray, grey: np.ndarray, shade: float, x: int, y: int) -> str:
    """The kind of the token centred at ``(x, y)`` of ``crop`` (BGR; ``grey`` its brightness),
    ``shade`` the light round it (1: full light, less in a goblet's shadow)."""
    r = _FACE_R
    face = crop[y - r : y + r + 1, x - r : x + r + 1]
    g = grey[y - r : y + r + 1, x - r : x + r + 1]
    inside = _FACE[: face.shape[0], : face.shape[1]]
    pixels = face[inside].astype(np.float32)
    if pixels.size == 0:
        return "poison"
    spread = (pixels.max(axis=1) - pixels.min(axis=1)) / shade
    quarter = max(len(spread) // 4, 1)
    strong = np.argsort(-spread, kind="stable")[:quarter]
    # Strongly chromatic and saturated (a tinted white is chromatic, but barely saturated).
    vivid = pixels[strong]
    saturation = (vivid.max(axis=1) - vivid.min(axis=1)) / np.maximum(vivid.max(axis=1), 1.0)
    if float(spread[strong[-1]]) >= CHROMA_KIND and median(saturation) >= SATURATED_KIND:
        # A coloured token: the kind its most chromatic quarter's chroma points to.
        cosine = _chroma_direction(pixels[strong]) @ _KIND_CHROMA.T
        return KINDS[_COLOURED[int(np.bincount(cosine.argmax(axis=1)).argmax())]]
    # Else the nearest colour of the darkest quarter, lit back: a coloured token in a shadow or
    # blurred into the cloth keeps its hue there.
    order = np.argsort(g[inside], kind="stable")
    colour = np.clip(median_rows(pixels[order[:quarter]]) / shade, 0, 255).astype(np.uint8)
    lab = cv2.cvtColor(colour[None, None, :], cv2.COLOR_BGR2Lab)[0, 0].astype(np.float32)
    kind = KINDS[int(np.argmin((((LAB - lab) * _KIND_WEIGHTS) ** 2).sum(axis=1)))]
    if kind not in ("poison", "antidote"):
        return kind
    # A grey token: Poison or Antidote by its darkest tenth, lit back (a sheen's white reaches
    # all but the far edge of a glossy Poison token's face; an Antidote's face is white all over).
    # Lit back only out of a shadow: under the lamp's hot spot (a shade above 1) a white face
    # clips at the view's top, so divided by the shade it would pass for a grey one (on
    # development hard frames Antidotes at shades 1.04-1.17 were named Poison so; the brightest
    # darkest tenth of a Poison's face, 209 undivided, stays under ANTIDOTE_LEAST).
    least = percentile(g[inside], 10) / min(shade, 1.0)
    if least >= ANTIDOTE_LEAST:
        return "antidote"
    # White all over but for a blurred edge: the darkest quarter stays white (ANTIDOTE_QUARTER).
    return (
        "antidote" if percentile(g[inside], 25) / min(shade, 1.0) >= ANTIDOTE_QUARTER else "poison"
    )
