"""The playmat: vine markers, Momentum Box, Judgment Pool, white and blue cubes, and the piles.

Everything that a card's effect or a judgment changes lives in one :class:`Board`, so the undo of
a mis-tapped effect is restoring the board as it was before that effect. The functions here carry
out one effect or one cube return; the order of play lives in :mod:`.state`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core.game import Event
from companion.core.games.tribunal.pool import GUILTY, Pool
from companion.core.games.tribunal.vine import Vine, step_down, step_up
from companion.core.games.tribunal.words import MARKER_WORDS

MOMENTUM_CUBES = 7
"""Setup: "Place 7 red cubes in the Momentum Box." Also the box's size for "missing" cubes."""

WHITE_CUBES = 3
"""Elements of the Game: "3 white cubes will represent the willingness of the court to exonerate
the accused"."""

HARDENING = "a hardening of the heart"


@dataclass
class Board:
    """The state of the playmat and the piles of Accused cards (deck order is secret)."""

    legitimacy: int
    reputation: int
    red: int = 4
    white: int = 3
    box: int = MOMENTUM_CUBES
    blue: str = "W"
    """Where the blue cube is: on the ``"W"`` space, in the ``"pool"``, or ``"drawn"``."""
    stacks: list[list[str]] = field(default_factory=lambda: [[]])
    set_aside_hidden: list[str] = field(default_factory=list)
    set_aside_known: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)
    """The cubes drawn for the judgment being carried out (out of the bag until returned)."""
    two_cases: bool = False
    doom: str | None = None
    """Why the game is lost, once it is (confirmed by "end of sentence")."""

    @property
    def pool(self) -> Pool:
        """The cubes in the bag now."""
        return Pool(self.red, self.white, 1 if self.blue == "pool" else 0)

    @property
    def white_supply(self) -> int:
        """White cubes neither in the bag nor drawn (the ones "add a white cube" can take)."""
        return WHITE_CUBES - self.white - self.drawn.count("white")

    @property
    def deck_size(self) -> int:
        """Accused cards still to be heard."""
        return sum(len(stack) for stack in self.stacks)


def split_deck(board: Board) -> Event:
    """Momentum Box empty: "divide the Accused Deck into two approximately even stacks"."""
    deck = [card for stack in board.stacks for card in stack]
    half = (len(deck) + 1) // 2
    board.stacks = [deck[:half], deck[half:]]
    board.two_cases = True
    return {"event": "deck_split", "stacks": [len(s) for s in board.stacks]}


def move_marker(board: Board, vine: Vine, marker: str, steps: int, up: bool) -> list[Event]:
    """Move ``marker`` (``"legitimacy"`` or ``"reputation"``) one space at a time, with the rules.

    Stops at a loss: "if either Legitimacy or Reputation ever occupies the bottom space on its
    vine, you will lose."
    """
    other = "reputation" if marker == "legitimacy" else "legitimacy"
    events: list[Event] = []
    for _ in range(steps):
        before = getattr(board, marker)
        after = (
            step_up(before, getattr(board, other), vine)
            if up
            else step_down(before, getattr(board, other))
        )
        setattr(board, marker, after)
        event: Event = {"event": "moved", "marker": marker, "from": before, "to": after}
        if after == before:
            event["event"] = "blocked"
        elif abs(after - before) == 2:
            event["jumped"] = True
        events.append(event)
        if marker == "legitimacy" and after != before and vine.label(after) == "W":
            events.extend(_blue_enters(board))
        if vine.is_bottom(after):
            board.doom = f"{MARKER_WORDS[marker]} on the bottom space"
            events.append({"event": "lost", "reason": board.doom})
            break
    return events


def _blue_enters(board: Board) -> list[Event]:
    """Legitimacy reaches W: the blue cube waiting there enters the pool (docs/rules-notes.md)."""
    if board.blue != "W":
        return []
    board.blue = "pool"
    return [{"event": "blue_to_pool"}]


