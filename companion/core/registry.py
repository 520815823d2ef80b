"""Finds a game by name (like python-chess's ``VARIANTS``).

Each game package registers itself on import; :func:`load_all` imports the known packages so the
registry is complete for the command line, the service and the conformance suite.
"""

from __future__ import annotations

import importlib

from companion.core.errors import MalformedInput
from companion.core.game import Game

_GAMES: dict[str, Game] = {}

KNOWN_PACKAGES = (
    "companion.core.games.goblets",
    "companion.core.games.tribunal",
    "companion.core.games.cena",
)


def register(game: Game) -> Game:
    """Add ``game`` under its name; registering the same name twice is a programming error."""
    if game.name in _GAMES and type(_GAMES[game.name]) is not type(game):
        raise ValueError(f"a different game is already registered as {game.name!r}")
    _GAMES[game.name] = game
    return game


def load_all() -> dict[str, Game]:
    """Import every known game package (each registers itself) and return the registry."""
    for module in KNOWN_PACKAGES:
        importlib.import_module(module)
    return dict(_GAMES)


def get(name: str) -> Game:
    """The game registered as ``name``; an unknown name is malformed input."""
    games = load_all()
    try:
        return games[name]
    except KeyError:
        known = ", ".join(sorted(games)) or "none"
        raise MalformedInput(f"unknown game {name!r} (known: {known})", field="game") from None
