"""The SQLite journal: every game's append-only record of actions (DESIGN.md principle 5).

One file holds every game played at this table: a ``games`` table (id, game name, options, how it
is played, its join code, when it was created and finished, its outcome) and an append-only
``entries`` table (seq, t, mode, who entered it, action as JSON). The database runs in WAL mode
with ``synchronous=FULL``, and :meth:`JournalStore.append` returns only once its transaction is
committed and synced, so a caller that shows an action after ``append`` returned can never show
something a power cut or a ``kill -9`` would lose.

Undo is itself an entry, ``{"type": "journal.undo", "seq": N}`` (a type no game uses): nothing
is ever deleted. The live journal (:func:`live_journal`) leaves out the undo entries and the
entries they undid; replaying it with :func:`companion.core.journal.replay` gives the state. The
records and the live journal are :mod:`companion.store.records`'; this module is the SQLite store.
The seats of a game (a player's name, and the digest of the device secret that holds the seat), the
Host's sessions (digests, so logging out can end them) and the table's settings (the demo switch)
are stored beside the games, so a restart keeps every phone
in its seat. Only a SHA-256 digest of a device's secret is kept: the journal file opens no seat.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.game import Action, Mode
from companion.core.journal import Entry, Journal, upgraded_entries
from companion.store.records import (
    PLAYS,
    UNDO,
    GameRecord,
    NotFound,
    SeatRecord,
    check_id,
    live_entries,
    live_journal,
    undone_seqs,
)

__all__ = [
    "PLAYS",
    "UNDO",
    "GameRecord",
    "JournalStore",
    "NotFound",
    "SeatRecord",
    "check_id",
    "live_entries",
    "live_journal",
    "undone_seqs",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL,
    outcome TEXT,
    play TEXT NOT NULL DEFAULT 'demo',
    join_code TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    mode TEXT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT,
    device TEXT UNIQUE,
    claimed REAL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS host_sessions (
    digest TEXT PRIMARY KEY,
    created REAL NOT NULL,
    seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
ADDED_COLUMNS = (
    # A journal written before a game stored how it was played: every game then was the demo's
    # (the virtual table took any other game back), so it resumes as a demo game.
    ("games", "play", "TEXT NOT NULL DEFAULT 'demo'"),
    ("games", "join_code", "TEXT"),
    ("entries", "actor", "TEXT"),
)
"""Columns added since the first schema: added in place to an older journal file."""
GAME_COLUMNS = "id, game, options, created, finished, outcome, play, join_code"


class JournalStore:
    """The journal database at ``path`` (created on first use); safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        # Autocommit mode: every write below runs in its own explicit transaction.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: the WAL is synced at every commit, so a committed entry survives a power cut.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._add_columns()

    def _add_columns(self) -> None:
        """Bring a journal file written by an older version up to :data:`SCHEMA`."""
        for table, column, declaration in ADDED_COLUMNS:
            present = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in present:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")

    def close(self) -> None:
        """Close the database (idempotent)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None  # type: ignore[assignment]

    def __enter__(self) -> JournalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute(sql, params)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return cursor

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def create_game(
        self,
        game: str,
        options: Mapping[str, Any],
        *,
        t: float,
        play: str = "phones",
        join_code: str | None = None,
    ) -> GameRecord:
        """Start a new game's record and return it."""
        if play not in PLAYS:
            raise MalformedInput(f"unknown play {play!r} (known: {', '.join(PLAYS)})", field="play")
        text = json.dumps(dict(options), sort_keys=True)
        cursor = self._write(
            "INSERT INTO games (game, options, created, play, join_code) VALUES (?, ?, ?, ?, ?)",
            (game, text, t, play, join_code),
        )
        return GameRecord(
            int(cursor.lastrowid), game, json.loads(text), t, play=play, join_code=join_code
        )

    def append(
        self,
        game_id: int,
        action: Action,
        *,
        t: float,
        mode: Mode = Mode.ENFORCING,
        actor: str | None = None,
    ) -> Entry:
        """Append ``action`` to game ``game_id``; returns once it is committed and synced.

        ``actor``: who entered it ("seat 2", "host", "chance", "readers", "demo"), for the record.
        """
        try:
            text = json.dumps(action, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise MalformedInput(f"not JSON-able: {error}", field="action") from None
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if not self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                    raise NotFound(f"no game {game_id}")
                (last,) = self._db.execute(
                    "SELECT MAX(seq) FROM entries WHERE game_id = ?", (game_id,)
                ).fetchone()
                seq = 0 if last is None else last + 1
                self._db.execute(
                    "INSERT INTO entries (game_id, seq, t, mode, action, actor)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, t, mode.value, text, actor),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return Entry(seq=seq, action=json.loads(text), t=t, mode=mode, actor=actor)

    def finish(self, game_id: int, *, t: float, outcome: Mapping[str, Any]) -> None:
        """Mark game ``game_id`` finished with its ``outcome``."""
        self._write(
            "UPDATE games SET finished = ?, outcome = ? WHERE id = ?",
            (t, json.dumps(dict(outcome), sort_keys=True), game_id),
        )

    def reopen(self, game_id: int) -> None:
        """Clear a game's finished mark (an undo of the action that ended it)."""
        self._write("UPDATE games SET finished = NULL, outcome = NULL WHERE id = ?", (game_id,))

    @staticmethod
    def _record(row: tuple[Any, ...]) -> GameRecord:
        game_id, game, options, created, finished, outcome, play, join_code = row
        return GameRecord(
            id=game_id,
            game=game,
            options=json.loads(options),
            created=created,
            finished=finished,
            outcome=None if outcome is None else json.loads(outcome),
            play=play,
            join_code=join_code,
        )

    def game(self, game_id: int) -> GameRecord:
        """The record of game ``game_id``; raises :class:`NotFound`."""
        check_id(game_id)
        rows = self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?",
            (game_id,),
        )
        if not rows:
            raise NotFound(f"no game {game_id}")
        return self._record(rows[0])

    def games(self) -> list[GameRecord]:
        """Every game, newest first."""
        rows = self._read(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC")
        return [self._record(row) for row in rows]

    def latest_unfinished(self) -> GameRecord | None:
        """The most recent game that has not finished (the one to resume), if any."""
        rows = self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
        )
        return self._record(rows[0]) if rows else None

    def entries(self, game_id: int) -> list[Entry]:
        """Every entry of game ``game_id`` in order, undo entries included, each action named as
        this version names it: a game journaled by an older version is upgraded as it is read
        (:func:`companion.core.journal.upgraded_entries`; the rows stay as they were written)."""
        check_id(game_id)
        rows = self._read(
            "SELECT seq, t, mode, action, actor FROM entries WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        entries = [
            Entry(seq=seq, t=t, mode=Mode(mode), action=json.loads(action), actor=actor)
            for seq, t, mode, action, actor in rows
        ]
        game = self._read("SELECT game FROM games WHERE id = ?", (game_id,))
        return upgraded_entries(game[0][0], entries) if game else entries

    def journal(self, game_id: int) -> Journal:
        """The whole recorded journal of ``game_id`` (undo entries included)."""
        record = self.game(game_id)
        return Journal(record.game, record.options, self.entries(game_id))

    def export(self, game_id: int) -> dict[str, Any]:
        """A game as JSON: its record, the live journal (replayable) and the full record."""
        raw = self.journal(game_id)
        return {
            **self.game(game_id).to_json(),
            "journal": live_journal(raw).to_json(),
            "record": raw.to_json(),
        }

    def set_seat(
        self,
        game_id: int,
        seat: int,
        *,
        name: str | None,
        device: str | None,
        claimed: float | None,
    ) -> None:
        """Store seat ``seat`` of ``game_id``: its player's name and the device holding it."""
        # An upsert on the seat, not INSERT OR REPLACE: a device already holding another seat
        # must fail (UNIQUE), not silently delete that other seat's row.
        self._write(
            "INSERT INTO seats (game_id, seat, name, device, claimed) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET"
            " name = excluded.name, device = excluded.device, claimed = excluded.claimed",
            (game_id, seat, name, device, claimed),
        )

    def seats(self, game_id: int) -> dict[int, SeatRecord]:
        """The stored seats of ``game_id`` (seat index -> record)."""
        rows = self._read(
            "SELECT seat, name, device, claimed FROM seats WHERE game_id = ?", (game_id,)
        )
        return {int(row[0]): SeatRecord(int(row[0]), *row[1:]) for row in rows}

    def add_host_session(self, digest: str, *, t: float) -> None:
        """Keep a new Host session (the digest of its id: the file opens no session)."""
        self._write(
            "INSERT INTO host_sessions (digest, created, seen) VALUES (?, ?, ?)", (digest, t, t)
        )

    def host_session(self, digest: str) -> tuple[float, float] | None:
        """``(created, last seen)`` of a Host session, or None (never made, or ended)."""
        rows = self._read("SELECT created, seen FROM host_sessions WHERE digest = ?", (digest,))
        return (rows[0][0], rows[0][1]) if rows else None

    def touch_host_session(self, digest: str, *, t: float) -> None:
        """The session was used at ``t``."""
        self._write("UPDATE host_sessions SET seen = ? WHERE digest = ?", (t, digest))

    def end_host_sessions(self, digest: str | None = None) -> None:
        """End one Host session (None: every one)."""
        if digest is None:
            self._write("DELETE FROM host_sessions", ())
        else:
            self._write("DELETE FROM host_sessions WHERE digest = ?", (digest,))

    def setting(self, key: str) -> str | None:
        """A table setting kept across restarts (None: never set)."""
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_setting(self, key: str, value: str) -> None:
        """Keep a table setting."""
        self._write("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))
