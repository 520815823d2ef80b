"""Helpers for the sensed-play tests: Courses with their turns, played through the whole pipe.

``course(rng, seats)`` generates a Course with ``companion.virtual`` and also keeps who acted when
(the generator's ground truth has the moves and pours, not the turns: a player who acts once
presses "end turn", which the sensors cannot see). ``run(...)`` plays it: simulated readers ->
tracker -> sensed table -> engine (recording mode), with the players' inputs merged in by time,
then the Toast and the reveal. ``expected(...)`` scores the true final table independently with
``scoring.score_toast``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core import registry
from companion.core.game import CHANCE
from companion.core.games.goblets.scoring import score_toast
from companion.core.games.goblets.sensed import Result, SensedSession
from companion.core.games.goblets.state import GobletsState
from companion.core.observations import Observation
from companion.virtual import NOISE, Hands, Scenario, SimulatedReaders
from companion.virtual.pour_out import poured_out
from companion.virtual.scenario import _Course


class _Recorded(_Course):
    """The generator's Course, remembering each action's player, start time and motions."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.acts: list[tuple[int, float, int]] = []

    def act(self, player, screen) -> None:  # type: ignore[no-untyped-def]
        before = len(self.motions)
        start = self.t
        super().act(player, screen)
        self.acts.append((player, start, len(self.motions) - before))


@dataclass(frozen=True)
class Turn:
    """One player's turn: the seat, when it began, and how many actions the table saw."""

    seat: int
    start: float
    seen: int


@dataclass(frozen=True)
class Course:
    """A generated Course and its turns."""

    scenario: Scenario
    turns: tuple[Turn, ...]
    host: int


def course(
    rng: random.Random,
    seats: int,
    *,
    rings: bool = True,
    actions: tuple[int, int] = (14, 24),
    specials: float = 0.1,
) -> Course:
    """A random Course (see ``Scenario.generate``) with its turns."""
    gen = _Recorded(rng, seats, rings, Hands(), None, specials)
    scenario = gen.play(actions)
    turns: list[Turn] = []
    for player, start, motions in gen.acts:
        if turns and turns[-1].seat == player:
            last = turns[-1]
            turns[-1] = Turn(player, last.start, last.seen + (1 if motions else 0))
        else:
            turns.append(Turn(player, start, 1 if motions else 0))
    host = (turns[0].seat - 1) % seats
    return Course(scenario, tuple(turns), host)


def inputs(c: Course, *, always_end: bool = False) -> list[tuple[float, str, int]]:
    """The players' inputs by time: "end turn" after a turn of fewer than two actions."""
    out: list[tuple[float, str, int]] = []
    for turn, after in zip(c.turns, [*c.turns[1:], None], strict=True):
        at = after.start if after is not None else c.scenario.duration
        if turn.seen < 2 or always_end:
            out.append((at, "end_turn", turn.seat))
    return out


@dataclass
class Played:
    """The outcome of :func:`run`."""

    session: SensedSession
    result: Result = field(default_factory=Result)
    caller: int = 0


def new_state(players: int, host: int, **options: Any) -> GobletsState:
    """A 4-6 player state without Character cards."""
    state = registry.get("goblets").new_state(
        {"players": players, "host": host, "characters": [], **options}
    )
    assert isinstance(state, GobletsState)
    return state


def run(
    c: Course,
    noise: str,
    seed: int,
    *,
    always_end: bool = False,
    options: dict[str, Any] | None = None,
    schedule: list[tuple[float, Callable[[SensedSession], Result]]] = (),
    drop: Callable[[Observation], bool] | None = None,
    toast_at: float | None = None,
    reveal: str = "tracked",
) -> Played:
    """Play ``c`` through readers, tracker and sensed table, then Toast and reveal.

    ``schedule``: more inputs by time (each called with the session); ``drop``: snapshots that
    never arrive (a reader gone silent); ``toast_at``: when the seat after the last turn calls
    the Toast (default: once the readers are done); ``reveal``: ``"tracked"`` reveals the
    tracked contents, ``"readers"`` has every Goblet poured out on its reader after the Toast
    and reveals what the readers count there.
    """
    scenario = c.scenario
    end = scenario.duration
    if reveal == "readers":
        toast_at = end + 0.5 if toast_at is None else toast_at
        schedule = [*schedule, (end + 1.0, lambda session: session.pour_out(end + 1.0))]
        scenario = poured_out(scenario, random.Random(seed + 2), start=end + 1.5)
    state = new_state(
        scenario.seats, c.host, raise_your_memory=not scenario.rings, **(options or {})
    )
    session = SensedSession(
        state,
        scenario.registry,
        layout=scenario.initial_layout(),
        rng=random.Random(seed),
    )
    played = Played(session, caller=(c.turns[-1].seat + 1) % scenario.seats)
    if toast_at is not None:
        schedule = [*schedule, (toast_at, _input("toast", played.caller))]
    played.result.extend(session.start_course())
    pending = [(t, _input(kind, seat)) for t, kind, seat in inputs(c, always_end=always_end)]
    pending = sorted([*pending, *schedule], key=lambda item: item[0])
    readers = SimulatedReaders(scenario, NOISE[noise], random.Random(seed + 1))
    for obs in readers.snapshots():
        while pending and pending[0][0] <= obs.t:
            played.result.extend(pending.pop(0)[1](session))
        if drop is None or not drop(obs):
            played.result.extend(session.observe(obs))
    if reveal == "readers":
        played.result.extend(session.advance(scenario.duration))
        return played
    played.result.extend(session.advance(scenario.duration + 3.0))
    for _, call in pending:
        played.result.extend(call(session))
    if toast_at is None:
        played.result.extend(session.toast(played.caller))
    played.result.extend(session.reveal(scenario.duration + 4.0))
    return played


