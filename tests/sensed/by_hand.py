"""Helpers for the tests that feed a Raise Your Goblets sensed table tracker events by hand.

Places 0-3 hold the Goblets of de_miceti, mctoadery, aconitiers and wespendorf (:data:`HOUSES`);
:func:`poured_first` starts the Course and has the Host pour :data:`FIRST` ("the Host places 1
token in each Goblet": an Antidote, two Poisons, a Wine).
"""

from __future__ import annotations

from companion.core.games.goblets.sensed import Result, SensedTable

FIRST = {
    "de_miceti": "antidote",
    "mctoadery": "poison",
    "aconitiers": "poison",
    "wespendorf": "wine",
}
"""The initial pour, Goblet by Goblet."""
HOUSES = list(FIRST)
"""The Goblets at places 0-3."""


def pour(goblet: str, token: str) -> dict:
    """The tracker's event: ``token`` poured into ``goblet`` at t=1."""
    return {"t": 1.0, "event": "pour", "goblet": goblet, "token": token, "uid": "04AA"}


def poured_first(sensed: SensedTable) -> SensedTable:
    """``sensed`` with its Course started and the initial pour (:data:`FIRST`) seen."""
    sensed.start_course()
    sensed.on_events([pour(g, k) for g, k in FIRST.items()])
    return sensed


def kinds(result: Result) -> list[tuple]:
    """The actions applied, as (type, seat)."""
    return [(a.action["type"], a.action.get("seat")) for a in result.applied]


def warned(result: Result) -> list[tuple]:
    """The rule warnings the actions raised, as (message, rule)."""
    return [(e["message"], e["rule"]) for e in result.events if e.get("event") == "rule_warning"]
