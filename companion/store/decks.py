"""The table's own Character cards, kept in the data directory (``characters.json``).

The rulebook does not print the 21 Character cards, so a table that plays with them enters its
own deck once (the Host page's form, or ``PUT /api/host/characters``); it is validated as the
engine reads it (:func:`~companion.core.games.goblets.characters.parse_deck`), written atomically
(a temporary file, fsynced, renamed over the old one) and reused by every later game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.games.goblets.characters import parse_deck
from companion.store.files import write_json

FILE = "characters.json"
MAX_CARDS = 64
"""More cards than any box holds (the box has 21) is a typing mistake, not a deck."""


def characters_path(data_dir: str | Path) -> Path:
    """Where the table's Character cards are kept."""
    return Path(data_dir) / FILE


def load_characters(data_dir: str | Path) -> list[dict[str, Any]] | None:
    """The table's Character cards as JSON (None: the table has entered none)."""
    path = characters_path(data_dir)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise MalformedInput(f"{path}: {error}", field="characters") from None
    cards = data.get("cards") if isinstance(data, dict) else None
    return [card.to_json() for card in parse_deck(cards, "characters")]


def save_characters(data_dir: str | Path, cards: Any) -> list[dict[str, Any]]:
    """Validate and keep ``cards`` as the table's Character deck; returns it as stored."""
    deck = parse_deck(cards, "cards")
    if not deck:
        raise MalformedInput("a deck has at least one card", field="cards")
    if len(deck) > MAX_CARDS:
        raise MalformedInput(f"at most {MAX_CARDS} cards", field="cards")
    stored = [card.to_json() for card in deck]
    path = characters_path(data_dir)
    write_json(path, {"cards": stored}, ensure_ascii=False)
    return stored
