"""Russian Goblette's table as data: the row of six Goblets, the screens, the Courses' scores.

The model of :mod:`companion.core.games.goblets.russian` (the state machine, which applies the
actions) and of :mod:`companion.core.games.goblets.russian_views` (what each viewer sees): the
fields of a game in progress, the queries both read, and a Course's bookkeeping -- its setup
("Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool") and its end (the
Course's winners, the tokens back to the pool, the game over at the VP that win). It imports no
other Russian Goblette module but its options, so the views and the state machine both run one
way to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from companion.core.game import Event
from companion.core.games.goblets.houses import HOUSE_IDS, HOUSES
from companion.core.games.goblets.russian_rules import RussianOptions
from companion.core.games.goblets.tokens import COURSE_SUPPLY, POOL, Token

GOBLETS = 6
"""Russian Goblette always plays with "all 6 Goblets in a row"."""

INITIAL_POUR = {Token.ANTIDOTE: 1, Token.POISON: 2, Token.WINE: GOBLETS - 3}
""""Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens so that the total number of
tokens is equal to the number of Goblets"."""


class Phase(StrEnum):
    """What a Russian Goblette Course waits for: its initial pour (chance: the random "pour" of
    "1 token into each of the Goblets"), the turns, the Toast's final actions, the drinking
    ("After the Toast, the player to the left of the Toast Caller "drinks" any one of the
    Goblets"), or nothing once over."""

    INITIAL_POUR = "initial_pour"
    TURNS = "turns"
    TOAST = "toast"
    DRINKING = "drinking"
    OVER = "over"


KINDS = [token.value for token in Token]


def empty() -> dict[str, int]:
    """A holder of no tokens: every kind at 0."""
    return dict.fromkeys(KINDS, 0)


def add(into: dict[str, int], tokens: Mapping[str, int]) -> None:
    """Add the counts of ``tokens`` into ``into`` (kind by kind)."""
    for kind, count in tokens.items():
        into[kind] += count


def nonzero(tokens: Mapping[str, int]) -> dict[str, int]:
    """The kinds ``tokens`` holds, without the zeros (how a revealed Goblet is shown)."""
    return {kind: count for kind, count in tokens.items() if count}


class RussianModel:
    """The fields of a Russian Goblette game and the Course's setup and end (no action here)."""

    def __init__(self, options: RussianOptions) -> None:
        self.options = options
        self.vp = [0] * options.players
        self.course = 0
        self.host = options.host
        self.results: list[dict[str, Any]] = []
        self.winners: list[int] = []
        self.pool = {kind: POOL.get(Token(kind), 0) for kind in KINDS}
        self._start_course()

    @property
    def num_seats(self) -> int:
        """2 or 3."""
        return self.options.players

    def seat_name(self, seat: int) -> str:
        """The House of ``seat``: "Each player receives a screen, which represents their House"
        (the Houses in the rulebook's order, one per player)."""
        return HOUSES[HOUSE_IDS[seat]]

    def _left_of(self, seat: int) -> int:
        return (seat + 1) % self.options.players

    def _next_drinker(self, after: int) -> int:
        seat = self._left_of(after)
        while seat in self.eliminated:
            seat = self._left_of(seat)
        return seat

    def outcome(self) -> dict[str, Any]:
        """Winners (sharing the victory when tied), VP per seat and every Course's result."""
        return {"winners": list(self.winners), "vp": list(self.vp), "courses": list(self.results)}

    def tokens_in_play(self) -> dict[str, int]:
        """Every token counted once: pool + screens + goblets + kept (always the 52 of POOL)."""
        total = dict(self.pool)
        for holder in [*self.screens, *self.goblets, *self.kept]:
            add(total, holder)
        return total

    # -- Course bookkeeping ---------------------------------------------------------------------

    def _start_course(self) -> None:
        """Appetizers: screens filled from the pool, the row emptied, the initial pour due."""
        n = self.options.players
        self.course += 1
        self.phase: Phase = Phase.INITIAL_POUR
        self.current: int | None = None
        self.toast_caller: int | None = None
        self.final_order: list[int] = []
        self.screens = [empty() for _ in range(n)]
        for screen in self.screens:
            # "Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool"
            for token, count in COURSE_SUPPLY.items():
                screen[token.value] += count
                self.pool[token.value] -= count
        self.goblets = [empty() for _ in range(GOBLETS)]
        self.drunk: dict[int, dict[str, Any]] = {}
        self.kept = [empty() for _ in range(n)]
        self.eliminated: list[int] = []
        self.peeks: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.log: list[dict[str, Any]] = []

    def _end_course(self) -> list[Event]:
        """Course winners get 1 VP; tokens go back to the pool; the game ends or goes on."""
        survivors = [s for s in range(self.options.players) if s not in self.eliminated]
        # "In case of 2 or more surviving players, the surviving player with the most Wine tokens
        # in front of them is the winner of the Course. If there's a tie, all tied players win."
        most = max(self.kept[s][Token.WINE.value] for s in survivors)
        course_winners = [s for s in survivors if self.kept[s][Token.WINE.value] == most]
        for seat in course_winners:
            self.vp[seat] += 1  # "Every time you win a Course, you gain 1 VP."
        result = {
            "course": self.course,
            "toast_caller": self.toast_caller,
            "survivors": survivors,
            "wine": [self.kept[s][Token.WINE.value] for s in range(self.options.players)],
            "winners": course_winners,
        }
        self.results.append(result)
        events: list[Event] = [{"event": "course_over", **result, "vp": list(self.vp)}]
        # "All players must discard any tokens they still have behind their screens."
        for holder in [*self.screens, *self.goblets, *self.kept]:
            add(self.pool, holder)
        self.host = self.toast_caller if self.toast_caller is not None else self.host
        # "The first player to obtain 3 VPs is the winner. If there's a tie, all tied players share
        # the victory." Every Course has at least one winner, so the game lasts at most
        # players * (vp_to_win - 1) + 1 Courses.
        reached = [s for s in range(self.options.players) if self.vp[s] >= self.options.vp_to_win]
        if reached:
            self.winners = reached
            self.phase = Phase.OVER
            self.current = None
            self.screens = [empty() for _ in self.screens]
            self.goblets = [empty() for _ in self.goblets]
            self.kept = [empty() for _ in self.kept]
            events.append({"event": "game_over", "winners": list(reached), "vp": list(self.vp)})
        else:
            self._start_course()
            events.append({"event": "course_started", "course": self.course, "host": self.host})
        return events
