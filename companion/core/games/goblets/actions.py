"""The players' actions: Pour, Peek, Rotate, Swap, Toast, Pass, a rules chapter on the model.

Main Course: "each player in turn may perform up to two actions from the following list: Pour,
Peek, Rotate, Swap, Toast, Pass". :func:`parse` checks an action's shape, :func:`violation` the
rule it breaks in a step, :func:`legal` lists what a step allows and :func:`do` does a Pour, Peek,
Rotate or Swap to the table. The engine (:mod:`engine`) puts them together for both modes
(DESIGN.md principle 6), with the Character abilities (:mod:`abilities`) and the Toast
(:mod:`toast`). The action vocabulary is documented in ``docs/goblets.md``.
"""

from __future__ import annotations

from companion.core.errors import AmbiguousObservation, MalformedInput
from companion.core.game import Action, Event, Mode
from companion.core.games.goblets import rules
from companion.core.games.goblets.model import GobletsModel, Step, StepKind, move
from companion.core.games.goblets.tokens import Token, check_contents, is_kind

PLAYER_ACTIONS = (
    "pour",
    "peek",
    "rotate",
    "swap",
    "toast",
    "pass",
    "ability",
    "decline",
    "defer",
    "reveal",
)
"""Action types a seat takes."""

DIRECTIONS = ("clockwise", "widdershins")
COUNTED = ("pour", "peek", "rotate", "swap")
"""The actions that use up one of a turn's actions."""

ALLOWED = {
    StepKind.TURN: ("pour", "peek", "rotate", "swap", "toast", "pass", "ability"),
    StepKind.FINAL: ("pour", "peek", "rotate", "swap", "pass", "ability"),
    StepKind.FREE_PEEK: ("peek", "pass"),
    StepKind.TOAST_OPTION: ("toast", "defer"),
    StepKind.ABILITY: ("ability", "decline"),
    StepKind.REVEAL: ("reveal",),
}
"""What each kind of step allows."""

UNSEEN = "unseen"
"""A recorded Toast's ``"pours"``: the sensors saw no pour, so the caller's Wine is unknown."""

STEP_RULE = {
    StepKind.TURN: rules.TURNS,
    StepKind.FINAL: rules.TOAST_PHASE,
    StepKind.FREE_PEEK: rules.FREE_PEEK,
    StepKind.TOAST_OPTION: rules.NOBLE_TOASTS_FIRST,
    StepKind.REVEAL: rules.REVEAL,
}
"""The rule a step's kind is played by (quoted when an action is refused in it)."""


def _int(action: Action, key: str, high: int) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < high:
        raise MalformedInput(f"must be an integer from 0 to {high - 1}, got {value!r}", field=key)
    return value


def parse(state: GobletsModel, action: Action, mode: Mode) -> int | None:
    """Check the action's shape (MalformedInput naming the field); returns its seat.

    An ``ability``'s card and parameters are :func:`abilities.parse`'s (the engine asks both)."""
    kind = action["type"]
    n = len(state.places)
    if kind == "pour" and mode is Mode.RECORDING and action.get("seat") is None:
        seat = None  # a sensed pour whose pouring seat nobody saw
    else:
        seat = _int(action, "seat", state.opts.players)
    if kind == "pour":
        _int(action, "place", n)
        if not is_kind(action.get("token")):
            raise MalformedInput(f"unknown token kind {action.get('token')!r}", field="token")
    elif kind == "rotate":
        if action.get("direction") not in DIRECTIONS:
            raise MalformedInput(
                f"must be clockwise or widdershins, got {action.get('direction')!r}",
                field="direction",
            )
    elif kind == "swap":
        _int(action, "with", n)
        if action.get("from") is not None:
            _int(action, "from", n)
    elif kind == "toast" and action.get("pours") is not None:
        # Sensed play that sees no pour (the camera): the caller's screen is unknown to the
        # engine. Only a sensor says so; a player's own Toast is checked on what the engine knows.
        if mode is Mode.ENFORCING or action["pours"] != UNSEEN:
            raise MalformedInput(f"must be absent or {UNSEEN!r} when recording", field="pours")
    elif kind == "reveal" and action.get("goblets") is not None:
        # What the Goblets hold is read from them at the reveal (the sensors, or the Host's count
        # of the revealed tokens): never told to the engine in play by hand, and never compared
        # with the contents, so the answer cannot tell a right guess from a wrong one.
        if mode is Mode.ENFORCING:
            raise MalformedInput(
                "a reveal says no contents: the Goblets are read when they are revealed",
                field="goblets",
            )
        sensed = action["goblets"]
        if not isinstance(sensed, list) or len(sensed) != n:
            raise MalformedInput(f"must be a list of {n} goblet contents", field="goblets")
        for index, contents in enumerate(sensed):
            check_contents(contents, f"goblets[{index}]")
    return seat


def can_toast(state: GobletsModel, step: Step, unseen: bool = False) -> bool:
    """Toast "as your first (and only) action" with "no Wine tokens left [...] at the beginning".

    ``unseen``: the pours were not seen (a Toast recorded ``"pours": "unseen"``), so the engine
    cannot know the Wine left behind the screen and does not hold it against the caller.
    """
    no_wine = unseen or state.no_wine_at_start
    if step.kind == StepKind.TOAST_OPTION:
        return no_wine
    return step.kind == StepKind.TURN and not step.no_toast and state.taken == 0 and no_wine


