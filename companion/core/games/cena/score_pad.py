"""The score pad as a service: one round scored from the cards each alliance won and the poison.

A request (JSON-able, e.g. ``companion cena score``'s stdin)::

    {"alliances": [["wine-7", "beer-2", ...], [...], [...]],   # cards won, alliance 0 first
     "poison": 6,                                             # or a list of Poison numbers
     "last_trick": 1}                                         # needed by poison 6 only

Alliance ``a`` lies between House ``a`` and House ``a+1`` (3 to 5 alliances, one per House). The
answer is ``{"houses": [{"house", "cards", "penalty", "points"}, ...], "poisons": [...]}``. Bad
input raises MalformedInput naming the field (``alliances[1][3]``, ``poison``, ``last_trick``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.checks import whole
from companion.core.errors import MalformedInput
from companion.core.games.cena.cards import MAX_HOUSES, MIN_HOUSES, Card, parse_card
from companion.core.games.cena.poisons import Poison, parse_poison
from companion.core.games.cena.scoring import round_scores

KEYS = ("alliances", "poison", "last_trick")


def _alliances(raw: Any) -> list[list[Card]]:
    if not isinstance(raw, list) or not MIN_HOUSES <= len(raw) <= MAX_HOUSES:
        raise MalformedInput(
            f"a list of {MIN_HOUSES} to {MAX_HOUSES} alliances, each a list of cards won",
            field="alliances",
        )
    seen: set[str] = set()
    won = []
    for a, cards in enumerate(raw):
        if not isinstance(cards, list):
            raise MalformedInput("a list of cards won", field=f"alliances[{a}]")
        parsed = []
        for i, name in enumerate(cards):
            card = parse_card(name, f"alliances[{a}][{i}]")
            if card.name in seen:
                raise MalformedInput(f"{card.name} is won twice", field=f"alliances[{a}][{i}]")
            seen.add(card.name)
            parsed.append(card)
        won.append(parsed)
    return won


def _poisons(raw: Any) -> list[Poison]:
    if isinstance(raw, list):
        if not raw:
            raise MalformedInput("at least one Poison card", field="poison")
        poisons = [parse_poison(n, f"poison[{i}]") for i, n in enumerate(raw)]
        if len({p.number for p in poisons}) != len(poisons):
            raise MalformedInput("each Poison card at most once", field="poison")
        return poisons
    return [parse_poison(raw, "poison")]


def score_request(data: Any) -> dict[str, Any]:
    """Score the round described by ``data`` (see the module docstring)."""
    if not isinstance(data, Mapping):
        raise MalformedInput("a JSON object", field="input")
    for key in data:
        if key not in KEYS:
            raise MalformedInput(f"unknown key (known: {', '.join(KEYS)})", field=str(key))
    for key in ("alliances", "poison"):
        if key not in data:
            raise MalformedInput("missing", field=key)
    won = _alliances(data["alliances"])
    poisons = _poisons(data["poison"])
    last_trick = data.get("last_trick")
    if last_trick is not None:
        top = len(won) - 1
        whole(last_trick, "last_trick", f"an alliance, 0 to {top}", low=0, high=top)
    if last_trick is None and any(p.number == 6 for p in poisons):
        raise MalformedInput(
            "missing: Aconitum napellus needs the alliance that won the last trick",
            field="last_trick",
        )
    return {
        "houses": round_scores(won, poisons, last_trick),
        "poisons": [p.to_json() for p in poisons],
    }
