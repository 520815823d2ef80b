"""The model of a 4-12 player game of Raise Your Goblets: the state's data and what it answers.

Everything the rules' chapters (:mod:`setup`, :mod:`turns`, :mod:`actions`, :mod:`abilities`,
:mod:`toast`), the engine (:mod:`engine`) and the views (:mod:`views`) share, and nothing of their
rules: the phases and stages as :class:`~enum.StrEnum` values, the step (one seat's pending
decision), the token counters' one way to move tokens (conservation by construction), the
queries on the table (who holds which card, whose place is where, what a Goblet holds) and a
clone that copies every field, whatever fields are added later.

A *step* is one seat's pending decision (``steps[0]`` is the current one): ``turn`` (a regular
turn, up to ``limit`` actions), ``toast_option`` (a Noble with no Wine left may Toast before their
Winetaster), ``final`` (a final action in the Toast Phase), ``free_peek`` (a Winetaster's free Peek
in the Toast Phase), ``ability`` (a "beginning of each Course" or "Before Drinking" ability) and
``reveal`` (the Toast Caller reveals every Goblet). Chance phases have no steps.

Vocabulary (docs/glossary.md): a *place* is an int, the index of a spot at the table (a screen, the
Goblet standing in front of it, a Target); a *seat* is a player (0-based, clockwise); a Goblet is
known by its Coaster ring (a House id) and, in the arrays, by ``goblet_at[place]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.core.copies import clone_of
from companion.core.game import CHANCE, Event
from companion.core.games.goblets.characters import Character
from companion.core.games.goblets.houses import HOUSES
from companion.core.games.goblets.options import Options
from companion.core.games.goblets.tokens import POOL
from companion.core.games.goblets.winetasters import Place, layout


class Phase(StrEnum):
    """What the game waits for: a chance outcome (named after its chance action), play, the
    tie-break shoot-out, or nothing once over."""

    DEAL_CHARACTERS = "deal_characters"
    INITIAL_POUR = "initial_pour"
    DEAL_WINETASTER_CARDS = "deal_winetaster_cards"
    DEAL_TARGETS = "deal_targets"
    LEGACY_DRAW = "legacy_draw"
    PLAY = "play"
    SHOOTOUT = "shootout"
    OVER = "over"


CHANCE_ACTIONS = (
    Phase.DEAL_CHARACTERS.value,
    Phase.INITIAL_POUR.value,
    Phase.DEAL_WINETASTER_CARDS.value,
    Phase.DEAL_TARGETS.value,
    Phase.LEGACY_DRAW.value,
)
"""Chance action types; each is due in the phase of the same name."""

CHANCE_PHASES = frozenset(Phase(kind) for kind in CHANCE_ACTIONS)
"""Phases whose next action is a chance outcome."""


class Stage(StrEnum):
    """The part of a Course being played (the rulebook's Appetizers, Main Course, The Toast)."""

    SETUP = "setup"
    COURSE_START = "course_start"
    TURNS = "turns"
    TOAST = "toast"
    BEFORE_DRINKING = "before_drinking"
    SCORED = "scored"


class StepKind(StrEnum):
    """The kinds of pending decision a step is (see the module docstring)."""

    TURN = "turn"
    TOAST_OPTION = "toast_option"
    FINAL = "final"
    FREE_PEEK = "free_peek"
    ABILITY = "ability"
    REVEAL = "reveal"


@dataclass(frozen=True, slots=True)
class Step:
    """One seat's pending decision, never changed once made (a changed step is a new one,
    :func:`dataclasses.replace`); frozen, so a clone shares it."""

    seat: int
    kind: StepKind
    place: int
    """The place the step is played from (the pair's place for a Winetaster pair)."""
    limit: int = 1
    """How many actions the step allows ("up to two actions" on a regular turn)."""
    no_toast: bool = False
    """A pair's turn after the Noble's ``toast_option``: "The Winetaster cannot TOAST", and the
    Noble "may decide to play before their Winetaster to TOAST" only."""
    no_peek: bool = False
    """The Noble's own action: "The Noble cannot PEEK"."""
    timing: str | None = None
    """An ``ability`` step's card timing (``course_start`` or ``before_drinking``)."""

    def wire(self) -> dict[str, Any]:
        """The step as the views have always shown it: kind, seat, place, limit."""
        return {"kind": self.kind, "seat": self.seat, "place": self.place, "limit": self.limit}


def move(counts_from: dict[str, int], counts_to: dict[str, int], kind: str, n: int = 1) -> None:
    """Move ``n`` tokens of ``kind`` between two token counters (conservation by construction)."""
    counts_from[kind] = counts_from.get(kind, 0) - n
    if not counts_from[kind]:
        del counts_from[kind]
    counts_to[kind] = counts_to.get(kind, 0) + n


def empty_into(counts_from: dict[str, int], counts_to: dict[str, int]) -> None:
    """Move every token of ``counts_from`` into ``counts_to``."""
    for kind, n in list(counts_from.items()):
        move(counts_from, counts_to, kind, n)


@dataclass(init=False, eq=False, repr=False)
class GobletsModel:
    """The data of a 4-12 player game (Russian Goblette has its own state) and its queries."""

    opts: Options
    phase: Phase
    stage: Stage
    course: int
    host: int
    places: list[Place]
    """The places this Course, clockwise (with Winetasters a pair is one place)."""
    goblet_at: list[int]
    """Per place, which Goblet stands there (an index into ``goblets`` and ``ring_of``)."""
    ring_of: list[str | None]
    """Per Goblet, its Coaster ring (None in Raise Your Memory)."""
    goblets: list[dict[str, int]]
    """Per Goblet, the tokens in it."""
    screens: list[dict[str, int]]
    """Per place, the tokens behind its screen."""
    pool: dict[str, int]
    discarded: dict[str, int]
    targets: list[str | None]
    """Per place, its Target card (a House id)."""
    characters: list[str | None]
    """Per seat, its Character card's name."""
    character_discards: list[str]
    vp: list[int]
    peeks: list[list[dict[str, Any]]]
    """Per seat, what it saw in each Peek (only its own view shows them)."""
    steps: list[Step]
    taken: int
    """Actions taken in the current step."""
    used_step: list[str]
    used_course: list[list[Any]]
    turn_number: int
    turn_place: int | None
    no_wine_at_start: bool
    last_actor: int | None
    toast_caller: int | None
    results: list[dict[str, Any]]
    wt_cards: list[str | None]
    """Per seat, a Winetaster's Loyal or Traitor card."""
    warnings: list[Event]
    legacy_pending: list[int]
    shootout: Any = field(default=None)
    winners: list[int] | None = field(default=None)

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        n = opts.places
        self.phase = Phase.DEAL_CHARACTERS
        self.stage = Stage.SETUP
        self.course = 0
        self.host = opts.host
        self.places = layout(opts.players, opts.is_winetasters, 0)
        self.goblet_at = list(range(n))
        self.ring_of = [None if opts.raise_your_memory else house for house in opts.houses]
        self.goblets = [{} for _ in range(n)]
        self.screens = [{} for _ in range(n)]
        self.pool = {str(kind): count for kind, count in POOL.items()}
        self.discarded = {}
        self.targets = [None] * n
        self.characters = [None] * opts.players
        self.character_discards = []
        self.vp = [0] * opts.players
        self.peeks = [[] for _ in range(opts.players)]
        self.steps = []
        self.taken = 0
        self.used_step = []
        self.used_course = []
        self.turn_number = 0
        self.turn_place = None
        self.no_wine_at_start = False
        self.last_actor = None
        self.toast_caller = None
        self.results = []
        self.wt_cards = [None] * opts.players
        self.warnings = []
        self.legacy_pending = []
        self.shootout = None
        self.winners = None

    def clone(self) -> GobletsModel:
        """An independent copy: every attribute (declared or not) copied, sharing nothing
        mutable, so a refused action's trial can never leak into the state it was made from."""
        return clone_of(self)

    # -- queries ---------------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """One seat per player (a Winetaster pair is two seats)."""
        return self.opts.players

    def to_move(self) -> int | Any:
        """The seat of the current step, CHANCE in a chance phase, None once over."""
        if self.phase == Phase.OVER:
            return None
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == Phase.SHOOTOUT:
            return self.shootout.to_move()
        return self.steps[0].seat

    def card(self, seat: int) -> Character | None:
        """The Character card held by ``seat`` (face up or down), if any."""
        name = self.characters[seat]
        if name is None:
            return None
        return next(c for c in self.opts.characters if c.name == name)

    def active_card(self, seat: int) -> Character | None:
        """The card whose Ability ``seat`` may use: Winetasters' cards are face down."""
        if self.place_of(seat).winetaster == seat:
            return None  # "They won't be able to use their special ability for this Course."
        return self.card(seat)

    def place_index(self, seat: int) -> int:
        """The index of the place ``seat`` belongs to this Course."""
        for index, place in enumerate(self.places):
            if seat in place.seats:
                return index
        raise ValueError(f"seat {seat} is at no place")

    def seat_name(self, seat: int) -> str:
        """The House of ``seat`` ("De Miceti"); with Winetasters, "De Miceti's Winetaster" for the
        Winetaster of the pair (roles change each Course, so the name may too)."""
        place = self.places[self.place_index(seat)]
        house = HOUSES[self.opts.houses[self.place_index(seat)]]
        return f"{house}'s Winetaster" if place.winetaster == seat else house

    def place_of(self, seat: int) -> Place:
        """The place ``seat`` belongs to this Course."""
        return self.places[self.place_index(seat)]

    def ring_at(self, place: int) -> str | None:
        """The Coaster ring of the Goblet standing at ``place`` (None when playing without)."""
        return self.ring_of[self.goblet_at[place]]

    def contents_at(self, place: int) -> dict[str, int]:
        """A copy of what the Goblet at ``place`` holds (never shown before the reveal)."""
        return {k: v for k, v in self.goblets[self.goblet_at[place]].items() if v}

    # -- the pending decisions: what the sensed side (goblets/sensed/actors.py) asks ------------

    def current_step(self) -> Step | None:
        """The decision due now (``steps[0]``): None outside play (a chance event, the
        shoot-out, the end) and between two parts of a Course."""
        return self.steps[0] if self.phase == Phase.PLAY and self.steps else None

    def next_step(self) -> Step | None:
        """The decision after the current one, or None: in a Winetaster pair's turn, the
        partner's ("the Winetaster always plays before the Noble, unless the Noble TOASTS")."""
        return self.steps[1] if self.phase == Phase.PLAY and len(self.steps) > 1 else None

    def pending_steps(self) -> tuple[Step, ...]:
        """Every decision still due in this part of the Course, the current one first (the
        Course-start or Before-Drinking abilities asked "going clockwise")."""
        return tuple(self.steps) if self.phase == Phase.PLAY else ()

    def deciding_seat(self) -> int | None:
        """The seat of the current step (None when no step is due): :meth:`to_move` in play."""
        current = self.current_step()
        return None if current is None else current.seat

    def actions_taken(self) -> int:
        """Actions taken in the current step: a turn allows "up to two actions" (its
        ``limit``), and a step ended on its limit has none taken in the next."""
        return self.taken

    def acted_last(self) -> int | None:
        """The seat whose step ended last (None before anyone acted this Course): who may
        still be at the table when a turn ends on its limit."""
        return self.last_actor

    def first_turn_place(self) -> int:
        """ "Starting with the player to the Host's left": the place of the Course's first turn."""
        return (self.place_index(self.host) + 1) % len(self.places)

    def hands_at(self, place: int) -> int:
        """The seat whose hands move the Goblets at ``place``: its one player, or a pair's
        Winetaster ("the Winetaster always plays before the Noble, unless the Noble TOASTS";
        "The Noble cannot PEEK")."""
        return self.places[place].hands

    def ability_steps(self, seats: list[int], timing: str) -> list[Step]:
        """An ``ability`` step for each seat (in order) holding a usable card of ``timing``."""
        steps = []
        for seat in seats:
            card = self.active_card(seat)
            if card is None or card.timing != timing or not card.is_active:
                continue
            if card.once_per_course and [seat, card.name] in self.used_course:
                continue
            steps.append(Step(seat, StepKind.ABILITY, self.place_index(seat), timing=timing))
        return steps

    def bonus(self, seat: int, effect: str) -> int:
        """1 if ``seat``'s usable card has the passive ``effect`` (one more action), else 0."""
        card = self.active_card(seat)
        return 1 if card is not None and card.effect == effect else 0

    # -- the one record both a Peek and a peek_any ability leave -----------------------------

    def record_peek(self, seat: int, place: int) -> list[Event]:
        """``seat`` looks into the Goblet at ``place``: only that seat's view keeps what it saw."""
        contents = self.contents_at(place)
        self.peeks[seat].append(
            {
                "course": self.course,
                "turn": self.turn_number,
                "place": place,
                "ring": self.ring_at(place),
                "contents": contents,
            }
        )
        return [
            {"event": "peek", "seat": seat, "place": place},
            {"event": "peeked", "to": seat, "place": place, "contents": contents},
        ]
