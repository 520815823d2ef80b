"""The camera's virtual twin: seeded synthetic overhead frames with their ground truth.

A fake must be faithful (DESIGN.md: "rendered images with noise"), so a frame has what a real
one has: the round table under a perspective skew and any rotation, goblets with patterned
Coaster rings and soft shadows, revealed tokens spread and clumped in front of each seat
(touching and overlapping slightly, each with a darker rim, a highlight and colour spread), the
four ArUco markers, a wooden floor around the table, uneven coloured light with vignetting,
defocus blur, sensor noise and JPEG artefacts. All randomness comes from the numpy
``Generator`` handed in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.core.errors import MalformedInput
from vision import layout, palette
from vision.layout import TableLayout


@dataclass(frozen=True)
class Noise:
    """How rough a frame is: blur sigma (px), sensor noise sigma (grey levels), JPEG quality
    (None: lossless), lighting unevenness and colour cast (fractions), perspective skew."""

    blur: float = 0.0
    noise: float = 0.0
    jpeg: int | None = None
    light: float = 0.0
    cast: float = 0.0
    skew: float = 0.0


NOISE: Mapping[str, Noise] = {
    "none": Noise(),
    "realistic": Noise(blur=0.8, noise=4.0, jpeg=85, light=0.25, cast=0.08, skew=0.08),
    "rough": Noise(blur=1.2, noise=8.0, jpeg=70, light=0.35, cast=0.12, skew=0.12),
    "harsh": Noise(blur=1.8, noise=14.0, jpeg=45, light=0.5, cast=0.18, skew=0.16),
}
"""Named noise levels; ``realistic`` is a decent webcam or Pi camera over a lit table."""


@dataclass(frozen=True)
class Scene:
    """What is on the table: ``rings`` seat -> House of the goblet standing there (None: a goblet
    without a ring; a missing seat: no goblet), ``loose`` goblets in mid-move (House, canonical
    x, y), ``tokens`` seat -> revealed token counts by kind."""

    seats: int
    rings: Mapping[int, str | None] = field(default_factory=dict)
    loose: tuple[tuple[str, float, float], ...] = ()
    tokens: Mapping[int, Mapping[str, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Truth:
    """Ground truth of a rendered frame: the scene, the homography (frame -> canonical, 3x3),
    the token centres (seat -> [(kind, x, y)] canonical) and the noise used."""

    scene: Scene
    homography: np.ndarray
    token_centres: Mapping[int, list[tuple[str, float, float]]]
    noise: Noise


TOKEN_KINDS = tuple(palette.TOKEN_COLOURS)
_MAX_REVEAL = {"wine": 5, "poison": 4, "antidote": 3}


def random_scene(rng: np.random.Generator, seats: int | None = None, reveal: bool = True) -> Scene:
    """A random table: each seat's goblet with a House ring (a shuffled Course), now and then a
    goblet lifted or in mid-move, and (``reveal``) each seat's revealed tokens."""
    if seats is None:
        n = int(rng.integers(layout.MIN_SEATS, layout.MAX_SEATS + 1))
    else:
        n = layout.check_seats(seats)
    houses = [str(h) for h in rng.permutation(list(palette.RING_COLOURS))[:n]]
    rings: dict[int, str | None] = dict(enumerate(houses))
    loose: list[tuple[str, float, float]] = []
    if rng.random() < 0.3:  # one goblet is in someone's hand, half-way to the next seat
        seat = int(rng.integers(n))
        house = rings.pop(seat)
        if house is not None and rng.random() < 0.5:
            a = TableLayout(n).seat_angle(seat) + math.pi / n
            loose.append((house, *_polar(a, layout.GOBLET_CIRCLE)))
    tokens: dict[int, dict[str, int]] = {}
    if reveal:
        # "1 Unicorn Antidote (blue) | 1 Ogre Poison (green)": one of each on the whole table.
        special = {k: int(rng.integers(-1, n)) for k in ("unicorn_antidote", "ogre_poison")}
        for seat in range(n):
            tokens[seat] = {k: int(rng.integers(0, m + 1)) for k, m in _MAX_REVEAL.items()}
            tokens[seat].update({k: int(at == seat) for k, at in special.items()})
    return Scene(n, rings, tuple(loose), tokens)


