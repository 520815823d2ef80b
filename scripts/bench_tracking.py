"""Tracker benchmark: throughput (snapshots/s) and exactness on generated Courses.

Usage: ``.venv/bin/python scripts/bench_tracking.py [--courses N] [--seed S]``

Snapshots of whole Courses (4 to 6 seats, 10 Hz per seat) are generated first, then timed through
a fresh :class:`~companion.core.games.goblets.tracking.Tracker` each, so the figure is the tracker
alone. Each Course is also checked against its ground truth (moves in order, pours between moves,
final table), at every noise preset and hand speed, with and without Coaster rings. The tracker
section of ``docs/benchmarks.md`` quotes this script's output.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from companion.core.games.goblets.tracking import Tracker
from companion.virtual import HANDS, NOISE, Scenario, SimulatedReaders, summarize

CASES = [
    # (noise, hands, rings)
    ("none", "calm", True),
    ("moderate", "calm", True),
    ("heavy", "calm", True),
    ("heavy", "hurried", True),
    ("brutal", "calm", True),
    ("brutal", "hurried", True),
    ("moderate", "calm", False),
    ("heavy", "calm", False),
]


def run_case(
    noise: str, hands: str, rings: bool, courses: int, seed: int
) -> tuple[int, int, float]:
    """(snapshots, exact Courses, tracker seconds) over ``courses`` Courses per seat count."""
    snapshots = exact = 0
    elapsed = 0.0
    for seats in (4, 5, 6):
        for i in range(courses):
            course_seed = seed + 1000 * seats + i
            scenario = Scenario.generate(
                random.Random(course_seed), seats, hands=HANDS[hands], rings=rings
            )
            stream = list(
                SimulatedReaders(scenario, NOISE[noise], random.Random(course_seed + 7)).snapshots()
            )
            layout = None if rings else scenario.initial_layout()
            tracker = Tracker(scenario.registry, seats, initial_layout=layout)
            events = []
            start = time.perf_counter()
            for obs in stream:
                events += tracker.observe(obs)
            events += tracker.advance(scenario.duration + 5.0)
            elapsed += time.perf_counter() - start
            events.append(tracker.state())
            snapshots += len(stream)
            exact += not summarize(events).differences(scenario.truth())
    return snapshots, exact, elapsed


def main() -> None:
    """Print one line per case and the overall throughput."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--courses", type=int, default=20, help="Courses per seat count per case")
    parser.add_argument("--seed", type=int, default=90000)
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, {args.courses} Courses "
        "per seat count (4, 5, 6) per case"
    )
    print(f"{'noise':9} {'hands':8} {'rings':5} {'exact':>9} {'snapshots':>10} {'snap/s':>9}")
    total_snapshots, total_time = 0, 0.0
    for noise, hands, rings in CASES:
        snapshots, exact, elapsed = run_case(noise, hands, rings, args.courses, args.seed)
        total_snapshots += snapshots
        total_time += elapsed
        courses = 3 * args.courses
        print(
            f"{noise:9} {hands:8} {'yes' if rings else 'no':5} {exact:>4}/{courses:<4} "
            f"{snapshots:>10} {snapshots / elapsed:>9.0f}"
        )
    print(
        f"tracker throughput: {total_snapshots / total_time:.0f} snapshots/s "
        f"({total_snapshots} snapshots in {total_time:.2f} s)"
    )


if __name__ == "__main__":
    main()
