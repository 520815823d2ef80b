"""The puppeteer: a random LEGAL game of Raise Your Goblets, played by hand on a live table.

:class:`Puppeteer` plays its own engine instance (enforcing mode: every action it takes is one of
``legal_actions()``) with a seeded ``random.Random``, and turns each action into what hands and
phones do on a :class:`~companion.virtual.live.HandTable`:

- a Pour is a token's tag put into the Goblet at that place (a ``pour`` motion);
- a Peek lifts the player's own Goblet and puts it back; a Rotate moves every Goblet one place,
  by hand, Goblet by Goblet (the generator's three styles); a Swap exchanges two Goblets;
- Pass, the Toast, the reveal and the Host's "start the Course" are taps on a phone (a
  :class:`Tap`: the inputs sensors cannot see); a tie-break shoot-out is entered by hand, and so
  is the layout when the tracker reports a conflict (the Host's fix);
- before a Course the Goblets go back to their Houses' places and the Host pours the initial
  tokens ("randomly pour 1 token into each of the Goblets"); at the reveal the Goblets are
  emptied.

Its play is sensible rather than clever: mostly Pours (Poison into others' Goblets, Antidote often
into one's own), now and then a Peek, Rotate or Swap, sometimes ending a turn early; after a few
rounds a player pours their Wine so that they may Call the Toast ("if you have no Wine tokens
left [...] at the beginning of your turn").

Players look at the table: :meth:`Puppeteer.step` takes what the sensed side has recorded so far
(a :class:`Sensed`) and waits, at a human pace, until the readers have reported its last action
before taking the next; the deals the sensed side draws (the Targets) are read from it, as a
player reads their phone. If the sensed side records something else (a misread, a Host's
correction, a person playing from a phone), the puppeteer follows the journal from there:
``desyncs`` counts those times. Without a sensed side it deals for itself.

Played for the overhead camera (``sensor="camera"``, the demo of ``companion serve --camera
synthetic``): the camera sees the Goblets' rings and the tokens poured out at the reveal, never a
pour (docs/rules-notes.md, "Camera play"). So the camera game draws the initial pour itself
(journaled chance: the hands pour what it drew, read from it as a deal), a pour during play is
made by hand but expected nowhere in the journal, and a step that had an unseen pour and ended on
its limit is ended on the player's phone (a Pass tap), since the camera game cannot count it. At
the reveal each player in turn lifts their Goblet, pours it out in their reveal area and sets it
down again on its spot (what the camera settles a seat on); the camera game's Toast carries
``"pours": "unseen"``, which the puppeteer's own engine, seeing every pour, does not.

Winetasters (7-12 players): a pair plays at its place's Goblet, the Winetaster's act first; a
Noble who does not Toast and a Winetaster who takes no free Peek say nothing (the pair's next act
tells the sensed side, ``core/games/goblets/sensed/pairs.py``), so the puppeteer goes straight on to
the act.

Character abilities are tapped on the owner's phone (a ``Tap`` of kind ``ability``) and then
made by hand: the chosen Goblet lifted and put back (``peek_any``), two Goblets swapped, their
Coasters exchanged (the averted-eyes card), a token taken behind the screen (``take_token``); an
ability step declined says nothing.

Supported: 4-12 players, with Coaster rings; Raise Your Memory raises ``MalformedInput``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.core import registry
from companion.core.game import CHANCE, Action
from companion.core.games.goblets.model import Phase, Step, StepKind
from companion.core.games.goblets.tokens import Token
from companion.virtual.puppet_course import (
    IDLE,
    PATIENCE,
    THINK,
    CourseHands,
    CourseNotes,
    Sensed,
    Tap,
    check_options,
)

__all__ = ["IDLE", "PATIENCE", "THINK", "Puppeteer", "Sensed", "Tap", "check_options"]
"""The puppeteer and what its callers read with it (defined in :mod:`.puppet_course`)."""

WEIGHTS = {
    "turn": {"pour": 6.0, "peek": 1.0, "rotate": 0.8, "swap": 1.0, "ability": 1.2, "pass": 0.0},
    "final": {"pour": 3.0, "peek": 1.2, "rotate": 0.8, "swap": 1.2, "ability": 1.0, "pass": 2.5},
    "ability": {"ability": 1.0, "decline": 1.0},
}
"""How often a player picks each kind of action (a Pass ends a turn early: see ``EARLY_PASS``)."""
EARLY_PASS = 1.0
"""The weight of a Pass after a turn's first action (and 0.15 of it before any)."""
SILENT = {"toast_option": "defer", "free_peek": "pass", "ability": "decline"}
"""Steps closed without a word: a Winetaster pair's (``core/games/goblets/sensed/pairs.py``), and an
ability step declined (``core/games/goblets/sensed/abilities.py``): the next act tells the sensed
side."""
PASS_AFTER = 1.5
"""Seconds a camera player waits, after a step's last motion, before tapping Pass: the camera
must first see the Goblets settle (the tracker's ``settle`` 0.5 s and a few frames), so a move
is recorded as the passing player's before the pass ends the step."""


