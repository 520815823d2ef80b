"""A conflict on a read table pauses the game; the Host's fix resumes it with the move it hid.

A generated Course goes on with one more Swap while the reader under the far Goblet is silent:
the tracker sees one Goblet leave and nothing arrive, so after ``conflict_after`` it asks the
Host. Meanwhile the player presses "end turn": nothing advances until the Host fixes the layout;
then the Swap is recorded as the player's, the pass after it, and the Course ends as it truly did.
"""

from __future__ import annotations

import dataclasses
import random

from sensed_script import Course, Turn, check_revealed, course, event, expected, run, warnings

from companion.core.games.goblets.sensed import Result, SensedSession
from companion.core.observations import Observation
from companion.virtual.scenario import Motion

SEATS = 4


def swapped_in_the_dark(seed: int) -> tuple[Course, int, int, float]:
    """The Course plus a Swap by the next player with the seat opposite, whose reader is dead."""
    c = course(random.Random(seed), SEATS, actions=(4, 6), specials=0.0)
    sc = c.scenario
    player = (c.turns[-1].seat + 1) % SEATS
    far = (player + 2) % SEATS
    seats = dict(sc.final["seats"])
    mine, theirs = seats[str(player)], seats[str(far)]
    t = sc.duration
    motions = [
        Motion(t, "lift", mine, player),
        Motion(t + 0.8, "place", mine, far),
        Motion(t + 1.2, "lift", theirs, far),
        Motion(t + 2.0, "place", theirs, player),
    ]
    seats[str(player)], seats[str(far)] = theirs, mine
    scenario = dataclasses.replace(
        sc,
        motions=sc.motions + tuple(motions),
        moves=(*sc.moves, {"event": "swap", "seats": sorted((player, far))}),
        final={**sc.final, "seats": seats},
        duration=t + 20.0,
    )
    turns = (*c.turns, Turn(player, t, 1))
    return Course(scenario, turns, c.host), player, far, t


def test_a_conflict_pauses_and_the_hosts_fix_resumes_with_the_hidden_move() -> None:
    c, player, far, t = swapped_in_the_dark(5)
    seen: dict[str, object] = {}

    def dark(obs: Observation) -> bool:
        return obs.seat == far and t - 0.5 <= obs.t <= t + 15.0

    def end_turn_during_conflict(session: SensedSession) -> Result:
        seen["conflict"] = session.status()["waiting"]
        out = session.end_turn(player)
        seen["queued"] = session.status()["queued"]
        seen["applied_while_paused"] = list(out.applied)
        return out

    def host_fix(session: SensedSession) -> Result:
        layout = {int(k): v for k, v in c.scenario.final["seats"].items()}
        out = session.fix_layout(layout, t + 13.5)
        seen["fix"] = out
        return out

    schedule = [(t + 12.5, end_turn_during_conflict), (t + 13.5, host_fix)]
    played = run(c, "moderate", 5, schedule=schedule, drop=dark)
    result = played.result

    assert [n for n in result.notices if n["notice"] == "conflict"]
    assert seen["conflict"] == "conflict"
    assert seen["queued"] == 1 and seen["applied_while_paused"] == []
    fix = seen["fix"]
    assert isinstance(fix, Result)
    assert [n["notice"] for n in fix.notices][:2] == ["fixed", "conflict_resolved"]
    assert [a.action for a in fix.applied][:1] == [{"type": "swap", "seat": player, "with": far}]
    assert ("pass", player) in [(a.action["type"], a.action.get("seat")) for a in result.applied]

    check_revealed(c, played)
    assert {w["message"] for w in warnings(result)} <= {
        "Toast only as the first action, with no Wine left"
    }


def test_a_table_put_right_resolves_the_conflict_by_itself() -> None:
    c, player, far, t = swapped_in_the_dark(8)

    def dark(obs: Observation) -> bool:
        return obs.seat == far and t - 0.5 <= obs.t <= t + 13.0

    played = run(c, "none", 8, drop=dark)
    result = played.result
    kinds = [n["notice"] for n in result.notices]
    assert "conflict" in kinds and "conflict_resolved" in kinds
    assert {"type": "swap", "seat": player, "with": far} in [a.action for a in result.applied]
    revealed = event(result, "revealed")
    houses = [p["house"] for p in revealed["places"]]
    truth, _ = expected(c, event(result, "targets_dealt")["targets"], houses)
    assert {p["place"]: p["contents"] for p in revealed["places"]} == truth
