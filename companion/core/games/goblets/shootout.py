"""The end-of-game tie-break shoot-out of Raise Your Goblets, as a small embeddable state machine.

Rulebook (The Toast, end of the game): "In case of a tie, take 1 Goblet for each tied player. The
Host takes 1 Wine token plus a number of Poison tokens so that the total is equal to the number of
tied players, and randomly pours 1 into each Goblet. Starting from the last Toast Caller and
proceeding clockwise, each tied player chooses 1 Goblet and reveals its contents. The surviving
player is the winner!"

How to embed it (the 4-6 player engine, Winetasters, any game that ends in a VP tie)::

    shootout = Shootout.start(tied_seats=[1, 3], last_toast_caller=2, num_seats=5)
    # optional: goblet_ids=["de_miceti", "aconitiers"] to name the goblets by their Coaster rings
    while not shootout.is_over():
        if shootout.to_move() is CHANCE:          # the Host's random pour
            action = shootout.sample_chance(rng)   # virtual goblets: drawn with the caller's rng
        else:
            action = <the tied player's choice, one of shootout.legal_actions()>
        events = shootout.apply(action, mode)      # journal ``action`` exactly like any other
    shootout.winners()                             # [seat]; shootout.winner() -> seat or None

``Shootout`` is a full :class:`~companion.core.game.GameState` (``num_seats`` is the whole table,
seats 0-based and clockwise), so the embedding state can simply delegate ``to_move``,
``legal_actions``, ``sample_chance``, ``apply``, ``hidden_alternatives``, ``reveals_hidden`` and put
``view(viewer)`` under a key of its own view while its shoot-out is running. It holds only JSON-able
data and is deep-copyable (``clone()``).

Actions (JSON dicts, journaled as they are; read at the door into the frozen values
:class:`~companion.core.games.goblets.action_values.ShootoutPour` and ``ShootoutChoose``,
:func:`~companion.core.games.goblets.door.parse_shootout`, the embedding engine handing them to
:meth:`Shootout.play`):

* ``{"type": "shootout_pour", "goblets": {goblet_id: "wine" | "poison", ...}}`` -- the Host's pour,
  one token per goblet. With virtual goblets it is the CHANCE outcome drawn by
  :meth:`Shootout.sample_chance`; with sensed goblets the same action is built from the readers
  (which goblet got which token) and applied in :attr:`Mode.RECORDING`.
* ``{"type": "shootout_choose", "seat": s, "goblet": goblet_id}`` -- tied player ``s`` chooses a
  goblet and reveals its contents at once. The last tied player's choice is forced (one goblet
  left) but is still an action: on a real table that player lifts and reveals the last goblet too.

Decisions (docs/rules-notes.md, "Shoot-out"):

* "Starting from the last Toast Caller": the choosing order is the tied players in clockwise order
  starting from the first tied seat at or clockwise after the last Toast Caller (the caller first
  when tied).
* Survival is decided by :func:`~companion.core.games.goblets.scoring.reveal` of the goblet's one
  token: the Wine goblet survives, a Poison goblet is poisoned.
* The winners are the players who survived. A legal pour (exactly 1 Wine) has exactly one. A sensed
  pour that broke the rule (recorded with a ``rule_warning``) may leave none or several survivors:
  then the survivors share the victory, and with no survivor at all every tied player still shares
  it (the tie stands; the table may start another shoot-out).

Modes: in :attr:`Mode.ENFORCING` an action that breaks a rule raises
:class:`~companion.core.errors.IllegalAction` naming the rule, state unchanged. In
:attr:`Mode.RECORDING` a rule break the state can represent (a pour that is not 1 Wine plus Poison,
a tied player choosing out of turn) is applied with a ``{"event": "rule_warning", ...}`` event;
what cannot have happened on a table (an unknown goblet, a goblet already revealed, a seat that is
not tied or has already chosen, a choice before the pour) raises
:class:`~companion.core.errors.AmbiguousObservation` for the host to resolve. A badly formed
action raises :class:`~companion.core.errors.MalformedInput` in both modes.

Views: nobody -- the Host included -- sees what a goblet holds until it is chosen and revealed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.checks import whole
from companion.core.errors import AmbiguousObservation, IllegalAction, MalformedInput
from companion.core.game import CHANCE, Action, Event, GameState, Mode, Viewer, _Chance
from companion.core.games.goblets.action_values import ShootoutChoose, ShootoutPour
from companion.core.games.goblets.door import parse_shootout
from companion.core.games.goblets.scoring import reveal
from companion.core.games.goblets.tokens import Token

POUR = ShootoutPour.TYPE
CHOOSE = ShootoutChoose.TYPE
WINE = Token.WINE.value
POISON = Token.POISON.value

RULE_TIE = (
    "In case of a tie, take 1 Goblet for each tied player. The Host takes 1 Wine token plus a "
    "number of Poison tokens so that the total is equal to the number of tied players, and "
    "randomly pours 1 into each Goblet."
)
RULE_CHOOSE = (
    "Starting from the last Toast Caller and proceeding clockwise, each tied player chooses "
    "1 Goblet and reveals its contents."
)
RULE_WINNER = "The surviving player is the winner!"


def choosing_order(tied_seats: Sequence[int], last_toast_caller: int, num_seats: int) -> list[int]:
    """The tied seats in the order they choose: clockwise from the last Toast Caller.

    The caller chooses first when tied; otherwise the first tied seat clockwise after the caller.
    """
    return sorted(tied_seats, key=lambda seat: (seat - last_toast_caller) % num_seats)


def _survived(token: str) -> bool:
    """The one-token goblet's reveal: "The surviving player is the winner!"."""
    return reveal({token: 1}).survived


