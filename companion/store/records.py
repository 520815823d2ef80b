"""The journal's records: a game's row, a seat's row, and the live journal without its undos.

Undo is itself an entry, ``{"type": "journal.undo", "seq": N}`` (:data:`UNDO`, a type no game
uses): nothing is ever deleted. :func:`live_entries` and :func:`live_journal` leave out the undo
entries and the entries they undid; replaying the live journal with
:func:`companion.core.journal.replay` gives the state. The SQLite store that keeps these is
:class:`companion.store.journal.JournalStore`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core.checks import is_whole
from companion.core.errors import CupbearerError
from companion.core.journal import Entry, Journal

UNDO = "journal.undo"
"""The action type of an undo entry: ``{"type": "journal.undo", "seq": <the seq it undoes>}``."""

PLAYS = ("demo", "phones", "readers", "camera")
"""How a game is played: by the demo table, by hand on the phones, read by the reader nodes or by
the overhead camera."""


class NotFound(CupbearerError):
    """A game id that the journal does not hold."""


def check_id(game_id: object) -> int:
    """``game_id`` if it can name a game (SQLite's 64-bit ids), else NotFound."""
    if not is_whole(game_id) or not 0 <= game_id < 2**63:
        raise NotFound(f"no game {game_id!r}")
    return game_id


@dataclass(frozen=True)
class GameRecord:
    """One row of the ``games`` table."""

    id: int
    game: str
    options: dict[str, Any]
    created: float
    finished: float | None = None
    outcome: dict[str, Any] | None = None
    play: str = "phones"
    """How the game is played (one of :data:`PLAYS`)."""
    join_code: str | None = None
    """The code a phone opens to claim a seat (None: nobody joins, e.g. the demo's games)."""

    @property
    def is_finished(self) -> bool:
        """True once the game has ended and its outcome is stored."""
        return self.finished is not None

    @property
    def is_demo(self) -> bool:
        """True for a game the demo table started and plays (nobody's game)."""
        return self.play == "demo"

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-able data."""
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "created": self.created,
            "finished": self.finished,
            "outcome": self.outcome,
            "play": self.play,
        }


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a game: the player's name and the digest of the device holding it (if any)."""

    seat: int
    name: str | None = None
    device: str | None = None
    """SHA-256 hex digest of the holding device's secret; None while the seat is free."""
    claimed: float | None = None


def undone_seqs(entries: list[Entry]) -> set[int]:
    """The seqs removed by undo entries (an undo entry itself is never part of the game)."""
    undone: set[int] = set()
    for entry in entries:
        if entry.action.get("type") == UNDO:
            undone.add(int(entry.action["seq"]))
    return undone


def live_entries(entries: list[Entry]) -> list[Entry]:
    """The entries that make the game: no undo entries and none that an undo removed."""
    undone = undone_seqs(entries)
    return [e for e in entries if e.action.get("type") != UNDO and e.seq not in undone]


def live_journal(journal: Journal) -> Journal:
    """The journal without undo entries and what they undid: replay it to get the state."""
    return Journal(journal.game, dict(journal.options), live_entries(journal.entries))
