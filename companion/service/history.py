"""The table's history: past games, exports, and the replay of a game up to its latest reveal.

Nothing here decides a secret: what a replay frame shows of each journaled action and event is
asked of the game itself (``GameState.redact``, ``visible_events``, ``publicly_reveals``), the
one door each game keeps for its secrets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.errors import IllegalAction
from companion.core.game import PUBLIC, Game
from companion.store.journal import JournalStore, NotFound, live_entries

EXPORT_RULE = "A game is exported only once it is over, when nothing is secret any more."


def history(store: JournalStore) -> list[dict[str, Any]]:
    """Every game at this table, newest first: records and the players' names (no journal)."""
    games = []
    for record in store.games():
        games.append({**record.to_json(), "names": _names(store, record.id)})
    return games


def export(store: JournalStore, game_id: int) -> dict[str, Any]:
    """A finished game's journal as JSON; an unfinished one is refused (it has secrets)."""
    record = store.game(game_id)
    if not record.is_finished:
        raise IllegalAction(f"game {game_id} is not over", rule=EXPORT_RULE)
    return store.export(game_id)


MEMO_GAMES = 4
"""Replays :func:`timeline` keeps (the History page and its JSON ask for the same game)."""


def timeline(
    store: JournalStore,
    games: Mapping[str, Game],
    game_id: int,
    memo: dict[int, tuple[tuple, list]] | None = None,
) -> dict[str, Any]:
    """Replay frames of everything up to the latest public reveal (all of a finished game).

    Each frame is an action as the public may see it and the public view after it. While the
    game goes on, each action is redacted by the game (a pour without its token, a deal without
    its cards); once it is over, nothing is secret and the actions are shown as journaled.

    ``memo`` keeps the frames of the last :data:`MEMO_GAMES` games replayed, by the journal's
    length and whether the game is over: a journal only grows (an undo is an entry too), so the
    same key is the same replay, and a game of hundreds of actions is not replayed again for
    each look at its History page. The frames are shared: callers only read them.
    """
    record = store.game(game_id)
    if record.game not in games:
        raise NotFound(f"game {record.game!r} is not installed")
    entries = store.entries(game_id)
    key = (len(entries), entries[-1].seq if entries else 0, record.is_finished)
    kept = memo.get(game_id) if memo is not None else None
    if kept is not None and kept[0] == key:
        frames = kept[1]
    else:
        frames = _frames(games[record.game], record, entries)
        if memo is not None:
            memo.pop(game_id, None)
            memo[game_id] = (key, frames)
            while len(memo) > MEMO_GAMES:
                del memo[next(iter(memo))]  # the least recently replayed
    return {
        "game_id": game_id,
        "game": record.game,
        "finished": record.is_finished,
        "names": _names(store, game_id),
        "frames": frames,
    }


def _frames(game: Game, record, entries) -> list[dict[str, Any]]:
    """The replay frames of ``entries``, up to the latest public reveal unless the game is over."""
    live = live_entries(entries)
    state = game.new_state(record.options)
    frames: list[dict[str, Any]] = []
    through = len(live) - 1 if record.is_finished else -1
    for index, entry in enumerate(live):
        if not record.is_finished and state.publicly_reveals(entry.action):
            through = index
        shown = entry.action if record.is_finished else state.redact(entry.action, PUBLIC)
        events = state.apply(entry.action, entry.mode)
        frames.append(
            {
                "seq": entry.seq,
                "t": entry.t,
                "action": shown,
                "events": state.visible_events(events, PUBLIC),
                "view": state.view(PUBLIC),
            }
        )
    return frames[: through + 1]


def _names(store: JournalStore, game_id: int) -> dict[int, str]:
    """The players' names by seat, as they joined (public: the History page lists them)."""
    return {seat: row.name for seat, row in store.seats(game_id).items() if row.name}
