"""The puppeteer of Russian Goblette: a random LEGAL 2-3 player game, played by hand on the row.

A sibling of :class:`~companion.virtual.puppet.Puppeteer` (it keeps its way of waiting for the
sensed side, following the journal, the Host's layout fix and the taps) for the variant's table:
six Goblets in a row on six reader spots ("Place all 6 Goblets in a row"), each with a tag under
its foot (docs/tracking.md, "Russian Goblette"), and 2 or 3 players who sit at no spot.

- the Host starts the Course (a tap) and pours the initial tokens, one into each Goblet;
- a Pour is a token from the player's screen into the Goblet at a spot, a Peek lifts any Goblet
  and puts it back ("Look into"), a Swap exchanges any two Goblets ("you can swap the position of
  any two Goblets"); Pass and the Toast are taps; every turn is "1 single action";
- a drink: the drinker lifts the chosen Goblet, pours it out flat on its spot and sets it aside;
  before the next drink they take the tokens off the spot ("they keep the contents of the Goblet
  in front of them"); after the Course the remaining Goblets are emptied ("All players must
  discard any tokens") and the ones set aside go back to their spots.

Its play is sensible, not clever: mostly Pours (Poison anywhere, the Wine poured out once the
Toast draws near), now and then a Peek or a Swap; after a few turns a player with no Wine left
Calls the Toast.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.core import registry
from companion.core.errors import MalformedInput
from companion.core.game import Action
from companion.core.games.goblets.russian import GOBLETS, RussianState
from companion.core.games.goblets.russian_model import Phase
from companion.core.games.goblets.tokens import Token
from companion.virtual.live import HandTable
from companion.virtual.pour_out import gather_motions
from companion.virtual.puppet import IDLE, PATIENCE, THINK, Puppeteer, Sensed
from companion.virtual.scenario import HOUSE_GOBLETS, Hands, Motion

WEIGHTS = {
    Phase.TURNS: {"pour": 6.0, "peek": 1.0, "swap": 1.2, "pass": 0.3},
    Phase.TOAST: {"pour": 2.0, "peek": 1.2, "swap": 1.5, "pass": 2.5},
}
"""How often a player picks each kind of action, in turns and as the Toast's final action."""
TOAST_TURN = (3, 5)
"""A player Calls the Toast from about this many of their own turns on (drawn each Course)."""


