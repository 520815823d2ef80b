"""A whole game played at random, moment by moment: what each moment offers (or chance draws)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.core.game import CHANCE, GameState


def offers(state: GameState, rng: random.Random) -> Iterator[list[dict[str, Any]]]:
    """Until ``state`` is over: yield the legal actions (or the one chance draw) due now, then
    apply one of them chosen with ``rng``."""
    while not state.is_over():
        chance = state.to_move() is CHANCE
        offered = [state.sample_chance(rng)] if chance else state.legal_actions()
        yield offered
        state.apply(rng.choice(offered))
