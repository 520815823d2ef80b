"""Russian Goblette: Raise Your Goblets for 2 and 3 players, as its own game state.

Rulebook, Desserts: "With less than 4 players, the rules are mostly the same as normal, with the
following changes: Play without Character cards and Goblet rings. Place all 6 Goblets in a row, in
the middle of the table, at Arm's Length from all players. Players take turns performing 1 single
action. All actions work like in a normal game, except for ROTATE (you can't Rotate in a 2-3
player game) and SWAP (when you Swap, you can swap the position of any two Goblets: no player has
"Their Goblet"). After the Toast, the player to the left of the Toast Caller "drinks" any one of
the Goblets and reveals its contents [...] until there is only one survivor (who wins the round),
or until all of the Goblets have been chosen. [...] Every time you win a Course, you gain 1 VP.
The first player to obtain 3 VPs is the winner. If there's a tie, all tied players share the
victory."

The 4-6 player engine dispatches here: :func:`new_russian_state` builds the initial state.

This module is the state machine (the actions and their flow); the table's fields and a Course's
setup and end are :mod:`russian_model`, what each viewer sees :mod:`russian_views`, the options,
the rulebook sentences :mod:`russian_rules`, the actions as frozen values and their one door
(:func:`russian_actions.parse`, every shape checked before the phase) :mod:`russian_actions`.
Callers import from here.

Options (all optional; unknown keys are MalformedInput naming the key):

* ``variant``: ``"russian_goblette"`` (the only value accepted here).
* ``players``: 2 or 3 (default 2). Seats are 0-based, clockwise.
* ``host``: the first Course's Host (default 0); turns start at the Host's left. Later Courses:
  "The player who most recently called a toast [...] is the Host", i.e. the last Toast Caller.
* ``peek``: ``"any"`` (default: Peek looks into any one goblet of the row) or ``"none"`` (Peek is
  not allowed). "Look into Your Goblet" has no meaning when "no player has Their Goblet".
* ``vp_to_win``: VP that win the game (default 3, the rulebook's); 1 to 10.
* ``token_rules``: special-token powers (:meth:`TokenRules.from_json`), used by the reveal.

Each Course: every screen gets 3 Wine, 2 Poison, 2 Antidote from the pool; the CHANCE action
``{"type": "initial_pour", "tokens": [6 token kinds, by place]}`` pours 1 Antidote, 2 Poison
and 3 Wine; then turns of one action each from the Host's left:
``{"type": "pour", "seat": s, "token": kind, "place": p}``, ``{"type": "peek", "seat": s,
"place": p}``, ``{"type": "swap", "seat": s, "places": [p, q]}``, ``{"type": "toast", "seat":
s}``, ``{"type": "pass", "seat": s}`` (``{"type": "rotate", ...}`` is always refused when
enforcing). After the Toast each seat takes one final action (pour, peek, swap or pass) from the
caller's left, the caller last; then ``{"type": "drink", "seat": s, "place": p}`` in turn from the
caller's left, skipping eliminated seats. A place is one of the six spots along the row, 0-5
("Place all 6 Goblets in a row"): no player has "Their Goblet", so a spot is the place.

Modes (DESIGN.md principle 6): :attr:`Mode.ENFORCING` refuses a rule break with IllegalAction
whose ``rule`` quotes the rulebook, state unchanged. :attr:`Mode.RECORDING` applies what the
sensors saw, with a ``rule_warning`` event, when the state can represent it (out of turn, Toast
with Wine left, Rotate, Peek where the table plays without it, a token poured from outside the
screen, an initial pour of other tokens); what cannot be explained (an action of another phase, a
goblet drunk twice, tokens the pool does not have) raises AmbiguousObservation.

Decisions are in docs/rules-notes.md, "Russian Goblette".
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.core.errors import AmbiguousObservation, IllegalAction
from companion.core.game import CHANCE, Action, Event, GameState, Mode, Viewer, _Chance
from companion.core.games.goblets import russian_rules as rules
from companion.core.games.goblets import russian_views, views, vocabulary
from companion.core.games.goblets.action_values import InitialPour, Pass, Rotate, Toast
from companion.core.games.goblets.russian_actions import (
    Drink,
    RowPeek,
    RowPour,
    RowSwap,
    RussianAction,
    parse,
)
from companion.core.games.goblets.russian_model import (
    GOBLETS,
    INITIAL_POUR,
    KINDS,
    Phase,
    RussianModel,
    add,
    empty,
    nonzero,
)
from companion.core.games.goblets.russian_rules import parse_options
from companion.core.games.goblets.scoring import reveal
from companion.core.games.goblets.tokens import Token


def new_russian_state(options: Mapping[str, Any]) -> RussianState:
    """The initial state of a Russian Goblette game (bad options raise MalformedInput)."""
    return RussianState(parse_options(options))


class RussianState(RussianModel, GameState):
    """A Russian Goblette game in progress: the model's table and the actions that change it (see
    the module docstring for actions and options)."""

    SECRET_FIELDS = views.SECRET_FIELDS

    # -- the game interface ---------------------------------------------------------------------

    def to_move(self) -> int | _Chance | None:
        """CHANCE for a Course's initial pour, the seat to act, or None once over."""
        if self.phase == Phase.OVER:
            return None
        if self.phase == Phase.INITIAL_POUR:
            return CHANCE
        return self.current

    def is_over(self) -> bool:
        """True once a player has reached the VP that win."""
        return self.phase == Phase.OVER

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move."""
        seat = self.to_move()
        if seat is None or seat is CHANCE:
            return []
        assert isinstance(seat, int)
        if self.phase == Phase.DRINKING:
            return [Drink(seat, p).wire() for p in range(GOBLETS) if p not in self.drunk]
        actions: list[RussianAction] = []
        if self.phase == Phase.TURNS and not self.screens[seat][Token.WINE.value]:
            actions.append(Toast(seat))
        for kind in KINDS:
            if self.screens[seat][kind]:
                actions.extend(RowPour(seat, kind, p) for p in range(GOBLETS))
        if self.options.peek == "any":
            actions.extend(RowPeek(seat, p) for p in range(GOBLETS))
        actions.extend(RowSwap(seat, (p, q)) for p in range(GOBLETS) for q in range(p + 1, GOBLETS))
        actions.append(Pass(seat))
        return [action.wire() for action in actions]

    def sample_chance(self, rng: random.Random) -> Action:
        """The Course's initial pour: the six tokens shuffled into the row with ``rng``."""
        if self.phase != Phase.INITIAL_POUR:
            raise IllegalAction("no chance outcome is due", rule=rules.RULE_INITIAL_POUR)
        tokens = [token.value for token, count in INITIAL_POUR.items() for _ in range(count)]
        rng.shuffle(tokens)
        return InitialPour(tuple(tokens)).wire()

    def apply(self, action: Action, mode: Mode = Mode.ENFORCING) -> list[Event]:
        """Apply one action; refused or recorded with a warning per ``mode`` (module docstring).

        Its shape is checked first (:func:`russian_actions.parse`), then the phase and the rules.
        """
        if isinstance(action, Mapping):
            vocabulary.refuse_old(action)  # an old journal is upgraded when it is read
        value = parse(action, self.options.players)
        if isinstance(value, InitialPour):
            return self._apply_initial_pour(value, mode)
        warnings: list[Event] = []
        warn = rules.Warner(mode, warnings)
        if self.phase in (Phase.INITIAL_POUR, Phase.OVER):
            rule = rules.RULE_INITIAL_POUR if self.phase == Phase.INITIAL_POUR else rules.RULE_END
            warn.impossible(f"no player acts now ({self.phase})", rule)
        if isinstance(value, Drink):
            events = self._drink(value.seat, value.place, warn)
        else:
            events = self._turn_action(value, warn)
        return events[:1] + warnings + events[1:]

    # -- the initial pour -----------------------------------------------------------------------

    def _apply_initial_pour(self, action: InitialPour, mode: Mode) -> list[Event]:
        tokens = action.tokens
        warnings: list[Event] = []
        warn = rules.Warner(mode, warnings)
        if self.phase != Phase.INITIAL_POUR:
            warn.impossible("the goblets were already poured this Course", rules.RULE_INITIAL_POUR)
        need = empty()
        for token in tokens:
            need[token] += 1
        if need != {**empty(), **{t.value: c for t, c in INITIAL_POUR.items()}}:
            warn.rule_break(
                "the initial pour is not 1 Antidote, 2 Poison, 3 Wine", rules.RULE_INITIAL_POUR
            )
        if any(self.pool[kind] < count for kind, count in need.items()):
            raise AmbiguousObservation("the pool does not hold the tokens of the sensed pour")
        for position, token in enumerate(tokens):
            self.goblets[position][token] += 1
            self.pool[token] -= 1
        self.phase = Phase.TURNS
        # "Starting with the player to the Host's left, each player in turn may perform..."
        self.current = self._left_of(self.host)
        event: Event = {"event": "initial_poured", "course": self.course}
        self.log.append(dict(event))
        return [event, *warnings]

    # -- turns and the Toast phase's final actions ----------------------------------------------

    def _turn_action(
        self, action: RowPour | RowPeek | RowSwap | Rotate | Toast | Pass, warn: rules.Warner
    ) -> list[Event]:
        kind, seat = action.TYPE, action.seat
        if self.phase == Phase.DRINKING:
            warn.impossible("after the Toast the players only drink", rules.RULE_DRINK)
        expected = self.current
        if self.phase == Phase.TOAST:
            if isinstance(action, Toast):
                warn.impossible("the Toast has already been called", rules.RULE_FINAL)
            if seat != expected:
                early = f"{self.seat_name(seat)} acted before {self.seat_name(expected)}"
                warn.rule_break(early, rules.RULE_FINAL)
        elif seat != expected:
            warn.rule_break(f"{self.seat_name(expected)} is to act", rules.RULE_ONE_ACTION)
        if isinstance(action, Rotate):
            warn.rule_break("Rotate is not an action of Russian Goblette", rules.RULE_NO_ROTATE)
        if isinstance(action, Toast) and self.screens[seat][Token.WINE.value]:
            wine = f"{self.seat_name(seat)} still has Wine behind the screen"
            warn.rule_break(wine, rules.RULE_TOAST)
        if isinstance(action, RowPeek) and self.options.peek == "none":
            warn.rule_break("this table plays without Peek", rules.RULE_PEEK_NONE)
        if isinstance(action, RowSwap) and action.places[0] == action.places[1]:
            warn.impossible("a Swap exchanges two different goblets", rules.RULE_SWAP)
        from_pool = False
        if isinstance(action, RowPour) and not self.screens[seat][action.token]:
            missing = f"{self.seat_name(seat)} has no such token behind the screen"
            warn.rule_break(missing, rules.RULE_POUR)
            from_pool = True
            if not self.pool[action.token]:
                raise AmbiguousObservation("a token was poured that is neither screen nor pool")

        # Every check has passed: apply (nothing above changed the state).
        event: Event = {"event": kind, "seat": seat}
        if isinstance(action, RowPour):
            (self.pool if from_pool else self.screens[seat])[action.token] -= 1
            self.goblets[action.place][action.token] += 1
            # The table sees the hand reach a goblet, never the token: the kind stays hidden.
            event["place"] = action.place
        elif isinstance(action, RowPeek):
            position = action.place
            self.peeks[seat].append(
                {"place": position, "contents": nonzero(self.goblets[position])}
            )
            event["place"] = position
        elif isinstance(action, RowSwap):
            p, q = action.places
            self.goblets[p], self.goblets[q] = self.goblets[q], self.goblets[p]
            event["places"] = [p, q]
        elif isinstance(action, Rotate):
            # A sensed Rotate of the row: every goblet one place along, the end one wraps round.
            shift = 1 if action.direction == "clockwise" else -1
            self.goblets = [self.goblets[(p - shift) % GOBLETS] for p in range(GOBLETS)]
            event["direction"] = action.direction
        self.log.append(dict(event))
        events = [event]
        if self.phase == Phase.TURNS:
            if isinstance(action, Toast):
                events.extend(self._call_toast(seat))
            else:
                self.current = self._left_of(seat)
        else:
            if seat in self.final_order:
                self.final_order.remove(seat)
            if self.final_order:
                self.current = self.final_order[0]
            else:
                events.extend(self._start_drinking())
        return events

    def _call_toast(self, caller: int) -> list[Event]:
        """ "The Course ends immediately"; one final action each from the caller's left."""
        self.toast_caller = caller
        n = self.options.players
        self.final_order = [(caller + k) % n for k in range(1, n + 1)]  # the caller is last
        self.phase = Phase.TOAST
        self.current = self.final_order[0]
        return [{"event": "toast_phase", "toast_caller": caller, "order": list(self.final_order)}]

    # -- drinking -------------------------------------------------------------------------------

    def _start_drinking(self) -> list[Event]:
        assert self.toast_caller is not None
        self.phase = Phase.DRINKING
        # "After the Toast, the player to the left of the Toast Caller "drinks" any one of the
        # Goblets"
        self.current = self._left_of(self.toast_caller)
        return [{"event": "drinking", "first": self.current}]

    def _drink(self, seat: int, position: int, warn: rules.Warner) -> list[Event]:
        if self.phase != Phase.DRINKING:
            warn.impossible("goblets are drunk only after the Toast", rules.RULE_DRINK)
        if position in self.drunk:
            warn.impossible(f"goblet {position} has already been chosen", rules.RULE_NEXT_DRINK)
        if seat in self.eliminated:
            warn.impossible(f"{self.seat_name(seat)} has been eliminated", rules.RULE_ELIMINATED)
        if seat != self.current:
            warn.rule_break(f"{self.seat_name(self.current)} drinks next", rules.RULE_NEXT_DRINK)
        contents = self.goblets[position]
        result = reveal(contents, self.options.token_rules)
        record = {"seat": seat, "contents": nonzero(contents), "poisoned": result.poisoned}
        self.drunk[position] = record
        if result.poisoned:
            # "If they are poisoned, they are eliminated for the Course."
            self.eliminated.append(seat)
        else:
            # "If not, they keep the contents of the Goblet in front of them."
            add(self.kept[seat], contents)
            self.goblets[position] = empty()
        event = {"event": "drink", "place": position, **record}
        self.log.append(dict(event))
        events: list[Event] = [event]
        survivors = self.options.players - len(self.eliminated)
        # "...until there is only one survivor (who wins the round), or until all of the Goblets
        # have been chosen."
        if survivors == 1 or len(self.drunk) == GOBLETS:
            events.extend(self._end_course())
        else:
            self.current = self._next_drinker(seat)
        return events

    # -- results and views ----------------------------------------------------------------------

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see: never an unrevealed goblet; a seat its screen and its peeks."""
        return russian_views.view(self, self.to_move(), viewer)

    def hidden_alternatives(self, action: Action, viewer: Viewer) -> list[Action]:
        """Pours nobody but the pourer can tell apart, and every other initial pour."""
        return russian_views.hidden_alternatives(self, action, viewer)

    def reveals_hidden(self, action: Action) -> bool:
        """A drink reveals a goblet to all; a peek shows one to the peeker (resync all)."""
        return isinstance(action, Mapping) and action.get("type") in ("drink", "peek")

    def publicly_reveals(self, action: Action) -> bool:
        """A drink: the Goblet is revealed to everyone."""
        return isinstance(action, Mapping) and action.get("type") == "drink"

    def redact(self, action: Action, viewer: Viewer) -> Action:
        """A pour without its token, the initial pour without its order (``views.redact``)."""
        return views.redact(self, action, viewer, super().redact(action, viewer))

    def entry_refusal(self, action: Action, viewer: Viewer, mode: Mode) -> tuple[str, str] | None:
        """The Host enters no pour, Toast or chance by hand (see ``views.entry_refusal``)."""
        return views.entry_refusal(self, action, viewer, mode)
