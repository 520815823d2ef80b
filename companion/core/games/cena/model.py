"""The model of a game of Cena: the table's data and what it answers.

What the state (:mod:`.state`, the rules) and the views (:mod:`.views`, what each viewer may see)
share: the poison pile, the hands, the Welcome choices, the trick on the table, the scores, and
the queries on them. No rule is applied here.
"""

from __future__ import annotations

import copy
from enum import StrEnum
from typing import Any

from companion.core.copies import clone_of
from companion.core.game import CHANCE
from companion.core.games.cena.alliances import Played
from companion.core.games.cena.options import RANDOM, CenaOptions


class Phase(StrEnum):
    """What the table waits for, in the rulebook's order (see :mod:`.state`): the poison pile
    (chance, once), a random first Host (chance, once: "or randomly if there is no evidence"),
    each round's deal (chance), the Host revealing the poison, the Welcome, the Feast's tricks,
    or nothing after the last round."""

    POISONS = "poisons"
    HOST = "host"
    DEAL = "deal"
    REVEAL = "reveal"
    WELCOME = "welcome"
    FEAST = "feast"
    OVER = "over"


class CenaModel:
    """Cena's data; see :mod:`.state` for the phases."""

    def __init__(self, options: CenaOptions) -> None:
        self.options = options
        n = options.players
        self.phase: Phase = Phase.POISONS
        self.round = 0
        # A random first Host is None until its chance action (setup step 4) draws it.
        self.host: int | None = None if options.host == RANDOM else int(options.host)
        self.pile: list[int] = []
        self.revealed: list[int] = []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.set_aside: list[str] = []
        self.chosen: dict[int, list[str]] = {}
        self.faces: list[list[str]] | None = None
        self.leader = self.host
        self.lead_suit: str | None = None
        self.table: list[Played | None] = [None] * n
        self.trick = 0
        self.won: list[list[str]] = [[] for _ in range(n)]
        self.tricks: list[int] = [0] * n
        self.last_trick: dict[str, Any] | None = None
        self.last_winner: int | None = None
        self.scores: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None

    @property
    def num_seats(self) -> int:
        """The number of Houses (3 to 5)."""
        return self.options.players

    def seat_name(self, seat: int) -> str:
        """The House at ``seat``, numbered from 1 clockwise as the tablet shows them ("House 2")."""
        return f"House {seat + 1}"

    def to_move(self) -> int | object | None:
        """CHANCE for the pile, a random Host and the deals, the Host to reveal, then the Houses."""
        if self.phase == Phase.OVER:
            return None
        if self.phase in (Phase.POISONS, Phase.HOST, Phase.DEAL):
            return CHANCE
        if self.phase == Phase.REVEAL:
            return self.host
        if self.phase == Phase.WELCOME:
            return (self.host + len(self.chosen)) % self.num_seats
        return (self.leader + self.plays_in_trick) % self.num_seats

    @property
    def plays_in_trick(self) -> int:
        """How many cards lie on the table in the trick being played."""
        return sum(1 for played in self.table if played is not None)

    def outcome(self) -> dict[str, Any]:
        """``{"winners", "totals", "rounds"}`` once over (``{}`` before)."""
        return copy.deepcopy(self.result or {})

    @property
    def is_last_welcome(self) -> bool:
        """True when one House is left to choose its Welcome cards."""
        return len(self.chosen) == self.num_seats - 1

    def clone(self) -> CenaModel:
        """An independent copy; the validated options (immutable) are shared, not copied."""
        return clone_of(self)

    @property
    def poison(self) -> int | None:
        """The poison revealed this round (None before the Host reveals it)."""
        return self.revealed[self.round] if len(self.revealed) > self.round else None

    def totals(self) -> list[int]:
        """Each House's points over the rounds scored so far."""
        return [sum(s["houses"][h]["points"] for s in self.scores) for h in range(self.num_seats)]
