"""The puppeteer's records and what its hands do around the turns: a Course set out and ended.

:class:`CourseHands` is what :class:`~companion.virtual.puppet.Puppeteer` builds on: its own
engine (enforcing mode), the actions the sensed side is expected to record, the taps (:class:`Tap`)
not yet taken by the driver, and the Course's setup and end on a
:class:`~companion.virtual.live.HandTable`: the Goblets brought back to their Houses' places
("Each player should take the Goblet with the Coaster ring that matches their House"), the Host's
"start the Course" tap, the initial pour ("randomly pour 1 token into each of the Goblets"), the
deals read from the sensed side as a player reads their phone, the reveal (poured out on the
readers, or emptied where they stand) and the tie-break entered by hand. Choosing and making a
turn's action, and following the sensed side, is :class:`~companion.virtual.puppet.Puppeteer`'s.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.game import CHANCE, Action, Mode
from companion.core.games.goblets.model import Phase
from companion.core.games.goblets.state import GobletsState
from companion.core.games.goblets.tokens import Token
from companion.virtual.live import HandTable
from companion.virtual.scenario import Hands

THINK = (0.8, 2.5)
"""Seconds a player takes before an action, once the table has caught up with the last one."""
IDLE = 0.25
"""Seconds the puppeteer waits before looking at the sensed side again."""
PATIENCE = 12.0
"""Seconds it waits for the readers to report its last action before following the journal."""
REVEAL_TAP = 0.2
"""Seconds between the Goblets emptied and the reveal tapped (a moment, see ``HandTable``)."""
DEALT = frozenset({"deal_characters", "deal_winetaster_cards", "deal_targets", "legacy_draw"})
"""Chance actions the sensed side draws itself (the players read them from it)."""
REVEALS = ("readers", "tracked")
"""How the Goblets are revealed: poured out on the readers (the sensing design's ground truth),
or emptied where they stand, revealing what was tracked."""
TOAST_ROUNDS = (2, 3)
"""The Toast is called from this round on (drawn each Course), once a player may."""
SENSORS = ("readers", "camera")
"""What reads the table: the readers (every pour is read) or the overhead camera (no pour is)."""


@dataclass(frozen=True)
class Tap:
    """An input sensors cannot see, at table time ``t``: ``start_course`` (the Host), ``pass``,
    ``toast``, ``ability`` (a seat's phone: ``action`` is the ability), ``reveal`` (the Toast
    Caller: reveal what was tracked), ``pour_out`` (the Toast Caller: every Goblet is poured out
    on its reader), ``enter`` (``action`` entered by hand: the tie-break shoot-out),
    ``fix_layout`` (the Host says where the Goblets stand: ``layout``, after a tracker
    conflict)."""

    t: float
    kind: str
    seat: int | None = None
    action: Action | None = None
    layout: Mapping[int, str] | None = None


@dataclass(frozen=True)
class Sensed:
    """What the sensed side has recorded: every ``actions`` of the game so far (the journal),
    the ``layout`` it believes (place -> Goblet name) and its engine ``state``."""

    actions: Sequence[Action]
    layout: Mapping[int, str] | None = None
    state: GobletsState | None = None
    conflict: bool = False
    """The tracker cannot read the table: the Host is asked to fix the layout."""


def check_options(state: Any) -> GobletsState:
    """``state`` if the puppeteer can play it (see the module docstring), else MalformedInput."""
    if not isinstance(state, GobletsState):
        raise MalformedInput("the puppeteer plays 4-12 player Raise Your Goblets", field="players")
    opts = state.opts
    if opts.raise_your_memory:
        raise MalformedInput("the puppeteer plays with Coaster rings", field="raise_your_memory")
    return state


@dataclass
class CourseNotes:
    """What the puppeteer remembers of the Course being played."""

    number: int = 0
    started: bool = False
    first_turn: int = 0
    toast_round: int = 2


class CourseHands:
    """The records and the Course's setup and end under :class:`~companion.virtual.puppet.Puppeteer`
    (its docstring has the arguments)."""

    def __init__(
        self,
        rng: random.Random,
        state: GobletsState,
        *,
        actions: Sequence[Action] = (),
        table: HandTable | None = None,
        hands: Hands | None = None,
        patience: float = PATIENCE,
        reveal: str = "readers",
        sensor: str = "readers",
    ) -> None:
        if reveal not in REVEALS:
            raise MalformedInput(f"must be one of {', '.join(REVEALS)}", field="reveal")
        if sensor not in SENSORS:
            raise MalformedInput(f"must be one of {', '.join(SENSORS)}", field="sensor")
        self.sensor = sensor
        # The camera counts the Goblets poured out in the reveal areas: it tracks no pour.
        self.reveal = "readers" if sensor == "camera" else reveal
        self.dealt = DEALT | {"initial_pour"} if sensor == "camera" else DEALT
        """Chance actions read from the sensed side (the camera game draws the initial pour)."""
        self.rng = rng
        self.engine = check_options(state).clone()
        self.actions: list[Action] = [dict(a) for a in actions]
        """The actions the sensed side records, in order: with the camera, no pour."""
        self.toasts: list[dict[str, Any]] = []
        """Each Toast as this puppeteer's own engine scored it (its ``results`` entry), from the
        tokens the hands put into each Goblet."""
        self.patience = patience
        self._unseen = False
        self.taps: list[Tap] = []
        """Inputs not yet taken by the driver, in time order."""
        self.desyncs = 0
        self._since: float | None = None
        self._fixed_at: float | None = None
        self._home_since: float | None = None
        self._course = CourseNotes(number=self.engine.course, first_turn=self.engine.turn_number)
        if table is None:
            table = HandTable(random.Random(rng.random()), list(state.opts.houses), hands)
            self._set_out(table)
        self.table = table

    def _set_out(self, table: HandTable) -> None:
        """Set the physical table out as the engine has it (a resumed game)."""
        engine = self.engine
        names = [engine.ring_of[g] for g in engine.goblet_at]
        goblets = {engine.ring_of[g]: dict(c) for g, c in enumerate(engine.goblets)}
        table.restore(names, goblets)
        if engine.phase != Phase.INITIAL_POUR:
            table.deal_screens(engine.screens)

    @property
    def is_over(self) -> bool:
        """True once the puppeteer's game is over."""
        return self.engine.is_over()

    def _contents_from_hands(self) -> None:
        """The camera's journal has no pour: what is in each Goblet and behind each screen is
        what the hands know (the physical table), not the journal's."""
        engine, table = self.engine, self.table
        for g, name in enumerate(engine.ring_of):
            engine.goblets[g] = _counts(table.contents[name])
        for place, screen in enumerate(table.screens):
            engine.screens[place] = _counts(kind for _, kind in screen)

    # -- Course setup -----------------------------------------------------------------------

    def _setup(self, sensed: Sensed | None) -> None:
        engine, table, course = self.engine, self.table, self._course
        if course.number != engine.course:
            self._course = course = CourseNotes(engine.course)
        if table.lying:
            table.wait(table.span(THINK))
            table.gather()  # the revealed tokens put away, the Goblets set back
            return
        if not table.is_home():
            # "Each player should take the Goblet with the Coaster ring that matches their House"
            table.wait(table.span(THINK) / 2)
            table.bring_one_home()
            return
        home = dict(enumerate(table.names))
        if sensed is not None and sensed.layout is not None and dict(sensed.layout) != home:
            # The readers have not seen the Goblets back home yet; if they do not, in a while,
            # the Host says where the Goblets stand.
            if self._home_since is None:
                self._home_since = table.t
            elif table.t - self._home_since >= self.patience:
                self._home_since = None
                self._tap("fix_layout", layout=home)
            return
        self._home_since = None
        if self.sensor == "camera" and sensed is not None:
            # The camera game starts the Course and draws the initial pour itself (it cannot
            # see it): the Host's hands pour what it drew.
            action = self._drawn(sensed, "initial_pour")
            if action is None:
                return
            course.started = True
        elif not course.started:
            table.wait(table.span(THINK))
            self._tap("start_course")
            course.started = True
            return
        else:
            action = engine.sample_chance(self.rng)
        # "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens [...] Then randomly
        # "pour" 1 token into each of the Goblets."
        table.deal_screens(engine.screens)
        table.wait(table.hands.start)
        places = len(engine.places)
        for place in self.rng.sample(range(places), places):
            kind = Token(action["tokens"][place])
            table.pour(place, table.take(kind), kind)
            table.wait(table.span(table.hands.initial))
        self._apply(action)
        course.first_turn = engine.turn_number
        course.toast_round = self.rng.randint(*TOAST_ROUNDS)

    def _drawn(self, sensed: Sensed, kind: str) -> Action | None:
        """The sensed side's next action if it is the chance action ``kind`` (else None)."""
        theirs = list(sensed.actions)
        if len(theirs) > len(self.actions) and theirs[len(self.actions)]["type"] == kind:
            return dict(theirs[len(self.actions)])
        return None

    def _deal(self, sensed: Sensed | None) -> None:
        """A deal sensors cannot see: the sensed side's (read from it), else our own."""
        engine = self.engine
        if sensed is None:
            self._apply(engine.sample_chance(self.rng))
            return
        if engine.phase == Phase.DEAL_CHARACTERS and not self._course.started:
            # The Host starts the game's first Course; the sensed side deals the Characters.
            self.table.wait(self.table.span(THINK))
            self._tap("start_course")
            self._course = CourseNotes(number=engine.course + 1, started=True)
            return
        theirs = list(sensed.actions)
        if len(theirs) > len(self.actions) and theirs[len(self.actions)]["type"] == engine.phase:
            self._apply(theirs[len(self.actions)])

    # -- the Course's end ------------------------------------------------------------------

    def _reveal(self, caller: int) -> None:
        """ "each player takes the Goblet in front of them [...] and reveals its contents": on
        the readers, each pours it out onto their reader spot, one after another."""
        table = self.table
        table.wait(table.span(THINK))
        if self.reveal == "tracked":
            table.empty_goblets()
            table.wait(REVEAL_TAP)
            self._tap("reveal", caller)
        elif self.sensor == "camera":
            # The Toast Caller taps, then the players pour out one after another, each setting
            # the Goblet down again on its spot: the camera settles a seat on the tokens in its
            # reveal area, or on its Goblet lifted and set down again (an empty one), and an
            # area still empty while its player waits is no empty Goblet (``PourOut``, apart).
            self._tap("pour_out", caller)
            places = len(self.engine.places)
            for place in self.rng.sample(range(places), places):
                table.wait(table.span(table.hands.gap))
                table.pour_out(place)
                table.wait(table.span(table.hands.peek))  # held up, shown
                table.set_back(place)
        else:
            self._tap("pour_out", caller)
            places = len(self.engine.places)
            for place in self.rng.sample(range(places), places):
                table.wait(table.span(table.hands.gap))
                table.pour_out(place)
        self._apply({"type": "reveal", "seat": caller})

    def _shootout(self) -> None:
        """The tie-break, entered by hand: the Host's pour, then each tied player's choice."""
        engine, table = self.engine, self.table
        if engine.to_move() is CHANCE:
            action = engine.sample_chance(self.rng)
        else:
            action = self.rng.choice(engine.legal_actions())
        table.wait(table.span(THINK))
        self._tap("enter", action=action)
        self._apply(action)

    # -- bookkeeping ----------------------------------------------------------------------------

    def _apply(self, action: Action, seen: bool = True) -> None:
        """``action`` on the puppeteer's engine; ``seen``: the sensed side records it too."""
        self.engine.apply(action, Mode.ENFORCING)
        if seen:
            self.actions.append(dict(action))
        if action["type"] == "reveal" and self.engine.results:
            self.toasts.append(dict(self.engine.results[-1]))

    def _tap(
        self,
        kind: str,
        seat: int | None = None,
        action: Action | None = None,
        layout: Mapping[int, str] | None = None,
    ) -> None:
        self.taps.append(Tap(round(self.table.t, 3), kind, seat, action, layout))


def _counts(kinds) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Token kind -> count of ``kinds`` (Token values), kinds absent left out."""
    out: dict[str, int] = {}
    for kind in kinds:
        out[Token(kind).value] = out.get(Token(kind).value, 0) + 1
    return out
