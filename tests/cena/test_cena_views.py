"""Views as an attacker sees them: any other deal consistent with what a viewer saw gives the
viewer exactly the same view, at every step of random games, for every viewer.

"Consistent" keeps what the viewer has seen: its own hand (a seat), the face-up Welcome cards, the
cards played, hand sizes; every other card (the other hands, the cards set aside, a Welcome choice
not yet shown) is dealt again at random.
"""

from __future__ import annotations

import json
import random

import pytest
from cena_helpers import new

from companion.core.game import CHANCE, HOST, PUBLIC, Viewer
from companion.core.games.cena.cards import WELCOME_CARDS, sort_key
from companion.core.games.cena.state import CenaState


def resample(state: CenaState, viewer: Viewer, rng: random.Random) -> CenaState:
    """A copy of ``state`` whose cards hidden from ``viewer`` are dealt again."""
    other = state.clone()
    hidden_houses = [
        h for h in range(state.num_seats) if not (viewer.is_seat and viewer.index == h)
    ]
    shown = {h: list(state.faces[h]) if state.faces else [] for h in hidden_houses}
    pool = list(state.set_aside)
    for h in hidden_houses:
        pool += [c for c in state.hands[h] if c not in shown[h]]
    rng.shuffle(pool)
    for h in hidden_houses:
        size = len(state.hands[h]) - len(shown[h])
        other.hands[h] = sorted(shown[h] + pool[:size], key=sort_key)
        pool = pool[size:]
        if h in other.chosen:
            other.chosen[h] = sorted(rng.sample(other.hands[h], WELCOME_CARDS), key=sort_key)
    other.set_aside = sorted(pool, key=sort_key)
    return other


def view_text(state, viewer):
    return json.dumps(state.view(viewer), sort_keys=True)


@pytest.mark.parametrize(
    "options",
    [{"players": 3}, {"players": 4, "private_feast": True}, {"players": 5, "single_course": True}],
)
def test_no_view_tells_consistent_deals_apart(options):
    rng = random.Random(json.dumps(options))
    state = new(options)
    viewers = [PUBLIC, HOST, *(Viewer.seat(h) for h in range(state.num_seats))]
    checked = differed = 0
    while not state.is_over():
        if state.to_move() is CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if state.phase in ("welcome", "feast") and rng.random() < 0.3:
            for viewer in viewers:
                other = resample(state, viewer, rng)
                assert view_text(other, viewer) == view_text(state, viewer), viewer
                checked += 1
                differed += other.hands != state.hands
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 20 and differed > 0
