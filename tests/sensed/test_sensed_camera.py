"""Camera play in the pure sensed core, fed snapshots by hand in modelled time.

The overhead camera sees the Goblets' rings at their spots and, at the reveal, the tokens in each
seat's reveal area, never a pour (``vision/README.md``; docs/tracking.md, "The camera's reveal").
These tests are about what that leaves the core to decide:

- when a reveal area poured out "apart" has settled (an empty area is no evidence: a slow player
  who has not poured yet must not be scored as having an empty Goblet);
- when the next Course may start (putting the Goblets back after the reveal is no Peek);
- that a camera Toast carries no warning about Wine the engine could not see poured.
"""

from __future__ import annotations

import random

import pytest

from companion.core import registry as games
from companion.core.errors import MalformedInput
from companion.core.game import CHANCE, Mode
from companion.core.games.goblets import rules
from companion.core.games.goblets.sensed import SensedSession
from companion.core.games.goblets.sensed.gather import Gather
from companion.core.games.goblets.sensed.pour_out import (
    CONFIRMED,
    SETTLED,
    SETTLING,
    WAITING,
    PourOut,
    PourOutConfig,
)
from companion.core.games.goblets.state import GobletsState
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation

HOUSES = ("de_miceti", "mctoadery", "aconitiers", "wespendorf")
FRAME = 0.2
"""Seconds between two camera frames (5 a second, the camera's default rate)."""
RING = {h: f"CA3E{i:04X}" for i, h in enumerate(HOUSES)}


def camera_registry() -> TagRegistry:
    """The Houses' rings and, per seat, a few counted tokens of each kind (pseudo-UIDs)."""
    reg = TagRegistry()
    for house, uid in RING.items():
        reg.add_ring(uid, house)
    for seat in range(4):
        for kind in ("wine", "poison", "antidote"):
            for i in range(4):
                reg.add_token(token(seat, kind, i), kind)
    return reg


def token(seat: int, kind: str, index: int) -> str:
    return f"CB{seat:02X}{('wine', 'poison', 'antidote').index(kind):02X}{index:02X}"


def frames(pour: PourOut, t0: float, t1: float, seats: dict[int, list[str]]) -> float:
    """Camera frames from ``t0`` (included) to ``t1`` (excluded); returns the next frame's time."""
    t = t0
    while t < t1 - 1e-9:
        for seat, tags in seats.items():
            pour.observe(Observation.of(t, seat, tags))
        t = round(t + FRAME, 3)
    return t


def apart(seats: int = 2, **config) -> PourOut:
    layout = {p: HOUSES[p] for p in range(seats)}
    return PourOut(layout, camera_registry(), apart=True, config=PourOutConfig(**config))


# -- the reveal areas: what shows that a seat has poured out ----------------------------------


def test_an_empty_area_beside_a_standing_goblet_never_settles_on_its_own() -> None:
    # A slow player: their Goblet still stands, nothing in their area, for half a minute. The
    # camera used to settle this seat as an empty Goblet after ``settle`` (2 s).
    pour = apart()
    frames(pour, 0.0, 30.0, {0: [RING["de_miceti"]], 1: [RING["mctoadery"]]})
    assert [pour.status(p) for p in range(2)] == [WAITING, WAITING]
    assert not pour.is_done
    assert [v["tokens"] for v in pour.view()] == [0, 0]  # the area's count, not a partial read
    # ... then pours out at last: lifted, tokens in the area, the Goblet set down again.
    poured = [token(0, "wine", 0), token(0, "poison", 0), token(0, "poison", 1)]
    t = frames(pour, 30.0, 31.0, {0: poured[:1], 1: [RING["mctoadery"]]})
    t = frames(pour, t, 35.0, {0: [RING["de_miceti"], *poured], 1: [RING["mctoadery"]]})
    assert pour.status(0) == SETTLED
    assert pour.counts(0) == {"poison": 2, "wine": 1}
    assert pour.status(1) == WAITING


