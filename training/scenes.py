"""The token reader's teacher: random overhead frames of a table, wider than any one table.

The token reader (:mod:`vision.tokennet`) is a small network, and a network learns what it is
shown. It is shown frames from this renderer, which shares no drawing code with the detector, the
camera's virtual twin (:mod:`vision.render`) or the judge it is measured by
(``tests/vision/independent``): only the conventions of ``vision/README.md`` (the canonical
table, seats, reveal areas, markers, token colours and size). Every draw is wider than a real
table needs, so that the judge's frames (and a real camera's) fall inside what was shown
(domain randomisation): any cloth colour with weave, mottle, stripes or wood grain; a lamp at
any height with broad light, hot spots, sharp glare and goblet, stem and hand shadows; tokens
of every kind with their colour spread, rims, contact shadows and specular sheen from none to
clipped; goblets' bowls seen leaning over an area from a tilted camera, hands and cards
over it (what covers an area is drawn into a mask, the reader learns to say so); a pinhole camera
tilted up to 30 degrees, at six frame sizes, with vignetting, colour cast, exposure, defocus,
sensor noise and JPEG.

Pure: numpy and OpenCV, every draw from the ``Generator`` handed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import layout, palette
from vision.layout import TableLayout

KINDS = tuple(palette.TOKEN_COLOURS)
"""Token kinds in the reader's channel order."""
ORIGIN = -160
"""The plane drawn covers canonical pixels [ORIGIN, SIZE - ORIGIN) on both axes."""
PLANE = layout.SIZE - 2 * ORIGIN
R = layout.TOKEN_RADIUS
SIZES = ((640, 480), (640, 480), (1280, 720), (1280, 720), (800, 600), (960, 540), (1024, 768))
"""Frame sizes drawn (the two the bar names twice as often)."""


@dataclass
class Scene:
    """One rendered frame's truth: ``tokens`` seat -> [(kind, x, y)] (canonical), ``cover``
    the canonical view's pixels something that is neither cloth nor token hides (0-1, the
    plane's size, offset by :data:`ORIGIN`), ``homography`` frame -> canonical."""

    seats: int
    tokens: dict[int, list[tuple[str, float, float]]]
    cover: np.ndarray
    homography: np.ndarray
    size: tuple[int, int]


def _rgb(colour) -> np.ndarray:
    return np.asarray(colour, np.float32) / 255.0


def _smooth_noise(rng, shape, cell: float) -> np.ndarray:
    """Zero-mean noise of unit spread varying over about ``cell`` pixels."""
    h, w = shape
    small = rng.normal(0, 1, (max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)))
    out = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return out / max(float(out.std()), 1e-6)


FAMILIES = ("any", "pale", "wood", "felt", "dark", "grey", "token")
"""The kinds of table top drawn, with these odds (:data:`STRESS_ODDS` in a stress set)."""
ODDS = (0.22, 0.18, 0.15, 0.12, 0.08, 0.1, 0.15)
STRESS_ODDS = (0.15, 0.4, 0.1, 0.05, 0.05, 0.05, 0.2)


