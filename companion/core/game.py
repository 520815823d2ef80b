"""The one small game interface shared by all three games.

Modelled on OpenSpiel's ``State``: a game makes an initial state from validated options; the state
says who acts next (a seat, :data:`CHANCE` or nobody once over), lists the legal actions, applies
one, and renders a view for a viewer. Chance is an action too (DESIGN.md principle 4): when
:meth:`GameState.to_move` is :data:`CHANCE` the caller draws an outcome with
:meth:`GameState.sample_chance` from the randomness source it owns and applies it like any other
action, so the journal of actions replays the game exactly.

Actions are plain JSON-able dicts with a ``"type"`` key, so a journal can store them as they are.
An engine may read one into a frozen value at its door (The Gods Will Have Blood's and Cena's
``actions.parse``, whose outline check is :func:`action_type`); what crosses this interface, the
journal and the legal-action lists stay dicts.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.core.copies import clone_of
from companion.core.errors import MalformedInput

Action = dict[str, Any]
"""A JSON-able action: ``{"type": ..., ...}``."""

Event = dict[str, Any]
"""A JSON-able game event produced by applying an action (what the feed and the views show)."""


class Mode(Enum):
    """How a state treats an action that breaks a rule (DESIGN.md principle 6)."""

    ENFORCING = "enforcing"
    """Virtual or manual play: an illegal action raises :class:`IllegalAction`, state unchanged."""

    RECORDING = "recording"
    """Sensed play: what happened on the table is applied, with a ``rule_warning`` event."""


class _Chance:
    """The chance player's marker type (a singleton, like OpenSpiel's ``kChancePlayerId``)."""

    _instance: _Chance | None = None

    def __new__(cls) -> _Chance:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "CHANCE"


CHANCE = _Chance()
"""Returned by :meth:`GameState.to_move` when the next action is a chance outcome."""


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the public (the tablet), one seat (a phone) or the host.

    Build them with :data:`PUBLIC`, :data:`HOST` and :meth:`Viewer.seat`.
    """

    kind: str
    index: int | None = None

    @staticmethod
    def seat(index: int) -> Viewer:
        """The viewer sitting at ``index`` (0-based, clockwise)."""
        return Viewer("seat", index)

    @property
    def is_seat(self) -> bool:
        """True for a player's own viewer."""
        return self.kind == "seat"

    def __str__(self) -> str:
        return f"seat {self.index}" if self.is_seat else self.kind


PUBLIC = Viewer("public")
HOST = Viewer("host")