def test_an_empty_goblet_lifted_and_set_down_again_settles_empty() -> None:
    pour = apart(1)
    ring = [RING["de_miceti"]]
    t = frames(pour, 0.0, 1.0, {0: ring})
    t = frames(pour, t, 3.0, {0: []})  # lifted: shown empty, nothing poured
    assert pour.status(0) == SETTLING  # in a hand: perhaps about to be poured
    t = frames(pour, t, 3.0 + 1.8, {0: ring})  # set down again
    assert pour.status(0) == SETTLING  # back for less than ``settle``
    frames(pour, t, t + 0.6, {0: ring})
    assert pour.status(0) == SETTLED and pour.counts(0) == {}
    assert pour.is_done and pour.revealed() == [{}]


def test_a_goblet_held_up_with_nothing_poured_yet_goes_on_settling() -> None:
    # Lifted and not put back, the area still empty: a player holding the Goblet over the area
    # may pour at any moment.
    pour = apart(1)
    t = frames(pour, 0.0, 1.0, {0: [RING["de_miceti"]]})
    t = frames(pour, t, 20.0, {0: []})
    assert pour.status(0) == SETTLING and not pour.is_done
    frames(pour, t, t + 2.5, {0: [token(0, "antidote", 0)]})  # it is poured after all
    assert pour.status(0) == SETTLED and pour.counts(0) == {"antidote": 1}


def test_a_frame_that_misses_the_ring_is_no_lift() -> None:
    pour = apart(1)
    ring = [RING["de_miceti"]]
    t = 0.0
    for _ in range(40):  # one frame in four misses the standing Goblet's ring
        t = frames(pour, t, t + 3 * FRAME, {0: ring})
        t = frames(pour, t, t + FRAME, {0: []})
    assert pour.status(0) == WAITING


def test_a_goblet_lifted_again_after_it_was_put_back_is_not_back() -> None:
    pour = apart(1)
    ring = [RING["de_miceti"]]
    t = frames(pour, 0.0, 2.0, {0: []})
    t = frames(pour, t, t + 1.0, {0: ring})
    t = frames(pour, t, t + 1.5, {0: []})  # picked up again, before it settled as empty
    t = frames(pour, t, t + 1.0, {0: ring})
    assert pour.status(0) == SETTLING  # back for 1 s of the 2 s
    frames(pour, t, t + 1.2, {0: ring})
    assert pour.status(0) == SETTLED


def test_a_seat_that_shows_nothing_is_confirmed_empty_by_the_host() -> None:
    pour = apart(2)
    tokens = [token(1, "wine", 0), token(1, "wine", 1)]
    frames(pour, 0.0, 5.0, {0: [RING["de_miceti"]], 1: tokens})
    assert [pour.status(p) for p in range(2)] == [WAITING, SETTLED]
    pour.confirm(0)  # the Host's tap: "as read", an empty Goblet
    assert pour.status(0) == CONFIRMED and pour.is_done
    assert pour.revealed() == [{}, {"wine": 2}]


def test_a_witness_counts_an_empty_area_on_its_read_alone() -> None:
    # The camera beside the readers: the readers' pour-out says when a seat has poured, the
    # camera only whether it counts the same, so its empty area settles as read.
    layout = {0: "", 1: ""}
    pour = PourOut(layout, camera_registry(), rings=False, apart=True, witness=True)
    frames(pour, 0.0, 2.6, {0: [], 1: [token(1, "poison", 0)]})
    assert [pour.status(p) for p in range(2)] == [SETTLED, SETTLED]
    assert pour.revealed() == [{}, {"poison": 1}]


def test_the_lift_setting_is_checked() -> None:
    assert PourOutConfig.from_json({"lifted": 1.0}).lifted == 1.0
    with pytest.raises(MalformedInput) as error:
        PourOutConfig(lifted=0)
    assert error.value.field == "lifted"


# -- between Courses: the table gathered up and set out ---------------------------------------

HOME = dict(enumerate(HOUSES))


