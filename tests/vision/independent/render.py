"""Independent overhead frames: a 3D-ish table photographed through a pinhole camera.

Written from ``vision/README.md``'s conventions only (the canonical table of ``vision.layout``,
the ArUco ``DICT_4X4_50`` markers 0-3 at radius 342, 45 degrees clockwise past seat 0; seats
clockwise from the bottom; ring colours of ``vision.palette`` with the dashboard's patterns from
``companion/web/static/goblets.js``; tokens of radius 11 canonical px), sharing no drawing code
with ``vision/render.py``: it is the judge, so it must not inherit the detector's assumptions.

The world is the table plane (canonical pixels, 1 px = 0.7 m / 380, a 1.4 m table) with z
pointing *down* into the table, so the frame (x right, y down, z into the table) is right-handed
and a camera above the table looks along +z. Things on the table (cloth or wood, markers,
Coaster rings round each goblet's foot, tokens with rims and a specular sheen, the shadows of
goblets and hands) are painted on a plane texture and warped into the camera (a plane maps by a
homography); things above it (each goblet's stem and bowl, a hand and its arm) are projected
point by point and painted over in depth order, so a bowl hides the part of its ring (or of
the area) beyond it as the camera's tilt dictates. Then light (lamp gradient, hot spots, colour
cast, vignetting), glare, defocus, sensor noise and JPEG.

The parameter ranges of each level (:data:`LEVELS`) were written down before the detector was
run on these frames, and must not be tuned to its results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import layout, palette
from vision.layout import TableLayout

M_PER_PX = 0.7 / layout.TABLE_RADIUS
"""Metres per canonical pixel: the README's table is 1.4 m across (a 2 cm token radius = 11)."""
KINDS = tuple(palette.TOKEN_COLOURS)

SURFACES = {
    # RGB albedo under neutral light; "wood" has a grain.
    "grey": (128, 124, 116),
    "green_felt": (38, 104, 62),
    "dark_blue": (34, 44, 92),
    "red": (150, 36, 38),
    "white_linen": (226, 222, 210),
    "wood": (156, 104, 62),
}


@dataclass(frozen=True)
class Level:
    """Ranges (lo, hi) every frame's parameters are drawn from, uniformly."""

    surfaces: tuple[str, ...]
    tilt: tuple[float, float] = (0.0, 25.0)
    """Camera tilt from straight down, degrees (any yaw)."""
    lamp_elevation: tuple[float, float] = (70.0, 90.0)
    """The key light's elevation above the table, degrees (low: a side lamp, long shadows)."""
    shadow: tuple[float, float] = (0.1, 0.2)
    """How much of the light a goblet's or hand's shadow takes."""
    uneven: tuple[float, float] = (0.0, 0.05)
    """Light gradient across the table towards the lamp (fraction)."""
    vignette: tuple[float, float] = (0.0, 0.05)
    cast: float = 0.0
    """Largest colour cast (per-channel gain deviation)."""
    hotspots: tuple[int, int] = (0, 0)
    hotspot: tuple[float, float] = (0.0, 0.0)
    sheen: tuple[float, float] = (0.0, 0.1)
    """Specular sheen on tokens (added white at its peak, fraction of the light)."""
    blur: tuple[float, float] = (0.3, 0.6)
    noise: tuple[float, float] = (0.5, 1.5)
    jpeg: tuple[int, int] = (92, 95)


LEVELS = {
    "clean": Level(surfaces=("grey",)),
    "realistic": Level(
        surfaces=tuple(SURFACES),
        lamp_elevation=(45.0, 80.0),
        shadow=(0.25, 0.45),
        uneven=(0.15, 0.35),
        vignette=(0.1, 0.3),
        cast=0.1,
        hotspots=(0, 1),
        hotspot=(0.1, 0.3),
        sheen=(0.1, 0.4),
        blur=(0.5, 1.2),
        noise=(2.0, 5.0),
        jpeg=(75, 90),
    ),
    "hard": Level(
        surfaces=tuple(SURFACES),
        lamp_elevation=(20.0, 40.0),
        shadow=(0.35, 0.6),
        uneven=(0.35, 0.6),
        vignette=(0.2, 0.45),
        cast=0.18,
        hotspots=(1, 2),
        hotspot=(0.2, 0.45),
        sheen=(0.5, 1.0),
        blur=(0.8, 1.8),
        noise=(4.0, 9.0),
        jpeg=(55, 75),
    ),
}
"""Named levels: ``clean`` (grey cloth, soft overhead light), ``realistic`` (any cloth or a
wooden table, a lamp, a decent webcam), ``hard`` (a low side lamp, glossy tokens, a poor camera)."""

