"""Character abilities at a sensed table: tapped on the owner's phone, their effects then read.

The readers cannot see which card a player uses, nor why a Goblet moved, so an ability is an
input: the owner taps it on their phone (``{"type": "ability", "card": ..., "place": p}`` or
``"places": [p, q]``, ``"swap"``, ``"coasters"``: the engine's action, ``docs/goblets.md``), the
engine records it at once (recording mode: a card used out of its timing is warned about), and
the physical effect that follows on the table is the ability's, not a new action:

- ``swap_any`` and a Swap by the averted-eyes card: the engine has already exchanged the two
  Goblets when the tracker reports the swap, so the layout read equals the engine's and nothing
  more is recorded (:meth:`SensedTable._move_to` records only differences);
- ``peek_any``: the owner lifts the Goblet at ``p`` and looks in; the next ``lift`` at ``p`` is
  the ability's (:meth:`Expected.take_lift`), not a Peek by the seat sitting there;
- an exchange of Coasters (the averted-eyes card's ``"coasters": true``): the two rings change
  cups while each cup keeps its tokens. A tracked Goblet is its cup: the tracker is told that
  each of the two is read by the other's ring from now on (``Tracker.exchange_rings``), so
  neither the exchange nor the next Course's "take the Goblet with the Coaster ring that matches
  their House" is read as a move;
- ``take_token`` (a token from the common pool behind the owner's screen): nothing on the table
  is read (screens have no reader), so the phone's tap is the whole record: phone only.

Passive cards need no input: one more action (``extra_action``, King Cobra's
``extra_toast_action``) is the engine's step limit, which the sensed turn follows; a scoring
override is the engine's scoring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.game import Action
from companion.core.games.goblets.model import GobletsModel, Phase, Stage, StepKind
from companion.core.games.goblets.vocabulary import refuse_old

PARAMETERS = ("card", "place", "places", "swap", "coasters")
"""What a phone's ability tap may carry (the engine checks each against the card)."""


def ability_action(seat: int, data: Mapping[str, Any]) -> Action:
    """The engine's ``ability`` action for ``seat``'s tap ``data`` (MalformedInput naming the
    field: a card name is needed; the engine checks the rest when it records it)."""
    if not isinstance(data, Mapping):
        raise MalformedInput(f"must be an object, got {data!r}", field="action")
    card = data.get("card")
    if not isinstance(card, str) or not card:
        raise MalformedInput(f"must name a Character card, got {card!r}", field="card")
    action: Action = {"type": "ability", "seat": seat}
    refuse_old({**data, **action})  # a page from before the places were named ``place``
    action.update({key: data[key] for key in PARAMETERS if key in data})
    return action


@dataclass
class Expected:
    """Physical effects of recorded abilities still to be read (see the module docstring)."""

    lifts: list[int] = field(default_factory=list)
    """Places whose next lift is an ability's look (``peek_any``), in order."""

    def after(self, action: Action, effect: str) -> None:
        """Expect what the recorded ability ``action`` (its card's ``effect``) does by hand."""
        if effect == "peek_any":
            self.lifts.append(action["place"])

    def take_lift(self, place: int) -> bool:
        """True (and forgotten) when a lift at ``place`` is an expected ability's."""
        if place in self.lifts:
            self.lifts.remove(place)
            return True
        return False

    def clear(self) -> None:
        """A new Course: an effect never made is no longer expected."""
        self.lifts.clear()


ACTS = frozenset({"pour", "peek", "rotate", "swap", "pass", "toast", "ability", "decline"})
"""Actions that are a seat's act at the table (a reveal says its own declines)."""


def declined(state: GobletsModel, action: Action) -> list[Action]:
    """The abilities ``action`` shows were declined first: [] unless Course-start or
    Before-Drinking ability steps are pending.

    "Starting with the Host and going clockwise, each player that has a Character Ability which
    can be used 'At the beginning of each Course' may choose to use their Abilities now": nobody
    taps "no", so an ability tapped by a later seat declines the steps before it, and the first
    turn's act on the table declines every one still pending (journaled as each seat's
    ``decline``; Before Drinking, the reveal does the same: ``SensedTable.reveal``).
    """
    if state.phase != Phase.PLAY or state.stage not in (Stage.COURSE_START, Stage.BEFORE_DRINKING):
        return []
    kind, seat = action.get("type"), action.get("seat")
    pending = [s for s in state.pending_steps() if s.kind == StepKind.ABILITY]
    if kind not in ACTS or not pending:
        return []
    seats = [s.seat for s in pending]
    if kind in ("ability", "decline") and seat in seats:
        before = pending[: seats.index(seat)]
    elif state.stage == Stage.COURSE_START:
        before = pending  # the first turn has begun (its player's own-turn ability, too)
    else:
        return []  # Before Drinking, not one of the seats asked: the engine judges it
    return [{"type": "decline", "seat": s.seat} for s in before]
