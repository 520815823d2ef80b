"""Views: the ONLY way secrets leave a game of Cena (DESIGN.md principle 3).

Hidden: every hand ("deals them one by one face down"), the cards set aside ("set aside face
down"), the poison pile ("Return the rest to the box without looking at them"), and a Welcome choice
until every House has chosen. The public (tablet) and the host see the same: face-up Welcome
cards, the cards on the table, tricks and cards won per alliance, the revealed poison, scores.
A seat also sees its own hand, its own Welcome choice, and its legal actions when it is to move.
:func:`alternatives` names, for the conformance suite's attacker test, the actions a viewer could
not tell apart.

Events (:func:`events_for`) are all public but one: a ``rule_warning`` for not following suit ("If
a House has cards of the lead suit, it must play one of them") tells that the House still holds a
card of the lead suit, which its hand hides; only that House sees it. Nothing else names a hand
card before it is played: ``dealt`` gives the hand size, ``welcome_chosen`` only the House,
``welcome_revealed`` the cards once every House has placed them face up, ``played`` and
``trick_won`` the cards on the table, ``round_scored`` how many cards were won.
"""

from __future__ import annotations

import copy
from itertools import combinations
from typing import Any

from companion.core.game import CHANCE, Action, Viewer
from companion.core.games.cena import rules
from companion.core.games.cena.alliances import alliance_houses, combined, completed_at
from companion.core.games.cena.cards import WELCOME_CARDS, sort_key
from companion.core.games.cena.model import CenaModel, Phase
from companion.core.games.cena.poisons import POISONS

MAX_ALTERNATIVES = 6


def _trick(state: CenaModel) -> dict[str, Any]:
    table = state.table
    orientation = state.options.orientation
    alliances = []
    for a in range(state.num_seats):
        card = combined(a, table, orientation)
        alliances.append(
            {
                "alliance": a,
                "combined": None if card is None else card.name,
                "completed_at": completed_at(a, table),
            }
        )
    return {
        "number": state.trick + 1,
        "leader": state.leader,
        "lead_suit": state.lead_suit,
        "table": [
            None
            if played is None
            else {"card": played.card.name, "played_by": played.by, "order": played.order}
            for played in table
        ],
        "alliances": alliances,
    }


def _public(state: CenaModel) -> dict[str, Any]:
    opts = state.options
    mover = state.to_move()
    feast, over = state.phase == Phase.FEAST, state.phase == Phase.OVER
    return {
        "game": "cena",
        "players": opts.players,
        "rounds": opts.rounds,
        "round": min(state.round + 1, opts.rounds),
        "phase": state.phase,
        "to_move": "chance" if mover is CHANCE else mover,
        "host": None if over else state.host,
        "invitation": state.leader if feast else (None if over else state.host),
        "rules": {
            "private_feast": opts.private_feast,
            "single_course": opts.single_course,
            "orientation": opts.orientation,
        },
        "poison": None if state.poison is None else POISONS[state.poison].to_json(),
        "poisons_revealed": [POISONS[n].to_json() for n in state.revealed],
        "poison_pile": len(state.pile),
        "set_aside": len(state.set_aside),
        "houses": [
            {
                "house": h,
                "hand_size": len(state.hands[h]),
                "welcome": None if state.faces is None else list(state.faces[h]),
                "welcome_chosen": h in state.chosen or state.faces is not None,
                "alliances": [(h - 1) % opts.players, h],
            }
            for h in range(opts.players)
        ],
        "alliances": [
            {
                "alliance": a,
                "houses": list(alliance_houses(a, opts.players)),
                "tricks": state.tricks[a],
                "cards": len(state.won[a]),
            }
            for a in range(opts.players)
        ],
        "trick": _trick(state) if feast else None,
        "last_trick": copy.deepcopy(state.last_trick),
        "scores": [
            {"round": s["round"], "poison": s["poison"], "houses": [dict(h) for h in s["houses"]]}
            for s in state.scores
        ],
        "totals": state.totals(),
        "result": state.outcome() or None,
    }