GOBLET = {
    "stem": (0.04, 0.07),  # stem height, m
    "bowl": (0.05, 0.08),  # bowl height, m
    "top": (0.45, 0.65),  # bowl's top radius, fraction of the ring's outer radius
    "bottom": (0.2, 0.35),  # bowl's bottom radius, same
}
"""Goblet shapes (drawn per goblet): a foot inside its Coaster ring, a stem, a bowl above."""
SKIN = [(224, 172, 140), (198, 134, 103), (141, 85, 54), (241, 194, 168), (170, 110, 80)]

_ORIGIN = -160.0  # the plane texture covers canonical [-160, 960] at _SCALE texels per px
_SCALE = 1.5
_N = int((layout.SIZE - 2 * _ORIGIN) * _SCALE)
_SS = 2  # supersampling of the camera image


@dataclass(frozen=True)
class Truth:
    """What a frame shows: ``rings`` seat -> House (None: no goblet there), ``tokens`` seat ->
    counts of every kind, ``markers`` id -> 4x2 image corners (ArUco order), ``homography``
    frame -> canonical, ``covered`` seats whose reveal area a hand or glare covers (their count
    may be refused), the drawn parameters, and ``houses``: the Houses in play, one per seat
    (the game knows them; a seat's ring may be off the table)."""

    seats: int
    rings: dict[int, str | None]
    tokens: dict[int, dict[str, int]]
    markers: dict[int, np.ndarray]
    homography: np.ndarray
    covered: frozenset[int] = frozenset()
    params: dict = field(default_factory=dict)
    houses: tuple[str, ...] = ()


class _Camera:
    """A pinhole camera tilted ``tilt`` degrees from straight down, looking at the table."""

    def __init__(self, rng: np.random.Generator, size: tuple[int, int], tilt: float) -> None:
        w, h = size
        self.w, self.h = w * _SS, h * _SS
        self.f = self.h * rng.uniform(0.95, 1.25)  # vertical field of view about 44-56 degrees
        fill = rng.uniform(0.82, 0.95)  # the table's diameter over the frame's height
        distance = self.f * 2 * layout.TABLE_RADIUS / (fill * self.h)  # canonical px
        t, azimuth, roll = math.radians(tilt), rng.uniform(0, 2 * math.pi), rng.uniform(0, 360)
        target = np.array([*layout.CENTRE, 0.0]) + np.array([*rng.uniform(-15, 15, 2), 0.0])
        self.centre = target + distance * np.array(
            [math.sin(t) * math.cos(azimuth), math.sin(t) * math.sin(azimuth), -math.cos(t)]
        )
        fwd = (target - self.centre) / np.linalg.norm(target - self.centre)
        r0 = np.array([math.cos(math.radians(roll)), math.sin(math.radians(roll)), 0.0])
        right = r0 - (r0 @ fwd) * fwd
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        self.rot = np.stack([right, down, fwd])

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (n x 3, canonical px, z down into the table) -> image points (n x 2)."""
        p = (np.asarray(points, float) - self.centre) @ self.rot.T
        return np.stack(
            [self.f * p[:, 0] / p[:, 2] + self.w / 2, self.f * p[:, 1] / p[:, 2] + self.h / 2],
            axis=1,
        )

    def depth(self, point) -> float:
        """Distance along the view axis."""
        return float(((np.asarray(point, float) - self.centre) @ self.rot.T)[2])

    def plane_homography(self) -> np.ndarray:
        """Canonical plane (z = 0) -> supersampled image."""
        src = np.array([[0, 0], [800, 0], [800, 800], [0, 800]], np.float32)
        dst = self.project(np.c_[src, np.zeros(4)]).astype(np.float32)
        return cv2.getPerspectiveTransform(src, dst)


def _patch(shape, cx: float, cy: float, radius: float):
    """Slices of a canvas around a canonical point and the texel offsets from it (canonical px)."""
    x, y = (cx - _ORIGIN) * _SCALE, (cy - _ORIGIN) * _SCALE
    r = radius * _SCALE + 2
    x0, x1 = max(int(x - r), 0), min(int(x + r) + 2, shape[1])
    y0, y1 = max(int(y - r), 0), min(int(y + r) + 2, shape[0])
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    return (
        (slice(y0, y1), slice(x0, x1)),
        (xx + 0.5) / _SCALE + _ORIGIN - cx,
        (yy + 0.5) / _SCALE + _ORIGIN - cy,
    )


def _cover(d: np.ndarray, edge: float) -> np.ndarray:
    """Antialiased coverage of ``d <= edge`` (d in canonical px)."""
    return np.clip((edge - d) * _SCALE + 0.5, 0.0, 1.0)


def _pattern(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance (in pattern units, 8 per tile) to the white strokes of goblets.js's pattern."""
    ma, mb = np.mod(a, 8.0), np.mod(b, 8.0)
    diag1 = np.abs(np.mod(a + b + 4.0, 8.0) - 4.0) / math.sqrt(2)  # x + y = 8k
    diag2 = np.abs(np.mod(a - b + 4.0, 8.0) - 4.0) / math.sqrt(2)  # x - y = 8k
    if name == "stripes":
        return diag1
    if name == "dots":
        return np.hypot(ma - 4, mb - 4) - 0.8  # a disc of r 1.6: distance to stroke edge 0.8
    if name == "cross":
        return np.minimum(diag1, diag2)
    if name == "zigzag":
        y = 2 + 2 * np.abs(np.mod(a, 4.0) - 2)
        return np.abs(mb - y) / math.sqrt(5)
    if name == "waves":
        y = 4 - 1.5 * np.sin(math.pi * a / 4)
        slope = 1.5 * math.pi / 4 * np.cos(math.pi * a / 4)
        return np.abs(mb - y) / np.sqrt(1 + slope**2)
    if name == "grid":
        return np.minimum(np.abs(ma - 4), np.abs(mb - 4))
    raise ValueError(name)


