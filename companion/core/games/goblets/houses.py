"""The six Otravian Noble Houses ("Our Dear Guests"), in rulebook order.

Each House is a screen, a Coaster ring of its colour and a Target card: "Each player receives a
screen, which represents their House" and "Check the Target cards: take the ones corresponding to
the Houses in play".
"""

from __future__ import annotations

from collections.abc import Mapping

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
