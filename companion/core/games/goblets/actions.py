"""The players' actions: Pour, Peek, Rotate, Swap, Toast, Pass, Character abilities, the reveal.

Main Course: "each player in turn may perform up to two actions from the following list: Pour,
Peek, Rotate, Swap, Toast, Pass". One function checks an action against the rules
(:func:`violation`), one performs it (:func:`perform`); :func:`apply` puts them together for both
modes (DESIGN.md principle 6): ENFORCING raises IllegalAction naming the rule; RECORDING applies
what the sensors saw and adds a ``rule_warning`` event. The action vocabulary is documented in
``docs/goblets.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.core.errors import AmbiguousObservation, IllegalAction, MalformedInput
from companion.core.game import Action, Event, Mode
from companion.core.games.goblets import abilities, flow, rules, toast
from companion.core.games.goblets.tokens import Token, check_contents, is_kind

if TYPE_CHECKING:
    from companion.core.games.goblets.state import GobletsState

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
    "turn": ("pour", "peek", "rotate", "swap", "toast", "pass", "ability"),
    "final": ("pour", "peek", "rotate", "swap", "pass", "ability"),
    "free_peek": ("peek", "pass"),
    "toast_option": ("toast", "defer"),
    "ability": ("ability", "decline"),
    "reveal": ("reveal",),
}
"""What each kind of step allows."""

UNSEEN = "unseen"
"""A recorded Toast's ``"pours"``: the sensors saw no pour, so the caller's Wine is unknown."""

STEP_RULE = {
    "turn": rules.TURNS,
    "final": rules.TOAST_PHASE,
    "free_peek": rules.FREE_PEEK,
    "toast_option": rules.NOBLE_TOASTS_FIRST,
    "reveal": rules.REVEAL,
}


def _int(action: Action, key: str, high: int) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < high:
        raise MalformedInput(f"must be an integer from 0 to {high - 1}, got {value!r}", field=key)
    return value


def parse(state: GobletsState, action: Action, mode: Mode) -> int | None:
    """Check the action's shape (MalformedInput naming the field); returns its seat."""
    kind = action["type"]
    n = len(state.places)
    if kind == "pour" and mode is Mode.RECORDING and action.get("seat") is None:
        seat = None  # a sensed pour whose pouring seat nobody saw
    else:
        seat = _int(action, "seat", state.opts.players)
    if kind == "pour":
        _int(action, "goblet", n)
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
    elif kind == "ability":
        abilities.parse(state, action)
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


def can_toast(state: GobletsState, step: dict[str, Any], unseen: bool = False) -> bool:
    """Toast "as your first (and only) action" with "no Wine tokens left [...] at the beginning".

    ``unseen``: the pours were not seen (a Toast recorded ``"pours": "unseen"``), so the engine
    cannot know the Wine left behind the screen and does not hold it against the caller.
    """
    no_wine = unseen or state.no_wine_at_start
    if step["kind"] == "toast_option":
        return no_wine
    return step["kind"] == "turn" and not step.get("no_toast") and state.taken == 0 and no_wine


def violation(state: GobletsState, action: Action, step: dict[str, Any]) -> tuple[str, str] | None:
    """The rule ``action`` breaks in the current ``step`` (message, rulebook sentence), or None."""
    kind, where = action["type"], step["kind"]
    if kind not in ALLOWED[where]:
        if kind == "toast" and where == "final":
            return "no Toast in the Toast Phase", rules.TOAST_PHASE
        if kind == "peek" and where == "toast_option":
            return "a Noble cannot Peek", rules.NOBLE_NO_PEEK
        if where == "ability":
            rule = rules.COURSE_START if step["timing"] == "course_start" else rules.BEFORE_DRINKING
            return f"{kind} is not possible now: use or decline the ability", rule
        return f"{kind} is not possible now", STEP_RULE[where]
    place = step["place"]
    if kind == "pour" and not state.screens[place].get(action["token"], 0):
        # The message never names the kind: warnings are public, what was poured is not.
        return "the poured token was not behind the pourer's screen", rules.POUR
    if kind == "peek" and step.get("no_peek"):
        return "a Noble cannot Peek", rules.NOBLE_NO_PEEK
    if kind == "swap":
        own = place if action.get("from") is None else action["from"]
        if own != place or action["with"] == place:
            return "Swap exchanges Your Goblet for another player's", rules.SWAP
    if kind == "toast" and not can_toast(state, step, action.get("pours") == UNSEEN):
        if step.get("no_toast") and step["seat"] == state.places[place]["winetaster"]:
            return "a Winetaster cannot Toast", rules.WINETASTER_NO_TOAST
        if step.get("no_toast"):
            return "a Noble toasts only before their Winetaster plays", rules.NOBLE_TOASTS_FIRST
        return "Toast only as the first action, with no Wine left", rules.TOAST
    if kind == "ability":
        return abilities.violation(state, action, step)
    return None


