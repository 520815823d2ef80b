"""``companion enroll``: register a physical set's tags by scanning it on one seat's reader.

``companion enroll --seat N (--mqtt URL | --serial PORT | --virtual SEED | --script FILE)``
walks through the steps of :mod:`companion.core.games.goblets.enroll` (each House's Coaster ring
alone, then every token of each kind) and prints the count read so far against the rulebook's count.
At the terminal: Enter confirms a step (a second Enter confirms with fewer tags than expected),
``s`` skips it, ``r`` restarts it, ``q`` quits. Each confirmed step is saved at once to
``<data-dir>/registry.json`` (written to a temporary file, fsynced, renamed), so an interrupted
enrollment resumes where it stopped; ``--fresh`` starts over. ``companion serve`` reads that file.

``--virtual SEED`` scans a simulated set (:mod:`companion.virtual.enrollset`) with simulated
hands, so the enrollment can be tried without hardware. ``--script FILE`` (``-``: stdin) reads
JSON lines instead of a reader and a keyboard: observations ``{"t": s, "seat": i, "tags":
[UID, ...]}`` and the Host's keys ``{"step": "confirm" | "skip" | "restart"}``. ``--yes``
confirms a step by itself once its expected count is read (and, with ``--virtual``, when the
simulated hands are done). Exit status: 0 when every step has tags, 1 when some are left (run
again to resume), 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.commands._enroll_sources import (
    END,
    HANDS_DONE,
    Keyboard,
    LinkSource,
    ScriptSource,
    VirtualSource,
)
from companion.core.errors import MalformedInput
from companion.core.games.goblets.enroll import Enrollment, Stability
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation
from companion.links.events import NodeHello, NodeOffline, NodeOnline
from companion.store.files import write_json
from companion.virtual import NOISE

KEYS = "Enter: confirm, s: skip, r: restart, q: quit"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``enroll`` subcommand."""
    parser = subparsers.add_parser(
        "enroll",
        help="register a physical set's rings and tokens by scanning them on a seat's reader",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seat", type=int, default=0, help="the seat whose reader scans (0)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--mqtt", metavar="URL", help="read the reader nodes from this broker")
    source.add_argument("--serial", metavar="PORT", help="read a reader node on this port")
    source.add_argument("--virtual", metavar="SEED", type=int, help="scan a simulated set")
    source.add_argument("--script", metavar="FILE", help="JSON lines of observations and keys")
    parser.add_argument(
        "--data-dir", "--data", dest="data_dir", type=Path, default=None,
        help="data directory; the registry is DIR/registry.json (default ./data, and"
        " ./data/virtual with --virtual so a simulated set never replaces the real one)",
    )  # fmt: skip
    parser.add_argument(
        "--houses", nargs="+", help=f"the Houses whose rings to enroll (default all: {HOUSE_IDS})"
    )
    parser.add_argument("--yes", action="store_true", help="confirm steps without asking")
    parser.add_argument("--fresh", action="store_true", help="start over (ignore the registry)")
    parser.add_argument("--stable", type=int, default=3, help="reads that make a tag count (3)")
    parser.add_argument("--noise", default="moderate", choices=sorted(NOISE), help="--virtual")
    parser.add_argument("--speed", type=float, default=1.0, help="--virtual: x real time; 0 fast")
    parser.set_defaults(func=run)


# -- the registry file --------------------------------------------------------------------------


def load_registry(path: Path) -> TagRegistry | None:
    """The partial registry to resume, or ``None`` when there is none yet."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise MalformedInput(f"{path}: {error}", field="registry") from None
    return TagRegistry.from_json(data)


def save_registry(path: Path, registry: TagRegistry) -> None:
    """Write ``registry`` atomically: a temporary file, fsynced, renamed over ``path``."""
    write_json(path, registry.to_json(), sort_keys=True)


# -- the session --------------------------------------------------------------------------------


class Session:
    """One run of the enrollment: a source, the keys, the procedure and the registry file."""

    def __init__(
        self,
        enrollment: Enrollment,
        source: Any,
        path: Path,
        out: TextIO,
        keyboard: Keyboard | None,
        yes: bool,
    ) -> None:
        self.enrollment = enrollment
        self.source = source
        self.path = path
        self.out = out
        self.keyboard = keyboard
        self.yes = yes
        self.tty = keyboard is not None and out.isatty()
        self.shown: tuple[int, int] | None = None
        self.warned_short = False
        self.heard_seat = False

    def say(self, text: str) -> None:
        """One line for the Host."""
        if self.tty and self.shown is not None:
            self.out.write("\n")
        self.out.write(text + "\n")
        self.out.flush()
        if self.tty:
            self.shown = None  # the count line was left behind: write it again below

    def announce(self) -> None:
        """Show the current step and tell the source it begins."""
        progress = self.enrollment.progress()
        self.warned_short = False
        if progress["done"]:
            return
        keys = f"  ({KEYS})" if self.keyboard is not None else ""
        self.say(f"[{progress['step']}/{progress['steps']}] {progress['prompt']}{keys}")
        self.show_count(force=True)
        self.source.begin(self.enrollment.current)

    def show_count(self, force: bool = False) -> None:
        """The count read so far against the expected count (a new line only on a change)."""
        progress = self.enrollment.progress()
        if progress["done"]:
            return
        counts = (progress["count"], progress["glimpsed"])
        if counts == self.shown and not force:
            return
        line = f"  {progress['label']}: {progress['count']} / {progress['expected']}"
        if progress["glimpsed"]:
            line += f"  ({progress['glimpsed']} more not read steadily yet)"
        if self.tty:
            self.out.write("\r\033[K" + line)
        else:
            self.out.write(line + "\n")
        self.out.flush()
        self.shown = counts

    def run(self) -> bool:
        """Scan until every step is done, the script ends or the Host quits; True when done."""
        self.announce()
        while not self.enrollment.is_done:
            key = self.keyboard.get() if self.keyboard is not None else None
            if key is not None:
                if key == "quit":
                    return False
                self.key(key)
                continue
            item = self.source.get(0.05)
            if item == END:
                return False
            self.take(item)
        return True

    def take(self, item: Any) -> None:
        """One item from the source."""
        if isinstance(item, Observation):
            if item.seat == self.enrollment.seat and not self.heard_seat:
                self.heard_seat = True
                self.say(f"  reading seat {item.seat}")
            for notice in self.enrollment.observe(item):
                self.notice(notice)
            self.show_count()
            progress = self.enrollment.progress()
            if self.yes and progress["count"] >= progress["expected"]:
                self.key("confirm", force=True)
        elif item == HANDS_DONE:
            if self.yes:
                self.key("confirm", force=True)
            elif self.keyboard is not None:
                self.say("  the simulated hands are done: Enter to confirm, r to scan again")
        elif item in ("confirm", "skip", "restart"):
            self.key(item, force=True)
        elif isinstance(item, NodeHello):
            self.say(f"  node {item.node} ({item.fw}) reads seats {list(item.seats)}")
        elif isinstance(item, NodeOnline | NodeOffline):
            state = "online" if isinstance(item, NodeOnline) else f"offline ({item.reason})"
            self.say(f"  node {item.node or item.link} {state}")

    def key(self, key: str, force: bool = False) -> None:
        """The Host's key: confirm, skip or restart the current step."""
        enrollment = self.enrollment
        progress = enrollment.progress()
        if key == "confirm":
            count, expected = progress["count"], progress["expected"]
            if count == 0 and not force:
                self.say("  nothing read yet: place them on the reader, or s to skip")
                return
            if count < expected and not force and not self.warned_short:
                self.warned_short = True
                self.say(
                    f"  only {count} of {expected} read: Enter again to confirm with fewer, "
                    "or lift and re-place them in handfuls"
                )
                return
            notices = enrollment.confirm()
            save_registry(self.path, enrollment.registry)
        elif key == "skip":
            notices = enrollment.skip()
        elif key == "restart":
            notices = enrollment.restart()
        else:
            self.say(f"  ? {KEYS}")
            return
        for notice in notices:
            self.notice(notice)
        if key == "restart":
            self.warned_short = False
            self.source.begin(enrollment.current)
            self.show_count(force=True)
        else:
            self.announce()

    def notice(self, notice: dict[str, Any]) -> None:
        """Say what the procedure noticed (collected tags only move the count)."""
        kind = notice["notice"]
        if kind == "conflict":
            enrolled = notice["enrolled"]
            what = enrolled.get("goblet") or enrolled.get("token")
            self.say(
                f"  conflict: {notice['uid']} is enrolled already as {enrolled['kind']} "
                f"{what}: not taken (take it off the reader)"
            )
        elif kind == "elsewhere":
            self.say(
                f"  {notice['uid']} is read better at seat {notice['seat']}: not taken "
                "(keep the other readers clear)"
            )
        elif kind == "confirmed":
            self.say(
                f"  confirmed {notice['count']} of {notice['expected']} expected; saved {self.path}"
            )
        elif kind in ("skipped", "restarted"):
            self.say(f"  {kind}")


def _houses(args: argparse.Namespace) -> list[str]:
    if not args.houses:
        return list(HOUSE_IDS)
    return [h.strip() for item in args.houses for h in item.split(",") if h.strip()]


def run(args: argparse.Namespace) -> int:
    """Run the enrollment; returns 0 when every step has tags, else 1."""
    data_dir = args.data_dir
    if data_dir is None:
        # A tried-out simulated set must not become the registry `companion serve --mqtt` reads.
        data_dir = Path("./data/virtual") if args.virtual is not None else Path("./data")
    path = data_dir / "registry.json"
    houses = _houses(args)
    registry = None if args.fresh else load_registry(path)
    if args.virtual is None and args.speed != 1.0:
        raise MalformedInput("only with --virtual", field="speed")
    if args.virtual is not None and args.speed < 0:
        raise MalformedInput("must be 0 or more", field="speed")
    enrollment = Enrollment(args.seat, houses, registry, Stability(stable=args.stable))
    out = sys.stdout
    if enrollment.resumed:
        names = ", ".join(step.name for step in enrollment.resumed)
        print(f"resuming {path} ({len(enrollment.registry)} tags; done: {names})", file=out)
    if args.script is not None:
        source: Any = ScriptSource(args.script, sys.stderr)
    elif args.virtual is not None:
        source = VirtualSource(args, houses)
    else:
        source = LinkSource(args)
        print(f"waiting for seat {args.seat}'s reader ...", file=out, flush=True)
    interactive = args.script is None and not args.yes
    keyboard = Keyboard(sys.stdin) if interactive else None
    session = Session(enrollment, source, path, out, keyboard, args.yes)
    try:
        session.run()
    finally:
        source.stop()
    left = [s.name for s in enrollment.steps if not s.is_done_in(enrollment.registry)]
    session.say(f"{len(enrollment.registry)} tags enrolled in {path}")
    if left:
        session.say(f"not enrolled yet: {', '.join(left)} (run companion enroll again to resume)")
        return 1
    return 0
