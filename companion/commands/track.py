"""``companion track``: replay a raw snapshot stream through the tracker, print table events.

``companion track --registry REGISTRY.json --seats N < observations.jsonl`` reads JSON lines and
writes one event per line as JSON, the last line being the table's state::

    {"event": "state", "seats": {"0": NAME, ...}, "goblets": {NAME: {KIND: count, ...}}}

Input lines (a recording of a session is exactly such a file, see
:mod:`companion.store.recordings`):

- an observation ``{"t": seconds, "seat": i, "tags": [UID, ...]}`` (optional ``seq``, ``node``);
- a node's availability ``{"t": seconds, "node": ID, "online": true | false}``;
- the reveal ``{"t": seconds, "empty": "all" | [NAME, ...]}`` (the Goblets are emptied);
- a Host correction ``{"t": seconds, "fix": {"0": NAME, ...}}``.

A malformed line is reported on stderr with its line number and skipped; the stream goes on. The
exit status is 0, or 1 when some line was malformed. At the end of the stream the tracker is
advanced past its settle window so a move finished just before the end is reported.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.core.errors import CupbearerError, MalformedInput
from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tracking import Tracker, TrackerConfig
from companion.store.recordings import apply


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``track`` subcommand."""
    parser = subparsers.add_parser(
        "track",
        help="replay reader snapshots (JSON lines on stdin) through the goblet tracker",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--registry", required=True, type=Path, help="tag registry JSON file")
    parser.add_argument("--seats", required=True, type=int, help="number of seats (>= 2)")
    parser.add_argument(
        "--layout",
        help="Goblets at seats 0.. at the start, comma-separated (needed without Coaster rings; "
        "default without rings: goblet0, goblet1, ...)",
    )
    parser.add_argument(
        "--tracker",
        metavar="JSON",
        help="tracker thresholds as a JSON object, e.g. '{\"settle\": 0.8}'",
    )
    parser.set_defaults(func=run)


def load_registry(path: Path) -> TagRegistry:
    """Read a registry file; unreadable or malformed files raise MalformedInput."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise MalformedInput(f"cannot read {path}: {error.strerror}", field="registry") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise MalformedInput(f"{path} is not JSON: {error}", field="registry") from None
    return TagRegistry.from_json(data)


def initial_layout(args: argparse.Namespace, registry: TagRegistry) -> dict[int, str] | None:
    """The layout given with ``--layout``, or numbered Goblets when no ring is registered."""
    if args.layout:
        names = [name.strip() for name in args.layout.split(",")]
        if len(names) != args.seats:
            raise MalformedInput(f"needs {args.seats} goblet names", field="layout")
        return dict(enumerate(names))
    if not registry.goblets():
        return {seat: f"goblet{seat}" for seat in range(args.seats)}
    return None


def run(args: argparse.Namespace) -> int:
    """Replay stdin through a tracker; print events as JSON lines."""
    registry = load_registry(args.registry)
    config = TrackerConfig.from_json(json.loads(args.tracker)) if args.tracker else None
    tracker = Tracker(registry, args.seats, config, initial_layout(args, registry))
    return replay(tracker, sys.stdin, sys.stdout, sys.stderr)


def replay(tracker: Tracker, lines: TextIO, out: TextIO, err: TextIO) -> int:
    """Feed every line to ``tracker``; returns 1 if some line was malformed, else 0."""
    bad = 0
    last_t: float | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            events = apply(tracker, data)
        except json.JSONDecodeError as error:
            bad += 1
            print(f"companion track: line {number}: not JSON: {error.msg}", file=err)
            continue
        except CupbearerError as error:
            bad += 1
            print(f"companion track: line {number}: {error}", file=err)
            continue
        last_t = data["t"] if last_t is None else max(last_t, data["t"])
        write(events, out)
    if last_t is not None:
        cfg = tracker.config
        write(tracker.advance(last_t + cfg.settle + cfg.pour_wait), out)
    write([tracker.state()], out)
    return 1 if bad else 0


def write(events: list[dict[str, Any]], out: TextIO) -> None:
    """Print events as JSON lines."""
    for event in events:
        out.write(json.dumps(event, ensure_ascii=False) + "\n")