def legal(state: GobletsState) -> list[Action]:
    """Every action the current step allows (the same rules :func:`violation` checks)."""
    step = state.steps[0]
    seat, where, place = step["seat"], step["kind"], step["place"]
    out: list[Action] = []
    if where in ("turn", "final"):
        screen = state.screens[place]
        for token in Token:
            if screen.get(token.value, 0):
                out.extend(
                    {"type": "pour", "seat": seat, "goblet": g, "token": token.value}
                    for g in range(len(state.places))
                )
    if where in ("turn", "final", "free_peek") and not step.get("no_peek"):
        out.append({"type": "peek", "seat": seat})
    if where in ("turn", "final"):
        out.extend({"type": "rotate", "seat": seat, "direction": d} for d in DIRECTIONS)
        out.extend(
            {"type": "swap", "seat": seat, "with": q}
            for q in range(len(state.places))
            if q != place
        )
    if where in ("turn", "toast_option") and can_toast(state, step):
        out.append({"type": "toast", "seat": seat})
    if where in ("turn", "final", "free_peek"):
        out.append({"type": "pass", "seat": seat})
    if where in ("turn", "final", "ability"):
        out.extend(abilities.legal(state, step))
    if where == "ability":
        out.append({"type": "decline", "seat": seat})
    if where == "toast_option":
        out.append({"type": "defer", "seat": seat})
    if where == "reveal":
        out.append({"type": "reveal", "seat": seat})
    return out


def warning(state: GobletsState, seat: int | None, message: str, rule: str) -> Event:
    """A visible rule warning (recording mode), kept in the state for the views."""
    event = {"event": "rule_warning", "seat": seat, "message": message, "rule": rule}
    state.warnings.append(event)
    return event


def apply(state: GobletsState, action: Action, mode: Mode) -> list[Event]:
    """Apply a player's action in ``mode`` (the caller works on a copy of the state)."""
    kind = action["type"]
    seat = parse(state, action, mode)
    if state.phase != "play":
        raise IllegalAction(f"{kind} is not possible now (phase {state.phase})", rule=rules.CHANCE)
    if mode is Mode.ENFORCING:
        step = state.steps[0]
        if seat != step["seat"]:
            rule = (
                rules.TOAST_PHASE
                if state.stage == "toast"
                else STEP_RULE.get(step["kind"], rules.TURNS)
            )
            raise IllegalAction(f"{state.seat_name(step['seat'])} is to act", rule=rule)
        problem = violation(state, action, step)
        if problem:
            raise IllegalAction(problem[0], rule=problem[1])
        return perform(state, action, seat, counted=True)
    return _record(state, action, seat)


def _sync(state: GobletsState, seat: int, kind: str) -> bool:
    """Recording: bring ``seat``'s step to the front if it is still to come (others passed).

    A turn action while Course-start abilities are pending means they were all declined.
    """
    if state.steps[0]["seat"] == seat:
        return True
    if state.stage == "course_start" and kind not in ("ability", "decline"):
        while state.stage == "course_start":
            flow.end_step(state)
        state.last_actor = None
        if state.steps[0]["seat"] == seat:
            return True
    if state.stage == "turns":
        if seat == state.last_actor:
            return False  # a third action: "up to two actions"
        for _ in range(3 * len(state.places) + 1):
            flow.end_step(state)
            if state.steps[0]["seat"] == seat:
                return True
        return False
    if seat not in [s["seat"] for s in state.steps]:
        return False
    while state.steps[0]["seat"] != seat:
        flow.end_step(state)
    return True


def _record(state: GobletsState, action: Action, seat: int | None) -> list[Event]:
    """Recording mode: what happened on the table happened; broken rules become warnings."""
    kind = action["type"]
    events: list[Event] = []
    if kind == "reveal":
        if state.stage not in ("toast", "before_drinking"):
            raise AmbiguousObservation("the Goblets were revealed without a Toast")
        # Lifting the Goblets means every final action and ability still due was passed.
        while state.steps[0]["kind"] != "reveal":
            flow.end_step(state)
        return perform(state, action, seat, counted=True)
    if seat is None:
        return _record_unknown_pour(state, action)
    if not _sync(state, seat, kind):
        if kind in ("pass", "decline", "defer"):
            return events  # doing nothing out of turn breaks no rule
        rule = rules.TOAST_PHASE if state.stage == "toast" else rules.TURNS
        events.append(warning(state, seat, f"{state.seat_name(seat)} acted out of turn", rule))
        return events + perform(state, action, seat, counted=False)
    step = state.steps[0]
    problem = violation(state, action, step)
    if problem:
        events.append(warning(state, seat, *problem))
    counted = kind in ALLOWED[step["kind"]]
    return events + perform(state, action, seat, counted=counted)


