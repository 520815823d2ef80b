"""Character cards as data: name, text, timing, once-per-Course flag and an effect.

The rulebook prints neither the 21 cards' names nor their texts, only two examples (King Cobra:
"During the Toast Phase, you may take 2 actions instead of 1", and a card whose owner, once per
Course, makes everyone avert their eyes and may then Swap and/or exchange the Coasters of two
Goblets). So a card is data (``characters.json``, or the ``characters`` game option) whose effect
comes from a small vocabulary the engine implements. The engine calls a card at its timing:

- ``course_start``: "each player that has a Character Ability which can be used 'At the beginning
  of each Course' may choose to use their Abilities now" (from the Host clockwise);
- ``own_turn``: during the owner's regular turn, free (it does not count as one of the two
  actions: "Character abilities override the rules!");
- ``toast_phase``: during the owner's final action ("Unless the Ability specifically says
  otherwise, you CANNOT use your Character Ability during the Toast Phase");
- ``before_drinking``: after the final actions, from the Toast Caller's left clockwise;
- ``scoring_override``: at scoring ("you apply their effect instead of the normal scoring");
- ``passive``: always on (or no effect at all, like the placeholders).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.games.goblets.scoring import ScoringOverride
from companion.core.games.goblets.tokens import is_kind

TIMINGS = (
    "course_start",
    "own_turn",
    "toast_phase",
    "before_drinking",
    "scoring_override",
    "passive",
)
"""When a card's ability may be used."""

ACTIVE_EFFECTS = ("peek_any", "swap_any", "swap_and_exchange_coasters", "take_token")
"""Effects used with an ``ability`` action (they take parameters)."""

EFFECTS: Mapping[str, tuple[str, ...]] = {
    "none": TIMINGS,
    "extra_toast_action": ("toast_phase", "passive"),
    "extra_action": ("own_turn", "passive"),
    "peek_any": ("course_start", "own_turn", "toast_phase", "before_drinking"),
    "swap_any": ("course_start", "own_turn", "toast_phase", "before_drinking"),
    "swap_and_exchange_coasters": ("course_start", "own_turn", "toast_phase", "before_drinking"),
    "take_token": ("course_start", "own_turn"),
    "scoring_override": ("scoring_override",),
}
"""The effect vocabulary the engine implements, with the timings each may have."""


@dataclass(frozen=True)
class Character:
    """One Character card.

    ``effect`` is one of :data:`EFFECTS`: ``none`` (a placeholder or a card the engine does not
    model), ``extra_toast_action`` (one more final action in the Toast Phase), ``extra_action``
    (one more action in each own turn), ``peek_any`` (look into any Goblet), ``swap_any`` (Swap
    any two Goblets), ``swap_and_exchange_coasters`` (everyone averts their eyes; Swap and/or
    exchange the Coasters of two Goblets), ``take_token`` (take ``token``, e.g. the Ogre Poison,
    from the common pool behind your screen) and ``scoring_override`` (``override`` replaces the
    normal scoring table for the owner, Most Wine excepted).
    """

    name: str
    text: str = ""
    timing: str = "passive"
    once_per_course: bool = False
    effect: str = "none"
    override: ScoringOverride | None = None
    token: str | None = None

    @property
    def is_active(self) -> bool:
        """True if the card is used with an ``ability`` action."""
        return self.effect in ACTIVE_EFFECTS

    @staticmethod
    def from_json(data: Any, field: str = "character") -> Character:
        """Parse a card dict; MalformedInput names ``field.key`` on any problem."""
        if not isinstance(data, Mapping):
            raise MalformedInput(f"must be an object, got {data!r}", field=field)
        known = {"name", "text", "timing", "once_per_course", "effect", "override", "token"}
        for key in data:
            if key not in known:
                names = ", ".join(sorted(known))
                raise MalformedInput(f"unknown key (known: {names})", field=f"{field}.{key}")
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise MalformedInput(f"must be a non-empty string, got {name!r}", field=f"{field}.name")
        text = data.get("text", "")
        if not isinstance(text, str):
            raise MalformedInput(f"must be a string, got {text!r}", field=f"{field}.text")
        timing = data.get("timing", "passive")
        if timing not in TIMINGS:
            raise MalformedInput(
                f"unknown timing {timing!r} (known: {', '.join(TIMINGS)})", field=f"{field}.timing"
            )
        once = data.get("once_per_course", False)
        if not isinstance(once, bool):
            raise MalformedInput(
                f"must be true or false, got {once!r}", field=f"{field}.once_per_course"
            )
        effect = data.get("effect", "none")
        if effect not in EFFECTS:
            raise MalformedInput(
                f"unknown effect {effect!r} (known: {', '.join(EFFECTS)})", field=f"{field}.effect"
            )
        if timing not in EFFECTS[effect]:
            raise MalformedInput(
                f"effect {effect!r} cannot have timing {timing!r} "
                f"(allowed: {', '.join(EFFECTS[effect])})",
                field=f"{field}.timing",
            )
        override = None
        if effect == "scoring_override":
            override = ScoringOverride.from_json(data.get("override"), f"{field}.override")
        elif "override" in data:
            raise MalformedInput("only a scoring_override card has one", field=f"{field}.override")
        token = data.get("token")
        if effect == "take_token":
            if not is_kind(token):
                raise MalformedInput(f"unknown token kind {token!r}", field=f"{field}.token")
        elif token is not None:
            raise MalformedInput("only a take_token card has one", field=f"{field}.token")
        return Character(name, text, timing, once, effect, override, token)

    def to_json(self) -> dict[str, Any]:
        """The card as JSON-able data, readable by :meth:`from_json`."""
        data: dict[str, Any] = {
            "name": self.name,
            "text": self.text,
            "timing": self.timing,
            "once_per_course": self.once_per_course,
            "effect": self.effect,
        }
        if self.override is not None:
            data["override"] = self.override.to_json()
        if self.token is not None:
            data["token"] = self.token
        return data


def parse_deck(cards: Any, field: str = "characters") -> tuple[Character, ...]:
    """Parse a list of card dicts; names must be distinct."""
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        raise MalformedInput(f"must be a list of Character cards, got {cards!r}", field=field)
    deck = tuple(Character.from_json(card, f"{field}[{i}]") for i, card in enumerate(cards))
    names = [card.name for card in deck]
    for index, name in enumerate(names):
        if name in names[:index]:
            raise MalformedInput(f"duplicate card name {name!r}", field=f"{field}[{index}].name")
    return deck


def _load_default_deck() -> tuple[Character, ...]:
    """The 21 cards shipped in ``characters.json`` (package data, read once at import)."""
    text = resources.files(__package__).joinpath("characters.json").read_text(encoding="utf-8")
    return parse_deck(json.loads(text)["cards"], "characters.json")


DEFAULT_DECK: tuple[Character, ...] = _load_default_deck()
"""The default deck: King Cobra, Averted Eyes and 19 named placeholders without effect."""