class Puppeteer(CourseHands):
    """A random legal game played by hand (see the module docstring).

    ``state``: the game to play on (a fresh one, or a resumed one: it is cloned); ``actions``:
    the actions that made it (the journal, to compare with the sensed side's); ``table``: the
    physical table to play on (default: a new one set out as ``state`` says).
    """

    @staticmethod
    def new_game(rng: random.Random, options: Mapping[str, Any], **kw: Any) -> Puppeteer:
        """A puppeteer at the start of a new game with ``options`` (``characters`` default [])."""
        state = registry.get("goblets").new_state({"characters": [], **options})
        return Puppeteer(rng, state, **kw)

    # -- one step ----------------------------------------------------------------------------

    def step(self, sensed: Sensed | None = None) -> None:
        """Do the next thing at the table (an action, a tap, or wait a moment); time moves on."""
        before = self.table.t
        if sensed is not None and sensed.conflict:
            self._fix(sensed)
        elif sensed is None or self._is_caught_up(sensed):
            self._next(sensed)
        if self.table.t <= before:
            self.table.wait(IDLE)
        self.table.publish()

    def _next(self, sensed: Sensed | None) -> None:
        """Do what the engine asks for next."""
        engine = self.engine
        if engine.is_over():
            pass
        elif engine.phase == Phase.INITIAL_POUR:
            self._setup(sensed)
        elif engine.phase == Phase.SHOOTOUT:
            self._shootout()
        elif engine.to_move() is CHANCE:
            self._deal(sensed)
        elif engine.steps[0].kind == StepKind.REVEAL:
            self._reveal(engine.steps[0].seat)
        else:
            self._play(engine.steps[0], sensed)

    def _fix(self, sensed: Sensed) -> None:
        """The Host, asked to, says where the Goblets stand (once in a while, not at each look)."""
        table = self.table
        if self._fixed_at is None or table.t - self._fixed_at >= self.patience:
            self._fixed_at = table.t
            self._tap("fix_layout", layout=dict(enumerate(table.layout)))

    def _is_caught_up(self, sensed: Sensed) -> bool:
        """True when the sensed side has recorded every action of ours (and perhaps a deal)."""
        mine, theirs = self.actions, [self._recorded(a) for a in sensed.actions]
        if theirs[: len(mine)] == mine:
            if all(a.get("type") in self.dealt for a in theirs[len(mine) :]):
                self._since = None
                return True
            self.resync(sensed)  # someone else acted (the Host, a phone): before we act
            return False
        if mine[: len(theirs)] == theirs:
            # The readers have not reported our last action yet: a player waits for the table.
            if self._since is None:
                self._since = self.table.t
            if self.table.t - self._since < self.patience:
                return False
        self.resync(sensed)
        return False

    def _recorded(self, action: Action) -> Action:
        """``action`` as this puppeteer expects it: a camera reveal carries the camera's counts
        and a camera Toast says the pours were unseen, which the puppeteer's own do not (its
        engine knows the contents)."""
        if self.sensor == "camera" and action.get("type") in ("reveal", "toast"):
            return {"type": action["type"], "seat": action.get("seat")}
        return dict(action)

    def resync(self, sensed: Sensed) -> None:
        """Follow what the sensed side recorded (the journal is the truth) from now on."""
        self.desyncs += 1
        self._since = None
        self._unseen = False
        if sensed.state is not None:
            self.engine = sensed.state.clone()
            self.actions = [self._recorded(a) for a in sensed.actions]
            if self.sensor == "camera" and self.engine.phase == Phase.PLAY:
                self._contents_from_hands()
            if self.engine.course != self._course.number:
                started = self.engine.phase != Phase.INITIAL_POUR
                self._course = CourseNotes(self.engine.course, started, self.engine.turn_number)

    # -- turns --------------------------------------------------------------------------------

    def _round(self) -> int:
        places = len(self.engine.places)
        return max(0, self.engine.turn_number - self._course.first_turn - 1) // places

    def _play(self, step: Step, sensed: Sensed | None = None) -> None:
        table = self.table
        action = self._choose(step)
        if step.kind in SILENT and action["type"] == SILENT[step.kind]:
            # The Noble does not Toast, the Winetaster takes no free Peek, an ability is not
            # used: nobody says so, the next act tells the sensed side
            # (core/games/goblets/sensed/pairs.py, abilities.py), so the next act follows at once.
            self._apply(action)
            self._next(sensed)
            return
        if action["type"] == "ability":
            table.wait(table.span(THINK))
            self._tap("ability", step.seat, action=action)  # the owner's phone
            self._ability_by_hand(action, step.place)
            self._apply(action)
            return
        table.wait(table.span(THINK))
        kind, place = action["type"], step.place
        if kind == "pour":
            table.pour_screen(place, action["token"], action["place"])
        elif kind == "peek":
            table.peek(place)  # "Look into Your Goblet": lifted and put back
        elif kind == "rotate":
            table.rotate(1 if action["direction"] == "clockwise" else -1)
        elif kind == "swap":
            table.swap(place, action["with"])  # "Exchange Your Goblet for that of another player"
        else:
            self._tap(kind, step.seat)  # pass or toast: a phone
        unseen = self.sensor == "camera" and kind == "pour"
        self._apply(action, seen=not unseen)
        if self.sensor == "camera":
            self._end_unseen(kind, step.seat, unseen)

    def _end_unseen(self, kind: str, seat: int, unseen: bool) -> None:
        """With the camera: a step that had a pour (unseen) and has just ended on its limit is
        ended on the player's phone too, since the camera game counted fewer actions."""
        self._unseen = self._unseen or unseen
        ended = kind in ("pass", "toast") or self.engine.is_over() or self.engine.taken == 0
        if not ended:
            return
        if self._unseen and kind not in ("pass", "toast"):
            self.table.wait(PASS_AFTER)
            self._tap("pass", seat)
            self.actions.append({"type": "pass", "seat": seat})
        self._unseen = False

    def _choose(self, step: Step) -> Action:
        """A sensible legal action for the current step (see the module docstring)."""
        engine, rng = self.engine, self.rng
        legal = engine.legal_actions()
        kinds: dict[str, list[Action]] = {}
        for action in legal:
            kinds.setdefault(action["type"], []).append(action)
        if "toast" in kinds and self._round() >= self._course.toast_round and rng.random() < 0.9:
            return kinds["toast"][0]
        if step.kind == StepKind.TOAST_OPTION:
            return kinds["defer"][0]  # not the Toast's round yet: the pair plays as normal
        if step.kind == StepKind.ABILITY:
            kind = rng.choices(["ability", "decline"], [1.0, 1.0])[0]
            return rng.choice(kinds.get(kind) or kinds["decline"])
        weights = dict(WEIGHTS.get(step.kind, WEIGHTS["final"]))
        if step.kind == StepKind.TURN:
            weights["pass"] = EARLY_PASS if engine.taken else 0.15 * EARLY_PASS
        options = [k for k in weights if k in kinds and weights[k] > 0] or ["pass"]
        kind = rng.choices(options, [weights[k] for k in options])[0]
        if kind == "pour":
            return self._pour(step)
        return rng.choice(kinds[kind])

    def _ability_by_hand(self, action: Action, place: int) -> None:
        """What the owner does at the table after tapping ``action`` (docs/tracking.md,
        "Character abilities"): the chosen Goblet lifted and looked into, two Goblets swapped,
        their Coasters exchanged, or a token taken from the pool behind the screen."""
        table = self.table
        card = next(c for c in self.engine.opts.characters if c.name == action["card"])
        table.wait(table.span(table.hands.pause))  # at once: the ability is under way
        if card.effect == "peek_any":
            table.peek(action["place"])
        elif card.effect == "take_token":
            kind = Token(card.token)
            table.screens[place].append((table.take(kind), kind))
        else:
            p, q = action["places"]
            if action.get("coasters"):
                table.exchange_coasters(p, q, swap=bool(action.get("swap")))
            else:
                table.swap(p, q)

    def _pour(self, step: Step) -> Action:
        engine, rng = self.engine, self.rng
        place, places = step.place, len(engine.places)
        # What the hands hold, too: after the journal went another way (a pour the readers
        # missed) the engine may believe a token is still behind the screen that is not.
        held = {kind.value for _, kind in self.table.screens[place]}
        screen = {k: n for k, n in engine.screens[place].items() if n and k in held}
        if not screen:
            return {"type": "pass", "seat": step.seat}
        rush = step.kind == StepKind.TURN and self._round() >= self._course.toast_round - 1
        if rush and "wine" in screen and rng.random() < 0.85:
            token = "wine"  # emptying the screen of Wine, to be allowed to Call the Toast
        else:
            token = rng.choices(list(screen), list(screen.values()))[0]
        others = [p for p in range(places) if p != place]
        if token in ("poison", "ogre_poison"):
            into = rng.choice(others) if rng.random() < 0.85 else place
        elif token in ("antidote", "unicorn_antidote"):
            into = place if rng.random() < 0.6 else rng.choice(others)
        else:
            into = rng.randrange(places)
        return {"type": "pour", "seat": step.seat, "place": into, "token": token}
