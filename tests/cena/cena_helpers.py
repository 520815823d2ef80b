"""Helpers for the Cena tests: hand-made deals, a state at the Feast, tricks played by name."""

from __future__ import annotations

from companion.core import registry
from companion.core.games.cena.cards import DECK, hand_size, set_aside_size
from companion.core.games.cena.state import CenaState


def deal_with(players: int, fixed: dict[int, list[str]] | None = None) -> dict:
    """A deal action: the ``fixed`` Houses hold those cards first, the rest in deck order."""
    fixed = fixed or {}
    taken = {name for cards in fixed.values() for name in cards}
    rest = [card.name for card in DECK if card.name not in taken]
    size = hand_size(players)
    hands = []
    for house in range(players):
        hand = list(fixed.get(house, []))
        while len(hand) < size:
            hand.append(rest.pop(0))
        hands.append(hand)
    aside = rest[: set_aside_size(players)]
    assert len(rest) == len(aside)
    return {"type": "deal", "hands": hands, "set_aside": aside}


def new(options: dict | None = None) -> CenaState:
    """A fresh state (no chance action applied yet)."""
    return registry.get("cena").new_state(options or {})


def at_welcome(
    options: dict | None = None,
    fixed: dict[int, list[str]] | None = None,
    pile: tuple[int, int, int] = (1, 2, 3),
) -> CenaState:
    """Pile drawn, cards dealt (``fixed`` hands), poison revealed: the Welcome is next."""
    state = new(options)
    state.apply({"type": "poisons", "pile": list(pile)})
    state.apply(deal_with(state.num_seats, fixed))
    state.apply({"type": "reveal_poison"})
    return state


def welcome_all(state: CenaState, faces: dict[int, list[str]] | None = None) -> None:
    """Every House shows ``faces[house]`` (default: the last three cards of its hand)."""
    faces = faces or {}
    while state.phase == "welcome":
        house = state.to_move()
        state.apply({"type": "welcome", "cards": faces.get(house, state.hands[house][-3:])})


def at_feast(
    options: dict | None = None,
    fixed: dict[int, list[str]] | None = None,
    pile: tuple[int, int, int] = (1, 2, 3),
) -> CenaState:
    """A state whose first trick is about to be led by the Host."""
    state = at_welcome(options, fixed, pile)
    welcome_all(state)
    return state


def play(state: CenaState, *moves: tuple[str, int]) -> list[dict]:
    """Play ``(card, in front of House)`` moves in turn; returns all events."""
    events: list[dict] = []
    for card, house in moves:
        events += state.apply({"type": "play", "card": card, "house": house})
    return events


def leads_per_round(events: list[dict]) -> list[int | None]:
    """The House that played the first card after each poison reveal (each round's first lead:
    "The Host House leads the first trick")."""
    leads: list[int | None] = []
    for event in events:
        if event["event"] == "poison_revealed":
            leads.append(None)
        elif event["event"] == "played" and leads[-1] is None:
            leads[-1] = event["house"]
    return leads
