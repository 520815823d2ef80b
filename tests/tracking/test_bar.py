"""The tracker's bar (issue 3): whole Courses at 4 to 6 seats through simulated readers at three
noise levels; for every scenario the moves in order, the pours into each goblet between two moves
and the final table must be exact.

The seeds here are held out: the tracker's thresholds were tuned on other seeds. The generator is
harder than the bar (goblets moved one at a time in three styles, two goblets on one seat, time in
the air; ``hurried`` hands and the ``brutal`` noise preset go further) and the harder settings are
checked below too.
"""

import random

import pytest

from companion.core.games.goblets.tracking import Tracker
from companion.virtual import HANDS, NOISE, Scenario, SimulatedReaders, summarize

SEEDS = range(500, 520)


def replay(seed, seats, noise, hands="calm", rings=True):
    scenario = Scenario.generate(random.Random(seed), seats, hands=HANDS[hands], rings=rings)
    layout = None if rings else scenario.initial_layout()
    tracker = Tracker(scenario.registry, seats, initial_layout=layout)
    events = []
    readers = SimulatedReaders(scenario, NOISE[noise], random.Random(seed * 7919 + seats))
    for obs in readers.snapshots():
        events += tracker.observe(obs)
    events += tracker.advance(scenario.duration + 5.0)
    events.append(tracker.state())
    return scenario, summarize(events)


def failures(seats, noise, hands="calm", rings=True, seeds=SEEDS):
    found = []
    for seed in seeds:
        scenario, summary = replay(seed, seats, noise, hands, rings)
        differences = summary.differences(scenario.truth())
        if differences:
            found.append((seed, differences[0][:300]))
    return found


@pytest.mark.parametrize("noise", ["none", "moderate", "heavy"])
@pytest.mark.parametrize("seats", [4, 5, 6])
def test_bar_every_course_exact(seats, noise):
    assert failures(seats, noise) == []


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_hurried_hands_at_heavy_noise_exact(seats):
    assert failures(seats, "heavy", hands="hurried", seeds=range(600, 610)) == []


@pytest.mark.parametrize("noise", ["none", "moderate"])
@pytest.mark.parametrize("seats", [4, 6])
def test_raise_your_memory_exact(seats, noise):
    assert failures(seats, noise, rings=False, seeds=range(700, 710)) == []


def test_scenarios_exercise_every_move():
    kinds = set()
    styles = 0
    for seed in SEEDS:
        scenario = Scenario.generate(random.Random(seed), 5)
        kinds |= {move["event"] for move in scenario.moves}
        kinds |= {"pour"} if any(scenario.pours) else set()
        styles += sum(1 for m in scenario.moves if m["event"] == "rotate")
    assert kinds == {"rotate", "swap", "lift", "pour"}
    assert styles >= 20


def test_beyond_the_bar_brutal_noise_and_hurried_hands_mostly_exact():
    # 40% missed, 5% crosstalk, blank and dropped snapshots, hurried hands: not part of the bar,
    # but the tracker must neither crash nor fall apart (docs/benchmarks.md lists what it misses).
    courses = [(seats, seed) for seats in (4, 5, 6) for seed in range(800, 810)]
    exact = sum(
        not failures(seats, "brutal", hands="hurried", seeds=[seed]) for seats, seed in courses
    )
    assert exact >= 0.9 * len(courses)
