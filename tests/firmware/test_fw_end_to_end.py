"""End to end: a Course played on chip models, read by the firmware's node loop, its serial
frames decoded by the companion's ``companion/links/wire.py`` and tracked by
``companion.core.games.goblets.tracking.Tracker``, gives the Course's exact moves, pours and final
table."""

import random

import pytest
from fw_course import CourseTable, track

from companion.links import wire
from companion.virtual import Scenario, summarize


@pytest.mark.parametrize(
    ("seed", "miss"),
    [
        (53, 0.15),  # rotate, Peek, swap, Peek; 15% of tags missed per reading
        (0, 0.0),  # swap, Peek, rotate
    ],
)
def test_a_course_through_node_frames_and_tracker_is_exact(seed, miss):
    scenario = Scenario.generate(random.Random(seed), 4, actions=(8, 10))
    kinds = {move["event"] for move in scenario.moves}
    assert {"rotate", "swap", "lift"} <= kinds  # the Course exercises every kind of move
    table = CourseTable(scenario, miss=miss, seed=seed)
    records = table.play()
    snapshots = [r for r in records if isinstance(r, wire.Snapshot)]
    assert len(snapshots) == sum(seat.reads for seat in table.seats)  # every reading sent
    per_second = len(snapshots) / scenario.seats / (table.clock.us / 1e6)
    assert 9.5 <= per_second <= 10.5  # what the tracker's thresholds are tuned for
    if miss:  # raw: the node passes the flicker on, the tracker absorbs it
        ring = scenario.tags_of(scenario.layout[0])[0]
        assert any(s.seat == 0 and ring not in s.tags for s in snapshots[:200])
    events = track(table, records)
    assert summarize(events).differences(scenario.truth()) == []