def _surface(rng: np.random.Generator, name: str) -> np.ndarray:
    """The table top's albedo texture (RGB 0-1) over the canvas, and the floor round it."""
    base = np.array(SURFACES[name], np.float32) / 255 * rng.uniform(0.94, 1.06, 3)
    yy, xx = np.mgrid[0:_N, 0:_N].astype(np.float32)
    u, v = xx / _SCALE + _ORIGIN, yy / _SCALE + _ORIGIN
    if name == "wood":
        angle = rng.uniform(0, math.pi)
        along = u * math.cos(angle) + v * math.sin(angle)
        across = -u * math.sin(angle) + v * math.cos(angle)
        warp = 6 * np.sin(along / rng.uniform(60, 140)) + 3 * np.sin(along / 23.0)
        grain = np.sin((across + warp) / rng.uniform(2.5, 5.0))
        grain = 0.12 * grain + 0.06 * np.sin((across + 0.5 * warp) / 11.0)
        tex = base * (1 + grain[..., None])
    else:
        weave = rng.normal(0, 0.035, (_N // 3 + 1, _N // 3 + 1)).astype(np.float32)
        weave = cv2.resize(weave, (_N, _N), interpolation=cv2.INTER_LINEAR)
        tex = base * (1 + weave[..., None])
    floor = np.array(rng.choice([(70, 60, 55), (105, 100, 95), (60, 45, 35)]), np.float32) / 255
    r = np.hypot(u - layout.CENTRE[0], v - layout.CENTRE[1])
    edge = layout.TABLE_RADIUS * 1.04  # a table slightly larger than the canonical circle
    rim = (r > edge - 4) & (r <= edge)
    tex[rim] *= 0.6
    tex[r > edge] = floor * (1 + 0.05 * np.sin(u[r > edge] / 7.0))[:, None]
    return tex


def _markers(rng, albedo: np.ndarray) -> dict[int, np.ndarray]:
    """Paints the four markers (white paper margin round each); canonical corners by id."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    corners = {}
    for marker in layout.MARKER_IDS:
        cx, cy = layout.marker_centre(marker)
        theta = rng.uniform(0, 2 * math.pi)
        bits = cv2.aruco.generateImageMarker(dictionary, marker, 6).astype(np.float32) / 255
        side = layout.MARKER_SIZE
        sl, du, dv = _patch(albedo.shape, cx, cy, side)
        # Marker coordinates (0..1 over the black square), turned by theta.
        c, s = math.cos(theta), math.sin(theta)
        mu = (c * du + s * dv) / side + 0.5
        mv = (-s * du + c * dv) / side + 0.5
        paper = (np.abs(mu - 0.5) <= 0.5 + 8 / side) & (np.abs(mv - 0.5) <= 0.5 + 8 / side)
        inside = (mu >= 0) & (mu < 1) & (mv >= 0) & (mv < 1)
        value = np.where(
            inside,
            bits[np.clip((mv * 6).astype(int), 0, 5), np.clip((mu * 6).astype(int), 0, 5)],
            1.0,
        )
        ink = np.where(value > 0.5, 0.93, 0.05).astype(np.float32)
        region = albedo[sl]
        region[paper] = ink[paper][:, None] * np.array([1.0, 0.99, 0.96], np.float32)
        local = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * side
        rot = np.array([[c, -s], [s, c]])  # marker coords -> canonical offsets
        corners[marker] = local @ rot.T + np.array([cx, cy])
    return corners


def _ring(albedo, rng, house: str, x: float, y: float, foot: np.ndarray) -> None:
    """A Coaster ring (colour, white pattern at 0.85 opacity) round a metal foot."""
    sl, du, dv = _patch(albedo.shape, x, y, layout.RING_OUTER + 1)
    r = np.hypot(du, dv)
    colour = np.array(palette.RING_COLOURS[house], np.float32) / 255 * rng.uniform(0.92, 1.08, 3)
    theta = rng.uniform(0, 2 * math.pi)
    unit = layout.RING_OUTER / 24  # goblets.js draws the ring with r = 24 pattern units
    a = (math.cos(theta) * du + math.sin(theta) * dv) / unit
    b = (-math.sin(theta) * du + math.cos(theta) * dv) / unit
    stroke = _cover(_pattern(palette.RING_PATTERNS[house], a, b) * unit, 0.8 * unit)
    ring = colour * (1 - 0.85 * stroke[..., None]) + 0.85 * stroke[..., None] * 0.95
    body = _cover(r, layout.RING_OUTER) * (1 - _cover(r, layout.RING_INNER))
    ring *= (0.85 + 0.15 * np.clip((layout.RING_OUTER - r) / 2, 0, 1))[..., None]
    # The foot: a metal dome, brighter in the middle.
    dome = foot * (0.7 + 0.4 * np.clip(1 - r / layout.RING_INNER, 0, 1))[..., None]
    fcover = _cover(r, layout.RING_INNER)
    region = albedo[sl]
    region[...] = region * (1 - body - fcover)[..., None] + ring * body[..., None]
    region += dome * fcover[..., None]


def _token(albedo, spec, kind: str, rng, x: float, y: float, lamp: np.ndarray, sheen: float):
    """A token: a disc of colour spread, a rim, and a specular sheen towards the lamp."""
    radius = layout.TOKEN_RADIUS * rng.uniform(0.96, 1.04)
    sl, du, dv = _patch(albedo.shape, x, y, radius + 2)
    r = np.hypot(du, dv)
    colour = np.array(palette.TOKEN_COLOURS[kind], np.float32) / 255 * rng.uniform(0.93, 1.07, 3)
    rim = np.clip((r - (radius - 1.8)) / 1.8, 0, 1)[..., None]
    face = colour * (1 - 0.3 * rim) + 0.05 * rim
    cover = _cover(r, radius)[..., None]
    region = albedo[sl]
    region[...] = region * (1 - cover) + face * cover
    if sheen > 0:
        ox, oy = 0.35 * radius * lamp[0], 0.35 * radius * lamp[1]
        size = radius * rng.uniform(0.45, 0.8)
        blob = np.exp(-((du - ox) ** 2 + (dv - oy) ** 2) / (2 * size * size))
        spec[sl] = np.maximum(spec[sl], sheen * rng.uniform(0.5, 1.0) * blob * cover[..., 0])


def _place_tokens(rng, table: TableLayout, seat: int, kinds: list[str]) -> list[tuple]:
    """Token centres in the seat's reveal area, in clumps, overlapping by at most 10%."""
    cx, cy = table.reveal_centre(seat)
    reach = layout.REVEAL_RADIUS - layout.TOKEN_RADIUS * 1.1
    placed: list[tuple[float, float, str]] = []
    for kind in kinds:
        for _ in range(400):
            if placed and rng.random() < 0.7:
                px, py, _k = placed[rng.integers(len(placed))]
                ang = rng.uniform(0, 2 * math.pi)
                dist = 2 * layout.TOKEN_RADIUS * rng.uniform(0.9, 1.05)
                x, y = px + dist * math.cos(ang), py + dist * math.sin(ang)
            else:
                ang, rad = rng.uniform(0, 2 * math.pi), reach * math.sqrt(rng.random())
                x, y = cx + rad * math.cos(ang), cy + rad * math.sin(ang)
            if math.hypot(x - cx, y - cy) > reach:
                continue
            if any(
                math.dist((x, y), layout.marker_centre(m))
                < layout.MARKER_KEEP_OUT + layout.TOKEN_RADIUS
                for m in layout.MARKER_IDS
            ):
                continue
            if all(math.hypot(x - a, y - b) >= 1.8 * layout.TOKEN_RADIUS for a, b, _ in placed):
                placed.append((x, y, kind))
                break
    return placed


def _circle(cx, cy, z, radius, n=40) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([cx + radius * np.cos(t), cy + radius * np.sin(t), np.full(n, z)], axis=1)


def _shadow_of(points: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Points' shadows on the table (z = 0) cast away from a light in direction ``light``."""
    s = -points[:, 2] / light[2]
    return points[:, :2] - s[:, None] * light[:2]


def _capsule(a, b, width, n=10) -> np.ndarray:
    """3D outline points of a rounded bar from a to b (in its own plane, roughly level)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b[:2] - a[:2]
    d /= np.linalg.norm(d) + 1e-9
    nrm = np.array([-d[1], d[0]])
    pts = []
    for end, sign in ((a, -1), (b, 1)):
        for t in np.linspace(-math.pi / 2, math.pi / 2, n):
            off = width / 2 * (math.cos(t) * sign * d + math.sin(t) * nrm * sign)
            pts.append([end[0] + off[0], end[1] + off[1], end[2]])
    return np.array(pts)


def render(
    seed: int,
    level: str = "realistic",
    size: tuple[int, int] = (1280, 720),
    seats: int | None = None,
    hand: bool = False,
    glare: bool = False,
    empty: bool = False,
    surface: str | None = None,
    stops: float = 0.0,
    shot: int = 0,
) -> tuple[np.ndarray, Truth]:
    """A BGR frame and its ground truth, deterministic from ``seed``; ``surface`` sets the
    table top (one of :data:`SURFACES`) instead of drawing it, every other draw unchanged;
    ``stops`` turns the camera's exposure up or down by that many stops (a factor 2**stops
    before the sensor clips, as a camera's exposure compensation does); ``empty``: this scene's
    table with nothing on it, under the same lamp and camera (the frame the Host calibrates on);
    ``shot``: another exposure of the same scene, whose sensor noise is its own (0: the noise of
    the seed's stream, as always drawn)."""
    spec_level = LEVELS[level]
    rng = np.random.default_rng([seed, 0x13])
    u = lambda pair: float(rng.uniform(*pair))  # noqa: E731
    seats = int(rng.integers(2, 7)) if seats is None else seats
    table = TableLayout(seats)
    drawn = str(rng.choice(spec_level.surfaces))  # drawn either way: the stream stays the same
    surface = drawn if surface is None else surface
    tilt = u(spec_level.tilt)
    camera = _Camera(rng, size, tilt)
    lamp_az = rng.uniform(0, 2 * math.pi)
    elev = math.radians(u(spec_level.lamp_elevation))
    # Direction from the table towards the lamp (z negative: up).
    light = np.array(
        [math.cos(elev) * math.cos(lamp_az), math.cos(elev) * math.sin(lamp_az), -math.sin(elev)]
    )
    lamp2d = np.array([math.cos(lamp_az), math.sin(lamp_az)])
    shadow_k = u(spec_level.shadow)
    sheen = u(spec_level.sheen)

    # The scene.
    houses = list(rng.permutation(list(palette.RING_COLOURS))[:seats])
    rings: dict[int, str | None] = {}
    feet: dict[int, tuple[float, float]] = {}
    tokens: dict[int, dict[str, int]] = {}
    placed: dict[int, list] = {}
    extras = [k for k in ("unicorn_antidote", "ogre_poison") if rng.random() < 0.35]
    extra_at = {k: int(rng.integers(seats)) for k in extras}
    for seat in range(seats):
        if rng.random() < 0.08:
            rings[seat] = None
        else:
            rings[seat] = str(houses[seat])
            gx, gy = table.goblet_spot(seat)
            ang, rad = rng.uniform(0, 2 * math.pi), rng.uniform(0, 6)
            feet[seat] = (gx + rad * math.cos(ang), gy + rad * math.sin(ang))
        n = int(rng.integers(0, 8))
        kinds = list(rng.choice(["wine", "poison", "antidote"], n, p=[0.45, 0.3, 0.25]))
        kinds += [k for k, s in extra_at.items() if s == seat]
        rng.shuffle(kinds)
        placed[seat] = _place_tokens(rng, table, seat, [str(k) for k in kinds])
    for seat in range(seats):
        tokens[seat] = {k: 0 for k in KINDS}
        for _x, _y, k in [] if empty else placed[seat]:
            tokens[seat][k] += 1

    # Things above the table, in 3D: goblets (stem, bowl) and a hand with its arm.
    goblets = []
    for seat, (fx, fy) in feet.items():
        stem, bowl = u(GOBLET["stem"]) / M_PER_PX, u(GOBLET["bowl"]) / M_PER_PX
        top, bottom = (u(GOBLET[k]) * layout.RING_OUTER for k in ("top", "bottom"))
        metal = np.array(palette.PEWTER, np.float32) / 255 * rng.uniform(0.8, 1.1, 3)
        goblets.append((seat, fx, fy, stem, bowl, top, bottom, metal))
    hand_parts: list[np.ndarray] = []
    hand_seat = None
    if hand:
        hand_seat = int(rng.integers(seats))
        cx, cy = table.reveal_centre(hand_seat)
        out = np.array([cx - layout.CENTRE[0], cy - layout.CENTRE[1]])
        out /= np.linalg.norm(out)
        turn = rng.uniform(-0.5, 0.5)
        c, s = math.cos(turn), math.sin(turn)
        out = np.array([c * out[0] - s * out[1], s * out[0] + c * out[1]])
        jitter = rng.uniform(-0.5, 0.5, 2) * layout.REVEAL_RADIUS
        palm = np.array([cx, cy]) + jitter
        h = rng.uniform(0.06, 0.15) / M_PER_PX
        side = np.array([-out[1], out[0]])
        length, width = 0.05 / M_PER_PX, 0.045 / M_PER_PX
        palm_pts = [
            [*(palm + length * math.cos(t) * out + width * math.sin(t) * side), -h]
            for t in np.linspace(0, 2 * math.pi, 24, endpoint=False)
        ]
        hand_parts.append(np.array(palm_pts))
        for k in range(4):  # fingers, towards the table's centre
            base = palm - 0.8 * length * out + (k - 1.5) * 0.4 * width * side
            tip = base - rng.uniform(0.05, 0.08) / M_PER_PX * out
            hand_parts.append(_capsule([*base, -h], [*tip, -h * 0.8], 0.017 / M_PER_PX))
        thumb = palm + 0.9 * width * side
        hand_parts.append(
            _capsule(
                [*thumb, -h],
                [*(thumb - 0.3 * length * out + 0.6 * width * side), -h],
                0.02 / M_PER_PX,
            )
        )
        elbow = palm + rng.uniform(0.35, 0.5) / M_PER_PX * out
        hand_parts.append(_capsule([*palm, -h], [*elbow, -h - 0.25 / M_PER_PX], 0.07 / M_PER_PX))
        skin = np.array(SKIN[rng.integers(len(SKIN))], np.float32) / 255

    # The plane: albedo, shading (shadows), specular.
    albedo = _surface(rng, surface)
    marker_corners = _markers(rng, albedo)
    shade = np.ones((_N, _N), np.float32)
    spec = np.zeros((_N, _N), np.float32)
    bare = (albedo, shade, spec)
    if empty:
        # The same table before anything is put on it, as the Host calibrates it: the scene is
        # still drawn, on copies no one sees, so that the lamp, the camera and the exposure
        # drawn after it stay this scene's; no ring, token, goblet or shadow is shown.
        albedo, shade, spec = albedo.copy(), shade.copy(), spec.copy()

    def to_tex(points2d):
        return ((np.asarray(points2d) - _ORIGIN) * _SCALE * 16).astype(np.int32)

    shadow_mask = np.zeros((_N, _N), np.float32)
    for _seat, fx, fy, stem, bowl, top, bottom, _metal in goblets:
        pts = np.vstack([_circle(fx, fy, -stem, bottom), _circle(fx, fy, -stem - bowl, top)])
        hull = cv2.convexHull(to_tex(_shadow_of(pts, light)))
        cv2.fillConvexPoly(shadow_mask, hull, 1.0, cv2.LINE_8, 4)
        stem_line = _shadow_of(np.array([[fx, fy, 0.0], [fx, fy, -stem]]), light)
        a, b = to_tex(stem_line)
        cv2.line(shadow_mask, tuple(a), tuple(b), 1.0, max(int(3 * _SCALE), 1), cv2.LINE_8, 4)
    for part in hand_parts:
        hull = cv2.convexHull(to_tex(_shadow_of(part, light)))
        cv2.fillConvexPoly(shadow_mask, hull, 1.0, cv2.LINE_8, 4)
    shadow_mask = cv2.GaussianBlur(shadow_mask, (0, 0), 3.0 * _SCALE)
    for seat, fx, fy, *_rest in goblets:
        _ring(albedo, rng, rings[seat], fx, fy, _rest[-1])
    for seat in range(seats):
        for x, y, kind in placed[seat]:
            # A thin token's own contact shadow, away from the lamp.
            sl, du, dv = _patch(shade.shape, x, y, layout.TOKEN_RADIUS + 4)
            d = np.hypot(du + 1.5 * lamp2d[0], dv + 1.5 * lamp2d[1])
            # On the cloth round the token, not on its own face.
            face = _cover(np.hypot(du, dv), layout.TOKEN_RADIUS - 0.5)
            shade[sl] *= 1 - 0.25 * _cover(d, layout.TOKEN_RADIUS + 1) * (1 - face)
            _token(albedo, spec, kind, rng, x, y, lamp2d, sheen)
    shade *= 1 - shadow_k * shadow_mask
    if empty:
        albedo, shade, spec = bare
        goblets, rings = [], dict.fromkeys(rings)

    # Light over the plane: ambient plus the lamp's gradient and hot spots.
    yy, xx = np.mgrid[0:_N:8, 0:_N:8].astype(np.float32)
    pu = (xx / _SCALE + _ORIGIN - layout.CENTRE[0]) / layout.TABLE_RADIUS
    pv = (yy / _SCALE + _ORIGIN - layout.CENTRE[1]) / layout.TABLE_RADIUS
    lightmap = 1 + u(spec_level.uneven) * 0.5 * (pu * lamp2d[0] + pv * lamp2d[1])
    for _ in range(int(rng.integers(spec_level.hotspots[0], spec_level.hotspots[1] + 1))):
        hx, hy = rng.uniform(-0.7, 0.7, 2)
        sigma = rng.uniform(0.15, 0.4)
        lightmap += u(spec_level.hotspot) * np.exp(
            -((pu - hx) ** 2 + (pv - hy) ** 2) / (2 * sigma**2)
        )
    lightmap = cv2.resize(lightmap.astype(np.float32), (_N, _N), interpolation=cv2.INTER_LINEAR)
    plane = albedo * (shade * lightmap)[..., None] + (spec * lightmap)[..., None]

    # Into the camera.
    to_canvas = np.array(
        [[_SCALE, 0, -_ORIGIN * _SCALE], [0, _SCALE, -_ORIGIN * _SCALE], [0, 0, 1]]
    )
    canon_to_img = camera.plane_homography()
    canvas_to_img = canon_to_img @ np.linalg.inv(to_canvas)
    floor = plane[2, 2].tolist()
    image = cv2.warpPerspective(
        plane, canvas_to_img, (camera.w, camera.h), flags=cv2.INTER_LINEAR, borderValue=floor
    )

    def to_img(points3d):
        return (camera.project(points3d) * 16).astype(np.int32)

    def lit(colour, x, y):
        k = lightmap[int((y - _ORIGIN) * _SCALE), int((x - _ORIGIN) * _SCALE)]
        return colour * k

    # Elevated things, far ones first.
    items = [(camera.depth([g[1], g[2], -g[3]]), "goblet", g) for g in goblets]
    if hand_parts:
        items.append((camera.depth(hand_parts[0][0]), "hand", None))
    hand_mask = np.zeros((camera.h, camera.w), np.uint8)
    bowl_mask = np.zeros((camera.h, camera.w), np.uint8)
    for _depth, what, g in sorted(items, key=lambda it: -it[0]):
        if what == "hand":
            for part in hand_parts:
                hull = cv2.convexHull(to_img(part))
                colour = lit(skin * rng.uniform(0.9, 1.05), *part[0][:2])
                cv2.fillConvexPoly(image, hull, colour.tolist(), cv2.LINE_AA, 4)
                cv2.fillConvexPoly(hand_mask, hull, 1, cv2.LINE_8, 4)
            continue
        _seat, fx, fy, stem, bowl, top, bottom, metal = g
        base = lit(metal, fx, fy)
        a, b = to_img(np.array([[fx, fy, -2.0], [fx, fy, -stem]]))
        width = max(round(0.012 / M_PER_PX * camera.f / camera.depth([fx, fy, -stem])), 2)
        cv2.line(image, tuple(a), tuple(b), (base * 0.8).tolist(), width, cv2.LINE_AA, 4)
        lower, upper = _circle(fx, fy, -stem, bottom), _circle(fx, fy, -stem - bowl, top)
        hull = cv2.convexHull(to_img(np.vstack([lower, upper])))
        cv2.fillConvexPoly(image, hull, (base * 0.75).tolist(), cv2.LINE_AA, 4)
        cv2.fillConvexPoly(bowl_mask, hull, 1, cv2.LINE_8, 4)
        # The side facing the lamp is brighter: a band of the bowl's outline shifted to it.
        bright = np.vstack(
            [
                _circle(
                    fx + 0.3 * top * lamp2d[0],
                    fy + 0.3 * top * lamp2d[1],
                    -stem - bowl * 0.6,
                    top * 0.55,
                ),
                _circle(fx, fy, -stem - 2, bottom * 0.5),
            ]
        )
        cv2.fillConvexPoly(
            image, cv2.convexHull(to_img(bright)), (base * 1.1).tolist(), cv2.LINE_AA, 4
        )
        rim = to_img(upper)
        cv2.fillConvexPoly(image, cv2.convexHull(rim), (base * 0.95).tolist(), cv2.LINE_AA, 4)
        opening = to_img(_circle(fx, fy, -stem - bowl, top * 0.88))
        inside = lit(np.array(palette.BOWL, np.float32) / 255, fx, fy)
        cv2.fillConvexPoly(image, cv2.convexHull(opening), inside.tolist(), cv2.LINE_AA, 4)

    # Glare: a lamp's reflection washing out part of one reveal area.
    glare_map = None
    glare_seat = None
    if glare:
        glare_seat = int(rng.integers(seats))
        cx, cy = table.reveal_centre(glare_seat)
        off = rng.uniform(-0.4, 0.4, 2) * layout.REVEAL_RADIUS
        gx, gy = camera.project(np.array([[cx + off[0], cy + off[1], 0.0]]))[0]
        edge = camera.project(np.array([[cx + layout.REVEAL_RADIUS, cy, 0.0]]))[0]
        rad = math.dist(edge, camera.project(np.array([[cx, cy, 0.0]]))[0])
        ra, rb = rad * rng.uniform(0.5, 1.0), rad * rng.uniform(0.4, 0.8)
        ang = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0 : camera.h, 0 : camera.w].astype(np.float32)
        du, dv = xx - gx, yy - gy
        e = ((du * math.cos(ang) + dv * math.sin(ang)) / ra) ** 2 + (
            (-du * math.sin(ang) + dv * math.cos(ang)) / rb
        ) ** 2
        glare_map = rng.uniform(1.2, 2.0) * np.exp(-(e**2))
        image += glare_map[..., None]

    # Which reveal areas a hand, glare or a goblet's bowl covers (1% of the area or more): a
    # token there may be hidden, so "not seen" is a right answer.
    covered = set()
    for seat in range(seats):
        cx, cy = table.reveal_centre(seat)
        disc = to_img(_circle(cx, cy, 0.0, layout.REVEAL_RADIUS, 64))
        area = np.zeros((camera.h, camera.w), np.uint8)
        cv2.fillPoly(area, [disc], 1, cv2.LINE_8, 4)
        n = max(int(area.sum()), 1)
        if int((area & (hand_mask | bowl_mask)).sum()) >= 0.01 * n:
            covered.add(seat)
        if glare_map is not None and int(((glare_map > 0.35) & (area > 0)).sum()) >= 0.01 * n:
            covered.add(seat)

    # The camera: vignetting, colour cast, exposure; then down-sampling, defocus, noise, JPEG.
    yy, xx = np.mgrid[0 : camera.h : 8, 0 : camera.w : 8].astype(np.float32)
    rr = ((xx - camera.w / 2) ** 2 + (yy - camera.h / 2) ** 2) / (
        (camera.w / 2) ** 2 + (camera.h / 2) ** 2
    )
    vig = cv2.resize((1 - u(spec_level.vignette) * rr).astype(np.float32), (camera.w, camera.h))
    cast = 1 + rng.uniform(-spec_level.cast, spec_level.cast, 3)
    exposure = rng.uniform(0.85, 1.1) * 2.0**stops
    image = image * (vig * exposure)[..., None] * cast.astype(np.float32)
    image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    image = cv2.GaussianBlur(image, (0, 0), u(spec_level.blur))
    sigma = u(spec_level.noise) / 255
    grain = rng.normal(0, 1, image.shape).astype(np.float32)  # drawn either way: the stream stays
    if shot:
        grain = np.random.default_rng([seed, 0x13, shot]).normal(0, 1, image.shape)
    image = image + grain.astype(np.float32) * (sigma * np.sqrt(np.clip(image, 0, None) * 2 + 0.1))
    rgb8 = np.clip(image * 255 + 0.5, 0, 255).astype(np.uint8)
    bgr = cv2.cvtColor(rgb8, cv2.COLOR_RGB2BGR)
    quality = int(rng.integers(spec_level.jpeg[0], spec_level.jpeg[1] + 1))
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    down = np.diag([1 / _SS, 1 / _SS, 1.0])
    canon_to_frame = down @ canon_to_img
    markers = {}
    for m, corners in marker_corners.items():
        p = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64), canon_to_frame)
        markers[m] = p.reshape(4, 2)
    truth = Truth(
        seats=seats,
        rings=rings,
        tokens=tokens,
        markers=markers,
        homography=np.linalg.inv(canon_to_frame),
        covered=frozenset(covered),
        houses=tuple(str(house) for house in houses),
        params={
            "surface": surface,
            "tilt": round(tilt, 1),
            "level": level,
            "lamp_elevation": round(math.degrees(elev), 1),
            "hand": hand_seat,
            "glare": glare_seat,
            "jpeg": quality,
        },
    )
    return bgr, truth
