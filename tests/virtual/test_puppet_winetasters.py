"""Winetasters (7-12 players) played by the legal puppeteer and read by simulated readers.

The puppeteer plays Noble and Winetaster pairs sharing one Goblet on one reader spot; the sensed
journal must be exactly its game (every pair's defer, free Peek, pour and move attributed to the
right seat: core/games/goblets/sensed/pairs.py), scored the same, with no rule warning. One seed of
each player count at no and at moderate noise, one Course each (a few seconds in all); the 20-seed
figures are in docs/tracking.md ("Winetasters"), from ``scripts/bench_sensed_variants.py``.
"""

from __future__ import annotations

import pytest

from companion.core import registry
from companion.core.game import Mode
from tests.virtual.variant_play import exact, play, warnings


@pytest.mark.parametrize("noise", ["none", "moderate"])
@pytest.mark.parametrize("players", range(7, 13))
def test_the_sensed_journal_is_the_puppeteers_winetasters_game(players: int, noise: str) -> None:
    options = {"players": players, "courses": 1}
    puppet, sink = play(players, options, noise)
    assert warnings(sink) == []
    assert exact(puppet, sink)
    # The journal replays under the rules it was read by, enforcing every one of them.
    state = registry.get("goblets").new_state({**options, "characters": []})
    for action in sink.actions:
        state.apply(action, Mode.ENFORCING)
    assert state.outcome() == puppet.engine.outcome()
    kinds = {a["type"] for a in sink.actions}
    assert {"deal_winetaster_cards", "defer", "pour", "toast", "reveal"} <= kinds


def test_two_courses_swap_the_roles_and_the_reader_spots_stay() -> None:
    # "After each Course, each player who was a Noble will play as the Winetaster for the player
    # to their left in the next Course": the pairs change, the places (Goblets, readers) do not.
    puppet, sink = play(2, {"players": 9, "courses": 2}, "moderate")
    assert exact(puppet, sink)
    first, second = (r["places"] for r in sink.session.state.results)
    assert [p["seats"] for p in first] != [p["seats"] for p in second]
    assert len(first) == len(second) == 5 == sink.session.table.places
