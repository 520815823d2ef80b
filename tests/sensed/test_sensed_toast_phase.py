"""The Toast Phase read from the table: final actions sensed, the rest passed at the reveal.

A generated Course, then the Toast ("Starting with the player to the left of the Toast Caller and
proceeding clockwise, each player may perform one last action. The Toast Caller will be the last
one"): the first player pours, the second Peeks, the third presses "end turn", the caller Rotates.
"""

from __future__ import annotations

import dataclasses
import random

from sensed_script import check_revealed, course, run, warnings

from companion.virtual.scenario import Motion

SEATS = 4


def test_final_actions_are_read_from_the_table() -> None:
    c = course(random.Random(31), SEATS, actions=(6, 8), specials=0.0)
    sc = c.scenario
    caller = (c.turns[-1].seat + 1) % SEATS
    first, second, third = ((caller + k) % SEATS for k in (1, 2, 3))
    seats = dict(sc.final["seats"])
    goblets = {g: dict(v) for g, v in sc.final["goblets"].items()}
    used = {m.uid for m in sc.motions if m.uid}
    wine = next(u for u in sc.registry if sc.registry.token_kind(u) == "wine" and u not in used)
    t = sc.duration + 1.0
    mine = seats[str(first)]
    motions = [Motion(t + 1.0, "pour", mine, first, wine)]
    goblets[mine]["wine"] = goblets[mine].get("wine", 0) + 1
    peeked = seats[str(second)]
    motions += [Motion(t + 3.0, "lift", peeked, second), Motion(t + 5.0, "place", peeked, second)]
    # The caller rotates clockwise, every Goblet slid at once.
    for seat in range(SEATS):
        motions.append(Motion(t + 9.0 + 0.1 * seat, "lift", seats[str(seat)], seat))
        motions.append(Motion(t + 9.6 + 0.1 * seat, "place", seats[str(seat)], (seat + 1) % SEATS))
    rotated = {str((int(s) + 1) % SEATS): g for s, g in seats.items()}
    scenario = dataclasses.replace(
        sc,
        motions=sc.motions + tuple(motions),
        final={"seats": rotated, "goblets": goblets},
        duration=t + 14.0,
    )
    c = dataclasses.replace(c, scenario=scenario)
    schedule = [(t + 7.0, lambda session: session.end_turn(third))]
    played = run(c, "moderate", 31, schedule=schedule, toast_at=t)
    result = played.result

    final = [
        (a.action["type"], a.action.get("seat"))
        for a in result.applied[[a.action["type"] for a in result.applied].index("toast") :]
    ]
    assert final == [
        ("toast", caller),
        ("pour", first),
        ("peek", second),
        ("pass", third),
        ("rotate", caller),
        ("reveal", caller),
    ]
    check_revealed(c, played)
    assert {w["message"] for w in warnings(result)} <= {
        "Toast only as the first action, with no Wine left"
    }