def _cloth(rng, stress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A table top's albedo over the plane (RGB 0-1) and its base colour."""
    family = rng.choice(list(FAMILIES), p=list(STRESS_ODDS if stress else ODDS))
    if family == "token":  # a cloth of a token's own colour: the token shows by its rim only
        kind = KINDS[rng.integers(len(KINDS))]
        rgb = _rgb(palette.TOKEN_COLOURS[kind]) * rng.uniform(0.85, 1.12, 3)
        pixel = np.clip(rgb, 0, 1).astype(np.float32).reshape(1, 1, 3)
        hsv = cv2.cvtColor(pixel, cv2.COLOR_RGB2HSV)[0, 0]
        hsv = (hsv[0] / 2, hsv[1], hsv[2])  # OpenCV's float hue is 0-360
    elif family == "pale":
        hsv = (rng.uniform(0, 180), rng.uniform(0, 0.15), rng.uniform(0.78, 0.97))
    elif family == "wood":
        hsv = (rng.uniform(8, 30), rng.uniform(0.35, 0.75), rng.uniform(0.3, 0.75))
    elif family == "felt":
        hsv = (
            rng.choice([60, 110, 0, 170, 20]) + rng.uniform(-12, 12),
            rng.uniform(0.45, 0.9),
            rng.uniform(0.2, 0.65),
        )
    elif family == "dark":
        hsv = (rng.uniform(0, 180), rng.uniform(0, 0.7), rng.uniform(0.1, 0.28))
    elif family == "grey":
        hsv = (rng.uniform(0, 180), rng.uniform(0, 0.12), rng.uniform(0.3, 0.7))
    else:
        hsv = (rng.uniform(0, 180), rng.uniform(0, 0.9), rng.uniform(0.15, 0.9))
    h = np.array([[[hsv[0] % 180, hsv[1] * 255, hsv[2] * 255]]], np.float32)
    base = cv2.cvtColor(h.astype(np.uint8), cv2.COLOR_HSV2RGB)[0, 0].astype(np.float32) / 255
    base = np.clip(base, 0.03, 1.0)
    n = PLANE
    tex = np.ones((n, n), np.float32)
    tex += rng.uniform(0, 0.05) * rng.normal(0, 1, (n, n)).astype(np.float32)  # weave
    tex += rng.uniform(0, 0.08) * _smooth_noise(rng, (n, n), rng.uniform(20, 120))  # mottle
    if family == "wood" or rng.random() < 0.08:  # grain (or a striped cloth)
        ang = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        warp = 14 * _smooth_noise(rng, (n, n), rng.uniform(40, 200))
        period = rng.uniform(5, 40)
        grain = np.sin(2 * math.pi * (u + warp) / period)
        tex += rng.uniform(0.04, 0.3) * grain * (0.5 + 0.5 * _smooth_noise(rng, (n, n), 60))
    albedo = base[None, None, :] * tex[..., None]
    if rng.random() < 0.5:  # a slight tint that wanders
        albedo *= 1 + 0.03 * _smooth_noise(rng, (n, n), 150)[..., None] * rng.normal(0, 1, 3)
    return np.clip(albedo, 0, 1).astype(np.float32), base


def _disc_patch(x: float, y: float, reach: float):
    """The plane's slice round canonical ``(x, y)`` and each pixel's offsets from it."""
    px, py = x - ORIGIN, y - ORIGIN
    x0, x1 = max(int(px - reach), 0), min(int(px + reach) + 2, PLANE)
    y0, y1 = max(int(py - reach), 0), min(int(py + reach) + 2, PLANE)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    return (slice(y0, y1), slice(x0, x1)), xx - px, yy - py


def _edge(d: np.ndarray, radius: float, soft: float = 0.7) -> np.ndarray:
    """Anti-aliased inside of a circle: 1 inside ``radius``, 0 outside, over ``soft`` px."""
    return np.clip((radius - d) / soft + 0.5, 0, 1)


def _markers(albedo: np.ndarray, rng) -> None:
    """The four ArUco markers on white paper, as calibrated tables have them."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    paper = np.clip(rng.uniform(0.84, 0.96) * (1 + rng.normal(0, 0.02, 3)), 0, 1)
    for m in layout.MARKER_IDS:
        side = int(layout.MARKER_SIZE)
        tile = cv2.aruco.generateImageMarker(dictionary, m, side).astype(np.float32) / 255
        tile = cv2.copyMakeBorder(tile, 6, 6, 6, 6, cv2.BORDER_CONSTANT, value=1.0)
        tile = cv2.GaussianBlur(tile, (0, 0), 0.5)
        angle = layout.marker_angle(m) + rng.normal(0, 0.08)
        rot = cv2.getRotationMatrix2D(
            (tile.shape[1] / 2, tile.shape[0] / 2), math.degrees(angle), 1.0
        )
        big = int(tile.shape[0] * 1.5)
        rot[:, 2] += (big - tile.shape[0]) / 2
        inside = cv2.warpAffine(np.ones_like(tile), rot, (big, big))
        tile = cv2.warpAffine(tile, rot, (big, big))
        mx, my = layout.marker_centre(m)
        x0, y0 = round(mx - ORIGIN - big / 2), round(my - ORIGIN - big / 2)
        region = albedo[y0 : y0 + big, x0 : x0 + big]
        ink = paper * tile[..., None] + 0.06 * (1 - tile[..., None])
        region[...] = region * (1 - inside[..., None]) + ink * inside[..., None]


def _token(albedo, spec, shade, kind: str, x: float, y: float, lamp2d, rng, gloss: float):
    """One token lying flat: colour, rim, a dome's shading, contact shadow, specular sheen."""
    radius = R * rng.uniform(0.93, 1.07)
    sl, dx, dy = _disc_patch(x, y, radius + 5)
    d = np.hypot(dx, dy)
    colour = _rgb(palette.TOKEN_COLOURS[kind]) * rng.uniform(0.82, 1.18, 3)
    if kind == "antidote":
        colour = np.minimum(colour, rng.uniform(0.86, 1.0))
    cover = _edge(d, radius)
    # Contact shadow on the cloth round it, away from the lamp.
    ox, oy = -lamp2d * rng.uniform(0.3, 2.5)
    contact = _edge(np.hypot(dx - ox, dy - oy), radius + rng.uniform(0.5, 2.5), 2.0)
    shade[sl] *= 1 - rng.uniform(0.05, 0.4) * contact * (1 - cover)
    rim_w = rng.uniform(0.8, 3.0)
    rim = np.clip((d - (radius - rim_w)) / rim_w, 0, 1)
    tilt = 1 + rng.uniform(0, 0.15) * (dx * lamp2d[0] + dy * lamp2d[1]) / radius
    face = colour * (tilt * (1 - rng.uniform(0.0, 0.45) * rim))[..., None]
    albedo[sl] = albedo[sl] * (1 - cover[..., None]) + np.clip(face, 0, 1) * cover[..., None]
    if gloss > 0:
        off = rng.uniform(0.0, 0.55) * radius
        sx, sy = lamp2d * off + rng.normal(0, 0.1 * radius, 2)
        size = radius * rng.uniform(0.18, 0.8)
        blob = np.exp(-((dx - sx) ** 2 + (dy - sy) ** 2) / (2 * size * size))
        spec[sl] = np.maximum(spec[sl], gloss * rng.uniform(0.4, 1.0) * blob * cover)


def _place(rng, cx: float, cy: float, kinds: list[str]) -> list[tuple[str, float, float]]:
    """Token centres in the area round ``(cx, cy)``: in clumps, overlapping by at most 12%."""
    placed: list[tuple[str, float, float]] = []
    reach = layout.REVEAL_RADIUS - R * rng.uniform(0.95, 1.25)
    for kind in kinds:
        for _ in range(300):
            if placed and rng.random() < 0.75:
                _k, px, py = placed[rng.integers(len(placed))]
                a = rng.uniform(0, 2 * math.pi)
                dist = 2 * R * rng.uniform(0.88, 1.1)
                x, y = px + dist * math.cos(a), py + dist * math.sin(a)
            else:
                a, rad = rng.uniform(0, 2 * math.pi), reach * math.sqrt(rng.random())
                x, y = cx + rad * math.cos(a), cy + rad * math.sin(a)
            if math.hypot(x - cx, y - cy) > reach:
                continue
            if any(
                math.dist((x, y), layout.marker_centre(m)) < layout.MARKER_KEEP_OUT + R
                for m in layout.MARKER_IDS
            ):
                continue
            if all(math.hypot(x - a, y - b) >= 1.76 * R for _k, a, b in placed):
                placed.append((kind, float(x), float(y)))
                break
    return placed


def _kinds(rng, specials: dict[str, int], seat: int) -> list[str]:
    n = int(rng.choice(11, p=[0.1, 0.1, 0.12, 0.12, 0.12, 0.11, 0.1, 0.09, 0.06, 0.05, 0.03]))
    kinds = list(rng.choice(["wine", "poison", "antidote"], n, p=rng.dirichlet([2, 2, 2])))
    kinds += [k for k, s in specials.items() if s == seat]
    rng.shuffle(kinds)
    return [str(k) for k in kinds]


def _fill_poly(mask: np.ndarray, points: np.ndarray, value: float = 1.0) -> None:
    pts = ((np.asarray(points) - ORIGIN) * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, cv2.convexHull(pts), value, cv2.LINE_AA, 4)


def _capsule(a, b, width: float, n: int = 12) -> np.ndarray:
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    d /= np.linalg.norm(d) + 1e-9
    nrm = np.array([-d[1], d[0]])
    pts = []
    for end, sign in ((a, -1), (b, 1)):
        for t in np.linspace(-math.pi / 2, math.pi / 2, n):
            pts.append(end + width / 2 * (math.cos(t) * sign * d + math.sin(t) * nrm * sign))
    return np.array(pts)


def _ellipse(cx, cy, a, b, ang, n=24) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    u, v = a * np.cos(t), b * np.sin(t)
    return np.stack(
        [cx + u * math.cos(ang) - v * math.sin(ang), cy + u * math.sin(ang) + v * math.cos(ang)],
        axis=1,
    )


def _hand(rng, cx: float, cy: float, outward: np.ndarray) -> list[np.ndarray]:
    """A hand (palm, fingers, thumb) near ``(cx, cy)`` with its arm reaching out past the
    seat (``outward``), as canonical outlines (a hand seen from above: parallax moves it)."""
    turn = rng.uniform(-0.7, 0.7)
    c, s = math.cos(turn), math.sin(turn)
    out = np.array([c * outward[0] - s * outward[1], s * outward[0] + c * outward[1]])
    side = np.array([-out[1], out[0]])
    scale = rng.uniform(0.8, 1.5)  # nearer the camera is larger
    palm = np.array([cx, cy]) + rng.uniform(-0.9, 0.9, 2) * layout.REVEAL_RADIUS
    length, width = 28 * scale, 25 * scale
    parts = [_ellipse(*palm, length, width, math.atan2(out[1], out[0]))]
    for k in range(4):
        base = palm - 0.8 * length * out + (k - 1.5) * 0.42 * width * side
        bend = rng.normal(0, 0.25)
        tip = base - rng.uniform(25, 45) * scale * (out * math.cos(bend) + side * math.sin(bend))
        parts.append(_capsule(base, tip, 9 * scale))
    thumb = palm + 0.9 * width * side * rng.choice([-1, 1])
    parts.append(_capsule(thumb, thumb - 18 * scale * out + 10 * scale * side, 11 * scale))
    elbow = palm + rng.uniform(150, 300) * out
    parts.append(_capsule(palm, elbow, 40 * scale))
    return parts


def _skin(rng) -> np.ndarray:
    tone = rng.uniform(0, 1)
    light, dark = np.array([0.95, 0.78, 0.66]), np.array([0.42, 0.26, 0.17])
    sleeve = rng.random() < 0.3
    return (light * (1 - tone) + dark * tone) if not sleeve else rng.uniform(0.05, 0.9, 3)


def render(
    seed: int, size: tuple[int, int] | None = None, stress: bool = False
) -> tuple[np.ndarray, Scene]:
    """A BGR frame and its :class:`Scene`, deterministic from ``seed``.

    ``stress`` draws more of what the judge's hard frames still get wrong (docs/benchmarks.md):
    pale and token-coloured cloths, low lamps (15-35 degrees: goblet shadows two or three
    goblets long), goblets set down by an area and exposures that clip a pale cloth. Without
    it a seed draws the frame it always drew (the shipped reader's lessons can be made again);
    with it, another table altogether."""
    rng = np.random.default_rng([seed, 0x7E4C])
    seats = int(rng.integers(2, 7))
    table = TableLayout(seats)
    size = tuple(SIZES[rng.integers(len(SIZES))]) if size is None else size
    n = PLANE
    albedo, _base = _cloth(rng, stress)
    # The floor round the table, and the table's edge.
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    rr = np.hypot(xx + ORIGIN - layout.CENTRE[0], yy + ORIGIN - layout.CENTRE[1])
    floor = (
        rng.uniform(0.05, 0.6, 3).astype(np.float32)
        * (1 + 0.1 * _smooth_noise(rng, (n, n), 30))[..., None]
    )
    on_table = _edge(rr, layout.TABLE_RADIUS + rng.uniform(0, 25), 1.5)[..., None]
    albedo = albedo * on_table + floor * (1 - on_table)
    _markers(albedo, rng)
    shade = np.ones((n, n), np.float32)
    spec = np.zeros((n, n), np.float32)
    cover = np.zeros((n, n), np.float32)
    shadow = np.zeros((n, n), np.float32)

    lamp_az = rng.uniform(0, 2 * math.pi)
    lamp_el = math.radians(rng.uniform(15, 35 if stress else 90))
    lamp2d = np.array([math.cos(lamp_az), math.sin(lamp_az)], np.float32)
    reach = 1 / max(math.tan(lamp_el), 0.2)  # shadow length per unit of height

    # Goblets: ring, foot, and a bowl that a tilted camera shows leaning outwards.
    things = []
    for seat in range(seats):
        if rng.random() < 0.1:
            continue
        gx, gy = table.goblet_spot(seat)
        gx, gy = gx + rng.normal(0, 3), gy + rng.normal(0, 3)
        things.append((gx, gy, rng.uniform(0, 1) < 0.2))
    if rng.random() < (0.5 if stress else 0.25):  # a goblet set down where it does not belong
        seat = int(rng.integers(seats))
        cx, cy = table.reveal_centre(seat)
        a = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(0, 1.6) * layout.REVEAL_RADIUS
        things.append((cx + dist * math.cos(a), cy + dist * math.sin(a), True))
    houses = list(palette.RING_COLOURS)
    rng.shuffle(houses)
    for i, (gx, gy, lean) in enumerate(things):
        height = rng.uniform(45, 90)  # canonical px: 8-17 cm
        bowl_r = rng.uniform(13, 24)
        out = np.array([gx - layout.CENTRE[0], gy - layout.CENTRE[1]])
        out = out / (np.linalg.norm(out) + 1e-6)
        a = rng.uniform(-1.2, 1.2)
        lean_dir = np.array(
            [
                out[0] * math.cos(a) - out[1] * math.sin(a),
                out[0] * math.sin(a) + out[1] * math.cos(a),
            ]
        )
        offset = lean_dir * rng.uniform(0, 75 if lean else 35)
        # Shadow: stem and bowl cast away from the lamp.
        far = np.array([gx, gy]) - lamp2d * height * reach
        _fill_poly(
            shadow,
            np.vstack([_ellipse(gx, gy, 6, 6, 0), _ellipse(*far, bowl_r * 1.05, bowl_r, lamp_az)]),
        )
        # Ring and foot (drawn on the plane, under the bowl).
        sl, dx, dy = _disc_patch(gx, gy, layout.RING_OUTER + 2)
        d = np.hypot(dx, dy)
        body = _edge(d, layout.RING_OUTER) * (1 - _edge(d, layout.RING_INNER))
        ring_c = _rgb(palette.RING_COLOURS[houses[i % len(houses)]]) * rng.uniform(0.9, 1.1, 3)
        stripes = (np.sin((dx * 0.7 + dy * 0.7) * rng.uniform(0.4, 0.9)) > 0.6).astype(np.float32)
        ring = ring_c * (1 - 0.8 * stripes[..., None]) + 0.9 * stripes[..., None] * 0.8
        albedo[sl] = albedo[sl] * (1 - body[..., None]) + ring * body[..., None]
        foot = _edge(d, layout.RING_INNER)
        metal = _rgb(palette.PEWTER) * rng.uniform(0.7, 1.1, 3)
        albedo[sl] = albedo[sl] * (1 - foot[..., None]) + metal * foot[..., None]
        # The bowl above, as the camera sees it (an occluder: it is not on the table).
        bx, by = gx + offset[0], gy + offset[1]
        sl, dx, dy = _disc_patch(bx, by, bowl_r + 2)
        d = np.hypot(dx, dy)
        bowl = _edge(d, bowl_r)
        inner = _edge(d, bowl_r * rng.uniform(0.75, 0.92))
        lit = 0.75 + 0.35 * np.clip((dx * lamp2d[0] + dy * lamp2d[1]) / bowl_r, -1, 1)
        look = (
            metal * lit[..., None] * (1 - inner[..., None])
            + _rgb(palette.BOWL) * rng.uniform(0.6, 1.4) * inner[..., None]
        )
        albedo[sl] = albedo[sl] * (1 - bowl[..., None]) + look * bowl[..., None]
        shade[sl] = shade[sl] * (1 - bowl) + bowl  # the bowl is lit, not in the table's shade
        cover[sl] = np.maximum(cover[sl], bowl)

    # Other shadows: a bottle, a lamp post, a player leaning over.
    for _ in range(int(rng.integers(0, 4))):
        seat = int(rng.integers(seats))
        cx, cy = table.reveal_centre(seat)
        a = np.array([cx, cy]) + rng.uniform(-110, 110, 2)
        b = a + rng.uniform(-200, 200, 2)
        _fill_poly(shadow, _capsule(a, b, rng.uniform(8, 60)), float(rng.uniform(0.3, 1.0)))

    # Tokens.
    specials = {
        k: int(rng.integers(seats))
        for k in ("unicorn_antidote", "ogre_poison")
        if rng.random() < 0.6
    }
    gloss = float(rng.choice([0.0, rng.uniform(0, 0.4), rng.uniform(0.3, 1.3)], p=[0.1, 0.4, 0.5]))
    tokens = {}
    for seat in range(seats):
        placed = _place(rng, *table.reveal_centre(seat), _kinds(rng, specials, seat))
        tokens[seat] = placed
        for kind, x, y in placed:
            _token(albedo, spec, shade, kind, x, y, lamp2d, rng, gloss)
    # Hands and cards over an area now and then.
    hand_shadow = np.zeros((n, n), np.float32)
    if rng.random() < 0.45:
        seat = int(rng.integers(seats))
        cx, cy = table.reveal_centre(seat)
        outward = np.array([cx - layout.CENTRE[0], cy - layout.CENTRE[1]])
        outward /= np.linalg.norm(outward)
        parts = _hand(rng, cx, cy, outward)
        skin = _skin(rng)
        if rng.random() < 0.25:  # a hand the cloth's own colour: only its outline shows
            skin = np.clip(_base * rng.uniform(0.85, 1.15, 3), 0, 1)
        lift = rng.uniform(15, 80)
        hand = np.zeros((n, n), np.float32)
        for part in parts:
            _fill_poly(hand, part)
            _fill_poly(hand_shadow, part - lamp2d * lift * reach)
        hand = np.clip(hand, 0, 1)
        tone = skin * (1 + 0.12 * _smooth_noise(rng, (n, n), 25))[..., None]
        albedo = albedo * (1 - hand[..., None]) + np.clip(tone, 0, 1) * hand[..., None]
        shade = shade * (1 - hand) + hand
        spec *= 1 - hand
        cover = np.maximum(cover, hand)
    if rng.random() < 0.12:
        seat = int(rng.integers(seats))
        cx, cy = table.reveal_centre(seat)
        c = np.array([cx, cy]) + rng.uniform(-1.2, 1.2, 2) * layout.REVEAL_RADIUS
        w, h, ang = rng.uniform(25, 60), rng.uniform(35, 90), rng.uniform(0, math.pi)
        box = cv2.boxPoints(((float(c[0]), float(c[1])), (float(w), float(h)), math.degrees(ang)))
        thing = np.zeros((n, n), np.float32)
        _fill_poly(thing, box)
        colour = rng.uniform(0.3, 1, 3)  # a card (a black phone would pass for a shadow)
        albedo = albedo * (1 - thing[..., None]) + colour * thing[..., None]
        cover = np.maximum(cover, thing)
        _fill_poly(hand_shadow, box - lamp2d * rng.uniform(0, 6))
    shadow = cv2.GaussianBlur(np.clip(shadow, 0, 1), (0, 0), rng.uniform(1.0, 7.0))
    hand_shadow = cv2.GaussianBlur(np.clip(hand_shadow, 0, 1), (0, 0), rng.uniform(3.0, 12.0))
    darkness = rng.uniform(0.15, 0.75)
    free = 1 - np.clip(cover, 0, 1)
    shade *= 1 - darkness * np.maximum(shadow, hand_shadow) * free

    # Light over the plane: a gradient towards the lamp, hot spots, a glare now and then.
    pu = (xx + ORIGIN - layout.CENTRE[0]) / layout.TABLE_RADIUS
    pv = (yy + ORIGIN - layout.CENTRE[1]) / layout.TABLE_RADIUS
    light = 1 + rng.uniform(0, 0.7) * 0.5 * (pu * lamp2d[0] + pv * lamp2d[1])
    for _ in range(int(rng.integers(0, 3))):
        hx, hy = rng.uniform(-0.8, 0.8, 2)
        sigma = rng.uniform(0.08, 0.45)
        light += rng.uniform(0, 0.5) * np.exp(-((pu - hx) ** 2 + (pv - hy) ** 2) / (2 * sigma**2))
    plane = albedo * (shade * light)[..., None] + (spec * light)[..., None]
    if rng.random() < 0.15:  # glare: a lamp's reflection washing out part of an area
        seat = int(rng.integers(seats))
        cx, cy = table.reveal_centre(seat)
        gx, gy = np.array([cx, cy]) + rng.uniform(-1.1, 1.1, 2) * layout.REVEAL_RADIUS
        ra, rb = rng.uniform(12, 60), rng.uniform(8, 40)
        ang = rng.uniform(0, math.pi)
        du, dv = xx + ORIGIN - gx, yy + ORIGIN - gy
        e = ((du * math.cos(ang) + dv * math.sin(ang)) / ra) ** 2 + (
            (-du * math.sin(ang) + dv * math.cos(ang)) / rb
        ) ** 2
        glare = rng.uniform(0.9, 2.5) * np.exp(-(e**2))
        plane += glare[..., None]
        cover = np.maximum(cover, (glare > 0.35).astype(np.float32))

    # The camera: a pinhole, tilted, at any turn; the plane warped into its frame.
    w, h = size
    to_frame = _camera(rng, size)
    shift = np.array([[1, 0, ORIGIN], [0, 1, ORIGIN], [0, 0, 1]], np.float64)
    plane_to_frame = to_frame @ shift
    per_px = _canonical_per_frame_px(to_frame)
    if per_px > 1.2:  # the lens integrates over a frame pixel: no aliasing of the plane
        plane = cv2.GaussianBlur(plane, (0, 0), 0.4 * per_px)
    image = cv2.warpPerspective(
        plane, plane_to_frame, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    fy, fx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((fx - w / 2) ** 2 + (fy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    image *= (1 - rng.uniform(0, 0.45) * r2)[..., None]
    exposure = rng.uniform(0.9, 1.35) if stress else rng.uniform(0.6, 1.2)
    image *= (exposure * (1 + rng.uniform(-0.2, 0.2, 3))).astype(np.float32)
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 2.0))
    sigma = rng.uniform(0.5, 10) / 255
    image += rng.normal(0, 1, image.shape).astype(np.float32) * (
        sigma * np.sqrt(np.clip(image, 0, None) * 2 + 0.1)
    )
    bgr = cv2.cvtColor(np.clip(image * 255 + 0.5, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 96))])
    assert ok
    bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    scene = Scene(seats, tokens, np.clip(cover, 0, 1), np.linalg.inv(to_frame), size)
    return bgr, scene


