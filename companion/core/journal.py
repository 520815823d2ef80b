"""Journal records and replay: the game is the fold of its journal (DESIGN.md principle 5).

A journal is a game name, its options, and an ordered list of :class:`Entry` records, each an
action (player, sensed or chance) with the time it was recorded (handed in by the caller: the core
reads no clock). :func:`replay` rebuilds the state from scratch; the SQLite store under
``companion/store`` persists the same records.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.core import registry
from companion.core.errors import MalformedInput
from companion.core.game import CHANCE, Action, Event, GameState, Mode


@dataclass(frozen=True)
class Entry:
    """One journaled action. ``mode`` says whether it was enforced or recorded from sensors;
    ``actor`` who entered it ("seat 2", "host", "chance", "readers", "demo"; None: not recorded)."""

    seq: int
    action: Action
    t: float = 0.0
    mode: Mode = Mode.ENFORCING
    actor: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON-able data."""
        data = {"seq": self.seq, "t": self.t, "mode": self.mode.value, "action": self.action}
        if self.actor is not None:
            data["actor"] = self.actor
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Entry:
        """Parse an entry written by :meth:`to_json`; malformed data raises MalformedInput."""
        try:
            return Entry(
                seq=int(data["seq"]),
                action=dict(data["action"]),
                t=float(data.get("t", 0.0)),
                mode=Mode(data.get("mode", Mode.ENFORCING.value)),
                actor=None if data.get("actor") is None else str(data["actor"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise MalformedInput(f"bad journal entry {data!r}: {error}", field="journal") from None


@dataclass
class Journal:
    """A game's whole record: replaying it reproduces the state exactly."""

    game: str
    options: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)

    def append(self, action: Action, *, t: float = 0.0, mode: Mode = Mode.ENFORCING) -> Entry:
        """Add an action at the end and return its entry."""
        entry = Entry(seq=len(self.entries), action=action, t=t, mode=mode)
        self.entries.append(entry)
        return entry

    def to_json(self) -> dict[str, Any]:
        """The journal as JSON-able data (export format)."""
        return {
            "game": self.game,
            "options": self.options,
            "entries": [entry.to_json() for entry in self.entries],
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Journal:
        """Parse a journal written by :meth:`to_json` (by this version or an older one: its
        actions are upgraded, :func:`upgraded_entries`)."""
        try:
            game = str(data["game"])
            entries = [Entry.from_json(entry) for entry in data["entries"]]
            options = dict(data.get("options", {}))
        except (KeyError, TypeError) as error:
            raise MalformedInput(f"bad journal: {error}", field="journal") from None
        # A journal exported by an older version replays as it was played.
        return Journal(game, options, upgraded_entries(game, entries))


def upgraded_entries(game: str, entries: list[Entry]) -> list[Entry]:
    """``entries`` of a journal of ``game`` as read from storage, each action named as this
    version names it (:meth:`companion.core.game.Game.upgraded`): the one upgrade, applied by
    every door a stored action comes in by (the SQLite store, :meth:`Journal.from_json`). An
    entry already current is kept as it is; a game this version does not know has nothing to
    upgrade (it cannot be replayed either)."""
    known = registry.load_all().get(game)
    if known is None:
        return list(entries)
    upgrade = known.upgraded
    out = []
    for entry in entries:
        action = upgrade(entry.action)
        out.append(entry if action is entry.action else replace(entry, action=action))
    return out


def replay(journal: Journal) -> tuple[GameState, list[Event]]:
    """Rebuild the state by applying every entry in order; returns it and all events produced."""
    state = registry.get(journal.game).new_state(journal.options)
    events: list[Event] = []
    for entry in journal.entries:
        events.extend(state.apply(entry.action, entry.mode))
    return state, events


def play_random(
    journal: Journal, rng: random.Random, *, max_actions: int = 100_000
) -> tuple[GameState, list[Event]]:
    """Play uniformly random legal actions (and ``rng``-drawn chance) to the end, journaling all.

    A demo and a fuzzing tool; raises RuntimeError if the game has not ended after
    ``max_actions`` actions (a game that cannot end is a bug).
    """
    state, events = replay(journal)
    for _ in range(max_actions):
        if state.is_over():
            return state, events
        if state.to_move() is CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        events.extend(state.apply(action))
        journal.append(action)
    raise RuntimeError(f"{journal.game} did not end within {max_actions} actions")
