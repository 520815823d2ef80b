"""Old journals still replay: a game journaled before issue 16 named a place ``goblet``.

The code before issue 16 wrote a pour's and a Russian peek's or drink's ``"goblet": p``,
``peek_any``'s ``"goblet": p``, a Russian Swap's and the Averted Eyes / Juggler abilities'
``"goblets": [p, q]``, and Russian Goblette's initial pour ``"goblets": [kind, ...]``. Here such a
journal is written into a real SQLite file row by row, as that code wrote its rows
(``json.dumps(action, sort_keys=True)``), beside the same game journaled today; the service
resumes both to the same messages for every viewer, History replays both to the same frames and
outcome, and an old-named action from a phone is refused naming the field (docs/goblets.md, "Old
journals").
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from companion import config
from companion.core import registry
from companion.core.errors import MalformedInput
from companion.core.game import HOST, PUBLIC, Viewer
from companion.core.games.goblets import HOOK_DECK
from companion.core.journal import Journal, play_random, replay
from companion.service import Service
from companion.store.journal import JournalStore

STANDARD = {"players": 4, "characters": HOOK_DECK, "courses": 2}
RUSSIAN = {"players": 3, "variant": "russian_goblette"}


def as_the_old_code_wrote(action: dict, russian: bool) -> dict:
    """``action`` with the names the code before issue 16 gave its fields (key order kept)."""
    kind = action["type"]
    names = {}
    if kind in ("pour", "peek", "drink", "ability"):
        names["place"] = "goblet"
    if kind in ("swap", "ability"):
        names["places"] = "goblets"
    if kind == "initial_pour" and russian:
        names["tokens"] = "goblets"  # the standard game's initial pour always listed tokens
    return {names.get(key, key): value for key, value in action.items()}


def covers(actions: list[dict], russian: bool) -> bool:
    """True when the game has every kind of action whose field was renamed."""
    old = [as_the_old_code_wrote(a, russian) for a in actions]
    kinds = {(a["type"], key) for a in old for key in ("goblet", "goblets") if key in a}
    if russian:
        wanted = {("initial_pour", "goblets"), ("pour", "goblet"), ("peek", "goblet")}
        return wanted | {("swap", "goblets"), ("drink", "goblet")} <= kinds
    return {("pour", "goblet"), ("ability", "goblet"), ("ability", "goblets")} <= kinds


def played(options: dict) -> list[dict]:
    """The actions of a whole random game that renamed fields show up in (first such seed)."""
    russian = options["players"] <= 3
    for seed in range(40):
        journal = Journal("goblets", options)
        play_random(journal, random.Random(seed))
        actions = [entry.action for entry in journal.entries]
        if covers(actions, russian):
            return actions
    raise AssertionError("no seed plays every renamed action")


def write(path: Path, options: dict, games: list[list[dict]], *, old: bool) -> None:
    """A journal file holding ``games`` (each finished but the last), the rows written today's
    way (``JournalStore.append``) or the old code's way (``old``: the old names, by SQL)."""
    russian = options["players"] <= 3
    with JournalStore(path) as store:
        for actions in games:
            record = store.create_game("goblets", options, t=100.0)
            if not old:
                for seq, action in enumerate(actions):
                    store.append(record.id, action, t=100.0 + seq, actor="chance")
        for record_id, actions in enumerate(games[:-1], 1):
            state, _ = replay(Journal("goblets", options, []))
            for action in actions:
                state.apply(action)
            store.finish(record_id, t=900.0, outcome=state.outcome())
    if old:
        with sqlite3.connect(path) as db:
            for game_id, actions in enumerate(games, 1):
                for seq, action in enumerate(actions):
                    text = json.dumps(as_the_old_code_wrote(action, russian), sort_keys=True)
                    db.execute(
                        "INSERT INTO entries (game_id, seq, t, mode, action, actor)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, seq, 100.0 + seq, "enforcing", text, "chance"),
                    )