def violation(state: GobletsModel, action: Action, step: Step) -> tuple[str, str] | None:
    """The rule ``action`` breaks in the current ``step`` (message, rulebook sentence), or None."""
    kind, where = action["type"], step.kind
    if kind not in ALLOWED[where]:
        if kind == "toast" and where == StepKind.FINAL:
            return "no Toast in the Toast Phase", rules.TOAST_PHASE
        if kind == "peek" and where == StepKind.TOAST_OPTION:
            return "a Noble cannot Peek", rules.NOBLE_NO_PEEK
        if where == StepKind.ABILITY:
            rule = rules.COURSE_START if step.timing == "course_start" else rules.BEFORE_DRINKING
            return f"{kind} is not possible now: use or decline the ability", rule
        return f"{kind} is not possible now", STEP_RULE[where]
    place = step.place
    if kind == "pour" and not state.screens[place].get(action["token"], 0):
        # The message never names the kind: warnings are public, what was poured is not.
        return "the poured token was not behind the pourer's screen", rules.POUR
    if kind == "peek" and step.no_peek:
        return "a Noble cannot Peek", rules.NOBLE_NO_PEEK
    if kind == "swap":
        own = place if action.get("from") is None else action["from"]
        if own != place or action["with"] == place:
            return "Swap exchanges Your Goblet for another player's", rules.SWAP
    if kind == "toast" and not can_toast(state, step, action.get("pours") == UNSEEN):
        if step.no_toast and step.seat == state.places[place].winetaster:
            return "a Winetaster cannot Toast", rules.WINETASTER_NO_TOAST
        if step.no_toast:
            return "a Noble toasts only before their Winetaster plays", rules.NOBLE_TOASTS_FIRST
        return "Toast only as the first action, with no Wine left", rules.TOAST
    return None  # an ability's own rules are :func:`abilities.violation`'s


def legal(state: GobletsModel, step: Step, uses: list[Action]) -> list[Action]:
    """Every action ``step`` allows (the same rules :func:`violation` checks), ``uses`` (the
    ways its seat may use a Character card now) in their place in the list."""
    seat, where, place = step.seat, step.kind, step.place
    out: list[Action] = []
    if where in (StepKind.TURN, StepKind.FINAL):
        screen = state.screens[place]
        for token in Token:
            if screen.get(token.value, 0):
                out.extend(
                    {"type": "pour", "seat": seat, "place": p, "token": token.value}
                    for p in range(len(state.places))
                )
    if where in (StepKind.TURN, StepKind.FINAL, StepKind.FREE_PEEK) and not step.no_peek:
        out.append({"type": "peek", "seat": seat})
    if where in (StepKind.TURN, StepKind.FINAL):
        out.extend({"type": "rotate", "seat": seat, "direction": d} for d in DIRECTIONS)
        out.extend(
            {"type": "swap", "seat": seat, "with": q}
            for q in range(len(state.places))
            if q != place
        )
    if where in (StepKind.TURN, StepKind.TOAST_OPTION) and can_toast(state, step):
        out.append({"type": "toast", "seat": seat})
    if where in (StepKind.TURN, StepKind.FINAL, StepKind.FREE_PEEK):
        out.append({"type": "pass", "seat": seat})
    if where in (StepKind.TURN, StepKind.FINAL, StepKind.ABILITY):
        out.extend(uses)
    if where == StepKind.ABILITY:
        out.append({"type": "decline", "seat": seat})
    if where == StepKind.TOAST_OPTION:
        out.append({"type": "defer", "seat": seat})
    if where == StepKind.REVEAL:
        out.append({"type": "reveal", "seat": seat})
    return out


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


def do(state: GobletsModel, action: Action, seat: int | None) -> list[Event]:
    """Do what a Pour, Peek, Rotate or Swap does to the table (the turn's bookkeeping is the
    engine's); returns the events."""
    kind = action["type"]
    if kind == "pour":
        place = action["place"]
        move(
            _source(state, seat, action["token"]),
            state.goblets[state.goblet_at[place]],
            action["token"],
        )
        public: Event = {"event": "pour", "place": place, "ring": state.ring_at(place)}
        if state.opts.show_pourer:
            public["seat"] = seat
        if seat is None:
            return [public]
        return [public, {"event": "poured", "to": seat, "place": place, "token": action["token"]}]
    assert seat is not None
    if kind == "peek":
        return state.record_peek(seat, state.place_index(seat))
    if kind == "rotate":
        rotate(state, action["direction"])
        return [{"event": "rotate", "seat": seat, "direction": action["direction"]}]
    own = state.place_index(seat) if action.get("from") is None else action["from"]
    other = action["with"]
    state.goblet_at[own], state.goblet_at[other] = state.goblet_at[other], state.goblet_at[own]
    return [{"event": "swap", "seat": seat, "places": [own, other]}]


def rotate(state: GobletsModel, direction: str) -> None:
    """ "Move all of the Goblets one place in the same direction": clockwise is place i -> i+1."""
    shift = 1 if direction == "clockwise" else -1
    n = len(state.goblet_at)
    old = list(state.goblet_at)
    for place in range(n):
        state.goblet_at[(place + shift) % n] = old[place]
