"""Calibration: where the table is in the camera's frame, as a homography to the canonical view.

Two ways, both pure (an image or points in, a :class:`Calibration` out; the caller stores its
JSON in the data directory):

- :func:`from_markers`: the four ArUco markers (``DICT_4X4_50``, ids 0-3) stuck on the table
  between the seats (see :mod:`vision.layout`) are found and their centres give an exact
  homography, perspective included. :func:`from_points` does the same from four points picked by
  hand (the markers' centres, in id order).
- :func:`from_ellipse`: no markers; the round table is segmented from the floor and an ellipse
  fitted to its outline. This is an affine approximation (good for a camera looking nearly
  straight down) and it cannot know which way seat 0 is: seat 0 is taken at the bottom of the
  frame, turned by ``seat0_angle`` degrees clockwise.

:func:`calibrate` tries the markers; the ellipse fallback is refused (MalformedInput naming the
way out) unless accepted explicitly with ``allow_ellipse=True``: it cannot know where seat 0 is
and is wrong by tens of pixels on a tilted camera, which would misread every seat silently.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.core.errors import MalformedInput
from vision import layout
from vision.frame import check_image
from vision.layout import TableLayout


@dataclass(frozen=True)
class Calibration:
    """A homography (frame pixels -> canonical pixels, 3x3) for frames of ``image_size``
    (width, height) of a table of ``seats`` seats; ``method`` says how it was found;
    ``exposure``: the exposure compensation in stops the camera was calibrated at, for a camera
    that takes one (the calibration lowers it when the camera clips the empty table; None for
    other cameras); ``bare``: the calibration frame of the empty table warped to the canonical
    view (:func:`vision.bare.bare_view`; kept beside the JSON, not in it), or None."""

    seats: int
    homography: np.ndarray
    image_size: tuple[int, int]
    method: str = "markers"
    exposure: float | None = None
    bare: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def layout(self) -> TableLayout:
        """The canonical seat layout."""
        return TableLayout(self.seats)

    def to_frame(self, x: float, y: float) -> tuple[float, float]:
        """A canonical point in frame pixels."""
        p = np.linalg.inv(self.homography) @ np.array([x, y, 1.0])
        return float(p[0] / p[2]), float(p[1] / p[2])

    def to_json(self) -> dict[str, Any]:
        """``{"seats", "image_size": [w, h], "homography": [[...] x3], "method"}``, and
        ``"exposure"`` when the calibration set one."""
        data: dict[str, Any] = {
            "seats": self.seats,
            "image_size": list(self.image_size),
            "homography": [[float(v) for v in row] for row in self.homography],
            "method": self.method,
        }
        if self.exposure is not None:
            data["exposure"] = float(self.exposure)
        return data

    @staticmethod
    def from_json(data: Any) -> Calibration:
        """Parse :meth:`to_json`'s form; bad data raises MalformedInput naming the field."""
        if not isinstance(data, Mapping):
            raise MalformedInput("a calibration must be a JSON object", field="calibration")
        unknown = sorted(set(data) - {"seats", "image_size", "homography", "method", "exposure"})
        if unknown:
            raise MalformedInput("unknown key", field=f"calibration.{unknown[0]}")
        seats = layout.check_seats(data.get("seats"))
        size = data.get("image_size")
        if (
            not isinstance(size, list)
            or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)
        ):
            raise MalformedInput(
                "must be [width, height] in pixels", field="calibration.image_size"
            )
        rows = data.get("homography")
        try:
            matrix = np.array(rows, dtype=np.float64)
        except (TypeError, ValueError):
            matrix = None
        if matrix is None or matrix.shape != (3, 3) or not np.isfinite(matrix).all():
            raise MalformedInput("must be 3 rows of 3 numbers", field="calibration.homography")
        if abs(np.linalg.det(matrix)) < 1e-12:
            raise MalformedInput("is singular", field="calibration.homography")
        method = data.get("method", "markers")
        if not isinstance(method, str):
            raise MalformedInput("must be a string", field="calibration.method")
        exposure = data.get("exposure")
        if exposure is not None and (
            isinstance(exposure, bool)
            or not isinstance(exposure, int | float)
            or not -8 <= exposure <= 8
        ):
            raise MalformedInput("must be -8 to 8 (stops)", field="calibration.exposure")
        return Calibration(
            seats, matrix, (size[0], size[1]), method, None if exposure is None else float(exposure)
        )


