"""The SQLite journal: durability (kill -9 while appending), replay, undo folding, export."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import shellgame

from companion.core.errors import MalformedInput
from companion.core.game import CHANCE, Mode
from companion.store.journal import JournalStore, NotFound, live_entries, live_journal

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import random, sys
sys.path.insert(0, sys.argv[2])
import shellgame
from companion.core.game import CHANCE
from companion.store.journal import JournalStore

store = JournalStore(sys.argv[1])
record = store.create_game("shellgame", {"players": 4}, t=0.0)
print("game", record.id, flush=True)
rng = random.Random(7)
n = 0
state = shellgame.GAME.new_state({"players": 4})
while True:  # no toast: the game goes on until the parent kills this process
    if state.to_move() is CHANCE:
        action = state.sample_chance(rng)
    else:
        action = rng.choice([a for a in state.legal_actions() if a["type"] != "toast"])
    state.apply(action)
    entry = store.append(record.id, action, t=float(n))
    n += 1
    print("ack", entry.seq, flush=True)
"""


def replay(entries, players=4):
    state = shellgame.GAME.new_state({"players": players})
    for entry in entries:
        state.apply(entry.action, entry.mode)
    return state


def test_kill9_while_appending_loses_no_committed_entry(tmp_path):
    db = tmp_path / "journal.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(Path(shellgame.__file__).parent)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        game_line = child.stdout.readline().split()
        assert game_line[0] == "game"
        game_id = int(game_line[1])
        acked = -1
        while acked < 60:
            line = child.stdout.readline()
            assert line.startswith("ack"), line
            acked = int(line.split()[1])
        child.send_signal(signal.SIGKILL)  # in the middle of the next append, or near it
    finally:
        child.kill()
        child.wait()
        child.stdout.close()

    with JournalStore(db) as store:
        entries = store.entries(game_id)
        assert [e.seq for e in entries] == list(range(len(entries)))
        assert len(entries) >= acked + 1  # every acknowledged entry is there
        # The journal replays: the same actions, same seeded choices, same state.
        state = replay(entries)
        assert state.actions == len(entries) - 1  # one chance entry, the rest players'
        assert store.latest_unfinished().id == game_id


def play(store, seed=1, actions=12):
    record = store.create_game("shellgame", {"players": 3}, t=1.0)
    state = shellgame.GAME.new_state({"players": 3})
    rng = random.Random(seed)
    for n in range(actions):
        action = (
            state.sample_chance(rng)
            if state.to_move() is CHANCE
            else rng.choice([a for a in state.legal_actions() if a["type"] != "toast"])
        )
        state.apply(action)
        store.append(record.id, action, t=2.0 + n)
    return record, state


def test_reopen_replays_the_same_state(tmp_path):
    db = tmp_path / "j.sqlite"
    with JournalStore(db) as store:
        record, state = play(store)
    with JournalStore(db) as store:
        again = replay(store.entries(record.id), players=3)
        assert again.view(shellgame.Viewer.seat(0)) == state.view(shellgame.Viewer.seat(0))
        assert again.cups == state.cups
        mode = sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"


def test_undo_entries_are_folded_out(tmp_path):
    with JournalStore(tmp_path / "j.sqlite") as store:
        record, _ = play(store, actions=5)
        undo = store.append(record.id, {"type": "journal.undo", "seq": 4}, t=9.0)
        assert undo.seq == 5
        journal = store.journal(record.id)
        assert [e.seq for e in live_entries(journal.entries)] == [0, 1, 2, 3]
        assert len(live_journal(journal).entries) == 4
        assert len(journal.entries) == 6  # nothing is ever deleted


