"""The model of a game of The Gods Will Have Blood: the courtroom's data and what it answers.

What the state (:mod:`.state`, the rules) and the view (:mod:`.views`, what the page shows) share:
the board, the cases being heard, the verdict, the judgment and the sentence in progress, the log,
and the queries on them. No rule is applied here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from companion.core.copies import clone_of
from companion.core.game import CHANCE, Event
from companion.core.games.tribunal.board import Board
from companion.core.games.tribunal.cards import Card
from companion.core.games.tribunal.options import TribunalOptions

PLAYER = 0
"""The solo player's seat."""


class Phase(StrEnum):
    """What the courtroom waits for, in the order of play (see :mod:`.state`): the setup's
    shuffle (chance), hearing the cases, the verdict, the cubes' draw (chance, or the player's
    hand: "draw two cubes (one at a time) from the judgment pool"), choosing whom to sentence,
    carrying out the sentence, or nothing once won or lost."""

    SHUFFLE = "shuffle"
    HEAR = "hear"
    VERDICT = "verdict"
    DRAW = "draw"
    CHOOSE = "choose"
    SENTENCE = "sentence"
    OVER = "over"


class TribunalModel:
    """The courtroom's data; see :mod:`.state` for the phases."""

    def __init__(self, options: TribunalOptions) -> None:
        self.options = options
        vine = options.vine
        self.board = Board(legitimacy=vine.index("L"), reputation=vine.index("R"))
        self.phase: Phase = Phase.SHUFFLE
        self.cases: list[str] = []
        self.sentenced: list[str] = []
        self.verdict: str | None = None
        self.judgment: str | None = None
        self.sentence: str | None = None
        self.done: list[tuple[str, int]] = []
        self.undo_stack: list[tuple[Board, list[tuple[str, int]]]] = []
        self.hearings = 0
        self.result: dict[str, Any] | None = None
        self.log: list[Event] = []

    @property
    def num_seats(self) -> int:
        """One: the solo player."""
        return 1

    @property
    def cards(self) -> dict[str, Card]:
        """Every Accused card by name."""
        return self.options.cards

    def to_move(self) -> int | object | None:
        """CHANCE while shuffling and drawing, the player otherwise, None once over."""
        if self.phase == Phase.OVER:
            return None
        return CHANCE if self.phase in (Phase.SHUFFLE, Phase.DRAW) else PLAYER

    def outcome(self) -> dict[str, Any]:
        """``{"won", "reason", "winners", ...}`` once over (``{}`` before)."""
        return dict(self.result or {})

    def clone(self) -> TribunalModel:
        """An independent copy; the validated options (immutable) are shared, not copied."""
        return clone_of(self)

    def is_turned_over(self) -> bool:
        """True once the judgment has passed: "turn the Accused Card over and carry out the
        effects" (its back, both icons' effects, is then seen)."""
        return self.judgment is not None

    def unseen_cards(self) -> list[str]:
        """Cards whose place nobody knows (deck or face-down set aside), by name."""
        hidden = [card for stack in self.board.stacks for card in stack]
        return sorted(hidden + self.board.set_aside_hidden)

    def printed(self) -> tuple[tuple[str, int], ...] | None:
        """The stored effects of the sentence being carried out (None: tapped by hand)."""
        if self.sentence is None or not self.options.stored_deck or self.judgment is None:
            return None
        return self.cards[self.sentence].effects(self.judgment)