def from_points(
    points: Sequence[Sequence[float]], seats: int, image_size: tuple[int, int]
) -> Calibration:
    """Calibration from the frame positions of the four markers' centres, ids 0-3 in order."""
    seats = layout.check_seats(seats)
    try:
        src = np.array(points, dtype=np.float32)
    except (TypeError, ValueError):
        src = None
    if src is None or src.shape != (4, 2) or not np.isfinite(src).all():
        raise MalformedInput("must be 4 points [x, y] (markers 0-3)", field="points")
    hull = cv2.convexHull(src)
    if len(hull) != 4 or cv2.contourArea(src) < 100:
        raise MalformedInput("must be 4 distinct points around the table", field="points")
    # The markers go round the table in order: the quadrilateral 0-1-2-3 must not cross itself
    # (a misread marker id would make it).
    edges = np.roll(src, -1, axis=0) - src
    turns = (
        edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1]
        - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    )
    if not (np.all(turns > 0) or np.all(turns < 0)):
        raise MalformedInput("must go round the table in marker order 0-1-2-3", field="points")
    dst = np.array([layout.marker_centre(m) for m in layout.MARKER_IDS], np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return Calibration(seats, matrix.astype(np.float64), tuple(image_size), "points")


def _detector_parameters() -> cv2.aruco.DetectorParameters:
    """ArUco settings for small, soft markers (measured on synthetic frames, see
    docs/benchmarks.md): finer threshold steps, more pixels per cell when reading the bits, and
    full error correction (4x4 codes with ids 0-3 only are far apart; a wrong id is caught by
    the marker order check in :func:`from_points`)."""
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeStep = 4
    params.polygonalApproxAccuracyRate = 0.05
    params.perspectiveRemovePixelPerCell = 8
    params.errorCorrectionRate = 1.0
    return params


UPSCALE = 2
"""A marker missed at the frame's own size is looked for again in the frame enlarged this many
times (cubic): at 640x480 a 7 cm marker is 18-21 px a side, its cells 3-4 px, and ArUco's
contour and bit reading lose it under blur; enlarged, they find it (on development bare tables,
hard level at 640x480: 31 of 40 tables with all four markers -> 35; the rest had a marker cut by
the frame's edge). Calibration is done once, so the second pass costs nothing per frame."""


def find_markers(image: np.ndarray) -> dict[int, tuple[float, float]]:
    """The frame centres of the calibration markers found in ``image`` (id -> (x, y))."""
    image = check_image(image)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, _detector_parameters())
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _markers_in(detector, grey, 1.0)
    if len(found) < len(layout.MARKER_IDS):
        enlarged = cv2.resize(grey, None, fx=UPSCALE, fy=UPSCALE, interpolation=cv2.INTER_CUBIC)
        for marker, centre in _markers_in(detector, enlarged, UPSCALE).items():
            found.setdefault(marker, centre)
    return found


