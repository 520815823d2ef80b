"""Sensed play in the service: links -> :class:`~companion.core.games.goblets.sensed.SensedSession`
-> journal.

The pure :class:`~companion.core.games.goblets.sensed.SensedSession` (reader snapshots -> tracker ->
the Raise Your Goblets engine in recording mode) decides which actions the table's events mean. It
works on a shadow copy of the service's state; every action it applies is then applied by the
service to the real state with ``Mode.RECORDING`` (journaled, committed and synced, then
published), so the two stay the same fold of the same actions ("Sensed reality wins, the rules
advise", DESIGN.md principle 6). While a session runs the service draws no chance itself: the
session draws the deals with the service's randomness source and the readers see the initial pour.

Notices (conflicts, unknown tags, contents the tracker and the engine disagree on) go to the
Host's view; reader nodes going offline or online set the seats' reader health on the dashboard.
A seat's phone can only say what sensors cannot see: "end my turn" (pass), "Toast!" and a
Character ability (whose physical effect the readers then read as the ability's).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import HOST, Action, Mode
from companion.core.games.goblets import russian_model, shootout
from companion.core.games.goblets.model import CHANCE_ACTIONS, Phase
from companion.core.games.goblets.russian import RussianState
from companion.core.games.goblets.sensed import Result, SensedSession
from companion.core.games.goblets.sensed.fusion import CAMERA, DIFFERS, FusedPourOut
from companion.core.games.goblets.sensed.pour_out import CONFIRMED, SETTLED, PourOutConfig
from companion.core.games.goblets.sensed.russian_session import GobletteSession
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation
from companion.service.host_inputs import host_input
from companion.service.notices import describe
from companion.service.table import Service

log = logging.getLogger(__name__)

CHANCE_TYPES = frozenset({*CHANCE_ACTIONS, shootout.POUR})
"""Every Raise Your Goblets chance action: drawn by the session, never by the service."""
INITIAL_POURS = (Phase.INITIAL_POUR, russian_model.Phase.INITIAL_POUR)
"""The phase of either sensed game (Raise Your Goblets, Russian Goblette) whose Course waits for
its initial pour: "randomly pour 1 token into each of the Goblets" begins every Course."""
SENSED_GAME_RULE = "The readers read only a game the Host started to be played with them."
POUR_OUT_RULE = (
    "At the Toast each player pours their Goblet out onto their reader spot; the Host counts a "
    "seat by hand only while the Goblets are being poured out."
)
REVEALS = ("readers", "tracked")
"""How a sensed table reveals the Goblets (``[sensing] reveal``): poured out on the readers, or
from the tracked pours (docs/rules-notes.md, "The reveal on the readers")."""
DONE = frozenset({SETTLED, CONFIRMED})
DRINK_RULE = (
    'After the Toast, the player to the left of the Toast Caller "drinks" any one of the Goblets '
    "and reveals its contents"
)
SENSED_RULE = (
    "On a sensed table the readers record pours and moves; a phone says only Pass, Toast or a "
    "Character ability."
)
PHONE_SAYS = frozenset({"pass", "toast", "ability"})
"""What a seat's phone says on a sensed table (SENSED_RULE): the readers record pours and moves;
Pass ends the turn, Toast is called, a Character ability is tapped and its effect then read."""
WITNESS_RULE = (
    "The Host settles what the readers and the camera disagree on, with both at the table."
)


class SensingBridge:
    """The sensed session of the service's current Raise Your Goblets game.

    ``registry``: the enrolled tags; ``layout``: place -> Goblet name now (default: each Goblet
    at its House's place, as at Course setup); ``contents``: Goblet name -> the token UIDs already
    in it (a Course resumed after a restart, see
    :class:`~companion.core.games.goblets.sensed.SensedSession`); ``actor``: who the journal says
    entered the sensed actions ("readers", or "demo"); ``reveal``: ``"readers"`` (the Goblets poured
    out and counted, see :meth:`pour_out`) or ``"tracked"``; ``pour_out``: how a poured-out read
    settles; ``reveal_apart``: the tokens are poured out apart from the Goblets' spots (the camera's
    reveal areas); ``pours_seen``: False where no pour is sensed (the camera, see
    :class:`~companion.core.games.goblets.sensed.SensedSession`).
    """

    def __init__(
        self,
        service: Service,
        registry: TagRegistry,
        layout: Mapping[int, str] | None = None,
        contents: Mapping[str, Iterable[str]] | None = None,
        *,
        actor: str = "readers",
        reveal: str = "readers",
        pour_out: PourOutConfig | None = None,
        reveal_apart: bool = False,
        pours_seen: bool = True,
    ) -> None:
        if reveal not in REVEALS:
            raise MalformedInput(f"must be one of {', '.join(REVEALS)}", field="reveal")
        self.service = service
        self.actor = actor
        self.reveal_by = reveal
        self._pour_shown: list[dict[str, Any]] | None = None
        # One lock, the service's, taken in one order everywhere: a reading recorded (this lock,
        # then the service's act) and the Host's act or undo (the service's lock, then a resync)
        # can no longer wait for each other.
        self.lock = service.lock
        table = service.table
        if table is None:
            raise IllegalAction("no game in progress", rule="The Host starts a game first.")
        if not service.is_sensed(table.record):
            raise IllegalAction(
                f"game {table.record.id} is played {table.record.play}", rule=SENSED_GAME_RULE
            )
        table.sensed_chance = CHANCE_TYPES
        # Russian Goblette's six spots in a row have a session of their own (the drinks).
        kind = GobletteSession if isinstance(table.state, RussianState) else SensedSession
        self.session = kind(
            table.state.clone(),
            registry,
            layout=layout,
            rng=service.rng,
            contents=contents,
            pour_out=pour_out,
            reveal_apart=reveal_apart,
            pours_seen=pours_seen,
        )
        self.game_id = table.record.id
        self.recorded: list[Action] = []
        """Every action recorded through this session (for tests and the log)."""
        self.recording: Any = None
        """A :class:`~companion.store.recordings.RecordingWriter` that also gets the Host's
        fixes and reveals (the hardware table records the sensor stream into it)."""
        self.witness: Any = None
        """The overhead camera beside the readers (``companion.service.camera.CameraWitness``):
        its layout and its counts at the reveal are compared with the readers' (None: no camera
        at this table, see :mod:`companion.core.games.goblets.sensed.fusion`)."""
        self._differing: set[int] = set()
        service.attach_sensing(self)  # Pass and Toast from the phones now come here

    # -- inputs ------------------------------------------------------------------------------

    def observe(self, observation: Observation) -> None:
        """One seat's snapshot."""
        with self.lock:
            self._take(self.session.observe(observation))

    def advance(self, t: float) -> None:
        """Time passes with no snapshot (a settling layout is believed)."""
        with self.lock:
            self._take(self.session.advance(t))

    def node_status(self, node: str, online: bool, t: float, seats=None) -> None:
        """A reader node went offline (Last Will) or came back."""
        with self.lock:
            self._take(self.session.node_status(node, online, t, seats))

    def fix_layout(self, layout: Mapping[Any, str], t: float | None = None) -> None:
        """The Host's fix of the layout (place -> Goblet name) after a conflict."""
        with self.lock:
            result = self.session.fix_layout(layout, t)
            if self.recording is not None:
                self.recording.fix(layout, _time_of(result, t))
            self._take(result)

    def start_course(self) -> None:
        """The Host: the Goblets stand at their places; the initial pour may begin."""
        with self.lock:
            self._take(self.session.start_course())

    def toast(self, seat: int) -> None:
        """``seat`` Calls the Toast."""
        with self.lock:
            self._take(self.session.toast(seat))

    def end_turn(self, seat: int) -> None:
        """``seat`` passes or ends its turn early."""
        with self.lock:
            self._take(self.session.end_turn(seat))

    def reveal(self, t: float | None = None) -> None:
        """The Goblets are revealed: poured out on the readers (``reveal = "readers"``, the
        default: scored once every seat's flat read settles), or at once from what was tracked
        (``"tracked"``)."""
        if self.reveal_by == "readers":
            self.pour_out(t)
            return
        with self.lock:
            self._take(self.session.reveal(t))

    def pour_out(self, t: float | None = None) -> None:
        """Every player pours their Goblet out onto their seat's reader spot (see
        :meth:`~companion.core.games.goblets.sensed.SensedSession.pour_out`)."""
        with self.lock:
            t = self.session.now if t is None else t
            result = self.session.pour_out(t)
            witness = self.witness
            pouring = self.session.pouring
            if (
                witness is not None
                and pouring is not None
                and not isinstance(pouring, FusedPourOut)
            ):
                # The camera counts the same seats: a seat settles only when both counts agree.
                self.session.pouring = FusedPourOut.joined(pouring, witness.begin_pour_out(t))
            if self.recording is not None:
                # The tracker is not fed while the Goblets are poured out: nor is the recording.
                self.recording.note("pour-out: the readers count the Goblets poured out", t)
            self._take(result)

    def confirm(self, place: Any, counts: Mapping[str, int] | None = None) -> None:
        """The Host's count of the tokens poured out at ``place`` (``counts``, or as read)."""
        with self.lock:
            self._take(self.session.confirm(place, counts))

    def confirm_all(self) -> None:
        """The Host: every place not settled yet is taken as read now (the reveal follows)."""
        with self.lock:
            pouring = self.session.pouring
            if pouring is None:
                raise IllegalAction("no Goblet is being poured out", rule=POUR_OUT_RULE)
            if isinstance(self.session, GobletteSession):
                # Each spot taken as read would be one more player's drink.
                raise IllegalAction("the Host confirms the one spot drunk", rule=DRINK_RULE)
            result = Result()
            for place in range(pouring.places):
                if self.session.pouring is None:
                    break
                status = pouring.status(place)
                # A seat whose two counts differ is the Host's pick, never taken as read.
                if status not in DONE and status != DIFFERS:
                    result.extend(self.session.confirm(place))
            self._take(result)

    def settle(self, source: Any) -> None:
        """The Host settles a disagreement of the readers and the camera: ``source`` ("readers"
        or "camera") is right. The camera's layout is fixed on the readers' tracker and the move
        it means is journaled as the Host's (a restart replays it); the readers' is fixed on the
        camera's tracker (the engine already has it)."""
        with self.lock:
            witness = self.witness
            if witness is None:
                raise IllegalAction("no camera reads this table", rule=WITNESS_RULE)
            layout = witness.settle(source)
            whose = "readers'" if source != CAMERA else "camera's"
            self.service.notice("settled", f"the Host took the {whose} layout")
            if source == CAMERA:
                result = self.session.fix_layout(layout)
                if self.recording is not None:
                    self.recording.fix(layout, _time_of(result, None))
                self._take(result, actor="host")
            else:
                self.service.publish()

    def pick(self, place: Any, source: Any) -> None:
        """The Host takes ``source``'s count ("readers" or "camera") of a poured-out seat whose
        two counts differ."""
        with self.lock:
            pouring = self.session.pouring
            if not isinstance(pouring, FusedPourOut):
                raise IllegalAction("no camera counts this reveal", rule=WITNESS_RULE)
            counts = pouring.pick(place, source)
            self._take(self.session.confirm(place, counts))

    def fusion_view(self) -> dict[str, Any] | None:
        """The Host's view of the two sources (None: no camera beside the readers):
        ``{"layouts": the open disagreement or None, "counts": [{"place", "readers", "camera"}]
        or None}``. Layouts are public (everyone sees who stands where); the counts are the
        Goblets poured out in front of everyone, shown only while the reveal is under way."""
        witness = self.witness
        if witness is None:
            return None
        pouring = self.session.pouring
        counts = pouring.differences() if isinstance(pouring, FusedPourOut) else None
        return {"layouts": witness.fusion.conflict, "counts": counts}

    def take_over(self, previous: SensingBridge | None) -> None:
        """Go on from the previous game's session at the same table: the tokens its reveal left
        lying by the readers are still kept from this game's tracker until gathered up."""
        if previous is not None and previous is not self:
            self.session.lying_out.update(previous.session.lying_out)

    def pour_out_view(self) -> list[dict[str, Any]] | None:
        """Each place's pour-out status and tokens read there (None when not pouring out)."""
        pouring = self.session.pouring
        return None if pouring is None else pouring.view()

    def resync(self) -> None:
        """Follow the journal after the Host entered or undid an action by hand.

        The session's engine state becomes a copy of the service's; the tracker, the layout it
        believes, an open conflict and a pending pass are kept (the Host is told if the engine
        now has the Goblets elsewhere than the table shows them).
        """
        with self.lock:
            table = self.service.table
            if table is None or table.record.id != self.game_id:
                return
            result = self.session.follow(table.state.clone())
            for notice in result.notices:
                self.service.notice(str(notice["notice"]), describe(notice))

    def turn_seat(self) -> int | None:
        """The seat whose turn it is (who pours and rotates now)."""
        return self.session.table.turn_seat()

    def host_input(self, data: Mapping[str, Any]) -> None:
        """The Host's inputs on a sensed table (see :mod:`companion.service.host_inputs`)."""
        host_input(self, data)

    def seat_input(self, seat: int, action: Mapping[str, Any]) -> None:
        """A seat's phone on a sensed table: Pass (end turn), Toast or a Character ability (its
        physical effect is then read: ``core/games/goblets/sensed/abilities.py``), nothing sensors
        see."""
        kind = action.get("type")
        if kind not in PHONE_SAYS:
            raise IllegalAction(f"{kind} is read by the table's sensors", rule=SENSED_RULE)
        if kind == "toast":
            self.toast(seat)
        elif kind == "pass":
            self.end_turn(seat)
        else:  # an ability
            with self.lock:
                self._take(self.session.ability(seat, action))

    def phone_actions(self, legal: Iterable[Action]) -> list[Action]:
        """Of a seat's legal actions, those its phone offers on this sensed table (PHONE_SAYS):
        the page draws these and decides no rule itself."""
        return [action for action in legal if action.get("type") in PHONE_SAYS]

    # -- into the journal --------------------------------------------------------------------

    def _take(self, result: Result, actor: str | None = None) -> None:
        """Record what the session applied (entered by ``actor``, default the sensors'), tell the
        Host what it noticed, and show a change of the pour-out (which journals nothing until the
        reveal)."""
        self._take_result(result, actor or self.actor)
        self._tell_differing()
        shown = self.pour_out_view()
        if shown != self._pour_shown:
            self._pour_shown = shown
            self.service.publish()

    def _tell_differing(self) -> None:
        """Tell the Host once per seat whose readers' and camera's counts differ (the place
        only: the counts are in :meth:`fusion_view` while the reveal is under way)."""
        pouring = self.session.pouring
        if not isinstance(pouring, FusedPourOut):
            self._differing = set()
            return
        for place in range(pouring.places):
            if pouring.status(place) == DIFFERS and place not in self._differing:
                self._differing.add(place)
                self.service.notice(
                    "count_differs",
                    f"place {place}: the readers and the camera count it differently: pick one",
                    place=place,
                )

    def _take_result(self, result: Result, actor: str) -> None:
        for applied in result.applied:
            if applied.action.get("type") == "reveal" and self.recording is not None:
                self.recording.reveal(None, self.session.now)
            self.service.act(
                applied.action,
                by=HOST,
                mode=Mode.RECORDING,
                sensed=True,
                game_id=self.game_id,
                actor=actor,
            )
            self.recorded.append(applied.action)
        for event in result.tracked:
            if event.get("event") in ("offline", "online"):
                for seat in event.get("seats", []):
                    self.service.set_reader(seat, str(event["event"]))
        for notice in result.notices:
            kind = str(notice.get("notice", "notice"))
            if kind in ("offline", "online", "pour_out"):
                continue  # the readers' panel and the pour-out panel show these
            # Only a conflict's layout goes along: a refused pour would name its token.
            detail = {"detail": dict(notice)} if kind in ("conflict", "fixed") else {}
            self.service.notice(kind, describe(notice), **detail)


def _time_of(result: Result, t: float | None) -> float:
    """The tracker time of a Host input (``t``, else that of the events it caused)."""
    times = [e["t"] for e in result.tracked if isinstance(e.get("t"), int | float)]
    return t if t is not None else (times[-1] if times else 0.0)
