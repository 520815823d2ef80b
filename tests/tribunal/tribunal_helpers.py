"""Helpers for the courtroom tests: a known shuffle, hearings with chosen cubes, stored decks."""

from __future__ import annotations

from companion.core import registry
from companion.core.games.tribunal.state import TribunalState


def start(options: dict | None = None, top: list[str] | None = None) -> TribunalState:
    """A known shuffle: the 12 lowest other red names set aside, ``top`` on top of the deck."""
    state = registry.get("tribunal").new_state(options or {})
    top = top or []
    reds = sorted(name for name, card in state.cards.items() if card.colour == "red")
    aside = [name for name in reds if name not in top][:12]
    rest = [name for name in sorted(state.cards) if name not in aside]
    deck = top + [name for name in rest if name not in top]
    state.apply({"type": "shuffle", "set_aside": aside, "deck": deck})
    return state


def judge(state: TribunalState, verdict: str, *cubes: str) -> list[dict]:
    """Hear the next case(s), give ``verdict`` and draw ``cubes`` (the chance outcomes)."""
    events = state.apply({"type": "hear"})
    events += state.apply({"type": "verdict", "verdict": verdict})
    for cube in cubes:
        events += state.apply({"type": "draw", "cube": cube})
    return events


def tap(state: TribunalState, effect: str, n: int = 1) -> list[dict]:
    """Press one effect button."""
    return state.apply({"type": "effect", "effect": effect, "n": n})


def end(state: TribunalState) -> list[dict]:
    """Press "end of sentence"."""
    return state.apply({"type": "end_sentence"})


def deck_with(*cards: dict) -> list[dict]:
    """A stored deck of 33 red and 3 blue cards: ``cards`` first, then blank filler cards."""
    deck = list(cards)
    reds = sum(card.get("colour", "red") == "red" for card in deck)
    blues = len(deck) - reds
    deck += [{"name": f"filler {i}", "colour": "red"} for i in range(33 - reds)]
    deck += [{"name": f"blue filler {i}", "colour": "blue"} for i in range(3 - blues)]
    return deck


def effects(*pairs: tuple[str, int]) -> list[dict]:
    """Printed effects as stored-deck data."""
    return [{"effect": effect, "n": n} for effect, n in pairs]


def positions(state: TribunalState) -> tuple[int, int]:
    """(Legitimacy, Reputation) spaces."""
    return state.board.legitimacy, state.board.reputation
