"""The game options of Raise Your Goblets, validated into a frozen :class:`Options`.

Every bad option raises MalformedInput naming the option (``players``, ``houses[2]``, ...);
unknown options are an error, not a silent default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.checks import within
from companion.core.errors import MalformedInput
from companion.core.games.goblets.characters import DEFAULT_DECK, Character, parse_deck
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.tokens import DEFAULT_TOKEN_RULES, TokenRules

VARIANTS = ("standard", "winetasters", "russian_goblette")
"""Variant names: the 4-6 player game, Winetasters (7-12) and Russian Goblette (2-3)."""

KNOWN = (
    "players",
    "variant",
    "houses",
    "host",
    "raise_your_memory",
    "legacy",
    "hidden_vp",
    "show_pourer",
    "token_rules",
    "characters",
    "courses",
    "winetaster_cards",
    "pour_attribution",
)
"""Every option this game reads (Russian Goblette reads its own)."""
POUR_ATTRIBUTIONS = ("after_game", "after_course")
"""When a replay of the live game may show each pour's token (docs/rules-notes.md)."""


@dataclass(frozen=True)
class Options:
    """Validated options of the 4-12 player game (Russian Goblette has its own)."""

    players: int
    variant: str
    houses: tuple[str, ...]
    host: int
    raise_your_memory: bool
    legacy: bool
    hidden_vp: bool
    show_pourer: bool
    token_rules: TokenRules
    characters: tuple[Character, ...]
    courses: int
    loyal: int
    traitor: int
    pour_attribution: str = "after_game"
    """When a replay may show what each pour was: "after_game" (the default) or "after_course"
    (once the Course is revealed; with Winetasters it tells who poured poison for a Traitor)."""

    @property
    def is_winetasters(self) -> bool:
        """True for the 7-12 player variant."""
        return self.variant == "winetasters"

    @property
    def places(self) -> int:
        """How many Goblets (and Houses): one per player, or one per pair with Winetasters."""
        return (self.players + 1) // 2 if self.is_winetasters else self.players


def _int(
    options: Mapping[str, Any], key: str, default: int, low: int, high: int, where: str = ""
) -> int:
    return within(options.get(key, default), where + key, low, high)


def _bool(options: Mapping[str, Any], key: str, default: bool) -> bool:
    value = options.get(key, default)
    if not isinstance(value, bool):
        raise MalformedInput(f"must be true or false, got {value!r}", field=key)
    return value


def default_variant(players: int) -> str:
    """The variant the rulebook prescribes for a number of players."""
    if players <= 3:
        return "russian_goblette"
    return "standard" if players <= 6 else "winetasters"


def check_variant(options: Mapping[str, Any]) -> tuple[int, str]:
    """The player count and variant of ``options`` (players 2-12; the variant must fit)."""
    if not isinstance(options, Mapping):
        raise MalformedInput(f"must be an object, got {options!r}", field="options")
    players = _int(options, "players", 4, 2, 12)
    variant = options.get("variant", default_variant(players))
    if variant not in VARIANTS:
        raise MalformedInput(
            f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})", field="variant"
        )
    fits = {"standard": range(4, 7), "winetasters": range(7, 13), "russian_goblette": range(2, 4)}
    if players not in fits[variant]:
        span = fits[variant]
        raise MalformedInput(
            f"{variant} is for {span[0]} to {span[-1]} players, got {players}", field="players"
        )
    return players, variant


def _houses(options: Mapping[str, Any], count: int) -> tuple[str, ...]:
    houses = options.get("houses")
    if houses is None:
        return HOUSE_IDS[:count]
    if isinstance(houses, str | bytes) or not isinstance(houses, Sequence):
        raise MalformedInput(f"must be a list of house ids, got {houses!r}", field="houses")
    if len(houses) != count:
        raise MalformedInput(
            f"needs {count} Houses (one per Goblet), got {len(houses)}", field="houses"
        )
    for index, house in enumerate(houses):
        if house not in HOUSE_IDS:
            raise MalformedInput(
                f"unknown House {house!r} (known: {', '.join(HOUSE_IDS)})", field=f"houses[{index}]"
            )
        if house in houses[:index]:
            raise MalformedInput(f"House {house!r} twice", field=f"houses[{index}]")
    return tuple(houses)


def parse_options(options: Mapping[str, Any]) -> Options:
    """Validate the options of a 4-12 player game."""
    players, variant = check_variant(options)
    for key in options:
        if key not in KNOWN:
            raise MalformedInput(f"unknown option (known: {', '.join(KNOWN)})", field=key)
    winetasters = variant == "winetasters"
    places = (players + 1) // 2 if winetasters else players
    characters = options.get("characters")
    deck = DEFAULT_DECK if characters is None else parse_deck(characters)
    if deck and len(deck) < players:
        raise MalformedInput(
            f"needs at least {players} cards (one per player) or none, got {len(deck)}",
            field="characters",
        )
    cards = options.get("winetaster_cards", {"loyal": 3, "traitor": 3})
    if not isinstance(cards, Mapping) or set(cards) - {"loyal", "traitor"}:
        raise MalformedInput(
            f'must be {{"loyal": n, "traitor": n}}, got {cards!r}', field="winetaster_cards"
        )
    attribution = options.get("pour_attribution", "after_game")
    if attribution not in POUR_ATTRIBUTIONS:
        raise MalformedInput(
            f"must be one of {', '.join(POUR_ATTRIBUTIONS)}, got {attribution!r}",
            field="pour_attribution",
        )
    loyal = _int(cards, "loyal", 3, 0, 12, "winetaster_cards.")
    traitor = _int(cards, "traitor", 3, 0, 12, "winetaster_cards.")
    if winetasters and loyal + traitor < players // 2:
        raise MalformedInput(
            f"needs a card for each of the {players // 2} Winetasters", field="winetaster_cards"
        )
    return Options(
        players=players,
        variant=variant,
        houses=_houses(options, places),
        host=_int(options, "host", 0, 0, players - 1),
        raise_your_memory=_bool(options, "raise_your_memory", False),
        legacy=_bool(options, "legacy", False),
        # Winetasters: "You don't need to keep your VPs behind the screen."
        hidden_vp=_bool(options, "hidden_vp", not winetasters),
        show_pourer=_bool(options, "show_pourer", True),
        token_rules=(
            TokenRules.from_json(options["token_rules"])
            if "token_rules" in options
            else DEFAULT_TOKEN_RULES
        ),
        characters=deck,
        courses=_int(options, "courses", 3, 1, 9),
        loyal=loyal,
        traitor=traitor,
        pour_attribution=attribution,
    )
