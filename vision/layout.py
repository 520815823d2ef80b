"""The canonical top-down table every frame is warped to, and where things stand on it.

The calibration's homography maps a camera frame onto a square canonical image of ``SIZE`` pixels
with the round table of radius ``TABLE_RADIUS`` at its centre. Seats are numbered clockwise as the
tracker numbers them ("Clockwise means the Goblet at seat i moves to seat i+1"); seat 0 is at the
bottom of the canonical view (image y grows downwards, so growing angles turn clockwise as seen
from above). Rulebook: "Place 1 Goblet per player in a circle in the middle of the table", so each
seat has a goblet spot on an inner circle; at the Toast "each player takes the Goblet in front of
them [...] and reveals its contents", which the camera counts in the seat's reveal area further
out. Four ArUco markers (ids 0-3) stuck on the table between the seats fix the homography.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from companion.core.errors import MalformedInput

SIZE = 800
"""Side of the canonical image, pixels."""
CENTRE = (SIZE / 2, SIZE / 2)
TABLE_RADIUS = 380.0
GOBLET_CIRCLE = 0.36 * TABLE_RADIUS
"""Radius of the circle of goblet spots."""
RING_OUTER = 34.0
RING_INNER = 24.0
"""A Coaster ring is the annulus between these radii around the goblet's foot."""
REVEAL_CIRCLE = 0.68 * TABLE_RADIUS
REVEAL_RADIUS = 0.17 * TABLE_RADIUS
"""Each seat's reveal area: a disc of this radius on the circle ``REVEAL_CIRCLE``."""
TOKEN_RADIUS = 11.0
"""A token's radius in canonical pixels (a 2 cm token on a 1.4 m table)."""
MARKER_CIRCLE = 0.9 * TABLE_RADIUS
MARKER_SIZE = 40.0
MARKER_KEEP_OUT = 42.0
"""No token is looked for this close to a marker's centre (its white margin is no Antidote)."""
MARKER_IDS = (0, 1, 2, 3)
MIN_SEATS, MAX_SEATS = 2, 6
"""Six Goblets with six ring colours: 4-6 players, Winetaster pairs share one place."""


def _point(angle: float, radius: float) -> tuple[float, float]:
    return (CENTRE[0] + radius * math.cos(angle), CENTRE[1] + radius * math.sin(angle))


def marker_angle(marker: int) -> float:
    """Angle of ArUco marker ``marker``: 45 degrees clockwise past seat 0, then every 90."""
    return math.pi / 2 + math.pi / 4 + marker * math.pi / 2


def marker_centre(marker: int) -> tuple[float, float]:
    """Canonical centre of marker ``marker`` (0-3)."""
    return _point(marker_angle(marker), MARKER_CIRCLE)


@dataclass(frozen=True)
class TableLayout:
    """Where each of ``seats`` seats has its goblet spot and reveal area (canonical pixels)."""

    seats: int

    def seat_angle(self, seat: int) -> float:
        """Angle of ``seat`` (radians, y down): seat 0 at the bottom, then clockwise."""
        return math.pi / 2 + 2 * math.pi * seat / self.seats

    def goblet_spot(self, seat: int) -> tuple[float, float]:
        """Centre of the goblet spot in front of ``seat``."""
        return _point(self.seat_angle(seat), GOBLET_CIRCLE)

    def reveal_centre(self, seat: int) -> tuple[float, float]:
        """Centre of ``seat``'s reveal area."""
        return _point(self.seat_angle(seat), REVEAL_CIRCLE)

    def nearest_seat(self, x: float, y: float) -> tuple[int, float]:
        """The seat whose goblet spot is nearest to ``(x, y)``, and the distance to it."""
        best = min(range(self.seats), key=lambda s: math.dist((x, y), self.goblet_spot(s)))
        return best, math.dist((x, y), self.goblet_spot(best))


def check_seats(seats: Any) -> int:
    """``seats`` if it is a seat count the camera handles, else MalformedInput."""
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise MalformedInput(f"must be an integer, got {seats!r}", field="seats")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise MalformedInput(
            f"must be {MIN_SEATS}..{MAX_SEATS} (one Goblet per place), got {seats}",
            field="seats",
        )
    return seats