class GoblettePuppeteer(Puppeteer):
    """A random legal Russian Goblette game played by hand (see the module docstring).

    ``state``: the game to play (cloned; taken up mid-Course, the row is set out as it says);
    ``actions``: the journal that made it.
    """

    def __init__(
        self,
        rng: random.Random,
        state: RussianState,
        *,
        actions: Sequence[Action] = (),
        hands: Hands | None = None,
        patience: float = PATIENCE,
    ) -> None:
        if not isinstance(state, RussianState):
            raise MalformedInput("plays Russian Goblette (2-3 players)", field="players")
        self.sensor, self.reveal, self.dealt = "readers", "readers", frozenset()
        self.rng = rng
        self.engine = state.clone()  # type: ignore[assignment]
        self.actions = [dict(a) for a in actions]
        self.toasts: list[dict[str, Any]] = []
        self.patience = patience
        self._unseen = False
        self.taps = []
        self.desyncs = 0
        self._since: float | None = None
        self._fixed_at: float | None = None
        self._home_since: float | None = None
        self.table = HandTable(random.Random(rng.random()), HOUSE_GOBLETS[:GOBLETS], hands)
        if state.phase not in (Phase.INITIAL_POUR, Phase.OVER):
            # A game taken up mid-Course (a resumed journal): the row set out as the engine has it.
            names = self.table.names
            self.table.restore(names, {names[p]: state.goblets[p] for p in range(GOBLETS)})
            self.table.deal_screens(state.screens)
        self.aside: dict[int, str] = {}
        """Spot -> the Goblet drunk there and set aside."""
        self._started = state.course if state.phase != Phase.INITIAL_POUR else 0
        self._turns = [0] * state.num_seats
        self._toast_turn = rng.randint(*TOAST_TURN)

    @staticmethod
    def new_game(rng: random.Random, options: Mapping[str, Any], **kw: Any) -> GoblettePuppeteer:
        """A puppeteer at the start of a new Russian Goblette game with ``options``."""
        options = {"variant": "russian_goblette", **options}
        return GoblettePuppeteer(rng, registry.get("goblets").new_state(options), **kw)

    def step(self, sensed: Sensed | None = None) -> None:
        """Do the next thing at the table (an action, a tap, or wait a moment)."""
        before = self.table.t
        if sensed is not None and sensed.conflict:
            self._fix(sensed)
        elif sensed is None or self._is_caught_up(sensed):
            phase = self.engine.phase
            if phase == Phase.INITIAL_POUR:
                self._setup(sensed)
            elif phase == Phase.DRINKING:
                self._drink()
            elif phase != Phase.OVER:
                self._play()
        if self.table.t <= before:
            self.table.wait(IDLE)
        self.table.publish()

    def resync(self, sensed: Sensed) -> None:
        """Follow what the sensed side recorded (the journal is the truth) from now on."""
        self.desyncs += 1
        self._since = None
        if sensed.state is not None:
            self.engine = sensed.state.clone()  # type: ignore[assignment]
            self.actions = [dict(a) for a in sensed.actions]

    # -- between Courses ---------------------------------------------------------------------

    def _setup(self, sensed: Sensed | None) -> None:
        engine, table = self.engine, self.table
        if table.lying or self.aside or any(table.inside.values()):
            table.wait(table.span(THINK))
            self._clear_spots()
            table.empty_goblets()  # "All players must discard any tokens"
            for spot, name in sorted(self.aside.items()):
                table.wait(table.span(table.hands.pause))
                table.motions.append(Motion(round(table.t, 3), "place", name, spot))
            self.aside = {}
            return
        row = dict(enumerate(table.layout))
        if sensed is not None and sensed.layout is not None and dict(sensed.layout) != row:
            if self._home_since is None:
                self._home_since = table.t
            elif table.t - self._home_since >= self.patience:
                self._home_since = None
                self._tap("fix_layout", layout=row)
            return
        self._home_since = None
        if self._started != engine.course:
            table.wait(table.span(THINK))
            self._tap("start_course")
            self._started = engine.course
            return
        action = engine.sample_chance(self.rng)
        # "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens [...] Then randomly
        # "pour" 1 token into each of the Goblets."
        table.deal_screens(engine.screens)
        table.wait(table.hands.start)
        for spot in self.rng.sample(range(GOBLETS), GOBLETS):
            kind = Token(action["tokens"][spot])
            table.pour(spot, table.take(kind), kind)
            table.wait(table.span(table.hands.initial))
        self._apply(action)
        self._turns = [0] * engine.num_seats
        self._toast_turn = self.rng.randint(*TOAST_TURN)

    def _clear_spots(self) -> None:
        """The tokens poured out on the spots taken off them (kept, or put back in the pool)."""
        table = self.table
        for spot, (_, uids) in sorted(table.lying.items()):
            table.motions.extend(gather_motions(table.t, spot, None, uids))
            table._back_to_pool(uids)
        table.lying = {}

    # -- turns and drinks ----------------------------------------------------------------------

    def _play(self) -> None:
        engine, table = self.engine, self.table
        seat = engine.current
        assert seat is not None
        action = self._choose(seat)
        table.wait(table.span(THINK))
        kind = action["type"]
        if kind == "pour":
            table.pour_screen(seat, action["token"], action["place"])
        elif kind == "peek":
            table.peek(action["place"])  # lifted, looked into, put back
        elif kind == "swap":
            table.swap(*action["places"])
        else:
            self._tap(kind, seat)  # pass or toast: a phone
        self._turns[seat] += 1
        self._apply(action)

    def _choose(self, seat: int) -> Action:
        engine, rng = self.engine, self.rng
        kinds: dict[str, list[Action]] = {}
        for action in engine.legal_actions():
            kinds.setdefault(action["type"], []).append(action)
        late = self._turns[seat] >= self._toast_turn
        if "toast" in kinds and late and rng.random() < 0.9:
            return kinds["toast"][0]
        weights = WEIGHTS[engine.phase]
        options = [k for k in weights if k in kinds]
        kind = rng.choices(options, [weights[k] for k in options])[0]
        if kind != "pour":
            return rng.choice(kinds[kind])
        held = {k.value for _, k in self.table.screens[seat]}
        screen = {k: n for k, n in engine.screens[seat].items() if n and k in held}
        if not screen:
            return {"type": "pass", "seat": seat}
        rush = self._turns[seat] >= self._toast_turn - 3
        if rush and "wine" in screen and rng.random() < 0.85:
            token = "wine"  # emptying the screen of Wine, to be allowed to Call the Toast
        else:
            token = rng.choices(list(screen), list(screen.values()))[0]
        return {"type": "pour", "seat": seat, "token": token, "place": rng.randrange(GOBLETS)}

    def _drink(self) -> None:
        """The drinker pours the chosen Goblet out on its spot and sets it aside."""
        engine, table = self.engine, self.table
        if table.lying:
            table.wait(table.span(table.hands.pause))
            self._clear_spots()  # the last drinker took their tokens
        action = self.rng.choice(engine.legal_actions())
        table.wait(table.span(THINK))
        spot = action["place"]
        self.aside[spot] = table.layout[spot]
        table.pour_out(spot)
        self._apply(action)
