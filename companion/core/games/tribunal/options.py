"""The table's options for a courtroom game, validated once when the game starts.

Every choice the rulebook leaves open is an option with the documented default
(docs/rules-notes.md, "The Gods Will Have Blood: the courtroom"); unknown keys are an error, not a
silent default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.games.tribunal.cards import Card, anonymous_deck, parse_deck
from companion.core.games.tribunal.vine import Vine, parse_vine

CHOICES = {
    "second_draw": ("stop", "always"),
    "missing_reds": ("box", "drawn"),
}
"""Options with a fixed set of values; the first value is the default."""

KNOWN = ("vine", "deck", *CHOICES)


@dataclass(frozen=True)
class TribunalOptions:
    """Validated options: the vine layout, the cards, and the rulings of docs/rules-notes.md."""

    vine: Vine
    cards: dict[str, Card]
    stored_deck: bool
    second_draw: str
    missing_reds: str


def parse_options(options: Mapping[str, Any]) -> TribunalOptions:
    """Validate ``options``; anything unreadable raises MalformedInput naming the option."""
    if not isinstance(options, Mapping):
        raise MalformedInput("options are an object", field="options")
    for key in options:
        if key not in KNOWN:
            raise MalformedInput(f"unknown option (known: {', '.join(KNOWN)})", field=str(key))
    choices = {}
    for key, allowed in CHOICES.items():
        value = options.get(key, allowed[0])
        if value not in allowed:
            raise MalformedInput(f"{value!r} is not one of {', '.join(allowed)}", field=key)
        choices[key] = value
    deck = options.get("deck")
    return TribunalOptions(
        vine=parse_vine(options.get("vine")),
        cards=anonymous_deck() if deck is None else parse_deck(deck),
        stored_deck=deck is not None,
        **choices,
    )
