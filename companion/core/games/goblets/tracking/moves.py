"""Naming a change of layout: one ``rotate``, one ``swap``, or plain ``move`` events.

The tracker compares two believed layouts (seat -> Goblet, every seat holding one Goblet) and
names the permutation between them, however it was done by hand (goblet by goblet, with seats
empty for a while):

- every Goblet one seat on in the same direction: ONE ``rotate`` event. Rulebook, Rotate: "Move
  all of the Goblets one place in the same direction, clockwise or widdershins". Clockwise means
  the Goblet at seat i moves to seat i+1 (seats are numbered clockwise).
- exactly two Goblets exchanged: ONE ``swap`` event (rulebook, Swap: "Exchange Your Goblet for
  that of another player"). With two seats a swap and a rotation are the same move: it is a swap.
- anything else (a 3-cycle, two moves done at once without the table settling between them): one
  ``move`` event per Goblet that changed seat, in seat order, for the game to judge. This is not a
  ``conflict``: the table is fully explained, only not by one rulebook action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def classify(
    before: Mapping[int, str], after: Mapping[int, str], seats: int
) -> list[dict[str, Any]]:
    """The events (without ``t``) that turn layout ``before`` into ``after``.

    Both map every seat ``0..seats-1`` to a Goblet, the same Goblets. Returns ``[]`` when nothing
    moved.
    """
    where = {goblet: seat for seat, goblet in after.items()}
    moved = {seat: where[goblet] for seat, goblet in before.items() if where[goblet] != seat}
    if not moved:
        return []
    if len(moved) == 2:
        a, b = sorted(moved)
        if moved[a] == b and moved[b] == a:
            return [{"event": "swap", "seats": [a, b]}]
    if len(moved) == seats:
        # The rulebook's words: "Move all of the Goblets one place in the same direction,
        # clockwise or widdershins" (the engine's Rotate says the same).
        for step, direction in ((1, "clockwise"), (-1, "widdershins")):
            if all(new == (old + step) % seats for old, new in moved.items()):
                return [{"event": "rotate", "direction": direction}]
    return [
        {"event": "move", "goblet": before[seat], "from": seat, "to": moved[seat]}
        for seat in sorted(moved)
    ]