def _input(kind: str, seat: int) -> Callable[[SensedSession], Result]:
    return lambda session: getattr(session, kind)(seat)


def expected(c: Course, targets: list[str], houses: list[str]) -> tuple[dict, list[int]]:
    """The true contents at each place and each place's VP, scored independently."""
    final = c.scenario.final
    by_place = {p: final["goblets"][final["seats"][str(p)]] for p in range(c.scenario.seats)}
    goblets = {houses[p]: by_place[p] for p in by_place}
    scores = score_toast(houses, dict(zip(houses, targets, strict=True)), goblets)
    return by_place, [scores[h].vp for h in houses]


def event(result: Result, name: str) -> dict[str, Any]:
    """The last engine event called ``name``."""
    found = [e for e in result.events if e.get("event") == name]
    assert found, f"no {name} event"
    return found[-1]


def warnings(result: Result) -> list[dict[str, Any]]:
    """Every rule warning the engine raised."""
    return [e for e in result.events if e.get("event") == "rule_warning"]


def check_revealed(c: Course, played: Played) -> tuple[dict[str, Any], list[int]]:
    """Assert the reveal shows each place's true contents and the true VP; (revealed, VP)."""
    revealed = event(played.result, "revealed")
    houses = [p["house"] for p in revealed["places"]]
    truth, vp = expected(c, event(played.result, "targets_dealt")["targets"], houses)
    assert {p["place"]: p["contents"] for p in revealed["places"]} == truth
    assert played.session.state.results[0]["vp"] == vp
    return revealed, vp


RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "recordings" / "sensed-goblets-5"
"""The recorded session replayed by ``test_sensed_recording.py``."""


def record_session(directory: Path = RECORDING, seed: int = 2026) -> None:
    """Record a 5-seat Course read at moderate noise, its inputs and what the table made of it.

    Regenerate (after a deliberate change of the tracker or the table) with
    ``.venv/bin/python -c "import sys; sys.path.insert(0, 'tests/sensed');
    import sensed_script; sensed_script.record_session()"``.
    """
    c = course(random.Random(seed), 5, actions=(8, 12))
    scenario = c.scenario
    options = {"players": 5, "host": c.host, "characters": []}
    state = registry.get("goblets").new_state(options)
    session = SensedSession(state, scenario.registry, layout=scenario.initial_layout())
    rng = random.Random(seed)
    lines: list[dict[str, Any]] = []
    applied: list[dict[str, Any]] = []

    def take(after: int, t: float, name: str, result: Result, **data: Any) -> None:
        lines.append({"after": after, "t": t, "input": name, **data})
        applied.extend(a.action for a in result.applied)

    take(0, 0.0, "start_course", session.start_course())
    pending = inputs(c)
    readers = SimulatedReaders(scenario, NOISE["moderate"], random.Random(seed + 1))
    observations = list(readers.snapshots())
    for index, obs in enumerate(observations):
        while pending and pending[0][0] <= obs.t:
            at, kind, seat = pending.pop(0)
            take(index, at, kind, getattr(session, kind)(seat), seat=seat)
        applied.extend(a.action for a in session.observe(obs).applied)
        if session.state.to_move() is CHANCE and session.state.phase != "initial_pour":
            action = session.state.sample_chance(rng)
            take(index + 1, obs.t, "chance", session.apply_chance(action), action=action)
    end = len(observations)
    take(end, scenario.duration + 3.0, "advance", session.advance(scenario.duration + 3.0))
    for at, kind, seat in pending:
        take(end, at, kind, getattr(session, kind)(seat), seat=seat)
    caller = (c.turns[-1].seat + 1) % 5
    take(end, scenario.duration + 3.5, "toast", session.toast(caller), seat=caller)
    take(end, scenario.duration + 4.0, "reveal", session.reveal(scenario.duration + 4.0))
    revealed = session.state.results[0]
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "registry.json").write_text(json.dumps(scenario.registry.to_json(), indent=1))
    with (directory / "observations.jsonl").open("w") as out:
        for obs in observations:
            out.write(json.dumps(obs.to_json()) + "\n")
    with (directory / "inputs.jsonl").open("w") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")
    expected_data = {
        "options": options,
        "layout": {str(p): n for p, n in scenario.initial_layout().items()},
        "truth": scenario.final,
        "actions": applied,
        "revealed": [p["contents"] for p in revealed["places"]],
        "vp": revealed["vp"],
    }
    (directory / "expected.json").write_text(json.dumps(expected_data, indent=1) + "\n")