def test_the_table_is_gathered_once_every_goblet_is_home_and_no_token_lies_out() -> None:
    gather = Gather(HOME, PourOutConfig(settle=2.0, reads=5))
    empty = {p: 0 for p in range(4)}
    t = 0.0
    assert not gather.see(t, HOME, {**empty, 2: 3})  # tokens still lying in seat 2's area
    t += FRAME
    assert not gather.see(t, {**HOME, 1: None}, empty)  # a Goblet still in a hand
    start = t + FRAME
    t = start
    while not gather.see(t, HOME, {**empty, 3: None}):  # an area not seen is no news
        t = round(t + FRAME, 3)
        assert t < 10
    assert t - start == pytest.approx(2.0)
    assert not gather.see(t + FRAME, HOME, {**empty, 0: 1})  # a token put down again


def run_camera_course(start_at_once: bool, seed: int = 7):
    """A camera-like session (no pour sensed, poured out apart): a Course to its reveal, then the
    players gathering up, the Goblets carried back to their spots. ``start_at_once``: the next
    Course started right after the reveal (how the camera game did it), else when
    :meth:`SensedSession.set_out` says the table is set out. Returns the session and every action
    it applied from the reveal on, with the time it was applied."""
    rng = random.Random(seed)
    state = games.get("goblets").new_state({"players": 4, "characters": []})
    assert isinstance(state, GobletsState)
    session = SensedSession(state, camera_registry(), rng=rng, reveal_apart=True, pours_seen=False)
    rings = {p: [RING[h]] for p, h in HOME.items()}
    empty = {p: 0 for p in range(4)}
    t = 0.0
    applied: list[tuple[float, dict]] = []

    def look(seats: dict[int, list[str]], tokens: dict[int, int | None]) -> None:
        nonlocal t
        for seat, tags in seats.items():
            for a in session.observe(Observation.of(t, seat, tags)).applied:
                applied.append((t, a.action))
        if session.set_out(t, tokens):
            applied.extend((t, a.action) for a in session.start_course().applied)
        if session.state.phase == "initial_pour" and session.table.started_course == (
            session.state.course
        ):
            # The camera game draws the initial pour once the Course has started.
            while session.state.to_move() is CHANCE and session.state.phase == "initial_pour":
                draw = session.state.sample_chance(rng)
                applied.extend((t, a.action) for a in session.apply_chance(draw).applied)
        t = round(t + FRAME, 3)

    while session.state.phase == "initial_pour":  # the first Course: the table set out
        look(rings, empty)
        assert t < 10
    seat = session.table.turn_seat()
    assert seat is not None
    toast = session.toast(seat)
    session.pour_out(t)
    # Everyone pours out at once: Goblets lifted, tokens in every area, Goblets set aside.
    poured = {p: [token(p, "wine", 0), token(p, "poison", p % 2)] for p in range(4)}
    while session.pouring is not None:
        look(poured, {p: 2 for p in range(4)})
        assert t < 30
    revealed = t
    applied = [(at, a) for at, a in applied if at >= revealed - FRAME]
    if start_at_once:
        applied.extend((t, a.action) for a in session.start_course().applied)
        while session.state.to_move() is CHANCE and session.state.phase == "initial_pour":
            draw = session.state.sample_chance(rng)
            applied.extend((t, a.action) for a in session.apply_chance(draw).applied)
    # The Goblets still aside for 3 s, the tokens lying out; then each Goblet set back on its
    # spot, one after another; then the tokens gathered up.
    end = t + 3.0
    while t < end:
        look({p: [] for p in range(4)}, {p: 2 for p in range(4)})
    for back in range(4):
        end = t + 1.0
        while t < end:
            look({p: rings[p] if p <= back else [] for p in range(4)}, {p: 2 for p in range(4)})
    end = t + 2.0
    while t < end:
        look(rings, {p: 2 if p >= 2 else 0 for p in range(4)})
    gathered = t
    end = t + 5.0
    while t < end:
        look(rings, empty)
    return session, toast, applied, gathered


def test_gathering_up_after_the_reveal_is_no_play() -> None:
    session, _, applied, gathered = run_camera_course(start_at_once=False)
    kinds = [a["type"] for _, a in applied]
    assert "reveal" in kinds
    assert not {"peek", "rotate", "swap"} & set(kinds), kinds
    # The next Course started, and its initial pour was drawn, only once the table was set out.
    (when,) = [at for at, a in applied if a["type"] == "initial_pour"]
    assert when >= gathered + 2.0 - 1e-9
    assert session.state.phase == "play" and session.state.course == 2


