"""The service: the one place that wires game engines, the journal, chance and the viewers.

It holds the current game (a registered game's state and its SQLite journal) and is the only
writer of both. An action is applied to a clone of the state first (an illegal one changes
nothing), then journaled, committed and synced, and only then does the new state replace the old
and a message go out (DESIGN.md principle 5: "fsynced before anything is shown"). Chance outcomes
are drawn here, with ``secrets.SystemRandom`` unless a test hands in a seeded ``random.Random``,
and journaled like any action (principle 4). Every message to a client is built from
``state.view(viewer)``: the one way out (principle 3).

Undo is a journal entry ``{"type": "journal.undo", "seq": N}``; the state is the replay of the
journal without undone entries. A chance draw is never undone, so it is never redrawn.
"""

from __future__ import annotations

import hmac
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import (
    CHANCE,
    HOST,
    PUBLIC,
    Action,
    Event,
    Game,
    GameState,
    Mode,
    Viewer,
)
from companion.core.games.cena import feed as cena_feed
from companion.core.journal import Entry
from companion.service.hub import Hub, Message
from companion.store.journal import UNDO, GameRecord, JournalStore, NotFound, live_entries

log = logging.getLogger(__name__)

PUBLIC_REVEALS: dict[str, tuple[str, ...]] = {"goblets": ("reveal",)}
"""Per game, the action types that reveal the hidden to everyone (the Toast's reveal)."""
SECRET_AFTER_REVEAL: dict[str, tuple[str, ...]] = {"goblets": ("deal_winetaster_cards",)}
"""Per game, action types that stay secret after a reveal (Loyal/Traitor cards), until the end."""
ALL_PUBLIC_EVENTS = frozenset({"tribunal"})
"""Games whose events are all public (the courtroom has no secret but the deck order)."""
SEAT_ADDRESSED_EVENTS = frozenset({"goblets"})
"""Games whose private events carry ``"to": seat`` (goblets' ``views.events_for``)."""

UNDO_RULE = "Undo removes the last action; a chance draw is final and is never redrawn."
TURN_RULE = "Each player acts only on their own turn."
PUBLIC_RULE = "The public tablet shows the table; only a seat or the Host acts."
EXPORT_RULE = "A game is exported only once it is over, when nothing is secret any more."
NO_GAME_RULE = "There is no game at the table: the Host starts one."
FEED_LENGTH = 200
FEED_SHOWN = 40
SEAT_TOKEN_BYTES = 16
"""128 bits of ``secrets.token_urlsafe`` per seat link."""


SENSED_POURS = frozenset({"initial_pour"})
"""On a sensed table the hands pour the initial tokens and the readers see them; the other deals
are drawn by the service until a sensed session takes them over."""


@dataclass
class Table:
    """The current game: its record, state, journal entries and seat links."""

    record: GameRecord
    game: Game
    state: GameState
    entries: list[Entry] = field(default_factory=list)
    chance: set[int] = field(default_factory=set)
    """Seqs of live entries that were chance outcomes (never undone)."""
    reveal_seq: int | None = None
    """Seq of the latest live entry that revealed what was hidden (e.g. a Toast)."""
    tokens: dict[int, str] = field(default_factory=dict)
    feed: list[dict[str, Any]] = field(default_factory=list)
    """Recent events with their entry seq (filtered per viewer before they leave)."""

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


def _fold(game: Game, record: GameRecord, entries: list[Entry]) -> Table:
    """Replay the live part of ``entries`` from the initial state into a :class:`Table`."""
    table = Table(record, game, game.new_state(record.options), list(entries))
    for entry in live_entries(entries):
        if table.state.to_move() is CHANCE:
            table.chance.add(entry.seq)
        if is_public_reveal(record.game, entry.action):
            table.reveal_seq = entry.seq
        table.record_events(entry.seq, table.state.apply(entry.action, entry.mode))
    return table


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


