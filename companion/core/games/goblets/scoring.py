"""The reveal and the scoring of a Toast, exactly as the rulebook's table.

Rulebook, The Toast: "For each Antidote token in Your Goblet, remove 1 Poison token. If after this
Your Goblet still contains at least 1 Poison token, you have been poisoned. If there are no more
Poison tokens left, you have survived. [...] Wine tokens have no effect on whether you survive or
get poisoned!"

"You score: 1 VP if you survived; 1 VP if your Target has been poisoned; +1 VP extra if you
achieved both of the above goals; 1 VP if you have the most Wine tokens in Your Goblet (no matter
if you survived or not; if there's a tie, no one receives this bonus VP)."

"Some Character abilities change the scoring rules for their player (you apply their effect
instead of the normal scoring). The bonus VP for "Most Wine tokens" though is NEVER affected."
A Character's scoring override is data (:class:`ScoringOverride`); the Most Wine VP is not one of
its fields, so no Character can touch it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from companion.core.checks import whole
from companion.core.errors import MalformedInput
from companion.core.games.goblets.tokens import (
    DEFAULT_TOKEN_RULES,
    Contents,
    Token,
    TokenRules,
    check_contents,
)


@dataclass(frozen=True)
class Reveal:
    """What one goblet reveals: poisoned or survived, its Wine, and the Poison doses left."""

    poisoned: bool
    survived: bool
    wine: int
    poison_left: int


def reveal(contents: Contents, rules: TokenRules = DEFAULT_TOKEN_RULES) -> Reveal:
    """Reveal a goblet: remove Poison with the Antidotes in it and see whether any is left.

    "For each Antidote token in Your Goblet, remove 1 Poison token. If after this Your Goblet
    still contains at least 1 Poison token, you have been poisoned." With special tokens every
    Antidote removes what it may (``rules``) so that as little Poison as possible is left: which
    token removes which never matters to the outcome, only whether Poison remains.
    """
    counts = check_contents(contents)
    poison = counts[Token.POISON]
    ogre = counts[Token.OGRE_POISON] * rules.ogre_poison_doses
    antidote = counts[Token.ANTIDOTE]
    unicorns = counts[Token.UNICORN_ANTIDOTE]
    if rules.unicorn_antidote_cancels is None:
        unicorn = (poison + ogre) if unicorns else 0  # "any number": enough for every dose
    else:
        unicorn = unicorns * rules.unicorn_antidote_cancels
    for_ogre = (antidote if rules.antidote_cancels_ogre_poison else 0) + (
        unicorn if rules.unicorn_antidote_cancels_ogre_poison else 0
    )
    # A maximum matching of removals to doses: both Antidote kinds may remove ordinary Poison,
    # only some may remove Ogre Poison; by the max-flow/min-cut theorem the most doses removable
    # is the smallest of these three cuts.
    removed = min(poison + ogre, antidote + unicorn, poison + for_ogre)
    left = poison + ogre - removed
    return Reveal(poisoned=left > 0, survived=left == 0, wine=counts[Token.WINE], poison_left=left)


@dataclass(frozen=True)
class ScoringOverride:
    """VP for each Toast condition; the defaults are the rulebook's table (normal scoring).

    A Character that changes its player's scoring is this table with other numbers: "you apply
    their effect instead of the normal scoring". ``both`` is the extra VP for having survived
    and poisoned your Target. ``character`` only names the card. Most Wine is not a field: "The
    bonus VP for "Most Wine tokens" though is NEVER affected".
    """

    survived: int = 1
    target_poisoned: int = 1
    both: int = 1
    poisoned: int = 0
    target_survived: int = 0
    character: str | None = None

    def vp(self, *, survived: bool, target_poisoned: bool) -> int:
        """The VP this table gives for the Toast's outcome (Most Wine excluded)."""
        return (
            (self.survived if survived else self.poisoned)
            + (self.target_poisoned if target_poisoned else self.target_survived)
            + (self.both if survived and target_poisoned else 0)
        )

    @staticmethod
    def from_json(data: Any, field: str = "override") -> ScoringOverride:
        """Parse ``{"survived": 2, "poisoned": 1, ...}``; missing fields keep the normal values.

        VP values are non-negative integers. A ``most_wine`` key is refused: no Character may
        change the Most Wine VP.
        """
        if not isinstance(data, Mapping):
            raise MalformedInput(f"must be an object of VP values, got {data!r}", field=field)
        known = {f.name for f in fields(ScoringOverride)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            where = f"{field}.{key}"
            if key == "most_wine":
                raise MalformedInput(
                    'the Most Wine VP "is NEVER affected" by a Character', field=where
                )
            if key not in known:
                names = ", ".join(sorted(known))
                raise MalformedInput(f"unknown key (known: {names})", field=where)
            if key == "character":
                if value is not None and not isinstance(value, str):
                    raise MalformedInput(f"must be a string, got {value!r}", field=where)
            else:
                whole(value, where, f"must be a non-negative integer, got {value!r}", low=0)
            values[key] = value
        return ScoringOverride(**values)

    def to_json(self) -> dict[str, Any]:
        """The override as JSON-able data, readable by :meth:`from_json`."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if data["character"] is None:
            del data["character"]
        return data


NORMAL_SCORING = ScoringOverride()
"""The rulebook's table, used for every player without a scoring override."""


@dataclass(frozen=True)
class ToastScore:
    """One player's result of a Toast and the VP it earns."""

    poisoned: bool
    survived: bool
    target_poisoned: bool
    most_wine: bool
    vp: int

    def to_json(self) -> dict[str, Any]:
        """The score as JSON-able data (the ``companion goblets score`` output per player)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def check_seats(seats: Any, field: str = "seats") -> list[str]:
    """Validate the seated player ids (clockwise): at least 2 distinct non-empty strings."""
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence):
        raise MalformedInput(f"must be a list of player ids, got {seats!r}", field=field)
    if len(seats) < 2:
        raise MalformedInput(f"needs at least 2 players, got {len(seats)}", field=field)
    seen: set[str] = set()
    for index, player in enumerate(seats):
        where = f"{field}[{index}]"
        if not isinstance(player, str) or not player:
            raise MalformedInput(f"must be a non-empty string, got {player!r}", field=where)
        if player in seen:
            raise MalformedInput(f"duplicate player {player!r}", field=where)
        seen.add(player)
    return list(seats)


def _check_per_player(data: Any, seats: list[str], field: str, what: str) -> None:
    """``data`` must be an object whose keys are seated players (every one, if ``what``)."""
    if not isinstance(data, Mapping):
        raise MalformedInput(f"must be an object keyed by player, got {data!r}", field=field)
    for key in data:
        if key not in seats:
            raise MalformedInput(f"{key!r} is not a seated player", field=f"{field}.{key}")
    if what:
        for player in seats:
            if player not in data:
                raise MalformedInput(f"missing {what}", field=f"{field}.{player}")


def score_toast(
    seats: Sequence[str],
    targets: Mapping[str, str],
    goblets: Mapping[str, Contents],
    *,
    rules: TokenRules = DEFAULT_TOKEN_RULES,
    overrides: Mapping[str, ScoringOverride] | None = None,
) -> dict[str, ToastScore]:
    """Score one Toast: every player's reveal, Target and Most Wine, in seat order.

    ``goblets[p]`` is the goblet in front of ``p`` at the reveal ("each player takes the Goblet in
    front of them, no matter the color of its Coaster"); ``targets[p]`` is the player ``p`` wants
    to poison ("Since you can't target yourself"). Inconsistent input raises MalformedInput
    naming the field (``targets.alice``, ``goblets.bob.poison``, ...).
    """
    players = check_seats(seats)
    _check_per_player(targets, players, "targets", "target")
    for player in players:
        target = targets[player]
        where = f"targets.{player}"
        if not isinstance(target, str) or target not in players:
            raise MalformedInput(f"must be a seated player, got {target!r}", field=where)
        if target == player:
            raise MalformedInput("you can't target yourself", field=where)
    _check_per_player(goblets, players, "goblets", "goblet")
    overrides = overrides or {}
    _check_per_player(overrides, players, "overrides", "")
    for player, override in overrides.items():
        if not isinstance(override, ScoringOverride):
            raise MalformedInput(
                f"must be a ScoringOverride, got {override!r}", field=f"overrides.{player}"
            )
    reveals = {}
    for player in players:
        check_contents(goblets[player], f"goblets.{player}")
        reveals[player] = reveal(goblets[player], rules)

    # "if there's a tie, no one receives this bonus VP"
    most = max(r.wine for r in reveals.values())
    with_most = [p for p in players if reveals[p].wine == most]
    most_wine_player = with_most[0] if len(with_most) == 1 else None

    scores = {}
    for player in players:
        own = reveals[player]
        target_poisoned = reveals[targets[player]].poisoned
        most_wine = player == most_wine_player
        table = overrides.get(player, NORMAL_SCORING)
        vp = table.vp(survived=own.survived, target_poisoned=target_poisoned) + int(most_wine)
        scores[player] = ToastScore(
            poisoned=own.poisoned,
            survived=own.survived,
            target_poisoned=target_poisoned,
            most_wine=most_wine,
            vp=vp,
        )
    return scores