def build_view(state: CenaModel, viewer: Viewer, legal: list[Action]) -> dict[str, Any]:
    """The JSON-able view of ``state`` for ``viewer`` (public, host or one seat); ``legal`` is
    the viewer's own legal actions when it is to move (the state's rules: the view shows them)."""
    view = _public(state)
    view["viewer"] = str(viewer)
    if viewer.is_seat and viewer.index is not None and 0 <= viewer.index < state.num_seats:
        seat = viewer.index
        view["seat"] = seat
        view["hand"] = list(state.hands[seat])
        view["welcome_choice"] = state.chosen.get(seat)
        view["legal_actions"] = list(legal) if state.to_move() == seat else []
    return view


def _swap(deal: dict[str, Any], a: tuple[str, int], b: tuple[str, int]) -> dict[str, Any]:
    """``deal`` with the card at place ``a`` exchanged for the one at ``b`` (place: pile, index)."""
    piles = {"set_aside": list(deal["set_aside"])}
    for h, hand in enumerate(deal["hands"]):
        piles[f"hand{h}"] = list(hand)
    (pa, ia), (pb, ib) = a, b
    piles[pa][ia], piles[pb][ib] = piles[pb][ib], piles[pa][ia]
    return {
        "type": "deal",
        "hands": [sorted(piles[f"hand{h}"], key=sort_key) for h in range(len(deal["hands"]))],
        "set_aside": sorted(piles["set_aside"], key=sort_key),
    }


def _deal_alternatives(action: Action, viewer: Viewer) -> list[Action]:
    hands, aside = action.get("hands"), action.get("set_aside")
    if not isinstance(hands, list) or not isinstance(aside, list):
        return []
    hidden = [f"hand{h}" for h in range(len(hands)) if not (viewer.is_seat and viewer.index == h)]
    if aside:
        hidden.append("set_aside")
    sizes = {f"hand{h}": len(hand) for h, hand in enumerate(hands)} | {"set_aside": len(aside)}
    found = []
    for pa, pb in combinations(hidden, 2):
        for i in range(min(sizes[pa], sizes[pb], 2)):
            found.append(_swap(action, (pa, i), (pb, sizes[pb] - 1 - i)))
    return [a for a in found if a != action][:MAX_ALTERNATIVES]


def alternatives(state: CenaModel, action: Action, viewer: Viewer) -> list[Action]:
    """Actions ``viewer`` could not tell apart from ``action`` if applied to ``state`` now."""
    kind = action.get("type")
    if kind == "poisons" and state.phase == Phase.POISONS:
        pile = action.get("pile")
        if not isinstance(pile, list) or len(pile) < 2:
            return []
        unused = [n for n in state.options.poison_cards if n not in pile]
        found = [pile[::-1], pile[1:] + pile[:1], *([u, *pile[1:]] for u in unused[:2])]
        return [{"type": "poisons", "pile": p} for p in found if p != pile]
    if kind == "deal" and state.phase == Phase.DEAL:
        return _deal_alternatives(action, viewer)
    if kind == "welcome" and state.phase == Phase.WELCOME and not state.is_last_welcome:
        house = state.to_move()
        if viewer.is_seat and viewer.index == house:
            return []
        assert isinstance(house, int)
        choices = combinations(state.hands[house], WELCOME_CARDS)
        found = [{"type": "welcome", "cards": list(c)} for c in choices]
        return [a for a in found if a != action][:MAX_ALTERNATIVES]
    return []


def events_for(events: list[dict[str, Any]], viewer: Viewer) -> list[dict[str, Any]]:
    """The events of ``events`` that ``viewer`` may see (a House's revoke only by that House)."""
    return [event for event in events if _visible(event, viewer)]


def _visible(event: dict[str, Any], viewer: Viewer) -> bool:
    if event.get("event") == "rule_warning" and event.get("rule") == rules.FOLLOW_SUIT:
        return viewer.is_seat and viewer.index == event.get("house")
    return True
