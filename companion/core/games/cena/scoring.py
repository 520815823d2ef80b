"""Scoring a round and the game: cards won by a House's two alliances, minus the poison.

"Once all cards have been played, each House scores the cards won by its two alliances. Each card
is worth 1 point. Then apply the penalty from the poison card revealed in this round and subtract
the corresponding points. The score may be negative (life is tough)." At the end "the House with
the most points wins. In case of a tie, raise a toast and share the victory!"
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.core.games.cena.alliances import house_alliances
from companion.core.games.cena.cards import Card
from companion.core.games.cena.poisons import Poison, deductions


def round_scores(
    won: Sequence[Sequence[Card]], poisons: Sequence[Poison], last_trick: int | None
) -> list[dict[str, Any]]:
    """Each House's round: ``{"house", "cards", "penalty", "points"}`` (points may be negative).

    ``won[a]`` are the cards alliance ``a`` won; several poisons (a scoring aid, one per round in
    the game) add up their deductions, each worked out from the cards as won.
    """
    houses = len(won)
    penalties = [0] * houses
    for poison in poisons:
        for house, lost in enumerate(deductions(poison, won, last_trick)):
            penalties[house] += lost
    scores = []
    for house in range(houses):
        cards = sum(len(won[a]) for a in house_alliances(house, houses))
        scores.append(
            {
                "house": house,
                "cards": cards,
                "penalty": penalties[house],
                "points": cards - penalties[house],
            }
        )
    return scores


def winners(totals: Sequence[int]) -> list[int]:
    """Every House with the most points (a tie shares the victory)."""
    best = max(totals)
    return [house for house, total in enumerate(totals) if total == best]