class Service:
    """The running companion: one table, its journal, its subscribers."""

    def __init__(
        self,
        config: Config,
        *,
        store: JournalStore | None = None,
        games: Mapping[str, Game] | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.store = store if store is not None else JournalStore(config.journal_path)
        self.games = dict(games) if games is not None else registry.load_all()
        self.rng = rng if rng is not None else secrets.SystemRandom()
        self.clock = clock
        self.hub = Hub()
        self.lock = threading.RLock()
        self.table: Table | None = None
        self.readers: dict[int, str] = {}
        """Sensor health per seat: "virtual", "online", "offline" or "broken"."""
        self.default_mode = Mode.ENFORCING if config.is_virtual else Mode.RECORDING
        self.sensed_chance: frozenset[str] = frozenset()
        """Chance action types the table's sensors record instead of the service drawing them
        (the Host's random initial pour is poured by hand and read by the readers). Set by
        :meth:`play_sensed`."""
        self.seat_input: Callable[[int, Mapping[str, Any]], None] | None = None
        """On a sensed table, where a seat's phone input goes (Pass or Toast) instead."""
        self.sensing: Any = None
        """The sensed session of the current game (companion.service.sensing), if any."""
        self.notices: list[dict[str, Any]] = []
        """Messages for the Host from the sensing side (tracker conflicts, unknown tags)."""

    # -- life cycle -------------------------------------------------------------------------

    def resume(self) -> Table | None:
        """Load the latest unfinished game from the journal (replay), if any."""
        with self.lock:
            record = self.store.latest_unfinished()
            if record is None or record.game not in self.games:
                return None
            entries = self.store.entries(record.id)
            self.table = _fold(self.games[record.game], record, entries)
            self.table.tokens = self.store.seat_tokens(record.id)
            self._ensure_tokens()
            self._resolve_chance()
            log.info("resumed game %s (%s) at seq %s", record.id, record.game, self.table.seq)
            return self.table

    def close(self) -> None:
        """Close every subscriber and the journal."""
        self.hub.close()
        self.store.close()

    # -- starting games ----------------------------------------------------------------------

    def play_sensed(self) -> None:
        """Play from the table's sensors: actions are recorded (a broken rule is warned about,
        not refused) and the initial pour is read from the goblets, not drawn here."""
        with self.lock:
            self.default_mode = Mode.RECORDING
            self.sensed_chance = SENSED_POURS

    def new_game(self, name: str, options: Mapping[str, Any] | None = None) -> Message:
        """Start a new game of ``name`` (the previous unfinished one is closed as abandoned)."""
        if not isinstance(name, str) or name not in self.games:
            known = ", ".join(sorted(self.games)) or "none"
            raise MalformedInput(f"unknown game {name!r} (known: {known})", field="game")
        if options is not None and not isinstance(options, Mapping):
            raise MalformedInput("must be an object", field="options")
        options = dict(options or {})
        game = self.games[name]
        with self.lock:
            state = game.new_state(options)  # bad options raise MalformedInput: nothing stored
            self.seat_input = self.sensing = None  # a sensed session belongs to one game
            if self.sensed_chance:
                # Until a sensed session starts, deals are drawn here; the hands pour.
                self.sensed_chance = SENSED_POURS
            if self.table is not None and not self.table.record.is_finished:
                self.store.finish(self.table.record.id, t=self.clock(), outcome={"abandoned": True})
            record = self.store.create_game(name, options, t=self.clock())
            self.table = Table(record, game, state)
            self._ensure_tokens()
            self._resolve_chance()
            self.publish()
            return self.message(HOST)

    def _ensure_tokens(self) -> None:
        table = self.table
        assert table is not None
        missing = {
            seat: secrets.token_urlsafe(SEAT_TOKEN_BYTES)
            for seat in range(table.state.num_seats)
            if seat not in table.tokens
        }
        if missing:
            self.store.set_seat_tokens(table.record.id, missing)
            table.tokens.update(missing)

    def new_seat_token(self, seat: int) -> str:
        """Replace ``seat``'s link (a lost phone); the old link stops working at once."""
        table = self._require_table()
        with self.lock:
            if not isinstance(seat, int) or not 0 <= seat < table.state.num_seats:
                raise MalformedInput(f"no seat {seat!r}", field="seat")
            token = secrets.token_urlsafe(SEAT_TOKEN_BYTES)
            self.store.set_seat_tokens(table.record.id, {seat: token})
            table.tokens[seat] = token
            self.hub.close_viewer(Viewer.seat(seat))  # the old link's open streams end now
            return token

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose link carries ``token``, or None (compared in constant time)."""
        table = self.table
        if table is None or not isinstance(token, str) or not token:
            return None
        found = None
        for seat, known in table.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def seat_tokens(self) -> dict[int, str]:
        """Every seat's link token (for the Host's join codes only)."""
        table = self.table
        return dict(table.tokens) if table else {}

    # -- acting ------------------------------------------------------------------------------

    def _require_table(self) -> Table:
        if self.table is None:
            raise IllegalAction("no game in progress", rule=NO_GAME_RULE)
        return self.table

    def act(
        self, action: Any, *, by: Viewer, mode: Mode | None = None, sensed: bool = False
    ) -> Message:
        """Apply ``action`` for ``by`` (a seat on its turn, or the Host); returns ``by``'s view.

        Seats always play enforcing; the Host enters events by hand in ``mode`` (default: the
        table's mode, recording when hardware senses the table). ``sensed``: recorded by the
        sensed session itself (anything else on a sensed table makes the session resync).
        """
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise MalformedInput("an action is a JSON object with a string type", field="type")
        if action["type"] == UNDO:
            raise MalformedInput("a journal undo has its own request", field="type")
        hook = self.seat_input
        if by.is_seat and hook is not None:
            hook(by.index, action)  # outside the lock: the sensed session takes it next
            return self.message(by)
        with self.lock:
            table = self._require_table()
            mover = table.state.to_move()
            if by.is_seat:
                if mover != by.index:
                    raise IllegalAction(f"it is not seat {by.index}'s turn", rule=TURN_RULE)
                mode = Mode.ENFORCING
            elif by == HOST:
                mode = mode or self.default_mode
            else:
                raise IllegalAction("the public view cannot act", rule=PUBLIC_RULE)
            self._commit(dict(action), mode)
            self._resolve_chance()
            if self.sensing is not None and not sensed:
                self.sensing.resync()  # entered by hand: the sensed session follows the journal
            self.publish()
            return self.message(by)

    def _commit(self, action: Action, mode: Mode) -> None:
        """Apply to a clone, journal (committed and synced), then swap the state in."""
        table = self._require_table()
        trial = table.state.clone()
        was_chance = table.state.to_move() is CHANCE
        events = trial.apply(action, mode)
        entry = self.store.append(table.record.id, action, t=self.clock(), mode=mode)
        table.entries.append(entry)
        table.state = trial
        table.record_events(entry.seq, events)
        if was_chance:
            table.chance.add(entry.seq)
        if is_public_reveal(table.record.game, action):
            table.reveal_seq = entry.seq
        if trial.is_over():
            outcome = trial.outcome()
            self.store.finish(table.record.id, t=self.clock(), outcome=outcome)
            table.record = self.store.game(table.record.id)

    def _resolve_chance(self) -> None:
        """Draw and journal every chance outcome now due (deals, random pours, cube draws)."""
        table = self._require_table()
        for _ in range(10_000):
            if table.state.to_move() is not CHANCE:
                return
            outcome = table.state.sample_chance(self.rng)
            if outcome.get("type") in self.sensed_chance:
                return  # poured by hand: the sensors will record what happened
            self._commit(outcome, Mode.ENFORCING)
        raise RuntimeError("the game asks for chance forever")

    def undo(self) -> Message:
        """Undo the last action (a journaled ``undo`` entry); chance draws are final."""
        with self.lock:
            table = self._require_table()
            live = table.live
            if not live:
                raise IllegalAction("nothing to undo", rule=UNDO_RULE)
            last = live[-1]
            if last.seq in table.chance:
                raise IllegalAction("the last entry is a chance draw", rule=UNDO_RULE)
            entry = self.store.append(
                table.record.id, {"type": UNDO, "seq": last.seq}, t=self.clock()
            )
            if table.record.is_finished:
                self.store.reopen(table.record.id)
            record = self.store.game(table.record.id)
            tokens = table.tokens
            self.table = _fold(table.game, record, [*table.entries, entry])
            self.table.tokens = tokens
            if self.sensing is not None:
                self.sensing.resync()
            self.publish()
            return self.message(HOST)

    # -- sensors -----------------------------------------------------------------------------

    def notice(self, kind: str, message: str, **data: Any) -> None:
        """Tell the Host something from the sensing side (kept: the latest 20)."""
        with self.lock:
            self.notices.append({"t": self.clock(), "kind": kind, "message": message, **data})
            del self.notices[:-20]
            self.publish()

    def set_reader(self, seat: int, status: str, *, by_host: bool = False) -> None:
        """Record a seat reader's health ("online", "offline", "virtual", "broken").

        A reader the Host marked broken stays so until the Host says otherwise.
        """
        if status not in ("online", "offline", "virtual", "broken"):
            raise MalformedInput(f"unknown reader status {status!r}", field="status")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise MalformedInput(f"no seat {seat!r}", field="seat")
        with self.lock:
            if not by_host and self.readers.get(seat) == "broken":
                return
            self.readers[seat] = status
            self.publish()

    # -- views -------------------------------------------------------------------------------

    def message(self, viewer: Viewer) -> Message:
        """Everything ``viewer`` may see now, built through ``state.view(viewer)`` only."""
        with self.lock:
            table = self.table
            data: Message = {
                "viewer": {"kind": viewer.kind, "index": viewer.index},
                "virtual": self.config.is_virtual,
                "sensed": self.sensing is not None,
                "readers": {str(k): v for k, v in sorted(self.readers.items())},
            }
            if table is None:
                data.update({"seq": -1, "game": None, "game_id": None})
                return data
            state = table.state
            mover = state.to_move()
            data.update(
                {
                    "seq": table.seq,
                    "game": table.record.game,
                    "game_id": table.record.id,
                    "seats": state.num_seats,
                    "over": state.is_over(),
                    "to_move": "chance" if mover is CHANCE else mover,
                    "view": state.view(viewer),
                    "events": events_for(table.record.game, table.feed, viewer)[-FEED_SHOWN:],
                }
            )
            if state.is_over():
                data["outcome"] = state.outcome()
            if viewer.is_seat and mover == viewer.index:
                data["legal"] = state.legal_actions()
            if viewer == HOST:
                live = table.live
                data["can_undo"] = bool(live) and live[-1].seq not in table.chance
                data["mode"] = self.default_mode.value
                data["notices"] = list(self.notices)
            data["revealed_through"] = table.reveal_seq
            return data

    def publish(self) -> None:
        """Send every subscriber a fresh snapshot of its viewer's view."""
        with self.lock:
            self.hub.publish(self.message)

    def viewer_for(self, kind: str, token: str | None = None) -> Viewer:
        """The viewer named by a request: public, host or the seat holding ``token``."""
        if kind == "public":
            return PUBLIC
        if kind == "host":
            return HOST
        if kind == "seat":
            seat = self.seat_of(token)
            if seat is None:
                raise MalformedInput("unknown seat link", field="token")
            return Viewer.seat(seat)
        raise MalformedInput(f"unknown viewer {kind!r}", field="viewer")

    # -- history -----------------------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        """Every game at this table, newest first (records only: no journal)."""
        return [record.to_json() for record in self.store.games()]

    def export(self, game_id: int) -> dict[str, Any]:
        """A finished game's journal as JSON; an unfinished one is refused (it has secrets)."""
        record = self.store.game(game_id)
        if not record.is_finished:
            raise IllegalAction(f"game {game_id} is not over", rule=EXPORT_RULE)
        return self.store.export(game_id)

    def timeline(self, game_id: int) -> dict[str, Any]:
        """Replay frames of everything up to the latest public reveal (all of a finished game).

        Each frame is an action as it was journaled and the public view after it: what nobody
        could see during play, shown once the Toast has revealed it to everyone.
        """
        record = self.store.game(game_id)
        if record.game not in self.games:
            raise NotFound(f"game {record.game!r} is not installed")
        game = self.games[record.game]
        live = live_entries(self.store.entries(game_id))
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
