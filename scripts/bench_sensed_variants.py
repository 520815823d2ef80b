"""Seeded sensed games of the variants: how often the sensed journal is the puppeteer's game.

    .venv/bin/python scripts/bench_sensed_variants.py --variant winetasters --seeds 20 \
        --noise none moderate [--courses 1]
    .venv/bin/python scripts/bench_sensed_variants.py --variant characters --seeds 20 ...

Each game is a random legal game of ``companion.virtual.Puppeteer`` played by hand at a live
table, read by simulated readers at the noise level through the tracker into a pure
``SensedSession`` (tests/virtual/variant_play.py). A game is exact when the journal equals the
puppeteer's actions, the scores agree and no rule warning was raised; every other game is printed
with its first differing action, so the misses can be listed by cause (docs/tracking.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.virtual.variant_play import exact, play, warnings

VARIANTS = {"winetasters": range(7, 13), "characters": range(4, 7)}
"""The player counts of each variant."""


def options_for(variant: str, players: int, courses: int) -> dict:
    """The engine options of one game of ``variant``."""
    options: dict = {"players": players, "courses": courses}
    if variant == "characters":
        from tests.virtual.test_puppet_characters import DECK

        options["characters"] = DECK
    return options


def main() -> int:
    """Run the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="winetasters")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--noise", nargs="+", default=["none", "moderate"])
    parser.add_argument("--courses", type=int, default=1)
    args = parser.parse_args()
    for noise in args.noise:
        total = good = 0
        start = time.perf_counter()
        for players in VARIANTS[args.variant]:
            ok = 0
            for seed in range(args.seeds):
                puppet, sink = play(seed, options_for(args.variant, players, args.courses), noise)
                total += 1
                if exact(puppet, sink):
                    ok += 1
                    continue
                first = next(
                    (
                        (i, a, b)
                        for i, (a, b) in enumerate(zip(sink.actions, puppet.actions, strict=False))
                        if a != b
                    ),
                    None,
                )
                notices = sorted({n["notice"] for n in sink.result.notices} - {"pour_out"})
                print(
                    f"  miss: {players} players seed {seed}: desyncs {puppet.desyncs}, "
                    f"warnings {[w['message'] for w in warnings(sink)]}, notices {notices}, "
                    f"first difference {first}"
                )
            good += ok
            print(f"{args.variant} {noise} {players} players: {ok}/{args.seeds} exact")
        took = time.perf_counter() - start
        share = 100 * good / total
        print(f"{args.variant} {noise}: {good}/{total} exact ({share:.1f}%), {took:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