def _record_unknown_pour(state: GobletsState, action: Action) -> list[Event]:
    """A pour nobody saw the pourer of: from the mover's screen if it can be, else warned."""
    token = action["token"]
    step = state.steps[0]
    if step["kind"] in ("turn", "final") and state.screens[step["place"]].get(token, 0):
        return perform(state, {**action, "seat": step["seat"]}, step["seat"], counted=True)
    events = [warning(state, None, "a token was poured out of turn", rules.TURNS)]
    return events + perform(state, action, None, counted=False)


def _source(state: GobletsState, seat: int | None, token: str) -> dict[str, int]:
    """Where a poured token comes from: the pourer's screen, else any screen, else the pool."""
    if seat is not None and state.screens[state.place_index(seat)].get(token, 0):
        return state.screens[state.place_index(seat)]
    for screen in state.screens:
        if screen.get(token, 0):
            return screen
    if state.pool.get(token, 0):
        return state.pool
    raise AmbiguousObservation(f"a {token} token was poured but none is left anywhere")


def perform(state: GobletsState, action: Action, seat: int | None, counted: bool) -> list[Event]:
    """Do what ``action`` does to the table; ``counted`` also advances the turn bookkeeping."""
    kind = action["type"]
    events: list[Event] = []
    if kind == "pour":
        goblet = action["goblet"]
        flow.move(
            _source(state, seat, action["token"]),
            state.goblets[state.goblet_at[goblet]],
            action["token"],
        )
        public: Event = {"event": "pour", "goblet": goblet, "ring": state.ring_at(goblet)}
        if state.opts.show_pourer:
            public["seat"] = seat
        events.append(public)
        if seat is not None:
            events.append(
                {"event": "poured", "to": seat, "goblet": goblet, "token": action["token"]}
            )
    elif kind == "peek":
        assert seat is not None
        place = state.place_index(seat)
        events.extend(record_peek(state, seat, place))
    elif kind == "rotate":
        rotate(state, action["direction"])
        events.append({"event": "rotate", "seat": seat, "direction": action["direction"]})
    elif kind == "swap":
        assert seat is not None
        own = state.place_index(seat) if action.get("from") is None else action["from"]
        other = action["with"]
        state.goblet_at[own], state.goblet_at[other] = state.goblet_at[other], state.goblet_at[own]
        events.append({"event": "swap", "seat": seat, "goblets": [own, other]})
    elif kind == "toast":
        if state.stage == "turns":
            assert seat is not None
            return events + toast.call_toast(state, seat)
        return events
    elif kind == "ability":
        events.extend(abilities.perform(state, action, seat))
        if counted and state.steps[0]["kind"] == "ability":
            return events + flow.end_step(state)
        return events
    elif kind == "reveal":
        if state.steps and state.steps[0]["kind"] != "reveal":
            state.steps = [s for s in state.steps if s["kind"] == "reveal"]
        if action.get("goblets") is not None:
            events.extend(toast.correct_contents(state, action["goblets"]))
        return events + toast.do_reveal(state)
    elif kind in ("pass", "decline", "defer"):
        if counted:
            events.append({"event": kind, "seat": seat})
            events.extend(flow.end_step(state))
        return events
    if counted and kind in COUNTED:
        state.taken += 1
        if state.taken >= state.steps[0]["limit"]:
            events.extend(flow.end_step(state))
    return events


def rotate(state: GobletsState, direction: str) -> None:
    """ "Move all of the Goblets one place in the same direction": clockwise is place i -> i+1."""
    shift = 1 if direction == "clockwise" else -1
    n = len(state.goblet_at)
    old = list(state.goblet_at)
    for place in range(n):
        state.goblet_at[(place + shift) % n] = old[place]


def record_peek(state: GobletsState, seat: int, place: int) -> list[Event]:
    """``seat`` looks into the Goblet at ``place``: only that seat's view keeps what it saw."""
    contents = state.contents_at(place)
    state.peeks[seat].append(
        {
            "course": state.course,
            "turn": state.turn_number,
            "goblet": place,
            "ring": state.ring_at(place),
            "contents": contents,
        }
    )
    return [
        {"event": "peek", "seat": seat, "goblet": place},
        {"event": "peeked", "to": seat, "goblet": place, "contents": contents},
    ]
