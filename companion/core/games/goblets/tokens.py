"""The tokens of Raise Your Goblets and the configurable powers of the two special ones.

Rulebook, Ingredients: "52 plastic tokens: 21 Wine (red) | 15 Poison (black) | 14 Antidote
(white) | 1 Unicorn Antidote (blue) | 1 Ogre Poison (green)". The rulebook prints no power for the
Unicorn Antidote or the Ogre Poison, so :class:`TokenRules` makes their powers data with a
documented default (see ``docs/rules-notes.md``, section "Special tokens").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from companion.core.checks import whole
from companion.core.errors import MalformedInput


class Token(StrEnum):
    """A kind of token, named as in the rulebook's Ingredients."""

    WINE = "wine"
    POISON = "poison"
    ANTIDOTE = "antidote"
    UNICORN_ANTIDOTE = "unicorn_antidote"
    OGRE_POISON = "ogre_poison"


KINDS = frozenset(token.value for token in Token)
"""Every token kind's name."""


def is_kind(value: Any) -> bool:
    """True if ``value`` names a token kind (anything else, a list or a dict too, is not one)."""
    return isinstance(value, str) and value in KINDS


COURSE_SUPPLY: Mapping[Token, int] = {Token.WINE: 3, Token.POISON: 2, Token.ANTIDOTE: 2}
"""Behind each screen each Course: "Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens"."""

POOL: Mapping[Token, int] = {
    Token.WINE: 21,
    Token.POISON: 15,
    Token.ANTIDOTE: 14,
    Token.UNICORN_ANTIDOTE: 1,
    Token.OGRE_POISON: 1,
}
"""The common pool: "52 plastic tokens: 21 Wine | 15 Poison | 14 Antidote | 1 Unicorn Antidote |
1 Ogre Poison"."""

Contents = Mapping[str, int]
"""What a goblet holds: token kind -> count; a missing kind counts 0."""


def check_count(value: Any, field: str) -> int:
    """``value`` as a token count: a non-negative int (not a bool), else MalformedInput."""
    return whole(value, field, f"must be a non-negative integer, got {value!r}", low=0)


def check_contents(contents: Any, field: str = "contents") -> dict[Token, int]:
    """Validate a goblet's contents and return every kind's count (missing kinds as 0).

    Raises MalformedInput naming ``field.kind`` for an unknown kind or a bad count.
    """
    if not isinstance(contents, Mapping):
        raise MalformedInput(f"must be an object of token counts, got {contents!r}", field=field)
    counts = dict.fromkeys(Token, 0)
    for kind, count in contents.items():
        try:
            token = Token(kind)
        except ValueError:
            known = ", ".join(t.value for t in Token)
            raise MalformedInput(
                f"unknown token kind {kind!r} (known: {known})", field=f"{field}.{kind}"
            ) from None
        counts[token] = check_count(count, f"{field}.{kind}")
    return counts


@dataclass(frozen=True)
class TokenRules:
    """The powers of the Unicorn Antidote and the Ogre Poison (the rulebook prints none).

    Default (see docs/rules-notes.md, "Special tokens"): the Ogre Poison is a Poison that an
    ordinary Antidote cannot cancel; only the Unicorn Antidote cancels it; the Unicorn Antidote
    cancels any number of Poison tokens, the Ogre Poison included.

    Fields:

    - ``unicorn_antidote_cancels``: how many Poison doses one Unicorn Antidote removes; ``None``
      means all of them.
    - ``unicorn_antidote_cancels_ogre_poison``: whether a Unicorn Antidote may remove Ogre Poison.
    - ``antidote_cancels_ogre_poison``: whether an ordinary Antidote may remove Ogre Poison.
    - ``ogre_poison_doses``: how many Poison doses one Ogre Poison counts as (each dose needs one
      removal).
    """

    unicorn_antidote_cancels: int | None = None
    unicorn_antidote_cancels_ogre_poison: bool = True
    antidote_cancels_ogre_poison: bool = False
    ogre_poison_doses: int = 1

    @staticmethod
    def preset(name: str) -> TokenRules:
        """A named set of rules: ``"default"``, ``"plain"`` or ``"strong_ogre"``.

        ``plain``: both special tokens count as their ordinary kind (a Unicorn Antidote removes 1
        Poison, any Antidote removes an Ogre Poison). ``strong_ogre``: like the default, but the
        Ogre Poison counts as 2 doses and the Unicorn Antidote removes at most 2 doses.
        """
        try:
            return PRESETS[name]
        except KeyError:
            known = ", ".join(PRESETS)
            raise MalformedInput(
                f"unknown preset {name!r} (known: {known})", field="token_rules.preset"
            ) from None

    @staticmethod
    def from_json(data: Any, field: str = "token_rules") -> TokenRules:
        """Parse ``{"preset": name, <field>: value, ...}``; fields given override the preset.

        Unknown keys and wrong types raise MalformedInput naming ``field.key``.
        """
        if data is None:
            return DEFAULT_TOKEN_RULES
        if isinstance(data, str):
            return TokenRules.preset(data)
        if not isinstance(data, Mapping):
            raise MalformedInput(f"must be an object or a preset name, got {data!r}", field=field)
        preset = data.get("preset", "default")
        if not isinstance(preset, str):
            raise MalformedInput(f"must be a string, got {preset!r}", field=f"{field}.preset")
        rules = TokenRules.preset(preset)
        known = {f.name for f in fields(TokenRules)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            where = f"{field}.{key}"
            if key == "preset":
                continue
            if key not in known:
                names = ", ".join(["preset", *sorted(known)])
                raise MalformedInput(f"unknown key (known: {names})", field=where)
            if key == "unicorn_antidote_cancels":
                if value is not None:
                    check_count(value, where)
            elif key == "ogre_poison_doses":
                whole(value, where, f"must be an integer >= 1, got {value!r}", low=1)
            elif not isinstance(value, bool):
                raise MalformedInput(f"must be true or false, got {value!r}", field=where)
            changes[key] = value
        return replace(rules, **changes)

    def to_json(self) -> dict[str, Any]:
        """The rules as JSON-able data (every field, no preset), readable by :meth:`from_json`."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT_TOKEN_RULES = TokenRules()
"""The documented default powers of the special tokens."""

PRESETS: Mapping[str, TokenRules] = {
    "default": DEFAULT_TOKEN_RULES,
    "plain": TokenRules(
        unicorn_antidote_cancels=1,
        unicorn_antidote_cancels_ogre_poison=True,
        antidote_cancels_ogre_poison=True,
        ogre_poison_doses=1,
    ),
    "strong_ogre": TokenRules(
        unicorn_antidote_cancels=2,
        unicorn_antidote_cancels_ogre_poison=True,
        antidote_cancels_ogre_poison=False,
        ogre_poison_doses=2,
    ),
}
"""Named token rules a table can pick (``token_rules: "plain"``)."""
