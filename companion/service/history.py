"""What each viewer sees of the feed, and the table's history: past games, exports, replays.

The feed's filter per game and the replay timeline (everything up to the latest public reveal of
a live game, all of a finished one) live here, apart from the service's wiring.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.errors import IllegalAction
from companion.core.game import PUBLIC, Action, Game, Viewer
from companion.core.games.cena import feed as cena_feed
from companion.store.journal import JournalStore, NotFound, live_entries

PUBLIC_REVEALS: dict[str, tuple[str, ...]] = {"goblets": ("reveal",)}
"""Per game, the action types that reveal the hidden to everyone (the Toast's reveal)."""
SECRET_AFTER_REVEAL: dict[str, tuple[str, ...]] = {"goblets": ("deal_winetaster_cards",)}
"""Per game, action types that stay secret after a reveal (Loyal/Traitor cards), until the end."""
ALL_PUBLIC_EVENTS = frozenset({"tribunal"})
"""Games whose events are all public (the courtroom has no secret but the deck order)."""
SEAT_ADDRESSED_EVENTS = frozenset({"goblets"})
"""Games whose private events carry ``"to": seat`` (goblets' ``views.events_for``)."""
EXPORT_RULE = "A game is exported only once it is over, when nothing is secret any more."


def is_public_reveal(game: str, action: Action) -> bool:
    """True for an action that shows everyone what was hidden (a Peek shows only the peeker)."""
    return action.get("type") in PUBLIC_REVEALS.get(game, ())


def events_for(game: str, events: list[dict[str, Any]], viewer: Viewer) -> list[dict[str, Any]]:
    """The feed events ``viewer`` may see; a game without a known filter publishes none."""
    if game in ALL_PUBLIC_EVENTS:
        return events
    if game == "cena":  # public but a revoke warning (it tells a House holds the lead suit)
        return cena_feed.events_for(events, viewer)
    if game in SEAT_ADDRESSED_EVENTS:
        # Raise Your Goblets addresses private events with "to": seat ("poured", "peeked").
        return [e for e in events if "to" not in e or (viewer.is_seat and e["to"] == viewer.index)]
    return []


def history(store: JournalStore) -> list[dict[str, Any]]:
    """Every game at this table, newest first: records and the players' names (no journal)."""
    games = []
    for record in store.games():
        names = {seat: row.name for seat, row in store.seats(record.id).items() if row.name}
        games.append({**record.to_json(), "names": names})
    return games


def export(store: JournalStore, game_id: int) -> dict[str, Any]:
    """A finished game's journal as JSON; an unfinished one is refused (it has secrets)."""
    record = store.game(game_id)
    if not record.is_finished:
        raise IllegalAction(f"game {game_id} is not over", rule=EXPORT_RULE)
    return store.export(game_id)


def timeline(store: JournalStore, games: Mapping[str, Game], game_id: int) -> dict[str, Any]:
    """Replay frames of everything up to the latest public reveal (all of a finished game).

    Each frame is an action as it was journaled and the public view after it: what nobody
    could see during play, shown once the Toast has revealed it to everyone.
    """
    record = store.game(game_id)
    if record.game not in games:
        raise NotFound(f"game {record.game!r} is not installed")
    game = games[record.game]
    live = live_entries(store.entries(game_id))
    state = game.new_state(record.options)
    frames: list[dict[str, Any]] = []
    through = len(live) - 1 if record.is_finished else -1
    secret = () if record.is_finished else SECRET_AFTER_REVEAL.get(record.game, ())
    for index, entry in enumerate(live):
        if not record.is_finished and is_public_reveal(record.game, entry.action):
            through = index
        events = state.apply(entry.action, entry.mode)
        frame = {"seq": entry.seq, "t": entry.t, "action": entry.action}
        if entry.action.get("type") in secret:
            frame["action"] = {"type": entry.action["type"]}
        frame["events"] = events_for(record.game, events, PUBLIC)
        frame["view"] = state.view(PUBLIC)
        frames.append(frame)
    return {
        "game_id": game_id,
        "game": record.game,
        "finished": record.is_finished,
        "frames": frames[: through + 1],
    }
