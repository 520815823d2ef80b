"""Alliances: where they lie, what they combine, and which one wins a trick.

"Place one alliance card between each House": alliance ``a`` lies between House ``a`` and House
``a+1`` (clockwise; "to the left" is the next House clockwise). "The winning trick is determined
by combining the two halves of the cards on both sides of each alliance card." With the default
orientation (docs/rules-notes.md, "Cena", worked example there) each card lies toward the House it
is in front of, suit on that House's left: alliance ``a`` combines the **suit** of the card in
front of House ``a`` with the **value** of the card in front of House ``a+1``. ``"mirrored"`` is
the other reading (suit from House ``a+1``, value from House ``a``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from companion.core.games.cena.cards import Card

ORIENTATIONS = ("house", "mirrored")


class Played(NamedTuple):
    """A card in front of a House this trick: the card, the House that played it, when (0-based)."""

    card: Card
    by: int
    order: int


def alliance_houses(alliance: int, houses: int) -> tuple[int, int]:
    """The two Houses on both sides of ``alliance``: ``(a, a+1)``, the second to the left."""
    return alliance, (alliance + 1) % houses


def house_alliances(house: int, houses: int) -> tuple[int, int]:
    """The two alliances of ``house``: the one on its right (``h-1``) and on its left (``h``)."""
    # "each House scores the cards won by its two alliances."
    return (house - 1) % houses, house


def combined(alliance: int, table: Sequence[Played | None], orientation: str) -> Card | None:
    """The card ``alliance`` makes of the two halves beside it (None until both cards lie)."""
    right, left = (table[h] for h in alliance_houses(alliance, len(table)))
    if right is None or left is None:
        return None
    if orientation == "mirrored":
        return Card(left.card.suit, right.card.value)
    return Card(right.card.suit, left.card.value)


def completed_at(alliance: int, table: Sequence[Played | None]) -> int | None:
    """The play (0-based within the trick) that completed ``alliance``, None if not complete."""
    right, left = (table[h] for h in alliance_houses(alliance, len(table)))
    if right is None or left is None:
        return None
    return max(right.order, left.order)


def clockwise_distance(alliance: int, leader: int, houses: int) -> int:
    """How far ``alliance`` lies clockwise from the House ``leader`` (0 = on its left side)."""
    return (alliance - leader) % houses


def trick_winner(
    table: Sequence[Played | None], leader: int, lead_suit: str, orientation: str
) -> int | None:
    """The alliance that wins the trick on ``table`` (None if no complete alliance has the suit).

    "The alliance with the highest value in the lead suit wins the trick. In case of a tie, the
    alliance that was completed last wins. If multiple alliances are completed simultaneously, the
    winning one is the Alliance furthest, clockwise, from the House that led the trick."
    """
    houses = len(table)
    best: tuple[int, int, int] | None = None
    winner = None
    for alliance in range(houses):
        card = combined(alliance, table, orientation)
        if card is None or card.suit != lead_suit:
            continue
        when = completed_at(alliance, table)
        assert when is not None
        key = (card.value, when, clockwise_distance(alliance, leader, houses))
        if best is None or key > best:
            best, winner = key, alliance
    return winner


def next_leader(alliance: int, houses: int) -> int:
    """ "The House to the left of the winning alliance card receives the invitation tile"."""
    return alliance_houses(alliance, houses)[1]