def _markers_in(
    detector: cv2.aruco.ArucoDetector, grey: np.ndarray, scale: float
) -> dict[int, tuple[float, float]]:
    """The calibration markers ``detector`` finds in ``grey`` (the frame enlarged ``scale``
    times), each marker's centre in the frame's own pixels; the first of an id seen counts."""
    corners, ids, _ = detector.detectMarkers(grey)
    found: dict[int, tuple[float, float]] = {}
    for quad, marker in zip(corners, [] if ids is None else ids.ravel(), strict=False):
        if int(marker) in layout.MARKER_IDS and int(marker) not in found:
            # Pixel centres: (x + 0.5) * scale - 0.5 in the enlarged frame.
            x, y = _diagonal_crossing(quad.reshape(4, 2))
            found[int(marker)] = ((x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5)
    return found


def _diagonal_crossing(quad: np.ndarray) -> tuple[float, float]:
    """The image of a square's centre: where its diagonals cross (exact under perspective)."""
    p, r = quad[0].astype(float), quad[2] - quad[0]
    q, s = quad[1].astype(float), quad[3] - quad[1]
    denom = r[0] * s[1] - r[1] * s[0]
    if abs(denom) < 1e-9:
        c = quad.mean(axis=0)
        return float(c[0]), float(c[1])
    t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / denom
    return float(p[0] + t * r[0]), float(p[1] + t * r[1])


def from_markers(image: np.ndarray, seats: int) -> Calibration:
    """Calibration from the four ArUco markers in ``image``; AmbiguousObservation-free: a
    missing marker is MalformedInput naming the markers found."""
    seats = layout.check_seats(seats)
    found = find_markers(image)
    missing = [m for m in layout.MARKER_IDS if m not in found]
    if missing:
        raise MalformedInput(
            f"calibration markers {missing} not found (found {sorted(found)})", field="image"
        )
    size = (image.shape[1], image.shape[0])
    calibration = from_points([found[m] for m in layout.MARKER_IDS], seats, size)
    return Calibration(seats, calibration.homography, size, "markers")


def table_outline(image: np.ndarray) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The ellipse ``((cx, cy), (width, height), angle)`` fitted to the table in ``image``.

    The table is the region around the frame's centre whose colour is close to the centre's
    (the cloth), split from the floor by Otsu's threshold on the colour distance.
    """
    image = check_image(image)
    small = cv2.GaussianBlur(image, (0, 0), 2.0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    h, w = lab.shape[:2]
    centre = lab[h // 2 - h // 10 : h // 2 + h // 10, w // 2 - w // 10 : w // 2 + w // 10]
    cloth = np.median(centre.reshape(-1, 3), axis=0)
    dist = np.linalg.norm(lab - cloth, axis=2)
    dist8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise MalformedInput("no table found", field="image")
    table = max(contours, key=cv2.contourArea)
    if cv2.contourArea(table) < 0.05 * h * w or len(table) < 5:
        raise MalformedInput(
            "no table found (the largest cloth region is too small)", field="image"
        )
    hull = cv2.convexHull(table)  # goblets or tokens on the rim must not dent the outline
    if len(hull) < 5:
        raise MalformedInput("no round table found (the cloth region is a polygon)", field="image")
    (cx, cy), (a, b), angle = cv2.fitEllipse(hull)
    if not (a > 0 and b > 0) or cv2.contourArea(hull) < 0.9 * math.pi * a * b / 4:
        raise MalformedInput("no round table found (the cloth region is no ellipse)", field="image")
    return (cx, cy), (a, b), angle


def from_ellipse(image: np.ndarray, seats: int, seat0_angle: float = 0.0) -> Calibration:
    """Affine calibration from the table's outline, seat 0 at the bottom of the frame turned
    ``seat0_angle`` degrees clockwise (see the module docstring)."""
    seats = layout.check_seats(seats)
    (cx, cy), (a, b), angle = table_outline(image)
    # The frame -> canonical map: rotate the ellipse's axes onto x, y, scale each to the table
    # radius, then turn so that the frame's "down" (turned by seat0_angle) is canonical "down".
    t = math.radians(angle)
    rot = np.array([[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]])
    scale = np.diag([2 * layout.TABLE_RADIUS / a, 2 * layout.TABLE_RADIUS / b])
    linear = scale @ rot
    down = np.array([-math.sin(math.radians(seat0_angle)), math.cos(math.radians(seat0_angle))])
    d = linear @ down
    phi = math.atan2(d[0], d[1])  # turn d onto canonical (0, 1)
    turn = np.array([[math.cos(phi), -math.sin(phi)], [math.sin(phi), math.cos(phi)]])
    linear = turn @ linear
    matrix = np.eye(3)
    matrix[:2, :2] = linear
    matrix[:2, 2] = np.array(layout.CENTRE) - linear @ np.array([cx, cy])
    return Calibration(seats, matrix, (image.shape[1], image.shape[0]), "ellipse")


ELLIPSE_REFUSED = (
    "the table-outline (ellipse) fallback is affine and guesses seat 0 at the bottom of the "
    "frame, so on a tilted or turned camera it misplaces the seats silently; it is refused. "
    "Show all four markers to the camera, or accept the outline explicitly "
    "(calibrate(..., allow_ellipse=True), companion vision calibrate --allow-ellipse, the Host "
    "page's 'accept with a warning')"
)


def calibrate(image: np.ndarray, seats: int, allow_ellipse: bool = False) -> Calibration:
    """From the markers if all four are seen. Else MalformedInput naming the missing markers and
    the way out, unless ``allow_ellipse``: then from the table's outline (method "ellipse",
    which the caller should show as a warning)."""
    try:
        return from_markers(image, seats)
    except MalformedInput as error:
        if error.field != "image" or "markers" not in error.detail:
            raise
        if not allow_ellipse:
            raise MalformedInput(f"{error.detail}: {ELLIPSE_REFUSED}", field="image") from None
        return from_ellipse(image, seats)


def error_px(found: Calibration, true_homography: np.ndarray, seats: int) -> float:
    """The largest distance (canonical pixels) between where ``found`` and the true homography
    put the seats' goblet spots and reveal centres: how wrong a calibration is."""
    table = TableLayout(seats)
    canon = [table.goblet_spot(s) for s in range(seats)]
    canon += [table.reveal_centre(s) for s in range(seats)]
    inverse = np.linalg.inv(true_homography)
    worst = 0.0
    for x, y in canon:
        p = inverse @ np.array([x, y, 1.0])
        q = found.homography @ (p / p[2])
        worst = max(worst, math.dist((x, y), (q[0] / q[2], q[1] / q[2])))
    return worst
