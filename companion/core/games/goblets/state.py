"""The state of a 4-12 player game of Raise Your Goblets: plain data plus the step machine.

The state is the fold of its actions (DESIGN.md principle 5): :meth:`GobletsState.apply` is the
only mutator, and it works on a copy that replaces the state only when the action succeeded, so a
refused action leaves the state exactly as it was.

A *step* is one seat's pending decision (``steps[0]`` is the current one): ``turn`` (a regular
turn, up to ``limit`` actions), ``toast_option`` (a Noble with no Wine left may Toast before their
Winetaster), ``final`` (a final action in the Toast Phase), ``free_peek`` (a Winetaster's free Peek
in the Toast Phase), ``ability`` (a "beginning of each Course" or "Before Drinking" ability) and
``reveal`` (the Toast Caller reveals every Goblet). Chance phases have no steps.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, Action, Event, GameState, Mode, Viewer
from companion.core.games.goblets import actions, flow, rules, toast, views
from companion.core.games.goblets.characters import Character
from companion.core.games.goblets.houses import HOUSES
from companion.core.games.goblets.options import Options
from companion.core.games.goblets.tokens import POOL
from companion.core.games.goblets.winetasters import layout

CHANCE_PHASES = flow.CHANCE_ACTIONS
"""Phases whose next action is a chance outcome (each named after its chance action)."""

_LISTS = (
    "places",
    "goblet_at",
    "ring_of",
    "targets",
    "characters",
    "character_discards",
    "vp",
    "steps",
    "used_course",
    "used_step",
    "results",
    "wt_cards",
    "warnings",
    "legacy_pending",
)
_DICTS = ("pool", "discarded")
_LIST_OF_DICTS = ("goblets", "screens")


class GobletsState(GameState):
    """A game of Raise Your Goblets for 4 to 12 players (Russian Goblette has its own state)."""

    SECRET_FIELDS = views.SECRET_FIELDS

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        n = opts.places
        self.phase = "deal_characters"
        self.stage = "setup"
        self.course = 0
        self.host = opts.host
        self.places = layout(opts.players, opts.is_winetasters, 0)
        self.goblet_at = list(range(n))
        self.ring_of: list[str | None] = [
            None if opts.raise_your_memory else house for house in opts.houses
        ]
        self.goblets: list[dict[str, int]] = [{} for _ in range(n)]
        self.screens: list[dict[str, int]] = [{} for _ in range(n)]
        self.pool = {str(kind): count for kind, count in POOL.items()}
        self.discarded: dict[str, int] = {}
        self.targets: list[str | None] = [None] * n
        self.characters: list[str | None] = [None] * opts.players
        self.character_discards: list[str] = []
        self.vp = [0] * opts.players
        self.peeks: list[list[dict[str, Any]]] = [[] for _ in range(opts.players)]
        self.steps: list[dict[str, Any]] = []
        self.taken = 0
        self.used_step: list[str] = []
        self.used_course: list[list[Any]] = []
        self.turn_number = 0
        self.turn_place: int | None = None
        self.no_wine_at_start = False
        self.last_actor: int | None = None
        self.toast_caller: int | None = None
        self.results: list[dict[str, Any]] = []
        self.wt_cards: list[str | None] = [None] * opts.players
        self.warnings: list[dict[str, Any]] = []
        self.legacy_pending: list[int] = []
        self.shootout: Any = None
        self.winners: list[int] | None = None
        if not opts.characters:
            flow.start_course(self)

    # -- the interface ---------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """One seat per player (a Winetaster pair is two seats)."""
        return self.opts.players

    def to_move(self) -> int | Any:
        """The seat of the current step, CHANCE in a chance phase, None once over."""
        if self.phase == "over":
            return None
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == "shootout":
            return toast.shootout_to_move(self)
        return self.steps[0]["seat"]

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move (empty at chance nodes and at the end)."""
        mover = self.to_move()
        if mover is None or mover is CHANCE:
            return []
        if self.phase == "shootout":
            return toast.shootout_legal(self)
        return actions.legal(self)

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw the chance outcome of the current chance phase with ``rng``."""
        if self.phase == "shootout" and self.shootout.to_move() is CHANCE:
            return self.shootout.sample_chance(rng)
        if self.phase not in CHANCE_PHASES:
            raise IllegalAction("no chance event is due now", rule=rules.CHANCE)
        return flow.sample_chance(self, rng)

    def apply(self, action: Action, mode: Mode = Mode.ENFORCING) -> list[Event]:
        """Apply ``action``; on any error the state is left exactly as it was."""
        if not isinstance(action, Mapping):
            raise MalformedInput(f"must be an object, got {action!r}", field="action")
        kind = action.get("type")
        if not isinstance(kind, str):
            raise MalformedInput(f"must be a string, got {kind!r}", field="type")
        if self.phase == "over":
            raise IllegalAction("the game is over", rule=rules.GAME_OVER)
        trial = self.clone()
        if kind in flow.CHANCE_ACTIONS:
            events = flow.apply_chance(trial, action, mode)
        elif self.phase == "shootout":
            events = toast.shootout_apply(trial, action, mode)
        elif kind in actions.PLAYER_ACTIONS:
            events = actions.apply(trial, action, mode)
        else:
            known = ", ".join([*flow.CHANCE_ACTIONS, *actions.PLAYER_ACTIONS])
            raise MalformedInput(f"unknown action type {kind!r} (known: {known})", field="type")
        self.__dict__.update(trial.__dict__)
        return events

    def is_over(self) -> bool:
        """True once the last Course (and any tie-break) is over."""
        return self.phase == "over"

    def outcome(self) -> dict[str, Any]:
        """Final VP per seat and the winners (seats)."""
        return {"vp": list(self.vp), "winners": list(self.winners or [])}

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see (see :mod:`views`)."""
        return views.view(self, viewer)

    def hidden_alternatives(self, action: Action, viewer: Viewer) -> list[Action]:
        """Actions ``viewer`` could not tell apart from ``action`` (see :mod:`views`)."""
        return views.hidden_alternatives(self, action, viewer)

    def reveals_hidden(self, action: Action) -> bool:
        """True for the reveal, a peek, and a shoot-out choice (contents become known)."""
        return views.reveals_hidden(self, action)

    def publicly_reveals(self, action: Action) -> bool:
        """The Toast's reveal and a shoot-out choice (see :mod:`views`)."""
        return views.publicly_reveals(self, action)

    def visible_events(self, events: list[Event], viewer: Viewer) -> list[Event]:
        """Private events (``"to": seat``: what was poured, peeked, scored) go to their seat."""
        return views.events_for(events, viewer)

    def redact(self, action: Action, viewer: Viewer) -> Action:
        """A journaled action in a replay (see :func:`views.redact`)."""
        return views.redact(self, action, viewer, super().redact(action, viewer))

    def entry_refusal(self, action: Action, viewer: Viewer, mode: Mode) -> tuple[str, str] | None:
        """What the Host may not enter by hand (see :func:`views.entry_refusal`)."""
        return views.entry_refusal(self, action, viewer, mode)

    def clone(self) -> GobletsState:
        """An independent copy (fast: the state is plain data, nested records never mutate)."""
        new = object.__new__(type(self))
        data = self.__dict__.copy()
        for key in _LISTS:
            data[key] = list(data[key])
        for key in _DICTS:
            data[key] = dict(data[key])
        for key in _LIST_OF_DICTS:
            data[key] = [dict(item) for item in data[key]]
        data["peeks"] = [list(item) for item in data["peeks"]]
        if data["shootout"] is not None:
            data["shootout"] = copy.deepcopy(data["shootout"])
        new.__dict__.update(data)
        return new

    # -- helpers shared by the modules -----------------------------------------------------

    def card(self, seat: int) -> Character | None:
        """The Character card held by ``seat`` (face up or down), if any."""
        name = self.characters[seat]
        if name is None:
            return None
        return next(c for c in self.opts.characters if c.name == name)

    def active_card(self, seat: int) -> Character | None:
        """The card whose Ability ``seat`` may use: Winetasters' cards are face down."""
        if self.place_of(seat)["winetaster"] == seat:
            return None  # "They won't be able to use their special ability for this Course."
        return self.card(seat)

    def place_index(self, seat: int) -> int:
        """The index of the place ``seat`` belongs to this Course."""
        for index, place in enumerate(self.places):
            if seat in place["seats"]:
                return index
        raise ValueError(f"seat {seat} is at no place")

    def seat_name(self, seat: int) -> str:
        """The House of ``seat`` ("De Miceti"); with Winetasters, "De Miceti's Winetaster" for the
        Winetaster of the pair (roles change each Course, so the name may too)."""
        place = self.places[self.place_index(seat)]
        house = HOUSES[self.opts.houses[self.place_index(seat)]]
        return f"{house}'s Winetaster" if place["winetaster"] == seat else house

    def place_of(self, seat: int) -> dict[str, Any]:
        """The place ``seat`` belongs to this Course."""
        return self.places[self.place_index(seat)]

    def ring_at(self, place: int) -> str | None:
        """The Coaster ring of the Goblet standing at ``place`` (None when playing without)."""
        return self.ring_of[self.goblet_at[place]]

    def contents_at(self, place: int) -> dict[str, int]:
        """A copy of what the Goblet at ``place`` holds (never shown before the reveal)."""
        return {k: v for k, v in self.goblets[self.goblet_at[place]].items() if v}