def _canonical_per_frame_px(to_frame: np.ndarray) -> float:
    """How many canonical pixels one frame pixel spans at the table's centre."""
    p = np.array([[400.0, 401.0, 400.0], [400.0, 400.0, 401.0], [1, 1, 1]])
    q = to_frame @ p
    x, y = q[0] / q[2], q[1] / q[2]
    area = abs((x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]))
    return float(1 / math.sqrt(area))


def _camera(rng, size: tuple[int, int]) -> np.ndarray:
    """Canonical -> frame homography of a pinhole camera tilted 0-30 degrees at any yaw."""
    w, h = size
    f = h * rng.uniform(0.85, 1.4)
    fill = rng.uniform(0.72, 0.97)
    dist = f * 2 * layout.TABLE_RADIUS / (fill * h)
    tilt = math.radians(rng.uniform(0, 30))
    az = rng.uniform(0, 2 * math.pi)
    roll = rng.uniform(0, 2 * math.pi)
    target = np.array([*layout.CENTRE, 0.0]) + np.array([*rng.uniform(-20, 20, 2), 0.0])
    centre = target + dist * np.array(
        [math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), -math.cos(tilt)]
    )
    fwd = (target - centre) / np.linalg.norm(target - centre)
    r0 = np.array([math.cos(roll), math.sin(roll), 0.0])
    right = r0 - fwd * (r0 @ fwd)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    rot = np.stack([right, down, fwd])
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    # Points on the table plane (x, y, 0): frame = K R (p - c).
    m = k @ rot @ np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, -centre[2]]])
    return m / m[2, 2]