def test_a_course_started_at_the_reveal_takes_the_goblets_put_back_for_peeks() -> None:
    # The judge can fail: started at once (as the camera game did), the same hands are Peeks.
    _, _, applied, _ = run_camera_course(start_at_once=True)
    assert "peek" in [a["type"] for _, a in applied]


# -- the Toast: the Wine the camera did not see poured ----------------------------------------


def test_a_camera_toast_carries_no_warning_about_unseen_wine() -> None:
    _, toast, _, _ = run_camera_course(start_at_once=False)
    (action,) = toast.actions
    assert action["type"] == "toast" and action["pours"] == "unseen"
    assert [e for e in toast.events if e.get("event") == "rule_warning"] == []


def test_a_toast_where_pours_are_seen_still_warns_of_wine_left() -> None:
    rng = random.Random(7)
    state = games.get("goblets").new_state({"players": 4, "characters": []})
    session = SensedSession(state, camera_registry(), rng=rng)
    session.start_course()
    session.apply_chance(state.sample_chance(rng))  # the initial pour (the Host's, by hand)
    out = session.toast(session.table.turn_seat())
    assert out.actions[0] == {"type": "toast", "seat": out.actions[0]["seat"]}
    warnings = [(e["message"], e["rule"]) for e in out.events if e["event"] == "rule_warning"]
    assert warnings == [("Toast only as the first action, with no Wine left", rules.TOAST)]


def test_unseen_pours_excuse_only_the_wine_and_only_when_recording() -> None:
    rng = random.Random(7)
    state = games.get("goblets").new_state({"players": 4, "characters": []})
    state.apply(state.sample_chance(rng), Mode.RECORDING)
    while state.to_move() is CHANCE:
        state.apply(state.sample_chance(rng), Mode.RECORDING)
    seat = state.steps[0].seat
    toast = {"type": "toast", "seat": seat, "pours": "unseen"}
    with pytest.raises(MalformedInput) as error:  # a phone cannot say its own pours were unseen
        state.clone().apply(toast, Mode.ENFORCING)
    assert error.value.field == "pours"
    with pytest.raises(MalformedInput):
        state.clone().apply({**toast, "pours": "seen"}, Mode.RECORDING)
    # A Peek the camera saw first: the Toast was not the turn's first action, which it can see.
    late = state.clone()
    late.apply({"type": "peek", "seat": seat}, Mode.RECORDING)
    events = late.apply(toast, Mode.RECORDING)
    assert [e["rule"] for e in events if e["event"] == "rule_warning"] == [rules.TOAST]
    events = state.apply(toast, Mode.RECORDING)
    assert [e for e in events if e["event"] == "rule_warning"] == []
    assert state.stage == "toast"


def test_a_swap_reported_after_its_players_pass_tap_is_still_theirs() -> None:
    # The camera sees no pour: a player who poured and then swapped taps Pass, and the camera's
    # tracker reports the Swap a moment after the tap (the Goblets must settle first). Within
    # ``LATE_REPORT`` it is the passing player's second action, not the next player's.
    from companion.core.games.goblets.sensed import SensedTable

    state = games.get("goblets").new_state({"players": 4, "characters": []})
    rng = random.Random(3)
    table = SensedTable(state, rng=rng, pours_seen=False)
    table.start_course()
    table.apply_chance(state.sample_chance(rng))  # the initial pour, drawn
    seat = table.turn_seat()
    assert seat == 1
    assert table.end_turn(seat, t=10.0).applied == []  # own step: the pass waits a moment
    out = table.on_event({"t": 11.0, "event": "swap", "seats": [1, 2]})
    assert out.actions == [{"type": "swap", "seat": 1, "with": 2}]
    assert [e for e in out.events if e["event"] == "rule_warning"] == []
    out = table.tick(12.5)
    assert out.actions == [{"type": "pass", "seat": 1}]
    assert table.turn_seat() == 2