class Shootout(GameState):
    """The tie-break shoot-out in progress; build it with :meth:`Shootout.start`."""

    def __init__(
        self,
        tied_seats: Sequence[int],
        last_toast_caller: int,
        num_seats: int,
        goblet_ids: Sequence[str] | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        whole(num_seats, "num_seats", "must be an integer >= 2", low=2)
        seats = list(tied_seats)
        if len(seats) < 2 or len(set(seats)) != len(seats):
            raise MalformedInput("needs two or more distinct tied seats", field="tied_seats")
        for seat in [*seats, last_toast_caller]:
            message = f"seat {seat!r} is not a seat of the table"
            whole(seat, "tied_seats", message, low=0, high=num_seats - 1)
        ids = [str(i + 1) for i in range(len(seats))] if goblet_ids is None else list(goblet_ids)
        if (
            len(ids) != len(seats)
            or len(set(ids)) != len(ids)
            or not all(isinstance(g, str) and g for g in ids)
        ):
            raise MalformedInput(
                "needs one distinct non-empty id per tied seat", field="goblet_ids"
            )
        self._num_seats = num_seats
        self.names = None if names is None else [str(name) for name in names]
        """What each seat is called in messages (the table's Houses); default "Player N"."""
        self.last_toast_caller = last_toast_caller
        self.order: list[int] = choosing_order(seats, last_toast_caller, num_seats)
        self.goblet_ids: list[str] = ids
        self.contents: dict[str, str] | None = None  # goblet id -> token, once poured
        self.chosen: dict[str, int] = {}  # goblet id -> seat that chose it (revealed)
        self.choices: list[tuple[int, str]] = []  # (seat, goblet id) in the order they happened

    @classmethod
    def start(
        cls,
        tied_seats: Sequence[int],
        last_toast_caller: int,
        num_seats: int,
        goblet_ids: Sequence[str] | None = None,
        names: Sequence[str] | None = None,
    ) -> Shootout:
        """A new shoot-out among ``tied_seats``; the Host's pour is due first (CHANCE).

        ``goblet_ids`` names the goblets (e.g. by Coaster ring, for sensed goblets); the default is
        ``"1"``, ``"2"``, ... ``names``: what each seat of the table is called in messages.
        Bad arguments raise MalformedInput naming the field.
        """
        return cls(tied_seats, last_toast_caller, num_seats, goblet_ids, names)

    # -- the game interface ---------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """Seats of the whole table (the shoot-out is played by the tied ones only)."""
        return self._num_seats

    def seat_name(self, seat: int) -> str:
        """What ``seat`` is called in messages (its House at a Goblets table)."""
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return super().seat_name(seat)

    @property
    def tied_seats(self) -> list[int]:
        """The tied seats, in choosing order."""
        return list(self.order)

    def _waiting(self) -> list[int]:
        done = {seat for seat, _ in self.choices}
        return [seat for seat in self.order if seat not in done]

    def _open_goblets(self) -> list[str]:
        return [g for g in self.goblet_ids if g not in self.chosen]

    def to_move(self) -> int | _Chance | None:
        """CHANCE for the Host's pour, then each tied seat in choosing order, None when over."""
        if self.contents is None:
            return CHANCE
        waiting = self._waiting()
        return waiting[0] if waiting else None

    def is_over(self) -> bool:
        """True once every tied player has chosen and revealed a goblet."""
        return self.contents is not None and not self._waiting()

    def legal_actions(self) -> list[Action]:
        """The choices of the tied player to move: one per goblet not yet chosen."""
        seat = self.to_move()
        if seat is None or seat is CHANCE:
            return []
        return [ShootoutChoose(seat, g).wire() for g in self._open_goblets()]

    def sample_chance(self, rng: random.Random) -> Action:
        """The Host's random pour: 1 Wine and Poison in the other goblets, drawn with ``rng``."""
        if self.to_move() is not CHANCE:
            raise IllegalAction("the goblets have already been poured", rule=RULE_TIE)
        return self._pour(rng.choice(self.goblet_ids)).wire()

    def _pour(self, wine_goblet: str) -> ShootoutPour:
        """The legal pour whose one Wine is in ``wine_goblet``, Poison in every other."""
        return ShootoutPour(
            tuple((g, WINE if g == wine_goblet else POISON) for g in self.goblet_ids)
        )

    def apply(self, action: Action, mode: Mode = Mode.ENFORCING) -> list[Event]:
        """Apply a pour or a choice; see the module docstring for what each mode refuses."""
        return self.play(parse_shootout(action, self.goblet_ids), mode)

    def play(self, action: ShootoutPour | ShootoutChoose, mode: Mode) -> list[Event]:
        """Apply a pour or a choice already read at the door (:func:`door.parse_shootout`)."""
        if isinstance(action, ShootoutPour):
            return self._apply_pour(action, mode)
        return self._apply_choose(action, mode)

    def _refuse(self, message: str, rule: str, mode: Mode) -> None:
        """An action that cannot happen now: illegal when enforcing, unexplainable when sensed."""
        if mode is Mode.RECORDING:
            raise AmbiguousObservation(f"{message} (rule: {rule})")
        raise IllegalAction(message, rule=rule)

    def _apply_pour(self, action: ShootoutPour, mode: Mode) -> list[Event]:
        goblets = action.contents
        if self.contents is not None:
            self._refuse("the goblets have already been poured", RULE_TIE, mode)
        events: list[Event] = []
        wines = sum(1 for token in goblets.values() if token == WINE)
        if wines != 1:
            if mode is Mode.ENFORCING:
                raise IllegalAction(f"the pour holds {wines} Wine tokens, not 1", rule=RULE_TIE)
            events.append(_warning(f"the sensed pour holds {wines} Wine tokens, not 1", RULE_TIE))
        self.contents = {g: str(goblets[g]) for g in self.goblet_ids}
        # The feed says that the goblets were poured, never what went where.
        events.insert(0, {"event": "shootout_poured", "goblets": list(self.goblet_ids)})
        return events

    def _apply_choose(self, action: ShootoutChoose, mode: Mode) -> list[Event]:
        seat, goblet = action.seat, action.goblet
        if self.contents is None:
            self._refuse("no goblet has been poured yet", RULE_TIE, mode)
        if goblet not in self.goblet_ids:
            self._refuse(f"there is no shoot-out goblet {goblet!r}", RULE_TIE, mode)
        if goblet in self.chosen:
            self._refuse(f"goblet {goblet!r} has already been chosen", RULE_CHOOSE, mode)
        waiting = self._waiting()
        if seat not in waiting:
            who = self.seat_name(seat)
            self._refuse(f"{who} is not a tied player still to choose", RULE_CHOOSE, mode)
        events: list[Event] = []
        if seat != waiting[0]:
            if mode is Mode.ENFORCING:
                raise IllegalAction(f"{self.seat_name(waiting[0])} chooses next", rule=RULE_CHOOSE)
            early = f"{self.seat_name(seat)} chose before {self.seat_name(waiting[0])}"
            events.append(_warning(early, RULE_CHOOSE))
        assert self.contents is not None
        token = self.contents[goblet]
        self.chosen[goblet] = seat
        self.choices.append((seat, goblet))
        events.insert(
            0,
            {
                "event": "shootout_revealed",
                "seat": seat,
                "goblet": goblet,
                "token": token,
                "survived": _survived(token),
            },
        )
        if self.is_over():
            events.append({"event": "shootout_over", "winners": self.winners()})
        return events

    def winners(self) -> list[int]:
        """The winning seats once over (see the module docstring for broken pours), else []."""
        if not self.is_over():
            return []
        assert self.contents is not None
        survivors = [seat for seat, g in self.choices if _survived(self.contents[g])]
        ordered = [seat for seat in self.order if seat in survivors]
        return ordered or list(self.order)

    def winner(self) -> int | None:
        """The single winner ("The surviving player is the winner!"), or None if not decided."""
        winners = self.winners()
        return winners[0] if len(winners) == 1 else None

    def outcome(self) -> dict[str, Any]:
        """``{"winners": [...], "revealed": {goblet: token}}`` (meaningful once over)."""
        return {"winners": self.winners(), "revealed": self._revealed()}

    def _revealed(self) -> dict[str, str]:
        if self.contents is None:
            return {}
        return {g: self.contents[g] for g in self.goblet_ids if g in self.chosen}

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The same for every viewer: a goblet's token shows only once it is chosen and revealed."""
        mover = self.to_move()
        revealed = self._revealed()
        return {
            "tied_seats": list(self.order),
            "last_toast_caller": self.last_toast_caller,
            "poured": self.contents is not None,
            "to_move": "chance" if mover is CHANCE else mover,
            "goblets": [
                {"id": g, "chosen_by": self.chosen.get(g), "token": revealed.get(g)}
                for g in self.goblet_ids
            ],
            "over": self.is_over(),
            "winners": self.winners(),
        }

    def hidden_alternatives(self, action: Action, viewer: Viewer) -> list[Action]:
        """Any other legal pour looks the same to everyone: nobody sees where the Wine went."""
        if not isinstance(action, Mapping) or action.get("type") != POUR:
            return []
        poured = action.get("goblets")
        if not isinstance(poured, Mapping):
            return []
        return [self._pour(wine).wire() for wine in self.goblet_ids if poured.get(wine) != WINE]

    def reveals_hidden(self, action: Action) -> bool:
        """A choice reveals the chosen goblet's token to everyone."""
        return isinstance(action, Mapping) and action.get("type") == CHOOSE


def _warning(message: str, rule: str) -> Event:
    """A rule warning event (sensed play broke a rule; DESIGN.md principle 6)."""
    return {"event": "rule_warning", "message": message, "rule": rule}
