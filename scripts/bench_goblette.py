"""Sensed Russian Goblette: how often the sensed journal is the puppeteer's game.

Usage: ``.venv/bin/python scripts/bench_goblette.py [--seeds N] [--noise none,moderate]
[--vp 3]``

Each game is a :class:`~companion.virtual.goblette_puppet.GoblettePuppeteer` (a random legal game
of 2 or 3 players, played by hand on six spots in a row) read by the simulated readers into a
:class:`~companion.core.games.goblets.sensed.russian_session.GobletteSession`. A game counts as
exact when the session's journal equals the puppeteer's action for action, with no rule warning and
without the puppeteer having had to follow the journal; every other game is listed with what went
wrong. ``docs/tracking.md`` ("Russian Goblette") quotes this script's output.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from companion.core import registry
from companion.core.games.goblets.sensed.russian_session import GobletteSession
from companion.virtual import NOISE
from companion.virtual.goblette_puppet import GoblettePuppeteer
from companion.virtual.show import SessionSink, Show


def play(seed: int, players: int, noise: str, vp: int = 3) -> dict[str, Any]:
    """One sensed game: whether it is exact, and the notices and warnings if not."""
    options = {"players": players, "vp_to_win": vp}
    puppet = GoblettePuppeteer.new_game(random.Random(seed), options)
    state = registry.get("goblets").new_state({"variant": "russian_goblette", **options})
    layout = dict(enumerate(puppet.table.layout))
    session = GobletteSession(state, puppet.table.registry, layout=layout)
    sink = SessionSink(session)
    show = Show(puppet, sink, NOISE[noise], random.Random(seed))
    show.play(lambda: puppet.is_over and session.state.is_over(), limit=5000)
    warnings = [e["message"] for e in sink.result.events if e.get("event") == "rule_warning"]
    exact = sink.actions == puppet.actions and not warnings and not puppet.desyncs
    notices = Counter(str(n["notice"]) for n in sink.result.notices)
    for quiet in ("pour_out", "online", "offline"):
        notices.pop(quiet, None)
    return {
        "exact": exact,
        "over": session.state.is_over(),
        "desyncs": puppet.desyncs,
        "warnings": warnings,
        "notices": dict(notices),
        "actions": len(sink.actions),
    }


def main() -> None:
    """Run the seeds and print the exact games and every miss."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--noise", default="none,moderate")
    parser.add_argument("--vp", type=int, default=3)
    args = parser.parse_args()
    for noise in args.noise.split(","):
        for players in (2, 3):
            start = time.perf_counter()
            results = [play(seed, players, noise, args.vp) for seed in range(args.seeds)]
            exact = sum(r["exact"] for r in results)
            took = time.perf_counter() - start
            print(f"{noise:9} {players} players: {exact}/{args.seeds} exact ({took:.0f} s)")
            told: Counter[str] = Counter()
            for r in results:
                told.update(r["notices"])
            print(f"  Host notices over all games: {dict(told) or 'none'}")
            for seed, r in enumerate(results):
                if not r["exact"]:
                    print(f"  seed {seed}: {r}")


if __name__ == "__main__":
    main()
