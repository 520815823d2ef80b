"""Views: the ONLY way secrets leave the game (DESIGN.md principle 3), the one door.

``view(state, viewer)`` for the public (tablet), the host and each seat. Before the reveal nobody
sees what a Goblet holds, the host included. A seat also sees its own screen, Target (Targets are
face up: public anyway), Character, what it peeked (and when), its Winetaster card, and, with
hidden VP, its own VP. :func:`hidden_alternatives` and :func:`reveals_hidden` describe, for the
conformance suite's attacker test and for the redaction of replays, which actions a viewer could
not tell apart; :func:`events_for` filters the feed; :func:`entry_refusal` keeps the Host (a
player) from entering, or probing with, what only a seat knows. Views read the model only
(:mod:`model`): they never run a rule.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from companion.core.game import CHANCE, HOST, PUBLIC, Action, Event, Mode, Viewer
from companion.core.games.goblets import rules, shootout
from companion.core.games.goblets.model import CHANCE_ACTIONS, GobletsModel, Phase, StepKind
from companion.core.games.goblets.scoring import reveal
from companion.core.games.goblets.tokens import Token


def _public(state: GobletsModel) -> dict[str, Any]:
    opts = state.opts
    over = state.phase == Phase.OVER
    vp_visible = not opts.hidden_vp or over
    mover = state.to_move()
    step = None
    if state.phase == Phase.PLAY and state.steps:
        step = {**state.steps[0].wire(), "taken": state.taken}
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
                **place.wire(),
                "target": state.targets[index],
                "ring": state.ring_at(index),
            }
            for index, place in enumerate(state.places)
        ],
        "characters": cards,
        "used_abilities": [list(used) for used in state.used_course],
        "results": results,
        "reveal": _reveal(state),
        "vp": list(state.vp) if vp_visible else None,
        "warnings": list(state.warnings),
        "winners": state.winners,
        "shootout": None if state.shootout is None else state.shootout.view(PUBLIC),
    }


def _reveal(state: GobletsModel) -> dict[str, Any] | None:
    """How the latest Toast's reveal is shown, Goblet by Goblet (public: it was revealed).

    ``order``: the places from the Toast Caller's left clockwise, the Caller's last (the Toast
    Phase's order: "Starting with the player to the left of the Toast Caller and proceeding
    clockwise"); ``poison_left``: the Poison doses each Goblet still holds once its Antidotes
    have removed theirs ("For each Antidote token in Your Goblet, remove 1 Poison token").
    """
    if not state.results:
        return None
    last = state.results[-1]
    places = last["places"]
    caller = next(
        (i for i, p in enumerate(places) if last["toast_caller"] in p["seats"]), len(places) - 1
    )
    n = len(places)
    rules_ = state.opts.token_rules
    return {
        "course": last["course"],
        "order": [(caller + offset) % n for offset in range(1, n + 1)],
        "poison_left": [reveal(p["contents"], rules=rules_).poison_left for p in places],
    }


def view(state: GobletsModel, viewer: Viewer) -> dict[str, Any]:
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
    if info.winetaster == seat:
        role = "winetaster"
    elif info.noble == seat:
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
        "outcome": _own_outcome(state, seat, place),
    }
    return data


def _own_outcome(state: GobletsModel, seat: int, place: int) -> dict[str, Any] | None:
    """This seat's own result of the latest Toast, for its phone at the reveal (None before).

    The reveal is public, but a phone shows its player only their own Goblet's verdict
    ("If your Goblet still contains at least 1 Poison token, you have been poisoned") and the VP
    they gained, which with hidden VP only they may see ("Keep your VPs hidden").
    """
    if not state.results:
        return None
    last = state.results[-1]
    mine = last["places"][place]
    return {
        "course": last["course"],
        "poisoned": mine["poisoned"],
        "target_poisoned": mine["target_poisoned"],
        "most_wine": mine["most_wine"],
        "vp": last["vp"][seat],
    }


def events_for(events: list[Event], viewer: Viewer) -> list[Event]:
    """The events ``viewer`` may see: an event with ``"to": seat`` is for that seat only."""
    return [
        event
        for event in events
        if "to" not in event or (viewer.is_seat and event["to"] == viewer.index)
    ]


def hidden_alternatives(state: GobletsModel, action: Action, viewer: Viewer) -> list[Action]:
    """Other actions ``viewer`` could not tell apart from ``action`` if applied now."""
    kind = action.get("type")
    if state.phase == Phase.SHOOTOUT:
        return state.shootout.hidden_alternatives(action, viewer)
    if kind == "initial_pour":
        tokens = list(action.get("tokens", []))
        others = sorted(set(permutations(tokens)) - {tuple(tokens)})
        return [{"type": kind, "tokens": list(order)} for order in others]
    if kind == "pour" and isinstance(action.get("seat"), int):
        place = state.place_index(action["seat"])
        if viewer.is_seat and viewer.index in state.places[place].seats:
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


def _other_winetaster_deals(state: GobletsModel, action: Action, viewer: Viewer) -> list[Action]:
    cards = list(action.get("cards", []))
    mine = None
    if viewer.is_seat:
        for index, place in enumerate(state.places):
            if place.winetaster == viewer.index:
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


def _averted_alternatives(state: GobletsModel, action: Action) -> list[Action]:
    """Everyone averted their eyes: a Swap and a Coaster exchange leave the same rings in view."""
    if "coasters" not in action or not isinstance(action.get("places"), list):
        return []
    if action.get("swap") and action.get("coasters"):
        return [
            {**action, "places": [p, q]}
            for p, q in combinations(range(len(state.places)), 2)
            if [p, q] != action["places"]
        ]
    return [{**action, "swap": not action.get("swap"), "coasters": not action.get("coasters")}]


def publicly_reveals(state: GobletsModel, action: Action) -> bool:
    """The Toast's reveal, and a shoot-out choice ("reveals its contents"): shown to everyone."""
    if state.phase == Phase.SHOOTOUT:
        return state.shootout.reveals_hidden(action)
    return action.get("type") == "reveal"


SECRET_FIELDS = {
    "pour": ("token",),
    "initial_pour": ("tokens",),
    "deal_winetaster_cards": ("cards",),
    shootout.POUR: ("goblets",),
}
"""What a replay of the live game leaves out of each action type (Russian Goblette's initial pour
lists its ``tokens`` too)."""
AVERTED = ("places", "swap", "coasters")
"""An averted-eyes ability's fields: "make everyone avert their eyes", so nobody saw them."""


def redact(state: Any, action: Action, viewer: Viewer, base: Action) -> Action:
    """A journaled action in a replay of what has been revealed, while the game goes on.

    ``base`` is the action without its :data:`SECRET_FIELDS`: who poured is public (with
    ``show_pourer``), what they poured is not. With the table option ``pour_attribution:
    "after_course"`` the pours of a revealed Course are shown whole ("how the poison travelled");
    the Winetaster cards stay hidden until the game ends either way, since they would tell who is
    a Traitor.
    """
    kind = action.get("type")
    opts = getattr(state, "opts", None)
    if kind == "pour" and opts is not None and opts.pour_attribution == "after_course":
        return dict(action)
    if kind == "pour" and opts is not None and not opts.show_pourer:
        return {k: v for k, v in base.items() if k != "seat"}
    if kind == "ability" and "coasters" in action:
        return {k: v for k, v in base.items() if k not in AVERTED}
    return base


HIDDEN_ENTRIES = {
    "pour": (
        "a pour's token is known to its pourer alone: their phone, or the readers, enter it",
        rules.POUR,
    ),
    "ability": ("a Character's ability is the owner's: they tap it on their phone", rules.OWN_CARD),
    "toast": (
        "whether a player has Wine left is behind their screen: they call the Toast from "
        "their phone",
        rules.TOAST,
    ),
}
"""Actions the Host may not enter by hand: each names, or tests, what only a seat knows."""


def entry_refusal(state: Any, action: Action, viewer: Viewer, mode: Mode) -> tuple[str, str] | None:
    """Why ``viewer`` may not enter ``action`` by hand (see ``GameState.entry_refusal``).

    A seat acts for itself (its engine checks use only what it knows); the Host, a player too,
    enters only what the table sees: Pass, Rotate, Swap, Peek, the reveal. A reveal's contents are
    the Host's count of the tokens poured out, taken only at the reveal of a read table.
    """
    if viewer.is_seat:
        return None
    kind = action.get("type")
    if kind in HIDDEN_ENTRIES:
        return HIDDEN_ENTRIES[kind]
    if kind in CHANCE_ACTIONS or kind == shootout.POUR:
        return ("chance is drawn by the table, not entered", rules.CHANCE)
    if kind == "reveal" and action.get("goblets") is not None:
        at_reveal = (
            mode is Mode.RECORDING
            and getattr(state, "steps", None)
            and (state.steps[0].kind == StepKind.REVEAL)
        )
        if not at_reveal:
            return ("a Goblet's contents are counted once they are revealed", rules.REVEAL)
    return None


def host_entries(state: Any, legal: list[Action]) -> list[Action]:
    """The legal actions the Host may enter by hand now: those :func:`entry_refusal` lets the
    Host enter whatever the hidden facts (Pass, Rotate, Swap, Peek, the reveal), so the list
    tells the Host nothing a seat hides. The Host page's buttons are these."""
    refused = (entry_refusal(state, action, HOST, Mode.ENFORCING) for action in legal)
    return [action for action, refusal in zip(legal, refused, strict=True) if refusal is None]


def reveals_hidden(state: GobletsModel, action: Action) -> bool:
    """A reveal, a Peek (to the peeker) and a shoot-out choice show what was hidden."""
    if state.phase == Phase.SHOOTOUT:
        return state.shootout.reveals_hidden(action)
    kind = action.get("type")
    if kind in ("reveal", "peek"):
        return True
    return kind == "ability" and "place" in action