def cut(options: dict, actions: list[dict]) -> list[dict]:
    """The game as it stood when the Pi stopped: about half of it, at a seat that may next do
    something naming a place (so the test can go on playing it)."""
    state = registry.get("goblets").new_state(options)
    prefixes = []
    for index, action in enumerate(actions):
        legal = state.legal_actions() if isinstance(state.to_move(), int) else []
        if any("place" in a or "places" in a for a in legal):
            prefixes.append(index)
        state.apply(action)
    return actions[: min(prefixes, key=lambda i: abs(i - len(actions) // 2))]


def service_on(data_dir: Path) -> Service:
    settings = config.replace(config.Config(), data_dir=str(data_dir))
    return Service(settings, games=registry.load_all(), rng=random.Random(7), clock=lambda: 950.0)


def viewers(players: int) -> list[Viewer]:
    return [PUBLIC, HOST, *(Viewer.seat(s) for s in range(players))]


@pytest.mark.parametrize("options", [STANDARD, RUSSIAN], ids=["standard", "russian"])
def test_an_old_journal_resumes_and_replays_as_the_same_game(tmp_path, options):
    actions = played(options)
    half = cut(options, actions)  # the game still at the table when the Pi stopped
    games = [actions, half]
    for name, old in (("new", False), ("old", True)):
        (tmp_path / name).mkdir()
        write(tmp_path / name / "journal.sqlite", options, games, old=old)

    # The old file really holds the old names, and no row of it was rewritten.
    with sqlite3.connect(tmp_path / "old" / "journal.sqlite") as db:
        rows = [json.loads(text) for (text,) in db.execute("SELECT action FROM entries")]
    assert sum("goblet" in a or ("goblets" in a and a["type"] != "reveal") for a in rows) > 10
    assert not any("place" in a or "places" in a for a in rows)

    new, old = service_on(tmp_path / "new"), service_on(tmp_path / "old")
    try:
        assert new.resume() is not None and old.resume() is not None
        assert old.table.record.id == new.table.record.id == 2
        for viewer in viewers(options["players"]):
            assert old.message(viewer) == new.message(viewer), viewer
        assert [e.action for e in old.table.entries] == half  # read in today's names
        # History: the finished game frame by frame, and the one in play up to its last reveal.
        for game_id in (1, 2):
            assert old.timeline(game_id) == new.timeline(game_id)
        frames = old.timeline(1)["frames"]
        assert [f["action"] for f in frames] == actions
        finished = old.store.game(1)
        state, _ = replay(old.store.journal(1))
        assert state.is_over() and state.outcome() == finished.outcome
        assert old.export(1) == new.export(1)
        # Play goes on in today's names; a phone still sending the old one is told which field.
        seat = old.table.state.to_move()
        legal = old.table.state.legal_actions()
        renamed = next(a for a in legal if "place" in a or "places" in a)
        stale = as_the_old_code_wrote(renamed, options["players"] <= 3)
        before = old.table.seq
        with pytest.raises(MalformedInput) as error:
            old.act(stale, by=Viewer.seat(seat))
        assert error.value.field in ("goblet", "goblets")
        assert "old name" in str(error.value) and old.table.seq == before
        assert old.act(renamed, by=Viewer.seat(seat)) == new.act(renamed, by=Viewer.seat(seat))
    finally:
        new.close()
        old.close()


def test_an_exported_old_journal_replays_as_the_same_game():
    """``Journal.from_json`` is the other door a stored game comes in by (an export file)."""
    actions = played(RUSSIAN)
    entries = [
        {"seq": seq, "t": 0.0, "mode": "enforcing", "action": as_the_old_code_wrote(a, True)}
        for seq, a in enumerate(actions)
    ]
    journal = Journal.from_json({"game": "goblets", "options": RUSSIAN, "entries": entries})
    assert [entry.action for entry in journal.entries] == actions
    old, _ = replay(journal)
    new, _ = replay(Journal("goblets", RUSSIAN, [e for e in journal.entries]))
    assert old.is_over() and old.outcome() == new.outcome()
