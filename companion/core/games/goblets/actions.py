"""The players' actions: Pour, Peek, Rotate, Swap, Toast, Pass, a rules chapter on the model.

Main Course: "each player in turn may perform up to two actions from the following list: Pour,
Peek, Rotate, Swap, Toast, Pass". The actions arrive as frozen values (:mod:`action_values`, read at
the engine's door, :mod:`door`): :func:`violation` says the rule one breaks in a step,
:func:`legal` lists what a step allows and :func:`do` does a Pour, Peek, Rotate or Swap to the
table. The engine (:mod:`engine`) puts them together for both modes
(DESIGN.md principle 6), with the Character abilities (:mod:`abilities`) and the Toast
(:mod:`toast`). The action vocabulary is documented in ``docs/goblets.md``.
"""

from __future__ import annotations

from companion.core.errors import AmbiguousObservation
from companion.core.game import Action, Event
from companion.core.games.goblets import rules
from companion.core.games.goblets.action_values import (
    DIRECTIONS,
    UNSEEN,
    Ability,
    Decline,
    Defer,
    GobletsAction,
    Pass,
    Peek,
    Pour,
    Reveal,
    Rotate,
    Swap,
    Toast,
)
from companion.core.games.goblets.model import GobletsModel, Step, StepKind, move
from companion.core.games.goblets.tokens import Token

ALLOWED: dict[StepKind, tuple[type[GobletsAction], ...]] = {
    StepKind.TURN: (Pour, Peek, Rotate, Swap, Toast, Pass, Ability),
    StepKind.FINAL: (Pour, Peek, Rotate, Swap, Pass, Ability),
    StepKind.FREE_PEEK: (Peek, Pass),
    StepKind.TOAST_OPTION: (Toast, Defer),
    StepKind.ABILITY: (Ability, Decline),
    StepKind.REVEAL: (Reveal,),
}
"""What each kind of step allows."""

STEP_RULE = {
    StepKind.TURN: rules.TURNS,
    StepKind.FINAL: rules.TOAST_PHASE,
    StepKind.FREE_PEEK: rules.FREE_PEEK,
    StepKind.TOAST_OPTION: rules.NOBLE_TOASTS_FIRST,
    StepKind.REVEAL: rules.REVEAL,
}
"""The rule a step's kind is played by (quoted when an action is refused in it)."""


def can_toast(state: GobletsModel, step: Step, unseen: bool = False) -> bool:
    """Toast "as your first (and only) action" with "no Wine tokens left [...] at the beginning".

    ``unseen``: the pours were not seen (a Toast recorded ``"pours": "unseen"``), so the engine
    cannot know the Wine left behind the screen and does not hold it against the caller.
    """
    no_wine = unseen or state.no_wine_at_start
    if step.kind == StepKind.TOAST_OPTION:
        return no_wine
    return step.kind == StepKind.TURN and not step.no_toast and state.taken == 0 and no_wine


def violation(state: GobletsModel, action: GobletsAction, step: Step) -> tuple[str, str] | None:
    """The rule ``action`` breaks in the current ``step`` (message, rulebook sentence), or None."""
    kind, where = action.TYPE, step.kind
    if not isinstance(action, ALLOWED[where]):
        if kind == "toast" and where == StepKind.FINAL:
            return "no Toast in the Toast Phase", rules.TOAST_PHASE
        if kind == "peek" and where == StepKind.TOAST_OPTION:
            return "a Noble cannot Peek", rules.NOBLE_NO_PEEK
        if where == StepKind.ABILITY:
            rule = rules.COURSE_START if step.timing == "course_start" else rules.BEFORE_DRINKING
            return f"{kind} is not possible now: use or decline the ability", rule
        return f"{kind} is not possible now", STEP_RULE[where]
    place = step.place
    if isinstance(action, Pour) and not state.screens[place].get(action.token, 0):
        # The message never names the kind: warnings are public, what was poured is not.
        return "the poured token was not behind the pourer's screen", rules.POUR
    if isinstance(action, Peek) and step.no_peek:
        return "a Noble cannot Peek", rules.NOBLE_NO_PEEK
    if isinstance(action, Swap):
        own = place if action.own is None else action.own
        if own != place or action.other == place:
            return "Swap exchanges Your Goblet for another player's", rules.SWAP
    if isinstance(action, Toast) and not can_toast(state, step, action.pours == UNSEEN):
        if step.no_toast and step.seat == state.places[place].winetaster:
            return "a Winetaster cannot Toast", rules.WINETASTER_NO_TOAST
        if step.no_toast:
            return "a Noble toasts only before their Winetaster plays", rules.NOBLE_TOASTS_FIRST
        return "Toast only as the first action, with no Wine left", rules.TOAST
    return None  # an ability's own rules are :func:`abilities.violation`'s


