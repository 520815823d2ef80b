"""Views: the ONLY way secrets leave the game (DESIGN.md principle 3).

``view(state, viewer)`` for the public (tablet), the host and each seat. Before the reveal nobody
sees what a Goblet holds, the host included. A seat also sees its own screen, Target (Targets are
face up: public anyway), Character, what it peeked (and when), its Winetaster card, and, with
hidden VP, its own VP. :func:`hidden_alternatives` and :func:`reveals_hidden` describe, for the
conformance suite's attacker test, which actions a viewer could not tell apart.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import TYPE_CHECKING, Any

from companion.core.game import CHANCE, PUBLIC, Action, Event, Viewer
from companion.core.games.goblets.tokens import Token

if TYPE_CHECKING:
    from companion.core.games.goblets.state import GobletsState


def _public(state: GobletsState) -> dict[str, Any]:
    opts = state.opts
    over = state.phase == "over"
    vp_visible = not opts.hidden_vp or over
    mover = state.to_move()
    step = None
    if state.phase == "play" and state.steps:
        current = state.steps[0]
        step = {
            "kind": current["kind"],
            "seat": current["seat"],
            "place": current["place"],
            "limit": current["limit"],
            "taken": state.taken,
        }
    cards = []
    for seat in range(opts.players):
        card = state.card(seat)
        cards.append(
            None
            if card is None
            else {
                "seat": seat,
                "name": card.name,
                "text": card.text,
                "timing": card.timing,
                "face_up": state.active_card(seat) is not None,
            }
        )
    results = []
    for result in state.results:
        shown = dict(result)
        if not vp_visible:
            del shown["vp"]
        results.append(shown)
    return {
        "game": "goblets",
        "variant": opts.variant,
        "players": opts.players,
        "courses": opts.courses,
        "course": state.course,
        "phase": state.phase,
        "stage": state.stage,
        "to_move": "chance" if mover is CHANCE else mover,
        "step": step,
        "turn": state.turn_number,
        "host": state.host,
        "toast_caller": state.toast_caller,
        "raise_your_memory": opts.raise_your_memory,
        "legacy": opts.legacy,
        "hidden_vp": opts.hidden_vp,
        "places": [
            {
                "place": index,
                "house": opts.houses[index],
                "seats": list(place["seats"]),
                "winetaster": place["winetaster"],
                "noble": place["noble"],
                "target": state.targets[index],
                "ring": state.ring_at(index),
            }
            for index, place in enumerate(state.places)
        ],
        "characters": cards,
        "used_abilities": [list(used) for used in state.used_course],
        "results": results,
        "vp": list(state.vp) if vp_visible else None,
        "warnings": list(state.warnings),
        "winners": state.winners,
        "shootout": None if state.shootout is None else state.shootout.view(PUBLIC),
    }


def view(state: GobletsState, viewer: Viewer) -> dict[str, Any]:
    """Everything ``viewer`` may see, as JSON-able data."""
    data = _public(state)
    data["viewer"] = str(viewer)
    if not viewer.is_seat:
        return data
    seat = viewer.index
    assert seat is not None
    place = state.place_index(seat)
    info = state.places[place]
    role = "player"
    if info["winetaster"] == seat:
        role = "winetaster"
    elif info["noble"] == seat:
        role = "noble"
    data["you"] = {
        "seat": seat,
        "place": place,
        "house": state.opts.houses[place],
        "role": role,
        "screen": dict(state.screens[place]),
        "target": state.targets[place],
        "character": state.characters[seat],
        "peeks": [dict(peek) for peek in state.peeks[seat]],
        "winetaster_card": state.wt_cards[seat],
        "vp": state.vp[seat],
    }
    return data


def events_for(events: list[Event], viewer: Viewer) -> list[Event]:
    """The events ``viewer`` may see: an event with ``"to": seat`` is for that seat only."""
    return [
        event
        for event in events
        if "to" not in event or (viewer.is_seat and event["to"] == viewer.index)
    ]


def hidden_alternatives(state: GobletsState, action: Action, viewer: Viewer) -> list[Action]:
    """Other actions ``viewer`` could not tell apart from ``action`` if applied now."""
    kind = action.get("type")
    if state.phase == "shootout":
        return state.shootout.hidden_alternatives(action, viewer)
    if kind == "initial_pour":
        tokens = list(action.get("tokens", []))
        others = sorted(set(permutations(tokens)) - {tuple(tokens)})
        return [{"type": kind, "tokens": list(order)} for order in others]
    if kind == "pour" and isinstance(action.get("seat"), int):
        place = state.place_index(action["seat"])
        if viewer.is_seat and viewer.index in state.places[place]["seats"]:
            return []  # the pourer's own screen shows what went
        screen = state.screens[place]
        return [
            {**action, "token": token.value}
            for token in Token
            if screen.get(token.value, 0) and token.value != action.get("token")
        ]
    if kind == "deal_winetaster_cards":
        return _other_winetaster_deals(state, action, viewer)
    if kind == "ability" and action.get("seat") != (viewer.index if viewer.is_seat else None):
        return _averted_alternatives(state, action)
    return []


def _other_winetaster_deals(state: GobletsState, action: Action, viewer: Viewer) -> list[Action]:
    cards = list(action.get("cards", []))
    mine = None
    if viewer.is_seat:
        for index, place in enumerate(state.places):
            if place["winetaster"] == viewer.index:
                mine = index
    pairs = [i for i, card in enumerate(cards) if card is not None]
    out = []
    for flip in pairs:
        if flip == mine:
            continue
        other = {"loyal": "traitor", "traitor": "loyal"}.get(cards[flip])
        if other is not None:
            out.append(
                {"type": action["type"], "cards": [*cards[:flip], other, *cards[flip + 1 :]]}
            )
    return out


def _averted_alternatives(state: GobletsState, action: Action) -> list[Action]:
    """Everyone averted their eyes: a Swap and a Coaster exchange leave the same rings in view."""
    if "coasters" not in action or not isinstance(action.get("goblets"), list):
        return []
    if action.get("swap") and action.get("coasters"):
        return [
            {**action, "goblets": [p, q]}
            for p, q in combinations(range(len(state.places)), 2)
            if [p, q] != action["goblets"]
        ]
    return [{**action, "swap": not action.get("swap"), "coasters": not action.get("coasters")}]


def reveals_hidden(state: GobletsState, action: Action) -> bool:
    """A reveal, a Peek (to the peeker) and a shoot-out choice show what was hidden."""
    if state.phase == "shootout":
        return state.shootout.reveals_hidden(action)
    kind = action.get("type")
    if kind in ("reveal", "peek"):
        return True
    return kind == "ability" and "goblet" in action
