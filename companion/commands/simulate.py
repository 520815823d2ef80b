"""``companion simulate``: a generated Course read by noisy simulated readers, as a recording.

``companion simulate --seats 5 --noise heavy --seed 7 --registry-out reg.json > course.jsonl``
writes the snapshot stream (the format ``companion track`` replays, see
:mod:`companion.store.recordings`) on stdout and the tag registry to ``--registry-out``; with
``--truth-out`` also the Course's ground truth (moves, pours between moves, final table). Then
``companion track --registry reg.json --seats 5 < course.jsonl`` should tell the same story.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from companion.core.errors import MalformedInput
from companion.store.recordings import RecordingWriter
from companion.virtual import HANDS, NOISE, Scenario, SimulatedReaders


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="play a random Course through simulated readers; print the snapshot stream",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--seats", type=int, default=5, help="number of seats (default 5)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--noise", default="moderate", help=f"one of {', '.join(NOISE)}")
    parser.add_argument("--hands", default="calm", help=f"one of {', '.join(HANDS)}")
    parser.add_argument("--rate", type=float, default=10.0, help="snapshots per second per seat")
    parser.add_argument("--actions", type=int, default=None, help="number of actions")
    parser.add_argument(
        "--no-rings",
        action="store_true",
        help="Raise Your Memory: no Coaster rings (goblets named goblet0, goblet1, ...)",
    )
    parser.add_argument("--registry-out", type=Path, required=True, help="write the registry")
    parser.add_argument("--truth-out", type=Path, help="write the ground truth as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Generate, read and print one Course."""
    if args.noise not in NOISE:
        raise MalformedInput(f"unknown preset {args.noise!r}", field="noise")
    if args.hands not in HANDS:
        raise MalformedInput(f"unknown preset {args.hands!r}", field="hands")
    if args.seats < 2:
        raise MalformedInput("must be at least 2", field="seats")
    if not args.rate > 0:
        raise MalformedInput("must be positive", field="rate")
    if args.actions is not None and args.actions < 1:
        raise MalformedInput("must be at least 1", field="actions")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    names = [f"goblet{i}" for i in range(args.seats)] if args.no_rings else None
    actions = (args.actions, args.actions) if args.actions else (14, 24)
    scenario = Scenario.generate(
        rng,
        args.seats,
        actions=actions,
        rings=not args.no_rings,
        hands=HANDS[args.hands],
        names=names,
    )
    args.registry_out.write_text(json.dumps(scenario.registry.to_json(), indent=1) + "\n")
    if args.truth_out:
        truth = scenario.truth()
        data = {"seed": seed, "moves": truth.moves, "pours": truth.pours, "final": truth.final}
        args.truth_out.write_text(json.dumps(data, indent=1) + "\n")
    writer = RecordingWriter(sys.stdout)
    for obs in SimulatedReaders(scenario, NOISE[args.noise], rng, rate=args.rate).snapshots():
        writer.observation(obs)
    return 0
