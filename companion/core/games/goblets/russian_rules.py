"""Russian Goblette's options, the rulebook sentences its refusals quote, and action field checks.

Kept apart from :mod:`companion.core.games.goblets.russian` (the state machine) so that the state
reads as the rules' flow. Everything here is pure validation: bad options raise MalformedInput
naming the field; :class:`Warner` is how a rule break is met in each mode. The actions' shapes
are :mod:`russian_actions`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.checks import within
from companion.core.errors import AmbiguousObservation, IllegalAction, MalformedInput
from companion.core.game import Event, Mode
from companion.core.games.goblets.tokens import DEFAULT_TOKEN_RULES, TokenRules

RULE_ONE_ACTION = "Players take turns performing 1 single action."
RULE_NO_ROTATE = (
    "All actions work like in a normal game, except for ROTATE (you can't Rotate in a 2-3 "
    "player game)"
)
RULE_SWAP = (
    'SWAP (when you Swap, you can swap the position of any two Goblets: no player has "Their '
    'Goblet").'
)
RULE_POUR = (
    "Secretly place one of the tokens from behind your screen into any Goblet (not just your own)."
)
RULE_TOAST = (
    "You can only perform this action as your first (and only) action on your turn, and only if "
    "you have no Wine tokens left behind your screen at the beginning of your turn."
)
RULE_PEEK_NONE = (
    "Look into Your Goblet to see which tokens are in it -- in Russian Goblette no player has "
    '"Their Goblet", and this table plays without Peek (option peek: "none").'
)
RULE_INITIAL_POUR = (
    "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens so that the total number of "
    'tokens is equal to the number of Goblets [...] Then randomly "pour" 1 token into each of the '
    "Goblets."
)
RULE_FINAL = (
    "Starting with the player to the left of the Toast Caller and proceeding clockwise, each "
    "player may perform one last action. The Toast Caller will be the last one to perform this "
    "final action."
)
RULE_DRINK = (
    'After the Toast, the player to the left of the Toast Caller "drinks" any one of the Goblets '
    "and reveals its contents"
)
RULE_NEXT_DRINK = (
    "The next player then chooses a Goblet, and so on, until there is only one survivor (who wins "
    "the round), or until all of the Goblets have been chosen."
)
RULE_ELIMINATED = "If they are poisoned, they are eliminated for the Course."
RULE_END = "The first player to obtain 3 VPs is the winner."

PEEK_CHOICES = ("any", "none")
OPTION_KEYS = (
    "variant",
    "players",
    "host",
    "peek",
    "vp_to_win",
    "token_rules",
    "raise_your_memory",
    "legacy",
)
RULE_NO_CARDS_OR_RINGS = "Play without Character cards and Goblet rings."
VARIANT = "russian_goblette"


@dataclass(frozen=True)
class RussianOptions:
    """Validated options of a Russian Goblette game (see the russian module docstring)."""

    players: int = 2
    host: int = 0
    peek: str = "any"
    vp_to_win: int = 3
    token_rules: TokenRules = DEFAULT_TOKEN_RULES

    def to_json(self) -> dict[str, Any]:
        """The options as JSON-able data, readable by :func:`parse_options`."""
        return {
            "variant": VARIANT,
            "players": self.players,
            "host": self.host,
            "peek": self.peek,
            "vp_to_win": self.vp_to_win,
            "token_rules": self.token_rules.to_json(),
        }


def parse_options(options: Mapping[str, Any]) -> RussianOptions:
    """Validate game options; unknown keys and bad values raise MalformedInput naming the key.

    Fields are bare option names (``players``, ``peek``), like the 4-12 player options.
    """
    if not isinstance(options, Mapping):
        raise MalformedInput(f"must be an object, got {options!r}", field="options")
    for key in options:
        if key not in OPTION_KEYS:
            known = ", ".join(OPTION_KEYS)
            raise MalformedInput(f"unknown option (known: {known})", field=key)
    variant = options.get("variant", VARIANT)
    if variant != VARIANT:
        raise MalformedInput(f"must be {VARIANT!r}, got {variant!r}", field="variant")
    # "Russian Goblette (2 and 3 players)"
    players = within(options.get("players", 2), "players", 2, 3)
    host = within(options.get("host", 0), "host", 0, players - 1)
    peek = options.get("peek", "any")
    if peek not in PEEK_CHOICES:
        raise MalformedInput(f"must be one of {PEEK_CHOICES}, got {peek!r}", field="peek")
    vp_to_win = within(options.get("vp_to_win", 3), "vp_to_win", 1, 10)
    # The optional rules of the other games, for uniform option sets: "Play without Character
    # cards and Goblet rings." Raise Your Memory ("remove the Coaster rings") is therefore
    # always the case here; Legacy (a poisoned player draws a new Character) cannot be played.
    for key in ("raise_your_memory", "legacy"):
        if not isinstance(options.get(key, False), bool):
            raise MalformedInput(f"must be true or false, got {options[key]!r}", field=key)
    if options.get("legacy", False):
        raise MalformedInput(
            "Russian Goblette is played without Character cards, so Legacy cannot apply",
            field="legacy",
        )
    token_rules = TokenRules.from_json(options.get("token_rules"), "token_rules")
    return RussianOptions(players, host, str(peek), vp_to_win, token_rules)


class Warner:
    """Turns a rule break into IllegalAction (enforcing) or a warning event (recording)."""

    def __init__(self, mode: Mode, warnings: list[Event]) -> None:
        self.mode = mode
        self.warnings = warnings

    def rule_break(self, message: str, rule: str) -> None:
        """A break the state can represent: refused when enforcing, else recorded with a warning."""
        if self.mode is Mode.ENFORCING:
            raise IllegalAction(message, rule=rule)
        self.warnings.append({"event": "rule_warning", "message": message, "rule": rule})

    def impossible(self, message: str, rule: str) -> None:
        """A break the state cannot represent: refused when enforcing, ambiguous when sensed."""
        if self.mode is Mode.ENFORCING:
            raise IllegalAction(message, rule=rule)
        raise AmbiguousObservation(f"{message} (rule: {rule})")
