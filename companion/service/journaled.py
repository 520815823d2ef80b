"""The journaled table: a game's record, state and journal entries, and the one way they change.

An action is applied to a clone of the state first (an illegal one changes nothing), then
journaled, committed and synced, and only then does the new state replace the old (DESIGN.md
principle 5: "fsynced before anything is shown"). Chance outcomes are drawn with the service's
randomness source and journaled like any action (principle 4), so a replay needs no randomness.

Undo is a journal entry ``{"type": "journal.undo", "seq": N}``; the state is the replay of the
journal without undone entries (:func:`fold`). A chance draw is never undone, so it is never
redrawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.errors import IllegalAction
from companion.core.game import CHANCE, Action, Event, Game, GameState, Mode, Viewer
from companion.core.journal import Entry
from companion.service.seats import Seats
from companion.store.journal import UNDO, GameRecord, JournalStore, live_entries

UNDO_RULE = "Undo removes the last action; a chance draw is final and is never redrawn."
HAND_DRAW_RULE = "A player draws by hand, without looking: chance decides what is drawn."
FEED_LENGTH = 200
"""Events kept for the feed (each viewer is shown the newest of those it may see)."""


@dataclass
class Table:
    """The current game: its record, state, journal entries and seats."""

    record: GameRecord
    game: Game
    state: GameState
    entries: list[Entry] = field(default_factory=list)
    chance: set[int] = field(default_factory=set)
    """Seqs of live entries that were chance outcomes (never undone)."""
    reveal_seq: int | None = None
    """Seq of the latest live entry that revealed what was hidden (e.g. a Toast)."""
    feed: list[dict[str, Any]] = field(default_factory=list)
    """Recent events with their entry seq (filtered per viewer before they leave)."""
    seats: Seats | None = None
    sensed_chance: frozenset[str] = frozenset()
    """Chance action types the table's sensors record instead of the service drawing them (the
    initial pour is poured by hand and read by the readers)."""

    def record_events(self, seq: int, events: list[Event]) -> None:
        """Keep ``events`` of entry ``seq`` in the feed (the newest FEED_LENGTH)."""
        self.feed.extend({"seq": seq, **event} for event in events)
        del self.feed[:-FEED_LENGTH]

    @property
    def seq(self) -> int:
        """The last journal seq (-1 before the first entry): the SSE message id."""
        return self.entries[-1].seq if self.entries else -1

    @property
    def live(self) -> list[Entry]:
        """The entries that make the game (undo entries and undone ones left out)."""
        return live_entries(self.entries)

    @property
    def can_undo(self) -> bool:
        """True when there is a last live entry and it is no chance draw."""
        live = self.live
        return bool(live) and live[-1].seq not in self.chance


def fold(game: Game, record: GameRecord, entries: list[Entry]) -> Table:
    """Replay the live part of ``entries`` from the initial state into a :class:`Table`."""
    table = Table(record, game, game.new_state(record.options), list(entries))
    for entry in live_entries(entries):
        if table.state.to_move() is CHANCE:
            table.chance.add(entry.seq)
        if table.state.publicly_reveals(entry.action):
            table.reveal_seq = entry.seq
        table.record_events(entry.seq, table.state.apply(entry.action, entry.mode))
    return table


def actor_of(by: Viewer) -> str:
    """How the journal names who entered an action: "seat 2" or "host"."""
    return f"seat {by.index}" if by.is_seat else by.kind


def commit(
    store: JournalStore,
    table: Table,
    action: Action,
    mode: Mode,
    actor: str,
    clock: Callable[[], float],
) -> None:
    """Apply ``action`` to a clone, journal it (committed and synced), then swap the state in;
    a game it ends is finished in the journal with its outcome."""
    trial = table.state.clone()
    was_chance = table.state.to_move() is CHANCE
    reveals = table.state.publicly_reveals(action)
    events = trial.apply(action, mode)
    entry = store.append(table.record.id, action, t=clock(), mode=mode, actor=actor)
    table.entries.append(entry)
    table.state = trial
    table.record_events(entry.seq, events)
    if was_chance:
        table.chance.add(entry.seq)
    if reveals:
        table.reveal_seq = entry.seq
    if trial.is_over():
        outcome = trial.outcome()
        store.finish(table.record.id, t=clock(), outcome=outcome)
        table.record = store.game(table.record.id)


def resolve_chance(
    store: JournalStore, table: Table, rng: random.Random, clock: Callable[[], float]
) -> None:
    """Draw and journal every chance outcome now due (deals, random pours), but the ones a
    player draws by hand (the demo draws its own) and the ones the table's sensors record."""
    for _ in range(10_000):
        state = table.state
        if state.to_move() is not CHANCE:
            return
        if state.hand_draw() is not None and not table.record.is_demo:
            return  # the player draws it: "draw two cubes (one at a time)"
        outcome = state.sample_chance(rng)
        if outcome.get("type") in table.sensed_chance:
            return  # poured by hand: the sensors will record what happened
        commit(store, table, outcome, Mode.ENFORCING, "chance", clock)
    raise RuntimeError("the game asks for chance forever")


def draw_by_hand(
    store: JournalStore,
    table: Table,
    action: Mapping[str, Any],
    kind: str,
    rng: random.Random,
    clock: Callable[[], float],
) -> None:
    """A player's "draw" tap: the outcome is drawn here, now, and journaled as chance."""
    if dict(action) != {"type": kind}:
        raise IllegalAction(
            f'a draw is asked for as {{"type": "{kind}"}}: the bag decides what comes out',
            rule=HAND_DRAW_RULE,
        )
    commit(store, table, table.state.sample_chance(rng), Mode.ENFORCING, "chance", clock)


def undo_last(store: JournalStore, table: Table, clock: Callable[[], float]) -> Table:
    """Journal the undo of ``table``'s last live entry and return the table refolded without it
    (its seats and sensed chance still to be set); a chance draw, or nothing to undo, is
    refused."""
    live = table.live
    if not live:
        raise IllegalAction("nothing to undo", rule=UNDO_RULE)
    last = live[-1]
    if last.seq in table.chance:
        raise IllegalAction("the last entry is a chance draw", rule=UNDO_RULE)
    entry = store.append(table.record.id, {"type": UNDO, "seq": last.seq}, t=clock(), actor="host")
    if table.record.is_finished:
        store.reopen(table.record.id)
    record = store.game(table.record.id)
    return fold(table.game, record, [*table.entries, entry])
