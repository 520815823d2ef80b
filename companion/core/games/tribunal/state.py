"""The courtroom in play: setup, hearings, verdicts, cube draws, sentences, undo, win and loss.

One seat (the game is solo): seat 0 is the player. Phases, in the rulebook's order:

``shuffle`` (chance: the 12 set aside and the deck order, secret from everyone) -> ``hear`` (turn up
the next Accused, two at a time once the Momentum Box has emptied) -> ``verdict`` -> ``draw``
(chance: one cube, then maybe a second) -> ``choose`` (two cases: which sentence first) ->
``sentence`` (the printed effects, one action each, then "end of sentence") -> back to ``hear``,
until no Accused is left or the game is lost -> ``over``.

Each action is read at the door, :meth:`TribunalState.apply`, into a frozen value
(:mod:`.actions`: every shape checked there, ``wire()`` its JSON); the rules below take the typed
values. The data and its queries are the model's (:mod:`.model`); the view (:mod:`.views`) reads
the model and is handed the legal actions, so it imports no rule.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import Action, Event, GameState, Mode, Viewer
from companion.core.games.tribunal import board as playmat
from companion.core.games.tribunal.actions import (
    FIELDS,
    Draw,
    EndSentence,
    Hear,
    NameCard,
    Sentence,
    Shuffle,
    TribunalAction,
    Undo,
    Verdict,
    parse,
)
from companion.core.games.tribunal.actions import Effect as EffectAction
from companion.core.games.tribunal.cards import (
    BUTTON_MAX,
    DATA_MAX,
    EFFECTS,
    SET_ASIDE,
    button_amounts,
)
from companion.core.games.tribunal.model import PLAYER, Phase, TribunalModel
from companion.core.games.tribunal.pool import GUILTY, VERDICTS, draw_cube, judged, matches
from companion.core.games.tribunal.views import build_view

PHASES: dict[type[TribunalAction], Phase] = {
    Shuffle: Phase.SHUFFLE,
    Hear: Phase.HEAR,
    NameCard: Phase.VERDICT,
    Verdict: Phase.VERDICT,
    Draw: Phase.DRAW,
    Sentence: Phase.CHOOSE,
    EffectAction: Phase.SENTENCE,
    Undo: Phase.SENTENCE,
    EndSentence: Phase.SENTENCE,
}
"""The phase table: each action (:mod:`.actions`) and the phase it belongs to."""
ACTION_TYPES = tuple(FIELDS)
TURN_OVER = "turn the Accused Card over and carry out the effects ... in order"


class TribunalState(TribunalModel, GameState):
    """A game of The Gods Will Have Blood; see the module docstring for the phases."""

    # -- the interface -------------------------------------------------------------------------

    SECRET_FIELDS = {"shuffle": ("set_aside", "deck")}
    """The Accused Deck's order and the 12 set aside: secret from everyone."""

    def seat_name(self, seat: int) -> str:
        """The solo player: the court's judge."""
        return "the Judge"

    def hand_draw(self) -> tuple[int, str] | None:
        """The player draws each cube: "you will draw two cubes (one at a time) from the
        judgment pool" (the shuffle at setup is not the player's)."""
        return (PLAYER, "draw") if self.phase == Phase.DRAW else None

    def legal_actions(self) -> list[Action]:
        """The player's buttons now (empty at chance nodes and at the end)."""
        phase = self.phase
        if phase == Phase.HEAR:
            return [Hear().wire()]
        if phase == Phase.VERDICT:
            actions = [Verdict(v).wire() for v in VERDICTS]
            if self.options.stored_deck:
                actions += [
                    NameCard(i, name).wire()
                    for i in range(len(self.cases))
                    for name in self.unseen_cards()
                ]
            return actions
        if phase == Phase.CHOOSE:
            return [Sentence(c).wire() for c in self.cases if c not in self.sentenced]
        if phase == Phase.SENTENCE:
            actions: list[Action] = []
            printed = self.printed()
            if self.board.doom is None:
                if printed is None:
                    actions += [
                        EffectAction(e, n).wire() for e in EFFECTS for n in button_amounts(e)
                    ]
                elif len(self.done) < len(printed):
                    actions.append(EffectAction(*printed[len(self.done)]).wire())
            if self.board.doom is not None or printed is None or len(self.done) == len(printed):
                actions.append(EndSentence().wire())
            if self.undo_stack:
                actions.append(Undo().wire())
            return actions
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        """The shuffle at setup, or one cube drawn from the Judgment Pool (see :mod:`.pool`)."""
        if self.phase == Phase.SHUFFLE:
            reds = sorted(n for n, c in self.cards.items() if c.colour == "red")
            blues = sorted(n for n, c in self.cards.items() if c.colour == "blue")
            rng.shuffle(reds)
            deck = reds[SET_ASIDE:] + blues
            rng.shuffle(deck)
            return Shuffle(tuple(sorted(reds[:SET_ASIDE])), tuple(deck)).wire()
        if self.phase == Phase.DRAW:
            return Draw(draw_cube(self.board.pool, rng)).wire()
        raise IllegalAction("no chance event is due", rule="chance acts only to shuffle or draw")

    def is_over(self) -> bool:
        """True once won or lost."""
        return self.phase == Phase.OVER

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The same for every viewer: the deck order and the face-down cards are never shown."""
        return build_view(self, self.legal_actions())

    def hidden_alternatives(self, action: Action, viewer: Viewer) -> list[Action]:
        """Other shuffles nobody could tell apart from ``action`` until the next hearing."""
        if self.phase != Phase.SHUFFLE or action.get("type") != "shuffle":
            return []
        deck, aside = list(action.get("deck", [])), list(action.get("set_aside", []))
        if not deck or not aside:
            return []
        alternatives = [{"type": "shuffle", "set_aside": aside, "deck": deck[::-1]}]
        alternatives.append({"type": "shuffle", "set_aside": aside, "deck": deck[1:] + deck[:1]})
        cards = self.cards
        reds = [i for i, name in enumerate(deck) if name in cards and cards[name].colour == "red"]
        red = reds[0] if reds else None
        if red is not None:
            swapped_deck, swapped_aside = list(deck), list(aside)
            swapped_deck[red], swapped_aside[0] = aside[0], deck[red]
            alternatives.append(
                {"type": "shuffle", "set_aside": sorted(swapped_aside), "deck": swapped_deck}
            )
        return [a for a in alternatives if a != action]

    def reveals_hidden(self, action: Action) -> bool:
        """Hearing a case turns up the top card(s) of the secret deck."""
        return action.get("type") == "hear" and self.phase == Phase.HEAR

    def publicly_reveals(self, action: Action) -> bool:
        """Hearing a case turns the top card(s) up for all to read."""
        return self.reveals_hidden(action)

    # -- applying actions ----------------------------------------------------------------------

    def apply(self, action: Action, mode: Mode = Mode.ENFORCING) -> list[Event]:
        """Apply one action (validated first: a refused action leaves the state unchanged).

        Nothing in this game is sensed, so :attr:`Mode.RECORDING` enforces the rules too. Its
        shape is checked first (:func:`.actions.parse`: MalformedInput naming the field), then
        its phase (IllegalAction), then the rule of its type, which takes the typed value.
        """
        # A card's printed amount can exceed a button's: a stored deck allows the larger.
        act = parse(action, largest=DATA_MAX if self.options.stored_deck else BUTTON_MAX)
        if self.phase != PHASES[type(act)]:
            raise IllegalAction(
                f"{act.TYPE} is not possible now (the game is at {self.phase})",
                rule=f"the order of play: {self.phase} comes first",
            )
        events: list[Event] = getattr(self, f"_{act.TYPE}")(act)
        self.log.extend(events)
        return events

    def _shuffle(self, act: Shuffle) -> list[Event]:
        aside, deck = list(act.set_aside), list(act.deck)
        reds = {n for n, c in self.cards.items() if c.colour == "red"}
        if (
            len(aside) != SET_ASIDE
            or not set(aside) <= reds
            or sorted(aside + deck) != sorted(self.cards)
        ):
            raise IllegalAction(
                "the shuffle must set aside 12 red cards and deal every other card once",
                rule="Randomly set aside 12 and shuffle the remaining 21 red cards with the 3 blue",
            )
        self.board.set_aside_hidden = list(aside)
        self.board.stacks = [list(deck)]
        self.phase = Phase.HEAR
        return [{"event": "shuffled", "deck": len(deck), "set_aside": len(aside)}]

    def _hear(self, act: Hear) -> list[Event]:
        # "Each turn, read the description provided on the top Accused Card"; two at a time once
        # the Momentum Box has emptied, one from each stack.
        stacks = self.board.stacks if self.board.two_cases else self.board.stacks[:1]
        self.cases = [stack.pop(0) for stack in stacks if stack]
        self.sentenced, self.verdict, self.judgment, self.sentence = [], None, None, None
        self.hearings += 1
        self.phase = Phase.VERDICT
        return [{"event": "heard", "hearing": self.hearings, "cases": list(self.cases)}]

    def _name_card(self, act: NameCard) -> list[Event]:
        case, name = act.case, act.card
        if not self.options.stored_deck:
            raise IllegalAction(
                "cards are anonymous",
                rule="a card is picked by name only "
                "when the table has stored its deck (option deck)",
            )
        if case >= len(self.cases):  # a whole number >= 0 (parse); which cases: this hearing's
            raise MalformedInput(f"no case {case!r} is being heard", field="action.case")
        if name not in self.unseen_cards():
            raise IllegalAction(
                f"{name!r} is not a card whose place is unknown",
                rule="the card turned up comes from the Accused Deck",
            )
        was = self.cases[case]
        board = self.board
        for pile in [*board.stacks, board.set_aside_hidden]:
            if name in pile:
                pile[pile.index(name)] = was
        self.cases[case] = name
        return [{"event": "named", "case": case, "card": name, "was": was}]

    def _verdict(self, act: Verdict) -> list[Event]:
        self.verdict = act.verdict
        events: list[Event] = [{"event": "verdict", "verdict": self.verdict}]
        if self.board.pool.total == 0:
            return events + self._judge()
        self.phase = Phase.DRAW
        return events

    def _draw(self, act: Draw) -> list[Event]:
        cube = act.cube
        if self.board.pool.count(cube) == 0:
            raise IllegalAction(
                f"no {cube} cube is in the Judgment Pool",
                rule="draw two cubes (one at a time) from the judgment pool",
            )
        board = self.board
        if cube == "blue":
            board.blue = "drawn"
        else:
            setattr(board, cube, getattr(board, cube) - 1)
        board.drawn.append(cube)
        events: list[Event] = [{"event": "drawn", "cube": cube, "draw": len(board.drawn)}]
        stop = self.options.second_draw == "stop" and matches(cube, self.verdict or GUILTY)
        if len(board.drawn) == 2 or stop or board.pool.total == 0:
            events += self._judge()
        return events

    def _judge(self) -> list[Event]:
        assert self.verdict is not None
        self.judgment = judged(self.verdict, self.board.drawn)
        events: list[Event] = [
            {"event": "judgment", "verdict": self.judgment, "passed": self.judgment == self.verdict}
        ]
        if len(self.cases) > 1:
            self.phase = Phase.CHOOSE
            return events
        return events + self._start_sentence(self.cases[0])

    def _sentence(self, act: Sentence) -> list[Event]:
        card = act.card
        if card not in self.cases or card in self.sentenced:
            raise IllegalAction(
                f"{card!r} awaits no sentence",
                rule="Carry out the sentences for "
                "each card one at a time in full. You may do so in any order.",
            )
        return self._start_sentence(card)

    def _start_sentence(self, card: str) -> list[Event]:
        self.sentence = card
        self.done, self.undo_stack = [], []
        self.phase = Phase.SENTENCE
        return [{"event": "sentence", "card": card, "verdict": self.judgment}]

    def _effect(self, act: EffectAction) -> list[Event]:
        printed = self.printed()
        effect = act.printed
        if self.board.doom is not None:
            raise IllegalAction("the game is lost", rule=f"you will lose ({self.board.doom})")
        if printed is not None and (
            len(self.done) >= len(printed) or printed[len(self.done)] != effect
        ):
            raise IllegalAction("that is not the next effect printed on the card", rule=TURN_OVER)
        self.undo_stack.append((copy.deepcopy(self.board), list(self.done)))
        self.done.append(effect)
        events = playmat.carry_out(self.board, self.options.vine, *effect)
        return [{"event": "effect", "effect": effect[0], "n": effect[1]}, *events]

    def _undo(self, act: Undo) -> list[Event]:
        # A mis-tap is undone by restoring the board; the cubes already drawn stay drawn.
        if not self.undo_stack:
            raise IllegalAction("no effect to undo", rule="undo reverts the last effect tapped")
        undone = self.done[-1]
        self.board, self.done = self.undo_stack.pop()
        return [{"event": "undo", "effect": undone[0], "n": undone[1]}]

    def _end_sentence(self, act: EndSentence) -> list[Event]:
        board = self.board
        printed = self.printed()
        if board.doom is not None:
            self.phase = Phase.OVER
            self.result = self._result(False, board.doom)
            return [{"event": "game_over", **self.result}]
        if printed is not None and len(self.done) < len(printed):
            raise IllegalAction("effects are left on the card", rule=TURN_OVER)
        assert self.sentence is not None and self.judgment is not None
        # Guilty: "place the Accused Card among the discarded"; Not Guilty: "place the Accused
        # Card among the 12 set aside during setup".
        pile = board.discarded if self.judgment == GUILTY else board.set_aside_known
        pile.append(self.sentence)
        self.sentenced.append(self.sentence)
        events: list[Event] = [{"event": "sentence_done", "card": self.sentence}]
        left = [c for c in self.cases if c not in self.sentenced]
        if len(left) > 1:
            self.phase = Phase.CHOOSE
            return events
        if left:
            return events + self._start_sentence(left[0])
        events.append(
            playmat.return_cubes(board, self.options.vine, self.judgment, self.options.missing_reds)
        )
        self.sentence, self.undo_stack = None, []
        if board.deck_size == 0:
            # "To win, you must have maximum Reputation (marked with a * on the vine) and no
            # remaining Accused Cards."
            on_star = self.options.vine.label(board.reputation) == "*"
            reason = "Reputation on * and no Accused left" if on_star else "Reputation not on *"
            self.phase = Phase.OVER
            self.result = self._result(on_star, reason)
            events.append({"event": "game_over", **self.result})
        else:
            self.phase = Phase.HEAR
        return events

    def _result(self, won: bool, reason: str) -> dict[str, Any]:
        vine = self.options.vine
        return {
            "won": won,
            "reason": reason,
            "winners": [PLAYER] if won else [],
            "reputation": vine.label(self.board.reputation) or self.board.reputation,
            "legitimacy": vine.label(self.board.legitimacy) or self.board.legitimacy,
            "hearings": self.hearings,
        }
