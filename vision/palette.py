"""Colours the camera tells apart: six House Coaster rings and five kinds of token.

Rulebook, Ingredients: "6 Goblets (with 6 Coaster rings in 6 colors)" and "52 plastic tokens: 21
Wine (red) | 15 Poison (black) | 14 Antidote (white) | 1 Unicorn Antidote (blue) | 1 Ogre Poison
(green)". The ring colours and the colour-blind patterns are read from
``companion.core.games.goblets.houses.RING_LOOKS``, the table the dashboard draws from too, so a
printed ring set matches the screen. Colours are RGB as seen under neutral light on the reference
cloth; :mod:`vision.frame` normalises a frame's lighting to that reference before colours are
compared.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.core.games.goblets.houses import HOUSE_IDS, RING_LOOKS

RGB = tuple[int, int, int]

RING_COLOURS: Mapping[str, RGB] = {
    house: (int(look.colour[1:3], 16), int(look.colour[3:5], 16), int(look.colour[5:7], 16))
    for house, look in RING_LOOKS.items()
}
"""House id -> ring colour, from the one table (``companion.core.games.goblets.houses``)."""

RING_PATTERNS: Mapping[str, str] = {house: look.pattern for house, look in RING_LOOKS.items()}
"""House id -> the white pattern printed over the ring colour (the same table)."""

TOKEN_COLOURS: Mapping[str, RGB] = {
    "wine": (150, 25, 45),
    "poison": (26, 26, 30),
    "antidote": (238, 236, 228),
    "unicorn_antidote": (35, 90, 205),
    "ogre_poison": (40, 150, 60),
}
"""Token kind (the tracker's and the engine's names) -> colour."""

CLOTH: RGB = (128, 124, 116)
"""The reference table cloth: a mid grey that both black and white tokens stand out on."""
PEWTER: RGB = (168, 168, 172)
"""A goblet's foot and bowl seen from above."""
BOWL: RGB = (62, 56, 60)
"""The dark opening of the bowl."""
PATTERN: RGB = (236, 236, 236)
"""The white of the ring patterns."""

assert tuple(RING_COLOURS) == HOUSE_IDS, "one ring colour per House, in rulebook order"
