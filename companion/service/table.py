"""The service: the one place that wires game engines, the journal, chance and the viewers.

It holds the current game (a registered game's state, its SQLite journal and its seats) and is the
only writer of all three, under one lock. Each idea has its module: the journaled table (fold,
commit, chance, undo: :mod:`companion.service.journaled`), who sits where
(:mod:`companion.service.seats`), how a game is played (:mod:`companion.service.setup`), what
each viewer is sent (:mod:`companion.service.messages`, built from ``state.view(viewer)``: the
one way out, principle 3), the readers' health and the Host's notices
(:mod:`companion.service.notices`), the demo switch (:mod:`companion.service.demo`) and the
history (:mod:`companion.service.history`). Chance is drawn with ``secrets.SystemRandom`` unless
a test hands in a seeded ``random.Random``.

Whose game it is: a game is played ``"demo"`` (the demo table's attract mode, played only while
the Host's switch is on), or by people, ``"phones"``, ``"readers"`` or ``"camera"``; no virtual
actor's action is ever taken into a people's game (:meth:`Service.act` refuses it).
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.config import Config
from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import HOST, Game, Mode, Viewer
from companion.service.demo import DEMO_RULE, DemoSwitch
from companion.service.entry import admit, check_shape
from companion.service.history import export as export_game
from companion.service.history import history as past_games
from companion.service.history import timeline as replay_timeline
from companion.service.hub import Hub, Message
from companion.service.journaled import (
    Table,
    actor_of,
    commit,
    draw_by_hand,
    fold,
    resolve_chance,
    undo_last,
)
from companion.service.messages import message
from companion.service.notices import Board
from companion.service.seats import (
    NOT_SEATED,
    Claim,
    NotSeated,
    Seats,
    check_names,
    new_join_code,
)
from companion.service.setup import check_play, prepare_options
from companion.service.viewers import SeatsAndViewers
from companion.store.journal import GameRecord, JournalStore

log = logging.getLogger(__name__)

NO_GAME_RULE = "There is no game at the table: the Host starts one."
SENSOR_PLAYS = frozenset({"readers", "camera"})
"""Plays a person chooses whose games sensors read (recorded, not enforced)."""
SENSED_POURS = frozenset({"initial_pour"})
"""On a sensed table the hands pour the initial tokens and the readers see them; the other deals
are drawn by the service until a sensed session takes them over."""


class Service(SeatsAndViewers):
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
        self.board = Board()
        """Each seat's reader health and the Host's notices (:mod:`companion.service.notices`)."""
        self.sensed_plays: set[str] = set()
        """How games read by sensors are played: "readers" once reader nodes are attached,
        "camera" once the overhead camera is, "demo" when the demo table is simulated hands read
        by simulated readers."""
        self.camera: Any = None
        """The overhead camera (companion.service.camera.CameraTable), if one is attached: its
        health goes into every viewer's snapshot."""
        self.demo = DemoSwitch(self.store)
        self.seat_input: Callable[[int, Mapping[str, Any]], None] | None = None
        """On a sensed table, where a seat's phone input goes (Pass or Toast) instead."""
        self.sensing: Any = None
        """The sensed session of the current game (companion.service.sensing), if any."""
        self.timelines: dict[int, tuple[tuple, list]] = {}
        """The last games' replay frames (:func:`companion.service.history.timeline`'s memo)."""

    # -- life cycle -------------------------------------------------------------------------

    def resume(self) -> Table | None:
        """Load the latest unfinished game from the journal (replay), if any."""
        with self.lock:
            record = self.store.latest_unfinished()
            if record is None or record.game not in self.games:
                return None
            entries = self.store.entries(record.id)
            self.table = self._table(fold(self.games[record.game], record, entries))
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

    # -- the demo switch ------------------------------------------------------------------------

    def offer_demo(self, *, sensed: bool) -> None:
        """A demo driver runs: the Host's demo switch exists (``sensed``: its games are read)."""
        with self.lock:
            self.demo.offer()
            if sensed:
                self.sense("demo")

    @property
    def demo_available(self) -> bool:
        """True once a demo driver runs (without hardware): the Host's demo switch exists."""
        return self.demo.available

    @property
    def demo_on(self) -> bool:
        """True while the demo table may play: the Host's switch, kept across restarts."""
        return self.demo.on

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
            self.demo.switch(on)
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
                    self.demo.switch(False)  # a person's game: the demo stays away until asked
                # The demo's simulated readers are not this game's.
                self.board.forget_virtual()
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
        check_shape(action)
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
            mode, drawn = admit(
                table,
                action,
                by,
                mode=mode,
                game_mode=self.mode_of(table.record),
                sensed=sensed,
                game_id=game_id,
                actor=actor,
            )
            if drawn is not None and (by.is_seat or dict(action) == {"type": drawn[1]}):
                draw_by_hand(self.store, table, action, drawn[1], self.rng, self.clock)
            else:  # the Host may enter a draw from a real bag by hand: {"type", "cube"}
                commit(self.store, table, dict(action), mode, actor or actor_of(by), self.clock)
            self._resolve_chance()
            if self.sensing is not None and not sensed:
                self.sensing.resync()  # entered by hand: the sensed session follows the journal
            self.publish()
            return self.message(by)

    def _resolve_chance(self) -> None:
        """Draw and journal every chance outcome now due (see ``journaled.resolve_chance``)."""
        resolve_chance(self.store, self._require_table(), self.rng, self.clock)

    def undo(self) -> Message:
        """Undo the last action (a journaled ``undo`` entry); chance draws are final."""
        with self.lock:
            table = self._require_table()
            folded = self._table(undo_last(self.store, table, self.clock))
            folded.sensed_chance = table.sensed_chance
            self.table = folded
            self.table = folded
            if self.sensing is not None:
                self.sensing.resync()
            self.publish()
            return self.message(HOST)

    # -- sensors -----------------------------------------------------------------------------

    def notice(self, kind: str, message: str, **data: Any) -> None:
        """Tell the Host something from the sensing side (kept: the latest 20)."""
        with self.lock:
            self.board.note(self.clock(), kind, message, **data)
            self.publish()

    def set_reader(self, seat: int, status: str, *, by_host: bool = False) -> None:
        """Record a seat reader's health ("online", "offline", "virtual", "broken").

        A reader the Host marked broken stays so until the Host says otherwise.
        """
        with self.lock:
            if self.board.set_reader(seat, status, by_host=by_host):
                self.publish()

    @property
    def readers(self) -> dict[int, str]:
        """Sensor health per seat: "virtual", "online", "offline" or "broken"."""
        return self.board.readers

    @property
    def notices(self) -> list[dict[str, Any]]:
        """Messages for the Host from the sensing side (the latest 20)."""
        return self.board.notices

    def attach_sensing(self, sensing: Any) -> None:
        """The current game's sensed session (companion.service.sensing) takes over the seats'
        phone inputs (Pass or Toast) and is told when the Host enters or undoes an action."""
        with self.lock:
            self.sensing = sensing
            self.seat_input = sensing.seat_input

    # -- views -------------------------------------------------------------------------------

    def message(self, viewer: Viewer) -> Message:
        """Everything ``viewer`` may see now, built through ``state.view(viewer)`` only."""
        with self.lock:
            return message(self, viewer)

    def publish(self) -> None:
        """Send every subscriber a fresh snapshot of its viewer's view."""
        with self.lock:
            self.hub.publish(self.message)

    # -- history -----------------------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        """Every game at this table, newest first (records only: no journal)."""
        return past_games(self.store)

    def export(self, game_id: int) -> dict[str, Any]:
        """A finished game's journal as JSON; an unfinished one is refused (it has secrets)."""
        return export_game(self.store, game_id)

    def timeline(self, game_id: int) -> dict[str, Any]:
        """Replay frames of everything up to the latest public reveal (all of a finished game)."""
        return replay_timeline(self.store, self.games, game_id, self.timelines)