def legal(state: GobletsModel, step: Step, uses: list[Ability]) -> list[Action]:
    """Every action ``step`` allows (the same rules :func:`violation` checks), ``uses`` (the
    ways its seat may use a Character card now) in their place in the list, as JSON."""
    seat, where, place = step.seat, step.kind, step.place
    out: list[GobletsAction] = []
    if where in (StepKind.TURN, StepKind.FINAL):
        screen = state.screens[place]
        for token in Token:
            if screen.get(token.value, 0):
                out.extend(Pour(seat, p, token.value) for p in range(len(state.places)))
    if where in (StepKind.TURN, StepKind.FINAL, StepKind.FREE_PEEK) and not step.no_peek:
        out.append(Peek(seat))
    if where in (StepKind.TURN, StepKind.FINAL):
        out.extend(Rotate(seat, d) for d in DIRECTIONS)
        out.extend(Swap(seat, q) for q in range(len(state.places)) if q != place)
    if where in (StepKind.TURN, StepKind.TOAST_OPTION) and can_toast(state, step):
        out.append(Toast(seat))
    if where in (StepKind.TURN, StepKind.FINAL, StepKind.FREE_PEEK):
        out.append(Pass(seat))
    if where in (StepKind.TURN, StepKind.FINAL, StepKind.ABILITY):
        out.extend(uses)
    if where == StepKind.ABILITY:
        out.append(Decline(seat))
    if where == StepKind.TOAST_OPTION:
        out.append(Defer(seat))
    if where == StepKind.REVEAL:
        out.append(Reveal(seat))
    return [action.wire() for action in out]


def _source(state: GobletsModel, seat: int | None, token: str) -> dict[str, int]:
    """Where a poured token comes from: the pourer's screen, else any screen, else the pool."""
    if seat is not None and state.screens[state.place_index(seat)].get(token, 0):
        return state.screens[state.place_index(seat)]
    for screen in state.screens:
        if screen.get(token, 0):
            return screen
    if state.pool.get(token, 0):
        return state.pool
    raise AmbiguousObservation(f"a {token} token was poured but none is left anywhere")


def do(state: GobletsModel, action: GobletsAction, seat: int | None) -> list[Event]:
    """Do what a Pour, Peek, Rotate or Swap does to the table (the turn's bookkeeping is the
    engine's); returns the events."""
    if isinstance(action, Pour):
        place, token = action.place, action.token
        move(_source(state, seat, token), state.goblets[state.goblet_at[place]], token)
        public: Event = {"event": "pour", "place": place, "ring": state.ring_at(place)}
        if state.opts.show_pourer:
            public["seat"] = seat
        if seat is None:
            return [public]
        return [public, {"event": "poured", "to": seat, "place": place, "token": token}]
    assert seat is not None
    if isinstance(action, Peek):
        return state.record_peek(seat, state.place_index(seat))
    if isinstance(action, Rotate):
        rotate(state, action.direction)
        return [{"event": "rotate", "seat": seat, "direction": action.direction}]
    assert isinstance(action, Swap)
    own = state.place_index(seat) if action.own is None else action.own
    other = action.other
    state.goblet_at[own], state.goblet_at[other] = state.goblet_at[other], state.goblet_at[own]
    return [{"event": "swap", "seat": seat, "places": [own, other]}]


def rotate(state: GobletsModel, direction: str) -> None:
    """ "Move all of the Goblets one place in the same direction": clockwise is place i -> i+1."""
    shift = 1 if direction == "clockwise" else -1
    n = len(state.goblet_at)
    old = list(state.goblet_at)
    for place in range(n):
        state.goblet_at[(place + shift) % n] = old[place]
