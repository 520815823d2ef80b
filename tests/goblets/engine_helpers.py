"""Helpers for the Goblets engine tests: build a game and drive it to a chosen moment."""

from __future__ import annotations

import random
from typing import Any

from companion.core import registry
from companion.core.game import CHANCE, Mode
from companion.core.games.goblets.state import GobletsState

PLAIN = {"characters": []}
"""Options for a game without Character cards (no deal, no abilities)."""


def new(**options: Any) -> GobletsState:
    """A new 4-12 player state."""
    state = registry.get("goblets").new_state(options)
    assert isinstance(state, GobletsState)
    return state


def default_pour(places: int) -> list[str]:
    """The initial pour with the Antidote in place 0 and the Poisons in places 1 and 2."""
    return ["antidote", "poison", "poison"] + ["wine"] * (places - 3)


def setup(
    state: GobletsState,
    *,
    pour: list[str] | None = None,
    targets: list[str] | None = None,
    characters: list[str] | None = None,
    cards: list[str | None] | None = None,
) -> GobletsState:
    """Apply the chance events until a seat is to move (defaults are deterministic)."""
    opts = state.opts
    while state.to_move() is CHANCE and state.phase != "shootout":
        if state.phase == "deal_characters":
            names = characters or [c.name for c in opts.characters[: opts.players]]
            state.apply({"type": "deal_characters", "characters": names})
        elif state.phase == "initial_pour":
            state.apply({"type": "initial_pour", "tokens": pour or default_pour(opts.places)})
        elif state.phase == "deal_winetaster_cards":
            pairs = [i for i, place in enumerate(state.places) if place.winetaster is not None]
            dealt = cards or [
                ("loyal" if pairs.index(i) % 2 == 0 else "traitor") if i in pairs else None
                for i in range(len(state.places))
            ]
            state.apply({"type": "deal_winetaster_cards", "cards": dealt})
        elif state.phase == "deal_targets":
            houses = list(opts.houses)
            dealt = targets or houses[1:] + houses[:1]
            state.apply({"type": "deal_targets", "targets": dealt})
        else:
            state.apply(state.sample_chance(random.Random(0)))
    return state


def start(players: int = 4, **options: Any) -> GobletsState:
    """A game without Characters, set up and ready for the first turn."""
    return setup(new(players=players, **{**PLAIN, **options}))


def act(
    state: GobletsState,
    kind: str,
    seat: int | None = None,
    mode: Mode = Mode.ENFORCING,
    **params: Any,
) -> list[dict]:
    """Apply a player action for ``seat`` (default: the seat to move)."""
    if seat is None:
        seat = state.to_move()
    return state.apply({"type": kind, "seat": seat, **params}, mode)


def passes(state: GobletsState, count: int) -> None:
    """``count`` seats pass in turn."""
    for _ in range(count):
        act(state, "pass")


def tokens_total(state: GobletsState) -> dict[str, int]:
    """All tokens: pool + screens + goblets + discard (must always be the 52)."""
    total: dict[str, int] = {}
    for counts in [state.pool, state.discarded, *state.screens, *state.goblets]:
        for kind, n in counts.items():
            total[kind] = total.get(kind, 0) + n
    return total


def play_random(state: GobletsState, rng: random.Random, limit: int = 20_000) -> list[dict]:
    """Play random legal actions to the end; returns the journal of actions."""
    journal = []
    for _ in range(limit):
        if state.is_over():
            return journal
        if state.to_move() is CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        journal.append(action)
    raise AssertionError("the game did not end")


def call_toast(state: GobletsState) -> int:
    """Play until someone Toasts: each player pours Wine into their own Goblet, then toasts."""
    for _ in range(200):
        legal = state.legal_actions()
        seat = state.to_move()
        toast = {"type": "toast", "seat": seat}
        if toast in legal:
            state.apply(toast)
            return seat
        wine = [a for a in legal if a["type"] == "pour" and a["token"] == "wine"]
        if wine:
            state.apply(wine[0])
        elif {"type": "defer", "seat": seat} in legal:
            act(state, "defer")
        else:
            act(state, "pass")
    raise AssertionError("nobody toasted")


def finish_toast(state: GobletsState) -> list[dict]:
    """Everyone passes their final action (and declines abilities), then the caller reveals."""
    events: list[dict] = []
    while state.phase == "play":
        legal = state.legal_actions()
        for kind in ("reveal", "pass", "decline"):
            if any(a["type"] == kind for a in legal):
                events.extend(act(state, kind))
                break
        else:
            raise AssertionError(f"stuck at {legal}")
    return events