def add_momentum(board: Board, vine: Vine, n: int) -> list[Event]:
    """Move ``n`` red cubes from the Momentum Box to the pool.

    "If the Momentum Box is empty when instructed to add momentum, lower Legitimacy one space for
    each cube you are unable to add." "If the Momentum Box becomes empty, divide the Accused Deck".
    """
    events: list[Event] = []
    for _ in range(n):
        if board.doom:
            break
        if board.box > 0:
            board.box -= 1
            board.red += 1
            events.append({"event": "momentum", "box": board.box})
            if board.box == 0 and not board.two_cases:
                events.append(split_deck(board))
        else:
            events.append({"event": "momentum_box_empty"})
            events.extend(move_marker(board, vine, "legitimacy", 1, up=False))
    return events


def carry_out(board: Board, vine: Vine, effect: str, n: int) -> list[Event]:
    """Carry out one printed effect ``effect`` with amount ``n``; returns the events."""
    if effect == "momentum":
        return add_momentum(board, vine, n)
    if effect in ("reputation_up", "reputation_down", "legitimacy_up", "legitimacy_down"):
        marker, direction = effect.split("_")
        return move_marker(board, vine, marker, n, up=direction == "up")
    if effect == "add_white":
        if board.white_supply == 0:
            return [{"event": "no_white_to_add"}]
        board.white += 1
        return [{"event": "white_added", "white": board.white}]
    if effect == "remove_white":
        # "You will also lose if you are instructed to remove a white cube from the Judgment Pool
        # and there are none (a hardening of the heart)."
        if board.white == 0:
            board.doom = HARDENING
            return [{"event": "lost", "reason": HARDENING}]
        board.white -= 1
        return [{"event": "white_removed", "white": board.white}]
    raise ValueError(f"unknown effect {effect!r}")


def return_cubes(board: Board, vine: Vine, judgment: str, missing_reds: str) -> Event:
    """Put the judgment's drawn cubes back after the sentences.

    Guilty: "return the drawn cubes to the Judgment Pool". Not Guilty: "return all missing red cubes
    to the Momentum Box and return the other drawn cubes to the Judgment Pool". The blue cube "is
    only returned to the Judgment Pool if the Legitimacy Marker is in the "W" space"; otherwise it
    goes back on the W space. "Missing" is defined in docs/rules-notes.md (option ``missing_reds``).
    """
    drawn, board.drawn = board.drawn, []
    reds = drawn.count("red")
    board.white += drawn.count("white")
    to_box = 0
    if judgment != GUILTY:
        if missing_reds == "box":
            missing = max(0, MOMENTUM_CUBES - board.box)
            to_box = min(missing, reds + board.red)
        else:
            to_box = min(reds, max(0, MOMENTUM_CUBES - board.box))
    board.box += to_box
    board.red += reds - to_box
    if "blue" in drawn:
        board.blue = "pool" if vine.label(board.legitimacy) == "W" else "W"
    return {
        "event": "cubes_returned",
        "to_box": to_box,
        "pool": {"red": board.red, "white": board.white, "blue": int(board.blue == "pool")},
        "blue": board.blue,
        "box": board.box,
    }


def board_json(board: Board, vine: Vine) -> dict[str, Any]:
    """The public part of the board (no deck order, no face-down card)."""
    return {
        "vine": {
            "spaces": list(vine.labels),
            "legitimacy": board.legitimacy,
            "reputation": board.reputation,
            "legitimacy_label": vine.label(board.legitimacy),
            "reputation_label": vine.label(board.reputation),
        },
        "pool": {"red": board.red, "white": board.white, "blue": int(board.blue == "pool")},
        "blue_cube": board.blue,
        "drawn": list(board.drawn),
        "white_supply": board.white_supply,
        "momentum_box": board.box,
        "momentum_box_size": MOMENTUM_CUBES,
        "deck": {"count": board.deck_size, "stacks": [len(s) for s in board.stacks]},
        "set_aside": {
            "count": len(board.set_aside_hidden) + len(board.set_aside_known),
            "face_down": len(board.set_aside_hidden),
            "acquitted": list(board.set_aside_known),
        },
        "discarded": {"count": len(board.discarded), "cards": list(board.discarded)},
        "two_case_mode": board.two_cases,
    }
