"""Regenerate the recorded sessions under ``tests/fixtures/recordings/`` (run from the repo root).

Each recording is a Course played by :mod:`companion.virtual` through noisy simulated readers:
``NAME.registry.json`` (the tags), ``NAME.jsonl`` (the raw snapshot stream, as a link would record
it, the input of ``companion track``), ``NAME.truth.json`` (the Course's ground truth) and
``NAME.events.jsonl`` (what ``companion track`` printed when the recording was made: the
regression test compares against it). Regenerating changes the expected output: review the diff.
"""

from __future__ import annotations

import io
import json
import random
from dataclasses import replace
from pathlib import Path

from companion.commands.track import replay
from companion.core.games.goblets.tracking import Tracker
from companion.virtual import HANDS, NOISE, Scenario, SimulatedReaders

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "recordings"

RECORDINGS = {
    # name: (seed, seats, rings, noise, hands, node outage (node, seats, from, to) or None)
    "rings-4-heavy": (31, 4, True, "heavy", "calm", None),
    "memory-5-moderate": (52, 5, False, "moderate", "hurried", ("node-b", (3, 4), 14.0, 16.5)),
}


def record(name: str) -> None:
    """Write the four files of one recording."""
    seed, seats, rings, noise, hands, outage = RECORDINGS[name]
    names = None if rings else [f"goblet{i}" for i in range(seats)]
    scenario = Scenario.generate(
        random.Random(seed), seats, actions=(7, 9), rings=rings, hands=HANDS[hands], names=names
    )
    readers = SimulatedReaders(scenario, NOISE[noise], random.Random(seed + 1))
    lines = []
    announced = set()
    for obs in readers.snapshots():
        node = "node-b" if obs.seat >= 3 else "node-a"
        if outage and outage[0] == node and outage[2] <= obs.t < outage[3]:
            if "off" not in announced:
                announced.add("off")
                lines.append({"t": obs.t, "node": node, "online": False})
            continue
        if outage and outage[0] == node and obs.t >= outage[3] and "on" not in announced:
            announced.add("on")
            lines.append({"t": obs.t, "node": node, "online": True})
        lines.append(replace(obs, node=node).to_json())
    registry = scenario.registry.to_json()
    (OUT / f"{name}.registry.json").write_text(json.dumps(registry, indent=1) + "\n")
    stream = "".join(json.dumps(line) + "\n" for line in lines)
    (OUT / f"{name}.jsonl").write_text(stream)
    truth = scenario.truth()
    (OUT / f"{name}.truth.json").write_text(
        json.dumps({"moves": truth.moves, "pours": truth.pours, "final": truth.final}, indent=1)
        + "\n"
    )
    layout = None if rings else scenario.initial_layout()
    out, err = io.StringIO(), io.StringIO()
    replay(Tracker(scenario.registry, seats, None, layout), io.StringIO(stream), out, err)
    (OUT / f"{name}.events.jsonl").write_text(out.getvalue())
    print(f"{name}: {len(lines)} lines, {out.getvalue().count(chr(10))} events")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for recording in RECORDINGS:
        record(recording)
