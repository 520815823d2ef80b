"""Character abilities (4-6 players) played by the legal puppeteer and read by simulated readers.

The owner taps the ability on their phone, then makes its physical effect at the table: a Goblet
lifted and looked into (``peek_any``), two Goblets swapped (``swap_any``, the averted-eyes card),
two Coasters exchanged (the averted-eyes card), a token taken behind the screen (``take_token``,
nothing to read). The sensed journal must be exactly the puppeteer's game: the effect read is the
ability's, never a new action. ``DECK`` covers every active effect and timing the engine knows,
and the passive extra actions. Seeds 0-19 at each count in docs/tracking.md ("Character
abilities"), from ``scripts/bench_sensed_variants.py --variant characters``.
"""

from __future__ import annotations

import pytest

from tests.virtual.variant_play import exact, play, warnings

DECK = [
    {"name": "King Cobra", "timing": "toast_phase", "effect": "extra_toast_action"},
    {
        "name": "Averted Eyes",
        "timing": "own_turn",
        "once_per_course": True,
        "effect": "swap_and_exchange_coasters",
    },
    {"name": "Seer", "timing": "own_turn", "once_per_course": True, "effect": "peek_any"},
    {"name": "Schemer", "timing": "course_start", "effect": "swap_any"},
    {
        "name": "Ogre",
        "timing": "own_turn",
        "once_per_course": True,
        "effect": "take_token",
        "token": "ogre_poison",
    },
    {"name": "Glutton", "timing": "passive", "effect": "extra_action"},
    {"name": "Last Look", "timing": "before_drinking", "effect": "peek_any"},
]
"""Seven cards (one per player and one left over), every effect the sensed table reads."""


def used(sink) -> set[str]:
    """The cards used in the journal (``+coasters`` when Coasters were exchanged)."""
    return {
        a["card"] + ("+coasters" if a.get("coasters") else "")
        for a in sink.actions
        if a["type"] == "ability"
    }


@pytest.mark.parametrize("noise", ["none", "moderate"])
@pytest.mark.parametrize("players", [4, 5, 6])
def test_the_sensed_journal_is_the_puppeteers_game_with_characters(players: int, noise: str):
    cards: set[str] = set()
    for seed in (3, 4):  # at 4 players seeds 0 and 1 deal no card used by hand
        puppet, sink = play(seed, {"players": players, "courses": 1, "characters": DECK}, noise)
        assert warnings(sink) == []
        assert exact(puppet, sink), f"seed {seed}"
        cards |= used(sink)
    assert cards  # abilities were tapped and read in these games


def test_coasters_exchanged_and_carried_into_the_next_course() -> None:
    # Seed 0 at 5 players exchanges Coasters in the first Course: in the second, "Each player
    # should take the Goblet with the Coaster ring that matches their House" takes the other cup.
    puppet, sink = play(0, {"players": 5, "courses": 2, "characters": DECK}, "moderate")
    assert "Averted Eyes+coasters" in used(sink)
    assert exact(puppet, sink)
    assert len(sink.session.state.results) == 2
    assert sink.session.state.ring_of != list(sink.session.state.opts.houses)  # rings moved
