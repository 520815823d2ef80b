"""``companion node --virtual``: run one simulated reader node as its own process.

The node speaks the real wire formats (``docs/protocol.md``) to a real broker
(``--mqtt mqtt://[user:pass@]host:port``), a serial port (``--serial PATH``) or a new pty whose
other end is the symlink ``--pty LINK`` (what ``companion serve --serial LINK`` would open). Its
readings come from a JSONL script (``--script FILE``, ``-`` for stdin: lines
``{"t": s, "seat": i, "tags": [uid, ...]}``, ``t`` in seconds from the start) or a random Course
through noisy simulated readers (``--seed``, ``--table``, ``--noise``, ``--rate``);
``--registry-out FILE`` writes that Course's tag registry for ``companion track``.

SIGTERM or SIGINT stops it cleanly (``offline`` published); SIGKILL leaves the Last Will to the
broker. Prints one JSON line on stderr when ready and one when done.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

from serial import SerialException

from companion.core.errors import MalformedInput
from companion.links.records import Hello, check_node_id, check_seats
from companion.links.virtual import (
    MqttTransport,
    PtyTransport,
    SerialTransport,
    Transport,
    VirtualNode,
    read_script,
    simulated_readings,
)
from companion.signals import on_stop_signals


def _seats(text: str) -> tuple[int, ...]:
    try:
        return check_seats([int(s) for s in text.split(",") if s.strip()])
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"seats: {error}") from error


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``companion node``."""
    parser = subparsers.add_parser(
        "node",
        help="run a virtual reader node (MQTT, serial or pty)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--virtual", action="store_true", required=True, help="simulated readers")
    out = parser.add_mutually_exclusive_group(required=True)
    out.add_argument("--mqtt", metavar="URL", help="mqtt://[user:password@]host[:port]")
    out.add_argument("--serial", metavar="PATH", help="a serial port (or pyserial URL) to write")
    out.add_argument("--pty", metavar="LINK", help="create a pty; LINK -> its port end")
    parser.add_argument("--node", default="virtual1", help="node id (default virtual1)")
    parser.add_argument("--fw", default="virtual-1.0", help="firmware version in the HELLO")
    parser.add_argument("--seats", type=_seats, help="seats this node reads, e.g. 0,1,2 (all)")
    parser.add_argument("--script", metavar="FILE", help="JSONL readings ('-' for stdin)")
    parser.add_argument("--seed", type=int, default=1, help="random Course seed (default 1)")
    parser.add_argument("--table", type=int, default=4, help="seats at the table (default 4)")
    parser.add_argument("--noise", default="moderate", help="none, moderate, heavy, brutal")
    parser.add_argument("--rate", type=float, default=10.0, help="reads per second per seat")
    parser.add_argument("--speed", type=float, default=1.0, help="x real time; 0: flat out")
    parser.add_argument("--linger", type=float, default=0.0, help="seconds to stay up at the end")
    parser.add_argument(
        "--on-change", action="store_true", help="send only changed snapshots (and every 2 s)"
    )
    parser.add_argument("--hello-every", type=float, default=30.0, help="seconds between HELLOs")
    parser.add_argument("--registry-out", metavar="FILE", help="write the Course's tag registry")
    parser.set_defaults(func=run)


def _transport(args: argparse.Namespace, hello: Hello) -> Transport:
    if args.mqtt:
        return MqttTransport(args.mqtt, hello)
    field = "serial" if args.serial else "pty"
    try:
        return SerialTransport(args.serial) if args.serial else PtyTransport(args.pty)
    except (OSError, SerialException) as error:
        raise MalformedInput(f"cannot open: {error}", field=field) from error


def run(args: argparse.Namespace) -> int:
    """Run the node until its readings end (plus ``--linger``) or a signal stops it."""
    # Handlers first: a SIGTERM that comes while the transport connects still stops cleanly.
    stopping = threading.Event()
    on_stop_signals(stopping.set)
    node = check_node_id(args.node, "node")
    if args.script:
        try:
            lines = sys.stdin if args.script == "-" else Path(args.script).open()  # noqa: SIM115
        except OSError as error:
            raise MalformedInput(f"cannot read: {error}", field="script") from error
        readings = read_script(lines, args.script)
        seats = args.seats
        if seats is None:
            raise MalformedInput("required with --script", field="seats")
    else:
        if args.table < 2:
            raise MalformedInput("a table has at least 2 seats", field="table")
        readings, registry = simulated_readings(args.seed, args.table, args.noise, args.rate, node)
        seats = args.seats or tuple(range(args.table))
        if args.registry_out:
            Path(args.registry_out).write_text(json.dumps(registry, indent=1, sort_keys=True))
    hello = Hello(node=node, fw=args.fw, seats=seats)
    transport = _transport(args, hello)
    virtual = VirtualNode(
        hello, transport, speed=args.speed, hello_every=args.hello_every, on_change=args.on_change
    )
    virtual.stopping = stopping
    print(json.dumps({"event": "ready", "node": node, "seats": list(seats)}), file=sys.stderr)
    sys.stderr.flush()
    try:
        played = virtual.run(readings, linger=args.linger)
    finally:
        transport.close()
    print(json.dumps({"event": "done", "played": played, "sent": virtual.frames}), file=sys.stderr)
    return 0