def test_finish_export_and_list(tmp_path):
    with JournalStore(tmp_path / "j.sqlite") as store:
        first, _ = play(store, actions=4)
        second, _ = play(store, seed=2, actions=3)
        store.finish(first.id, t=50.0, outcome={"winners": [1]})
        assert [g.id for g in store.games()] == [second.id, first.id]
        assert store.game(first.id).is_finished
        assert store.latest_unfinished().id == second.id
        exported = json.loads(json.dumps(store.export(first.id)))
        assert exported["outcome"] == {"winners": [1]}
        assert exported["journal"]["game"] == "shellgame"
        assert len(exported["journal"]["entries"]) == 4
        assert exported["journal"]["entries"][0]["mode"] == Mode.ENFORCING.value
        store.reopen(first.id)
        assert not store.game(first.id).is_finished


def test_bad_input_is_typed(tmp_path):
    with JournalStore(tmp_path / "j.sqlite") as store:
        with pytest.raises(NotFound):
            store.game(99)
        with pytest.raises(NotFound):
            store.append(99, {"type": "pass"}, t=0.0)
        record = store.create_game("shellgame", {}, t=0.0)
        with pytest.raises(MalformedInput, match="action"):
            store.append(record.id, {"type": "x", "bad": object()}, t=0.0)
        assert store.entries(record.id) == []


def test_seats_and_settings_persist(tmp_path):
    db = tmp_path / "j.sqlite"
    with JournalStore(db) as store:
        record = store.create_game("shellgame", {}, t=0.0, play="phones", join_code="ABCD")
        store.set_seat(record.id, 0, name="Anna", device="d" * 64, claimed=1.0)
        store.set_seat(record.id, 1, name="Ben", device=None, claimed=None)
        store.set_setting("demo", "off")
        store.append(record.id, {"type": "pass"}, t=1.0, actor="seat 0")
    with JournalStore(db) as store:
        seats = store.seats(record.id)
        assert seats[0].name == "Anna" and seats[0].device == "d" * 64
        assert seats[1].device is None and seats[1].claimed is None
        assert store.setting("demo") == "off" and store.setting("nothing") is None
        again = store.game(record.id)
        assert again.play == "phones" and again.join_code == "ABCD" and not again.is_demo
        assert store.entries(record.id)[0].actor == "seat 0"
        assert store.export(record.id)["record"]["entries"][0]["actor"] == "seat 0"


def test_a_device_holds_at_most_one_seat(tmp_path):
    with JournalStore(tmp_path / "j.sqlite") as store:
        record = store.create_game("shellgame", {}, t=0.0)
        store.set_seat(record.id, 0, name="Anna", device="d" * 64, claimed=1.0)
        with pytest.raises(sqlite3.IntegrityError):
            store.set_seat(record.id, 1, name="Anna", device="d" * 64, claimed=1.0)
        assert set(store.seats(record.id)) == {0}


def test_unknown_play_is_refused(tmp_path):
    with JournalStore(tmp_path / "j.sqlite") as store:
        with pytest.raises(MalformedInput, match="play"):
            store.create_game("shellgame", {}, t=0.0, play="robots")
        assert store.games() == []


def test_an_older_journal_file_is_brought_up_to_date(tmp_path):
    """A journal written before games stored how they were played: its games resume as demo
    games (then, the virtual table took every game back), and nothing in them is lost."""
    db = tmp_path / "old.sqlite"
    old = sqlite3.connect(db)
    old.executescript(
        """
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL,
            options TEXT NOT NULL, created REAL NOT NULL, finished REAL, outcome TEXT);
        CREATE TABLE entries (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
            t REAL NOT NULL, mode TEXT NOT NULL, action TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
        INSERT INTO games (game, options, created) VALUES ('shellgame', '{"players": 3}', 0);
        INSERT INTO entries VALUES (1, 0, 0.5, 'enforcing', '{"type": "pass"}');
        """
    )
    old.commit()
    old.close()
    with JournalStore(db) as store:
        record = store.latest_unfinished()
        assert record.options == {"players": 3} and record.is_demo and record.join_code is None
        (entry,) = store.entries(record.id)
        assert entry.action == {"type": "pass"} and entry.actor is None
        assert store.create_game("shellgame", {}, t=1.0).play == "phones"
