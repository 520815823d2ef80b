"""The six Otravian Noble Houses ("Our Dear Guests"), in rulebook order.

Each House is a screen, a Coaster ring of its colour and a Target card: "Each player receives a
screen, which represents their House" and "Check the Target cards: take the ones corresponding to
the Houses in play". Each House's ring look (colour, its name, a pattern) is here too: the one
table the pages and the camera read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

HOUSES: Mapping[str, str] = {
    "de_miceti": "De Miceti",
    "mctoadery": "McToadery",
    "aconitiers": "Aconitiers",
    "wespendorf": "Wespendorf",
    "van_visser": "Van Visser",
    "araneros": "Arañeros",
}
"""House id -> printed name, in the rulebook's order (the default order of the Houses in play)."""

HOUSE_IDS: tuple[str, ...] = tuple(HOUSES)
"""The house ids in rulebook order."""


@dataclass(frozen=True)
class RingLook:
    """How a House's Coaster ring looks: its colour ("6 Goblets (with 6 Coaster rings in 6
    colors)"), that colour's name, and the white pattern printed over it, so a player who cannot
    tell the colours apart tells the rings apart by name and pattern (never colour alone)."""

    colour: str
    """``#rrggbb``, as drawn on the screen and printed on the ring set (vision/palette.py too)."""
    colour_name: str
    pattern: str


RING_LOOKS: Mapping[str, RingLook] = {
    "de_miceti": RingLook("#8b5a2b", "brown", "stripes"),
    "mctoadery": RingLook("#2e8b57", "green", "dots"),
    "aconitiers": RingLook("#6a3d9a", "purple", "cross"),
    "wespendorf": RingLook("#e0b000", "yellow", "zigzag"),
    "van_visser": RingLook("#1f78b4", "blue", "waves"),
    "araneros": RingLook("#c0392b", "red", "grid"),
}
"""House id -> its ring's look: the one table the pages (``house_table``) and the camera
(``vision.palette``) both read."""

assert tuple(RING_LOOKS) == HOUSE_IDS, "one ring per House, in rulebook order"


def house_table() -> list[dict[str, str]]:
    """Every House as the pages show it, in rulebook order (a list: a JSON object's keys may be
    sorted on the way): ``[{id, name, colour, colour_name, pattern}]``, for ``static/goblets.js``,
    which holds no copy of it."""
    return [
        {
            "id": house,
            "name": HOUSES[house],
            "colour": look.colour,
            "colour_name": look.colour_name,
            "pattern": look.pattern,
        }
        for house, look in RING_LOOKS.items()
    ]
