"""The camera's calibration: kept in a file, made from a frame of the empty table, drawn.

The homography is read from ``[camera] calibration`` (default
``<data_dir>/vision-calibration.json``). A calibration is made from the four ArUco markers on the
empty table, or from the table's outline only when the Host accepts it (then with
:data:`ELLIPSE_WARNING`). A camera that clips the cloth has its exposure lowered first where it
takes an exposure control (a Pi camera, :func:`calibrate_exposed`), else the frame is calibrated
with a warning to lower it (:func:`exposure_warning`); a table that is not bare is calibrated
with a warning naming what the camera sees on it (:func:`not_empty_warning`). Its seat count is
the game's (the homography does not depend on it).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.core.errors import MalformedInput
from companion.store.files import write_bytes, write_json
from vision import layout
from vision.bare import bare_view
from vision.calibrate import Calibration, find_markers, from_ellipse, from_markers
from vision.detect import detect
from vision.frame import saturated_share, warp

CALIBRATE_RULE = "The camera is calibrated from a frame of the empty table with its four markers."
ELLIPSE_WARNING = (
    "calibrated from the table's outline, not the markers: right only for a camera looking "
    "straight down, seat 0 at the bottom of the frame (vision/README.md, Calibration)"
)
MAX_SATURATED = 0.01
"""The share of the empty table the camera may clip on every channel before the calibration
lowers a Pi camera's exposure or warns the Host: a white Antidote on clipped white linen is
white on white, for the camera and for any detector, and the token reader holds such a reveal
area as not seen (every area more than a fifth clipped, on the development sets). On the
independent renderer's scenes, judged against the same scene's empty table and calibrated on
it (the bare table kept): realistic at 1280x720, all 709 scenes at most 1% clipped are exact,
11 of the 16 above, all 16 a stop darker (docs/benchmarks.md, "the bare table"); hard at
640x480, 102 of 115, 2 of 10, 8 of 10 a stop darker (before the bare table: "the same scene's
empty table")."""


def bare_path(path: Path) -> Path:
    """Where the picture of the bare table is kept beside the calibration at ``path`` (a PNG of
    :attr:`Calibration.bare`: lossless, as the comparison needs)."""
    return path.with_name(f"{path.stem}-bare.png")


def load_calibration(path: Path) -> Calibration | None:
    """The stored calibration at ``path`` (None when there is none; a bad file is an error),
    with its picture of the bare table where one is kept and readable (else without: the token
    reader's own reading then stands everywhere, :mod:`vision.bare`)."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise MalformedInput(f"{path}: {error}", field="camera.calibration") from None
    calibration = Calibration.from_json(data)
    picture = cv2.imread(str(bare_path(path)), cv2.IMREAD_COLOR)
    if picture is not None and picture.shape == (layout.SIZE, layout.SIZE, 3):
        calibration = dataclasses.replace(calibration, bare=picture)
    return calibration


def save_calibration(path: Path, calibration: Calibration) -> None:
    """Write ``calibration`` to ``path`` atomically (a crash leaves the old file or the new),
    and its picture of the bare table beside it (or remove an older one it does not have)."""
    picture = bare_path(path)
    if calibration.bare is None:
        picture.unlink(missing_ok=True)
    else:
        ok, png = cv2.imencode(".png", calibration.bare)
        if ok:
            write_bytes(picture, png.tobytes())
    write_json(path, calibration.to_json())


IN_PLAY_NOTE = (
    "a game is in play, so the exposure and the bare table were not checked (from above the "
    "camera sees into the Goblets and behind the screens): calibrate again once it has ended"
)
"""The calibration's note in place of the table's checks while a person's game is in play."""


def calibrate_frame(
    frame: np.ndarray, seats: int, *, accept_ellipse: bool, in_play: bool = False
) -> tuple[Calibration, str | None, dict[str, list[float]]]:
    """The calibration ``frame`` of the empty table gives for ``seats`` seats, its warning (None
    from the markers on a well-exposed, bare table) and the markers found; without the markers,
    400 naming ``accept_ellipse`` unless it is true.

    ``in_play``: a person's game is in play, and the Host who calibrates is a player. The
    markers are printed paper and the homography depends on nothing else, but the exposure's
    clipped share and what the camera sees on the table depend on what lies there (a white
    Antidote in a Goblet clips, a supply behind a screen may lie in a reveal area): then neither
    is looked at and the warning is :data:`IN_PLAY_NOTE`, the same whatever the table holds."""
    markers = find_markers(frame)
    try:
        calibration, warning = from_markers(frame, seats), None
    except MalformedInput as error:
        if not accept_ellipse:
            raise MalformedInput(
                f"{error.detail}: clear the markers and calibrate again, or send "
                '{"accept_ellipse": true} to calibrate from the table\'s outline '
                "(right only for a camera looking straight down)",
                field="accept_ellipse",
            ) from None
        calibration, warning = from_ellipse(frame, seats), ELLIPSE_WARNING
    for more in [IN_PLAY_NOTE] if in_play else table_warnings(frame, calibration):
        warning = more if warning is None else f"{warning}; {more}"
    if not in_play:  # the bare table, for the token reader (vision/bare.py); not in play: secret
        calibration = dataclasses.replace(
            calibration, bare=bare_view(frame, calibration.homography)
        )
    return calibration, warning, points(markers)


def table_warnings(frame: np.ndarray, calibration: Calibration) -> list[str]:
    """What the calibration frame's table says to the Host: the exposure's warning and the bare
    table's (:func:`exposure_warning`, :func:`not_empty_warning`), those that apply."""
    found = (exposure_warning(frame, calibration), not_empty_warning(frame, calibration))
    return [warning for warning in found if warning is not None]


def clipped_share(frame: np.ndarray, calibration: Calibration) -> float:
    """The share of the table in ``frame`` that the camera clipped on every channel."""
    return saturated_share(warp(frame, calibration.homography))


LOWEST_EXPOSURE = -2.0
"""The calibration lowers an adjustable camera's exposure a stop at a time while it clips the
empty table, down to this (stops). On the judge's realistic scenes, one stop down was enough
for all 16 of the 725 whose empty table clips (docs/benchmarks.md, "the same scene's empty
table"); a table still clipped two stops down wants the lamp dimmed."""


def adjusts_exposure(camera: object) -> bool:
    """Whether ``camera`` takes an exposure compensation while it runs (the Pi camera does;
    ``set_exposure`` and ``exposure`` in stops, :class:`vision.camera.PiCamera`)."""
    return callable(getattr(camera, "set_exposure", None)) and hasattr(camera, "exposure")


def exposure_note(before: float, after: float, share_before: float, share_after: float) -> str:
    """What the Host is told when the calibration lowered the exposure itself."""
    return (
        f"the camera clipped {share_before:.0%} of the empty table at {before:+g} stops, so the "
        f"calibration lowered its exposure to {after:+g} stops, where it clips {share_after:.0%}"
    )


class Shooting(Protocol):
    """A camera and how to shoot its next frame (the service's tap on it)."""

    camera: Any

    def read(self) -> np.ndarray | None:
        """The camera's next frame (None when it gives none)."""


def restore_exposure(camera: object, calibration: Calibration) -> None:
    """Set the exposure ``calibration`` was made at on a camera that takes one: the exposure
    the table was calibrated at wins over the settings' (``[camera] exposure``)."""
    stored = calibration.exposure
    if adjusts_exposure(camera) and stored not in (None, camera.exposure):
        camera.set_exposure(stored)


def calibrate_exposed(
    shooting: Shooting,
    frame: np.ndarray,
    seats: int,
    *,
    accept_ellipse: bool,
    in_play: bool = False,
) -> tuple[Calibration, str | None, dict[str, list[float]], str | None]:
    """:func:`calibrate_frame` on ``frame`` shot by ``shooting.camera``, and what was done to its
    exposure (:func:`exposure_note`, or None).

    A camera that clips the empty table hides a white Antidote on white linen. When it takes an
    exposure compensation (:func:`adjusts_exposure`) and no game is in play, its exposure is
    lowered a stop at a time, down to :data:`LOWEST_EXPOSURE`, while it clips more than
    :data:`MAX_SATURATED`, and the calibration is made on the frame shot at the last one; the
    calibration keeps the exposure it was made at. In play nothing on the table is looked at,
    the exposure included (noninterference, docs/security.md). Other cameras get the warning."""
    calibration, warning, markers = calibrate_frame(
        frame, seats, accept_ellipse=accept_ellipse, in_play=in_play
    )
    camera = shooting.camera
    if not adjusts_exposure(camera):
        return calibration, warning, markers, None
    note = None
    if not in_play:
        before = camera.exposure
        first = share = clipped_share(frame, calibration)
        while share > MAX_SATURATED and camera.exposure - 1 >= LOWEST_EXPOSURE:
            camera.set_exposure(camera.exposure - 1)
            shot = shooting.read()
            if shot is None:
                break
            calibration, warning, markers = calibrate_frame(
                shot, seats, accept_ellipse=accept_ellipse
            )
            share = clipped_share(shot, calibration)
        if camera.exposure != before:
            note = exposure_note(before, camera.exposure, first, share)
    exposed = dataclasses.replace(calibration, exposure=float(camera.exposure))
    return exposed, warning, markers, note


def exposure_warning(frame: np.ndarray, calibration: Calibration) -> str | None:
    """What to tell the Host when the camera clips more than :data:`MAX_SATURATED` of the empty
    table in ``frame`` (None when it does not)."""
    share = clipped_share(frame, calibration)
    if share <= MAX_SATURATED:
        return None
    return (
        f"the camera saturates {share:.0%} of the empty table: a white Antidote vanishes there "
        "and those reveal areas read as not seen; lower the exposure (a USB camera's with "
        "v4l2-ctl; [camera] exposure, e.g. -1, on a Pi camera, whose exposure the Host page's "
        "calibration lowers itself) or dim the lamp, then calibrate again"
    )


def not_empty_warning(frame: np.ndarray, calibration: Calibration) -> str | None:
    """What to tell the Host when the camera sees Coaster rings or revealed tokens on the table
    it was calibrated on (None when it sees the bare cloth): the exposure is judged on the bare
    cloth (:func:`exposure_warning`), the calibration keeps its picture of the bare table
    (:mod:`vision.bare`, none where tokens lie in a reveal area), and a table set for play when
    the Host meant to clear it is worth a second look. Areas the detector holds as not seen
    name nothing (a hot spot is the exposure warning's); on the bare tables of the independent
    renderer and of the twin it names nothing (tests/vision/test_exposure.py)."""
    try:
        found = detect(frame, calibration)
    except MalformedInput:  # a frame the detector cannot read: the markers' result stands
        return None
    seated = sorted({ring.seat for ring in found.rings.rings if ring.seat is not None})
    loose = sum(ring.seat is None for ring in found.rings.rings)
    poured = [
        s for s, counts in sorted((found.tokens or {}).items()) if counts and any(counts.values())
    ]
    seen = []
    if seated:
        seen.append(
            f"Coaster rings at {_seats(seated)}"
            if len(seated) > 1
            else f"a Coaster ring at {_seats(seated)}"
        )
    if loose:
        seen.append(
            "a Coaster ring off the seats" if loose == 1 else f"{loose} Coaster rings off the seats"
        )
    if poured:
        seen.append(f"tokens in the reveal area of {_seats(poured)}")
    if not seen:
        return None
    return (
        f"the table is not bare (the camera sees {'; '.join(seen)}): clear it and calibrate "
        "again, so that the exposure is judged on the cloth alone and the camera learns the "
        "bare cloth"
    )


def _seats(seats: list[int]) -> str:
    """The seats in words: seat 2, seats 0 and 3, seats 0, 1 and 2."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def annotated_jpeg(frame: np.ndarray, calibration: Calibration | None) -> bytes | None:
    """``frame`` as JPEG with the seats' spots and reveal areas and the markers drawn."""
    image = frame.copy()
    if calibration is not None:
        for point in seat_points(calibration):
            spot = tuple(round(v) for v in point["spot"])
            reveal = tuple(round(v) for v in point["reveal"])
            cv2.circle(image, spot, 12, (0, 200, 255), 2)
            cv2.circle(image, reveal, 20, (255, 200, 0), 2)
            cv2.putText(
                image, str(point["seat"]), spot, cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 200, 255), 2
            )
    for _, (x, y) in find_markers(frame).items():
        cv2.drawMarker(image, (round(x), round(y)), (0, 255, 0), cv2.MARKER_CROSS, 24, 2)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return bytes(data) if ok else None


def points(markers: dict[int, tuple[float, float]]) -> dict[str, list[float]]:
    """Marker id -> its centre in frame pixels."""
    return {str(m): [round(x, 1), round(y, 1)] for m, (x, y) in sorted(markers.items())}


def seat_points(calibration: Calibration) -> list[dict[str, Any]]:
    """Each seat's goblet spot and reveal centre in frame pixels."""
    layout = calibration.layout
    out = []
    for seat in range(calibration.seats):
        spot = calibration.to_frame(*layout.goblet_spot(seat))
        reveal = calibration.to_frame(*layout.reveal_centre(seat))
        out.append(
            {
                "seat": seat,
                "spot": [round(spot[0], 1), round(spot[1], 1)],
                "reveal": [round(reveal[0], 1), round(reveal[1], 1)],
            }
        )
    return out
