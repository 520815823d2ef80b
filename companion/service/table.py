"""The service: the one place that wires game engines, the journal, chance and the viewers.

It holds the current game (a registered game's state, its SQLite journal and its seats) and is the
only writer of all three. An action is applied to a clone of the state first (an illegal one
changes nothing), then journaled, committed and synced, and only then does the new state replace
the old and a message go out (DESIGN.md principle 5: "fsynced before anything is shown"). Chance
outcomes are drawn here, with ``secrets.SystemRandom`` unless a test hands in a seeded
``random.Random``, and journaled like any action (principle 4). Every message to a client is
built from ``state.view(viewer)``: the one way out (principle 3).

Whose game it is: a game is played ``"demo"`` (the demo table's, started and played by a virtual
actor), or by people, ``"phones"``, ``"readers"`` or ``"camera"``
(:mod:`companion.service.setup`). The demo is an attract mode: it plays only while the Host's
"demo table" switch is on, a game a person starts turns the switch off, and no virtual actor's
action is ever taken into a people's game
(:meth:`Service.act` refuses it). Seats are claimed from phones with the game's join code
(:mod:`companion.service.seats`); a claim is checked under the service's lock, and a new game or a
freed seat closes the streams of the claims it ends before anything else is published.

Undo is a journal entry ``{"type": "journal.undo", "seq": N}``; the state is the replay of the
journal without undone entries. A chance draw is never undone, so it is never redrawn.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, Action, Event, Game, GameState, Mode, Viewer
from companion.core.journal import Entry
from companion.service import history
from companion.service.hub import Hub, Message, Subscriber
from companion.service.seats import (
    NOT_SEATED,
    Claim,
    NotSeated,
    Seats,
    check_names,
    new_join_code,
)
from companion.service.setup import check_play, prepare_options
from companion.store.journal import UNDO, GameRecord, JournalStore, live_entries

log = logging.getLogger(__name__)

UNDO_RULE = "Undo removes the last action; a chance draw is final and is never redrawn."
TURN_RULE = "Each player acts only on their own turn."
PUBLIC_RULE = "The public tablet shows the table; only a seat or the Host acts."
NO_GAME_RULE = "There is no game at the table: the Host starts one."
DEMO_RULE = "The demo table plays only its own games; a game a person starts is theirs alone."
HAND_DRAW_RULE = "A player draws by hand, without looking: chance decides what is drawn."
GAME_CHANGED_RULE = "An action belongs to the game it was made in; a new game has started."
FEED_LENGTH = 200
FEED_SHOWN = 40
SENSOR_PLAYS = frozenset({"readers", "camera"})
"""Plays a person chooses whose games sensors read (recorded, not enforced)."""
SENSED_POURS = frozenset({"initial_pour"})
"""On a sensed table the hands pour the initial tokens and the readers see them; the other deals
are drawn by the service until a sensed session takes them over."""


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


def _fold(game: Game, record: GameRecord, entries: list[Entry]) -> Table:
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


class Service:
    """The running companion: one table, its journal, its seats, its subscribers."""

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
        self.sensed_plays: set[str] = set()
        """How games read by sensors are played: "readers" once reader nodes are attached,
        "camera" once the overhead camera is, "demo" when the demo table is simulated hands read
        by simulated readers."""
        self.camera: Any = None
        """The overhead camera (companion.service.camera.CameraTable), if one is attached: its
        health goes into every viewer's snapshot."""
        self.demo_available = False
        """True once a demo driver runs (without hardware): the Host's demo switch exists."""
        self._demo: bool | None = None
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
            self.table = self._table(_fold(self.games[record.game], record, entries))
            self._resolve_chance()
            log.info("resumed game %s (%s) at seq %s", record.id, record.game, self.table.seq)
            return self.table

    def close(self) -> None:
        """Close every subscriber and the journal."""
        self.hub.close()
        self.store.close()

    def _table(self, table: Table) -> Table:
        """``table`` with its seats loaded and its sensed chance set (a new or resumed game)."""
        table.seats = Seats(
            self.store,
            table.record,
            table.state.num_seats,
            lambda seat: table.state.seat_name(seat),  # the state is replaced at each action
            self.clock,
        )
        if self.is_sensed(table.record):
            table.sensed_chance = SENSED_POURS
        return table

    # -- how games are played -----------------------------------------------------------------

    def sense(self, play: str) -> None:
        """Games played ``play`` are read by sensors from now on ("readers": reader nodes are
        attached; "camera": the overhead camera is; "demo": the demo is simulated hands read by
        simulated readers)."""
        with self.lock:
            self.sensed_plays.add(play)
            if self.table is not None and self.is_sensed(self.table.record):
                self.table.sensed_chance = self.table.sensed_chance or SENSED_POURS

    def is_sensed(self, record: GameRecord) -> bool:
        """True when ``record``'s game is read by sensors (recorded, not enforced)."""
        if record.play in SENSOR_PLAYS:
            return True
        return record.play == "demo" and "demo" in self.sensed_plays

    def mode_of(self, record: GameRecord) -> Mode:
        """How a game's actions are applied: recorded when sensors read it, else enforced."""
        return Mode.RECORDING if self.is_sensed(record) else Mode.ENFORCING

    @property
    def default_mode(self) -> Mode:
        """The mode of the current game (the Host's hand entries default to it)."""
        table = self.table
        return Mode.ENFORCING if table is None else self.mode_of(table.record)

    # -- the demo switch ------------------------------------------------------------------------

    def offer_demo(self, *, sensed: bool) -> None:
        """A demo driver runs: the Host's demo switch exists (``sensed``: its games are read)."""
        with self.lock:
            self.demo_available = True
            if sensed:
                self.sense("demo")

    @property
    def demo_on(self) -> bool:
        """True while the demo table may play: the Host's switch, kept across restarts.

        Never set: on exactly when the table has played nothing but the demo's games.
        """
        if not self.demo_available:
            return False
        if self._demo is None:
            stored = self.store.setting("demo")
            if stored is not None:
                self._demo = stored == "on"
            else:
                latest = self.store.games()
                self._demo = not latest or latest[0].is_demo
        return self._demo

    def _switch_demo(self, on: bool) -> None:
        self.store.set_setting("demo", "on" if on else "off")
        self._demo = on

    def set_demo(self, on: bool) -> Message:
        """The Host's demo switch. On: the current game is abandoned and the demo plays. Off: the
        demo's game is abandoned and the table waits for the Host's game."""
        if not isinstance(on, bool):
            raise MalformedInput("must be true or false", field="on")
        with self.lock:
            if on and not self.demo_available:
                raise IllegalAction(
                    "this table has no demo", rule="The demo table plays without reader nodes."
                )
            self._switch_demo(on)
            table = self.table
            if table is not None and (on or table.record.is_demo):
                self._end_table("the demo table" if on else "the demo was stopped")
                self.table = None
            self.publish()
            return self.message(HOST)

    def _end_table(self, reason: str) -> None:
        """Close the current game's seat streams (asking each phone to rejoin) and, if it is
        unfinished, mark it abandoned."""
        self.seat_input = self.sensing = None  # a sensed session belongs to one game
        self.hub.close_where(lambda s: isinstance(s.claim, Claim), "new_game")
        table = self.table
        if table is not None and not table.record.is_finished:
            self.store.finish(
                table.record.id, t=self.clock(), outcome={"abandoned": True, "for": reason}
            )

    # -- starting games ----------------------------------------------------------------------

    def new_game(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        play: str = "phones",
        names: Sequence[Any] | None = None,
    ) -> Message:
        """Start a new game of ``name`` played ``play`` (the previous unfinished one is closed as
        abandoned, its phones asked to rejoin); ``names``: the players, in seat order."""
        if not isinstance(name, str) or name not in self.games:
            known = ", ".join(sorted(self.games)) or "none"
            raise MalformedInput(f"unknown game {name!r} (known: {known})", field="game")
        if options is not None and not isinstance(options, Mapping):
            raise MalformedInput("must be an object", field="options")
        game = self.games[name]
        with self.lock:
            current = self.table
            if play == "demo":
                if not self.demo_on:
                    raise IllegalAction("the demo table is switched off", rule=DEMO_RULE)
                people = current is not None and not current.record.is_demo
                if people and not current.record.is_finished:
                    raise IllegalAction("a person's game is at the table", rule=DEMO_RULE)
            engine_options = prepare_options(name, options or {}, self.config.data_dir)
            state = game.new_state(engine_options)  # bad options: MalformedInput, nothing stored
            if play != "demo":
                check_play(name, play, state, frozenset(self.sensed_plays))
            chosen = check_names(names or [], state.num_seats)  # all checked: now it starts
            self._end_table("a new game")
            if play != "demo":
                if self.demo_available:
                    self._switch_demo(False)  # a person's game: the demo stays away until asked
                # The demo's simulated readers are not this game's.
                self.readers = {k: v for k, v in self.readers.items() if v != "virtual"}
            code = None if play == "demo" else new_join_code()
            record = self.store.create_game(
                name, engine_options, t=self.clock(), play=play, join_code=code
            )
            self.table = self._table(Table(record, game, state))
            assert self.table.seats is not None
            self.table.seats.name(chosen)
            self._resolve_chance()
            self.publish()
            return self.message(HOST)

    # -- seats -------------------------------------------------------------------------------

    def _seats(self) -> Seats:
        table = self._require_table()
        assert table.seats is not None
        return table.seats

    def claim_seat(self, code: Any, seat: Any, name: Any) -> str:
        """A phone claims ``seat`` as ``name`` with the game's join ``code``; returns the new
        device secret (only its digest is kept)."""
        with self.lock:
            table = self.table
            if table is None or table.seats is None or table.record.is_finished:
                raise NotSeated("no game at this table takes that join code", status=404)
            secret = table.seats.claim(code, seat, name)
            self.publish()
            return secret

    def claim_of(self, secret: Any) -> Claim | None:
        """The live claim of the device whose secret is ``secret`` (None: it holds no seat)."""
        with self.lock:
            table = self.table
            if table is None or table.seats is None:
                return None
            return table.seats.claim_of(secret)

    def free_seat(self, seat: Any) -> Message:
        """The Host frees ``seat`` (a lost phone): its device is revoked and its streams end."""
        with self.lock:
            seats = self._seats()
            if seats.free(seat):
                self.hub.close_where(
                    lambda s: isinstance(s.claim, Claim) and not seats.is_live(s.claim), "freed"
                )
            self.publish()
            return self.message(HOST)

    def _check_claim(self, claim: Claim | None) -> Viewer:
        """The seat viewer of ``claim`` if it is live now (under the lock), else NotSeated."""
        table = self.table
        if claim is None or table is None or table.seats is None or not table.seats.is_live(claim):
            raise NotSeated(NOT_SEATED)
        return Viewer.seat(claim.seat)

    def seat_message(self, claim: Claim | None) -> Message:
        """What the seat of ``claim`` sees now (NotSeated if the claim has ended)."""
        with self.lock:
            return self.message(self._check_claim(claim))

    def subscribe(
        self, viewer: Viewer, claim: Claim | None = None, *, host_session: str | None = None
    ) -> Subscriber:
        """A live subscriber for ``viewer`` holding its first snapshot (a seat's with ``claim``,
        checked live; the Host's with its session's digest, so that logging out ends it): made
        under the lock, so no later game's message reaches an older claim."""
        with self.lock:
            if claim is not None:
                viewer = self._check_claim(claim)
            elif viewer.is_seat:
                raise NotSeated("a seat's stream needs its claim")
            subscriber = self.hub.subscribe(viewer, claim if claim is not None else host_session)
            subscriber.offer(self.message(viewer))
            return subscriber

    # -- acting ------------------------------------------------------------------------------

    def _require_table(self) -> Table:
        if self.table is None:
            raise IllegalAction("no game in progress", rule=NO_GAME_RULE)
        return self.table

    def act(
        self,
        action: Any,
        *,
        by: Viewer,
        mode: Mode | None = None,
        sensed: bool = False,
        claim: Claim | None = None,
        game_id: int | None = None,
        actor: str | None = None,
    ) -> Message:
        """Apply ``action`` for ``by`` (a seat on its turn, or the Host); returns ``by``'s view.

        Seats always play enforcing; the Host enters events by hand in ``mode`` (default: the
        game's mode, recording when sensors read the table). ``sensed``: recorded by the sensed
        session itself (anything else on a sensed table makes the session resync). ``claim``: the
        phone's claim, checked live; ``game_id``: the game the action was made in (refused if
        another game is at the table now); ``actor``: who entered it, for the journal ("readers",
        "camera", "demo"; a ``"demo"`` action is refused in a game a person started).
        """
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise MalformedInput("an action is a JSON object with a string type", field="type")
        if action["type"] == UNDO:
            raise MalformedInput("a journal undo has its own request", field="type")
        with self.lock:  # the sensed session's lock too: one lock, one order
            hook = self.seat_input
            if by.is_seat and hook is not None:
                if claim is not None:
                    self._check_claim(claim)
                hook(by.index, action)  # a phone's Pass or Toast on a read table
                return self.message(by)
            table = self._require_table()
            if claim is not None and self._check_claim(claim) != by:
                raise NotSeated(NOT_SEATED)
            if game_id is not None and game_id != table.record.id:
                raise IllegalAction(f"game {game_id} is over", rule=GAME_CHANGED_RULE)
            if actor == "demo" and not table.record.is_demo:
                raise IllegalAction("this game is a person's", rule=DEMO_RULE)
            mover = table.state.to_move()
            drawn = table.state.hand_draw() if mover is CHANCE else None
            if by.is_seat:
                turn = drawn[0] if drawn is not None else mover
                if turn != by.index:
                    raise IllegalAction(self._not_your_turn(table, turn), rule=TURN_RULE)
                mode = Mode.ENFORCING
            elif by == HOST:
                mode = mode or self.mode_of(table.record)
                if not sensed and actor is None:  # the Host's own hand, a player's too
                    refused = table.state.entry_refusal(dict(action), HOST, mode)
                    if refused is not None:
                        raise IllegalAction(refused[0], rule=refused[1])
            else:
                raise IllegalAction("the public view cannot act", rule=PUBLIC_RULE)
            if drawn is not None and (by.is_seat or dict(action) == {"type": drawn[1]}):
                self._draw_by_hand(table, action, drawn[1])
            else:  # the Host may enter a draw from a real bag by hand: {"type", "cube"}
                self._commit(dict(action), mode, actor or actor_of(by))
            self._resolve_chance()
            if self.sensing is not None and not sensed:
                self.sensing.resync()  # entered by hand: the sensed session follows the journal
            self.publish()
            return self.message(by)

    def _not_your_turn(self, table: Table, mover: Any) -> str:
        """Who acts now, for a refusal: "Anna · De Miceti is to act" (or a deal, or nobody)."""
        if mover is CHANCE:
            return "the cards or tokens are being dealt"
        if not isinstance(mover, int) or table.seats is None:
            return "nobody acts now"
        return f"{table.seats.label(mover)} is to act"

    def _draw_by_hand(self, table: Table, action: Mapping[str, Any], kind: str) -> None:
        """A player's "draw" tap: the outcome is drawn here, now, and journaled as chance."""
        if dict(action) != {"type": kind}:
            raise IllegalAction(
                f'a draw is asked for as {{"type": "{kind}"}}: the bag decides what comes out',
                rule=HAND_DRAW_RULE,
            )
        self._commit(table.state.sample_chance(self.rng), Mode.ENFORCING, "chance")

    def _commit(self, action: Action, mode: Mode, actor: str) -> None:
        """Apply to a clone, journal (committed and synced), then swap the state in."""
        table = self._require_table()
        trial = table.state.clone()
        was_chance = table.state.to_move() is CHANCE
        reveals = table.state.publicly_reveals(action)
        events = trial.apply(action, mode)
        entry = self.store.append(table.record.id, action, t=self.clock(), mode=mode, actor=actor)
        table.entries.append(entry)
        table.state = trial
        table.record_events(entry.seq, events)
        if was_chance:
            table.chance.add(entry.seq)
        if reveals:
            table.reveal_seq = entry.seq
        if trial.is_over():
            outcome = trial.outcome()
            self.store.finish(table.record.id, t=self.clock(), outcome=outcome)
            table.record = self.store.game(table.record.id)

    def _resolve_chance(self) -> None:
        """Draw and journal every chance outcome now due (deals, random pours), but the ones a
        player draws by hand (the demo draws its own)."""
        table = self._require_table()
        for _ in range(10_000):
            state = table.state
            if state.to_move() is not CHANCE:
                return
            if state.hand_draw() is not None and not table.record.is_demo:
                return  # the player draws it: "draw two cubes (one at a time)"
            outcome = state.sample_chance(self.rng)
            if outcome.get("type") in table.sensed_chance:
                return  # poured by hand: the sensors will record what happened
            self._commit(outcome, Mode.ENFORCING, "chance")
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
                table.record.id, {"type": UNDO, "seq": last.seq}, t=self.clock(), actor="host"
            )
            if table.record.is_finished:
                self.store.reopen(table.record.id)
            record = self.store.game(table.record.id)
            folded = self._table(_fold(table.game, record, [*table.entries, entry]))
            folded.sensed_chance = table.sensed_chance
            self.table = folded
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
                "demo": self.demo_on,
                "sensed": self.sensing is not None,
                "readers": {str(k): v for k, v in sorted(self.readers.items())},
            }
            if self.camera is not None:
                # Health only (frame rate, age, errors, status): no image and no counts.
                data["camera"] = self.camera.health()
            pouring = None if self.sensing is None else self.sensing.pour_out_view()
            if pouring is not None:
                # The Goblets are being poured out in front of everyone (the reveal has begun):
                # each place's progress and how many tokens lie there, never their kinds.
                data["pour_out"] = pouring
            if table is None:
                data.update({"seq": -1, "game": None, "game_id": None, "play": None})
                if viewer == HOST:
                    data["demo_available"] = self.demo_available
                return data
            state = table.state
            mover = state.to_move()
            seats = table.seats
            assert seats is not None
            data.update(
                {
                    "seq": table.seq,
                    "at": table.entries[-1].t if table.entries else table.record.created,
                    "game": table.record.game,
                    "game_id": table.record.id,
                    "play": table.record.play,
                    "seats": state.num_seats,
                    "players": seats.players(),
                    "joinable": seats.is_open() and not table.record.is_finished,
                    "over": state.is_over(),
                    "to_move": "chance" if mover is CHANCE else mover,
                    "view": state.view(viewer),
                    "events": state.visible_events(table.feed, viewer)[-FEED_SHOWN:],
                }
            )
            drawn = state.hand_draw() if mover is CHANCE else None
            if drawn is not None and not table.record.is_demo:
                data["to_move"] = drawn[0]  # the player draws: it is their move
            if state.is_over():
                data["outcome"] = state.outcome()
            if viewer.is_seat:
                data["you"] = {"seat": viewer.index, "label": seats.label(viewer.index)}
                if data["to_move"] == viewer.index:
                    data["legal"] = (
                        [{"type": drawn[1]}] if drawn is not None else state.legal_actions()
                    )
            if viewer == HOST:
                data["demo_available"] = self.demo_available
                live = table.live
                data["can_undo"] = bool(live) and live[-1].seq not in table.chance
                data["mode"] = self.mode_of(table.record).value
                data["notices"] = list(self.notices)
                fusion = getattr(self.sensing, "fusion_view", None)
                if fusion is not None and (shown := fusion()) is not None:
                    data["fusion"] = shown  # readers and camera: what they disagree on
                if drawn is not None:
                    data["draw"] = {"type": drawn[1]}
            data["revealed_through"] = table.reveal_seq
            return data

    def publish(self) -> None:
        """Send every subscriber a fresh snapshot of its viewer's view."""
        with self.lock:
            self.hub.publish(self.message)

    # -- history -----------------------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        """Every game at this table, newest first (records only: no journal)."""
        return history.history(self.store)

    def export(self, game_id: int) -> dict[str, Any]:
        """A finished game's journal as JSON; an unfinished one is refused (it has secrets)."""
        return history.export(self.store, game_id)

    def timeline(self, game_id: int) -> dict[str, Any]:
        """Replay frames of everything up to the latest public reveal (all of a finished game)."""
        return history.timeline(self.store, self.games, game_id)
