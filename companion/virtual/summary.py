"""Tracker events and a Course's ground truth, reduced to one comparable :class:`Summary`.

The tracker's bar (issue 3): "the moves in order, the pours into each goblet between two moves,
and the final table must be exact". A Summary holds exactly those three things:

- ``moves``: the ``rotate``, ``swap``, ``lift`` and ``move`` events in order, without ``t``;
- ``pours``: for each stretch between two moves (one more stretch than moves), the sorted
  ``(goblet, token kind)`` pairs poured in it (a later ``pour_corrected`` event amends the pour
  it names);
- ``final``: ``{"seats": {"0": NAME, ...}, "goblets": {NAME: {KIND: count}}}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

MOVE_EVENTS = frozenset({"rotate", "swap", "lift", "move"})
"""The events that separate two stretches of pours."""


@dataclass(frozen=True)
class Summary:
    """The moves, the pours between moves, and the final table (see the module docstring)."""

    moves: tuple[dict, ...]
    pours: tuple[tuple[tuple[str, str], ...], ...]
    final: dict

    def differences(self, other: Summary) -> list[str]:
        """Human-readable differences from ``other`` (empty when equal)."""
        found = []
        if list(self.moves) != list(other.moves):
            found.append(f"moves: {list(self.moves)} != {list(other.moves)}")
        if self.pours != other.pours:
            for i, (a, b) in enumerate(zip(self.pours, other.pours, strict=False)):
                if a != b:
                    found.append(f"pours before move {i}: {a} != {b}")
                    break
            else:
                found.append(f"{len(self.pours)} stretches of pours != {len(other.pours)}")
        if self.final != other.final:
            found.append(f"final: {self.final} != {other.final}")
        return found


def summarize(
    events: Iterable[Mapping[str, Any]], state: Mapping[str, Any] | None = None
) -> Summary:
    """The Summary of a tracker's events; ``state`` defaults to the last ``state`` event."""
    moves: list[dict] = []
    stretches: list[list[list[str]]] = [[]]
    poured: dict[str, list[str]] = {}
    for event in events:
        kind = event.get("event")
        if kind in MOVE_EVENTS:
            moves.append({k: v for k, v in event.items() if k != "t"})
            stretches.append([])
        elif kind == "pour":
            pour = [event["goblet"], event["token"]]
            stretches[-1].append(pour)
            poured[event.get("uid", "")] = pour
        elif kind == "pour_corrected" and event.get("uid") in poured:
            # The tracker corrects an earlier pour: it went into another Goblet.
            poured[event["uid"]][0] = event["to"]
        elif kind == "state":
            state = event
    final = {} if state is None else {"seats": state["seats"], "goblets": state["goblets"]}
    return Summary(
        moves=tuple(moves),
        pours=tuple(tuple(sorted((g, k) for g, k in stretch)) for stretch in stretches),
        final=final,
    )
