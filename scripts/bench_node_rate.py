#!/usr/bin/env python3
"""How often a reader node reports each seat, and whether the tracker reads its Courses exactly.

The firmware's node loop (firmware/lib/cbnode.py, seats.py, the drivers) runs on CPython against
the chip models (tests/firmware/fw_sim_*.py), on modelled time: SPI bytes, air time and timer
windows as the models charge them, nothing for MicroPython's own execution (a real node is
slower). Two tables:

* **Snapshots per second per seat** for a node of n seats (one reader each, all on one SPI bus)
  with k tags standing on every seat, asking ``rate_hz`` = 10. Every reading is one snapshot.
* **Courses end to end**: random Courses (companion.virtual.Scenario) played on PN5180 seats,
  each tag missed per reading with probability ``miss``; the node's frames are decoded by
  companion/links/wire.py and tracked by companion.core.games.goblets.tracking.Tracker. "every
  reading" is the firmware as it is (1.1); "change-only" replays the SAME readings through firmware
  1.0's policy (a debounce that drops a tag after 3 missed readings, a snapshot on change and every
  2 s).

Usage: .venv/bin/python scripts/bench_node_rate.py [--courses 5] [--seed 500] [--seconds 3]
"""

import argparse
import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "firmware"), str(ROOT / "firmware" / "lib"), str(ROOT)]

import cbnode  # noqa: E402
import report  # noqa: E402
import seats  # noqa: E402
from fw_course import CourseTable, track  # noqa: E402
from fw_rigs import mfrc522_rig, pn5180_rig, random_14443_tags, random_15693_tags  # noqa: E402
from fw_sim_bus import SimClock, SimSPI  # noqa: E402
from fw_table import Stream, run_node  # noqa: E402

from companion.links import wire  # noqa: E402
from companion.virtual import Scenario, summarize  # noqa: E402


def snapshot_rate(reader, n_seats, k, seconds=3.0, rate_hz=10, seed=0):
    """Snapshots per second per seat (mean over the seats) of a node of ``n_seats`` readers of
    type ``reader`` with ``k`` tags on each."""
    clock = SimClock()
    spi = SimSPI(clock)
    rng = random.Random(seed * 1000 + n_seats * 20 + k)
    readers, seat_list = {}, []
    for i in range(n_seats):
        if reader == "pn5180":
            driver, _, _ = pn5180_rig(random_15693_tags(rng, k), seed=i, clock=clock, spi=spi)
        else:
            tags = random_14443_tags(rng, k, sizes=(7,))
            driver, _, _ = mfrc522_rig(tags, seed=i, clock=clock, spi=spi)
        readers[f"r{i}"] = driver
        seat_list.append(seats.Seat(i, f"r{i}"))
    scheduler = seats.Scheduler(readers, seat_list, clock, rate_hz=rate_hz)
    node = cbnode.Node("n1", scheduler, report.SerialReporter(Stream()), clock, poll_ms=10)
    start = clock.us
    run_node(node, clock, seconds * 1000)
    return sum(s.reads for s in seat_list) / n_seats / ((clock.us - start) / 1e6)


def change_only(records, vanish=3, refresh_ms=2000):
    """Firmware 1.0's reports from the same readings: a tag joins the seat's steady set when
    read, leaves it after ``vanish`` readings without it; a snapshot when the steady set
    changes and at least every ``refresh_ms``."""
    steady, missed, last, out = {}, {}, {}, []
    for r in records:
        if not isinstance(r, wire.Snapshot):
            continue
        now = set(r.tags)
        have = steady.setdefault(r.seat, set())
        miss = missed.setdefault(r.seat, {})
        changed = bool(now - have)
        have |= now
        for uid in list(have - now):
            miss[uid] = miss.get(uid, 0) + 1
            if miss[uid] >= vanish:
                have.discard(uid)
                del miss[uid]
                changed = True
        for uid in now:
            miss.pop(uid, None)
        sent = last.get(r.seat)
        if changed or sent is None or r.t_ms - sent >= refresh_ms:
            last[r.seat] = r.t_ms
            out.append(wire.Snapshot(r.seat, r.seq, r.t_ms, tuple(sorted(have)), r.node))
    return out


def courses(n_seats, miss, count, seed):
    """(exact every reading, exact change-only, snapshots/s per seat, snapshots/s change-only)
    over ``count`` Courses from ``seed``."""
    exact = exact_old = 0
    rates, old_rates = [], []
    for s in range(seed, seed + count):
        scenario = Scenario.generate(random.Random(s), n_seats)
        table = CourseTable(scenario, miss=miss, seed=s, reader="pn5180")
        records = table.play()
        seconds = table.clock.us / 1e6
        snaps = [r for r in records if isinstance(r, wire.Snapshot)]
        old = change_only(records)
        rates.append(len(snaps) / n_seats / seconds)
        old_rates.append(len(old) / n_seats / seconds)
        truth = scenario.truth()
        exact += not summarize(track(table, records)).differences(truth)
        exact_old += not summarize(track(table, old)).differences(truth)
    return exact, exact_old, sum(rates) / count, sum(old_rates) / count


def main(argv=None):
    """Print both tables (markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--courses", type=int, default=5)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    ks = (0, 1, 3, 6, 12)
    print(f"Snapshots per second per seat, rate_hz 10, {args.seconds:g} s modelled")
    print("| reader | seats | " + " | ".join(f"k={k}" for k in ks) + " |")
    print("|---|---:|" + "---:|" * len(ks))
    for reader in ("pn5180", "mfrc522"):
        for n in (1, 2, 4, 6):
            cells = [f"{snapshot_rate(reader, n, k, args.seconds):.1f}" for k in ks]
            print(f"| {reader} | {n} | " + " | ".join(cells) + " |")
    print()
    print(f"Courses on PN5180 seats, {args.courses} per row, seeds {args.seed}+")
    print("| seats | missed | every reading: exact | snapshots/s/seat "
          "| change-only (1.0): exact | snapshots/s/seat | wall s |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in (4, 6):
        for miss in (0.0, 0.15):
            started = time.monotonic()
            exact, old, rate, old_rate = courses(n, miss, args.courses, args.seed)
            wall = time.monotonic() - started
            print(
                f"| {n} | {miss:.0%} | {exact}/{args.courses} | {rate:.1f} "
                f"| {old}/{args.courses} | {old_rate:.1f} | {wall:.0f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