def _polar(angle: float, radius: float) -> tuple[float, float]:
    return (
        layout.CENTRE[0] + radius * math.cos(angle),
        layout.CENTRE[1] + radius * math.sin(angle),
    )


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _pattern(kind: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """A white-on-black mask of ring pattern ``kind`` (goblets.js's patterns, period 12 px)."""
    mask = np.zeros((size, size), np.uint8)
    p = 12
    big = size + 2 * p
    if kind in ("stripes", "cross"):
        for k in range(-big, 2 * big, p):
            cv2.line(mask, (k, 0), (k - big, big), 255, 2, cv2.LINE_AA)
            if kind == "cross":
                cv2.line(mask, (k - big, 0), (k, big), 255, 2, cv2.LINE_AA)
    elif kind == "dots":
        for y in range(p // 2, size, p):
            for x in range(p // 2, size, p):
                cv2.circle(mask, (x, y), 2, 255, -1, cv2.LINE_AA)
    elif kind == "grid":
        for k in range(0, size, p):
            cv2.line(mask, (k, 0), (k, size), 255, 2)
            cv2.line(mask, (0, k), (size, k), 255, 2)
    elif kind in ("zigzag", "waves"):
        xs = np.arange(0, size, 1)
        for y0 in range(0, size + p, p):
            if kind == "zigzag":
                ys = y0 + 2.5 * (2 * np.abs(((xs / 4) % 2) - 1) - 1)
            else:
                ys = y0 + 2.5 * np.sin(xs * 2 * math.pi / 12)
            pts = np.stack([xs, ys], axis=1).astype(np.int32)
            cv2.polylines(mask, [pts], False, 255, 2, cv2.LINE_AA)
    angle = float(rng.uniform(0, 180))
    rot = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
    return cv2.warpAffine(mask, rot, (size, size))


def _draw_goblet(img: np.ndarray, house: str | None, x: float, y: float, rng) -> None:
    size = int(2 * layout.RING_OUTER + 6)
    x0, y0 = round(x) - size // 2, round(y) - size // 2
    patch = img[y0 : y0 + size, x0 : x0 + size].astype(np.float32)
    c = (size / 2 - 0.5, size / 2 - 0.5)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    r = np.hypot(xx - c[0], yy - c[1])
    if house is not None:
        ring = np.clip(layout.RING_OUTER - r + 0.5, 0, 1) * np.clip(
            r - layout.RING_INNER + 0.5, 0, 1
        )
        colour = np.array(_bgr(palette.RING_COLOURS[house]), np.float32)
        colour = colour * rng.uniform(0.93, 1.07)
        pat = _pattern(palette.RING_PATTERNS[house], size, rng).astype(np.float32) / 255 * 0.7
        fill = colour * (1 - pat[..., None]) + np.array(_bgr(palette.PATTERN)) * pat[..., None]
        patch = patch * (1 - ring[..., None]) + fill * ring[..., None]
    foot = np.clip(layout.RING_INNER - r + 0.5, 0, 1)
    shade = 0.8 + 0.25 * ((xx - yy) / size)  # light from the top left on a rounded bowl
    metal = np.array(_bgr(palette.PEWTER), np.float32) * shade[..., None]
    opening = np.clip(15.0 - r + 0.5, 0, 1)
    metal = metal * (1 - opening[..., None]) + np.array(_bgr(palette.BOWL)) * opening[..., None]
    patch = patch * (1 - foot[..., None]) + metal * foot[..., None]
    img[y0 : y0 + size, x0 : x0 + size] = np.clip(patch, 0, 255).astype(np.uint8)


def _place_tokens(scene: Scene, rng) -> dict[int, list[tuple[str, float, float]]]:
    """Token centres: poured out in a clump or two, touching or overlapping by up to 10%."""
    out: dict[int, list[tuple[str, float, float]]] = {}
    table = TableLayout(scene.seats)
    r = layout.TOKEN_RADIUS
    markers = [layout.marker_centre(m) for m in layout.MARKER_IDS]
    for seat, counts in scene.tokens.items():
        cx, cy = table.reveal_centre(seat)
        kinds = [k for k in TOKEN_KINDS for _ in range(int(counts.get(k, 0)))]
        rng.shuffle(kinds)
        placed: list[tuple[str, float, float]] = []
        clumps = [np.array((cx, cy)) + rng.normal(0, 15, 2) for _ in range(2)]
        for kind in kinds:
            for attempt in range(2000):
                spread = 16 if attempt < 300 else 40
                px, py = clumps[attempt % 2] + rng.normal(0, spread, 2)
                if math.hypot(px - cx, py - cy) > layout.REVEAL_RADIUS - r - 3:
                    continue
                if any(math.dist((px, py), m) < layout.MARKER_KEEP_OUT + r for m in markers):
                    continue  # players keep the calibration markers clear (vision/README.md)
                gap = 2 * r * rng.uniform(0.9, 1.0)
                if all(math.hypot(px - qx, py - qy) >= gap for _, qx, qy in placed):
                    placed.append((kind, float(px), float(py)))
                    break
            else:
                raise MalformedInput(
                    f"{len(kinds)} tokens do not fit in the reveal area", field=f"tokens.{seat}"
                )
        out[seat] = placed
    return out


def _draw_token(img: np.ndarray, kind: str, x: float, y: float, rng) -> None:
    r = layout.TOKEN_RADIUS * rng.uniform(0.96, 1.04)
    colour = np.array(_bgr(palette.TOKEN_COLOURS[kind]), np.float32) + rng.normal(0, 5, 3)
    s = 4  # sub-pixel precision for the anti-aliased circles
    centre = (round(x * (1 << s)), round(y * (1 << s)))
    rim = tuple(float(v) for v in np.clip(colour * 0.72, 0, 255))
    cv2.circle(img, centre, round(r * (1 << s)), rim, -1, cv2.LINE_AA, s)
    face = tuple(float(v) for v in np.clip(colour, 0, 255))
    cv2.circle(img, centre, round((r - 1.6) * (1 << s)), face, -1, cv2.LINE_AA, s)
    glint = tuple(float(v) for v in np.clip(colour * 0.85 + 60, 0, 255))
    hx, hy = round((x - r * 0.35) * (1 << s)), round((y - r * 0.35) * (1 << s))
    cv2.ellipse(
        img,
        (hx, hy),
        (round(2.6 * (1 << s)), round(1.6 * (1 << s))),
        -45,
        0,
        360,
        glint,
        -1,
        cv2.LINE_AA,
        s,
    )


def _shadows(img: np.ndarray, blobs: list[tuple[float, float, float]]) -> None:
    shadow = np.zeros(img.shape[:2], np.float32)
    for x, y, r in blobs:
        cv2.circle(shadow, (round(x + 0.18 * r), round(y + 0.18 * r)), round(r), 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 3.0)
    img[...] = (img.astype(np.float32) * (1 - 0.3 * shadow[..., None])).astype(np.uint8)


def _marker(marker: int) -> np.ndarray:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    inner = cv2.aruco.generateImageMarker(dictionary, marker, int(layout.MARKER_SIZE))
    return cv2.copyMakeBorder(inner, 6, 6, 6, 6, cv2.BORDER_CONSTANT, value=245)


def draw_canonical(scene: Scene, rng, centres=None) -> tuple[np.ndarray, np.ndarray]:
    """The scene drawn top-down on the canonical table (BGR) and the table's mask (float)."""
    size = layout.SIZE
    cloth = np.array(_bgr(palette.CLOTH), np.float32)
    weave = rng.normal(0, 3.0, (size // 4, size // 4, 1)).astype(np.float32)
    img = np.clip(cloth + cv2.resize(weave, (size, size))[..., None], 0, 255).astype(np.uint8)
    table = TableLayout(scene.seats)
    centres = _place_tokens(scene, rng) if centres is None else centres
    goblets = [(h, *table.goblet_spot(s)) for s, h in scene.rings.items()] + list(scene.loose)
    goblets = [(h, x + rng.normal(0, 2.5), y + rng.normal(0, 2.5)) for h, x, y in goblets]
    blobs = [(x, y, layout.RING_OUTER) for _, x, y in goblets]
    blobs += [(x, y, layout.TOKEN_RADIUS) for toks in centres.values() for _, x, y in toks]
    _shadows(img, blobs)
    for marker in layout.MARKER_IDS:
        tile = _marker(marker)
        mx, my = layout.marker_centre(marker)
        x0, y0 = round(mx - tile.shape[1] / 2), round(my - tile.shape[0] / 2)
        img[y0 : y0 + tile.shape[0], x0 : x0 + tile.shape[1]] = tile[..., None]
    for house, x, y in goblets:
        _draw_goblet(img, house, x, y, rng)
    for toks in centres.values():
        for kind, x, y in toks:
            _draw_token(img, kind, x, y, rng)
    mask = np.zeros((size, size), np.float32)
    cv2.circle(mask, (size // 2, size // 2), int(layout.TABLE_RADIUS), 1.0, -1, cv2.LINE_AA)
    return img, mask


def camera_pose(rng, size: tuple[int, int], noise: Noise, turn: float | None = None) -> np.ndarray:
    """A random homography canonical -> frame: the table filling most of the frame's height,
    turned by ``turn`` degrees clockwise (None: any angle), tilted by up to ``noise.skew``."""
    w, h = size
    s = rng.uniform(0.82, 0.92) * h / (2 * layout.TABLE_RADIUS)
    theta = rng.uniform(-math.pi, math.pi) if turn is None else math.radians(turn)
    k1, k2 = rng.uniform(-noise.skew, noise.skew, 2)
    squash = 1 - rng.uniform(0, noise.skew)
    half = layout.SIZE / 2
    src = np.array(
        [[0, 0], [layout.SIZE, 0], [layout.SIZE, layout.SIZE], [0, layout.SIZE]], np.float32
    )
    dst = []
    for u, v in src - half:
        px = s * (u * math.cos(theta) - v * math.sin(theta))
        py = s * (u * math.sin(theta) + v * math.cos(theta))
        qx = px * (1 + k1 * py / (s * half))
        qy = py * (1 + k2 * px / (s * half)) * squash
        jx, jy = rng.normal(0, 0.1 * noise.skew, 2)
        dst.append((w / 2 + qx + jx * w, h / 2 + qy + jy * h))
    return cv2.getPerspectiveTransform(src, np.array(dst, np.float32))


def _floor(rng, w: int, h: int) -> np.ndarray:
    grain = cv2.resize(rng.normal(0, 1, (h // 8, 4)).astype(np.float32), (w, h))
    base = np.array([30, 48, 72], np.float32)  # dark wood, BGR
    return np.clip(base + 10 * grain[..., None] + rng.normal(0, 3, (h, w, 1)), 0, 255)


def _light(rng, w: int, h: int, noise: Noise) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
    a = rng.uniform(0, 2 * math.pi)
    gain = 1 + noise.light * 0.6 * (u * math.cos(a) + v * math.sin(a))
    gain -= noise.light * 0.4 * (u * u + v * v) / 2
    sx, sy = rng.uniform(-0.5, 0.5, 2)
    gain += noise.light * 0.4 * np.exp(-((u - sx) ** 2 + (v - sy) ** 2) / 0.5)
    cast = 1 + rng.uniform(-noise.cast, noise.cast, 3)
    return gain[..., None] * cast.astype(np.float32)


def render(
    scene: Scene,
    rng: np.random.Generator,
    noise: Noise | str = "realistic",
    size: tuple[int, int] = (1280, 720),
    turn: float | None = None,
    pose: np.ndarray | None = None,
) -> tuple[np.ndarray, Truth]:
    """One BGR frame of ``scene`` seen by a camera at a random pose (see :func:`camera_pose`),
    and its :class:`Truth`; ``pose`` (canonical -> frame) fixes the camera instead."""
    noise = NOISE[noise] if isinstance(noise, str) else noise
    w, h = size
    # The pose is drawn first, so a seed's empty table and its full one share the camera.
    to_frame = camera_pose(rng, size, noise, turn) if pose is None else pose
    centres = _place_tokens(scene, rng)
    canonical, mask = draw_canonical(scene, rng, centres)
    warped = cv2.warpPerspective(canonical, to_frame, (w, h), flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(mask, to_frame, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    frame = warped.astype(np.float32) * cover + _floor(rng, w, h) * (1 - cover)
    frame *= _light(rng, w, h, noise)
    if noise.blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), noise.blur)
    if noise.noise > 0:
        shot = np.sqrt(np.clip(frame, 1, 255) / 128)  # brighter pixels are noisier (photons)
        frame += rng.normal(0, noise.noise, frame.shape).astype(np.float32) * shot
    image = np.clip(frame, 0, 255).astype(np.uint8)
    if noise.jpeg is not None:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(noise.jpeg)])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    truth = Truth(scene, np.linalg.inv(to_frame), centres, noise)
    return image, truth


def render_frame(
    seed: int,
    seats: int | None = None,
    noise: Noise | str = "realistic",
    size: tuple[int, int] = (1280, 720),
    reveal: bool = True,
    empty: bool = False,
) -> tuple[np.ndarray, Truth]:
    """A random scene (``empty``: the bare table, for calibration) rendered from ``seed``."""
    rng = np.random.default_rng(seed)
    scene = random_scene(rng, seats, reveal)
    if empty:
        scene = Scene(scene.seats)
    return render(scene, rng, noise, size)