class GameState(ABC):
    """One game in progress; mutated only by :meth:`apply`."""

    @property
    @abstractmethod
    def num_seats(self) -> int:
        """How many seats (players) the game has; seats are 0-based and clockwise."""

    @abstractmethod
    def to_move(self) -> int | _Chance | None:
        """The seat that acts next, :data:`CHANCE`, or ``None`` once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action for the actor to move (empty at chance nodes and at the end)."""

    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Action:
        """Draw the chance outcome due now with ``rng`` (only when ``to_move() is CHANCE``)."""

    @abstractmethod
    def apply(self, action: Action, mode: Mode = Mode.ENFORCING) -> list[Event]:
        """Apply ``action`` and return the events it produced.

        In :attr:`Mode.ENFORCING` an illegal action raises
        :class:`~companion.core.errors.IllegalAction` and leaves the state unchanged.
        """

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def outcome(self) -> dict[str, Any]:
        """The final result (winners, scores); only meaningful once :meth:`is_over`."""

    @abstractmethod
    def view(self, viewer: Viewer) -> dict[str, Any]:
        """Everything ``viewer`` may see, as JSON-able data: the ONLY way secrets leave."""

    def hidden_alternatives(self, action: Action, viewer: Viewer) -> list[Action]:
        """Other actions ``viewer`` could not tell apart from ``action`` if applied now.

        Used to test views as an attacker would (OpenSpiel's resampling from an information
        state): replaying a journal with such substitutions must not change ``viewer``'s view.
        The default says every action is fully visible.
        """
        return []

    def reveals_hidden(self, action: Action) -> bool:
        """True if applying ``action`` now shows someone what was hidden (a reveal, a Peek)."""
        return False

    # -- the one door: what each viewer may know of the journal (boardgame.io's redactLog) -----

    def publicly_reveals(self, action: Action) -> bool:
        """True if applying ``action`` now shows *everyone* what was hidden (the Toast's reveal;
        a Peek shows only the peeker). A replay of a live game runs up to the latest one."""
        return False

    def visible_events(self, events: list[Event], viewer: Viewer) -> list[Event]:
        """The events of ``events`` that ``viewer`` may see (the live feed, replay frames).

        The default: an event addressed ``"to": seat`` is for that seat only; any other is public.
        """
        return [e for e in events if "to" not in e or (viewer.is_seat and e["to"] == viewer.index)]

    SECRET_FIELDS: Mapping[str, tuple[str, ...]] = {}
    """Per action type, the fields a replay of the live game leaves out (a pour's token)."""

    def redact(self, action: Action, viewer: Viewer) -> Action:
        """``action`` (applied at this state) as ``viewer`` may see it in a replay while the game
        goes on: without the fields :attr:`SECRET_FIELDS` names for its type. By type, never by
        what the action happened to hold (a pour from a screen of one kind is still a pour whose
        token is secret). A finished game hides nothing: its export is the whole journal."""
        hidden = self.SECRET_FIELDS.get(action.get("type"), ())
        return {key: value for key, value in action.items() if key not in hidden}

    def entry_refusal(self, action: Action, viewer: Viewer, mode: Mode) -> tuple[str, str] | None:
        """Why ``viewer`` (the Host, entering by hand) may not enter ``action`` in ``mode``:
        ``(message, rule)``, or None.

        An action naming what the viewer may not know (a token behind another's screen, a card
        in another's hand) is taken only from the role the rules give it; it is refused whatever
        the hidden facts are, so neither the refusal nor a rule warning tells the viewer anything.
        The default: every action may be entered.
        """
        return None

    def seat_name(self, seat: int) -> str:
        """What the rulebook calls the player at ``seat`` (their House, say), for people to read."""
        return f"Player {seat + 1}"

    def hand_draw(self) -> tuple[int, str] | None:
        """``(seat, action type)`` when a player draws the chance outcome due now by hand (a cube
        from the bag), else None.

        A table draws some chance at a player's pace ("you will draw two cubes (one at a time)"):
        the caller then draws the outcome only when that seat asks for it with ``{"type": action
        type}``. It is still chance, drawn with the caller's randomness source and applied like any
        other outcome.
        """
        return None

    def clone(self) -> GameState:
        """An independent copy sharing nothing mutable (see :func:`.copies.clone_of`)."""
        return clone_of(self)


class Game(ABC):
    """A game type: a name, its options, and a factory of initial states."""

    name: str
    """Registry name, e.g. ``"goblets"``."""

    @abstractmethod
    def new_state(self, options: Mapping[str, Any]) -> GameState:
        """The initial state for ``options`` (validated; bad options raise MalformedInput)."""

    def conformance_options(self) -> list[dict[str, Any]]:
        """Option sets the shared conformance suite plays (every player count and variant)."""
        return [{}]

    def upgraded(self, action: Action) -> Action:
        """A journaled ``action`` as this version names it: a game whose action vocabulary
        changed renames an old journal's fields here, at the one door where a stored action is
        read (:func:`companion.core.journal.upgraded_entries`). Unchanged by default."""
        return action


def action_type(action: Any, fields: Mapping[str, tuple[str, ...]]) -> str:
    """The type of ``action``, once its outline is checked against ``fields``.

    ``fields`` maps each action type to the fields it may carry. An action that is not an
    object, has an unknown type or carries a field its type does not have is MalformedInput naming
    the field. A game's ``parse`` calls this first, then checks each field's value.
    """
    if not isinstance(action, Mapping):
        raise MalformedInput("an action is an object with a type", field="action")
    kind = action.get("type")
    if kind not in tuple(fields):  # a tuple: an unhashable type is unknown, not a TypeError
        raise MalformedInput(f"unknown action type {kind!r}", field="action.type")
    for key in action:
        if key not in ("type", *fields[kind]):
            raise MalformedInput(f"a {kind} action has no field {key!r}", field=f"action.{key}")
    return kind
