"""Where ``companion enroll`` reads from: a reader node, simulated hands, a script, the keys.

Each source has ``begin(step)`` (a step of :mod:`companion.core.games.goblets.enroll` begins),
``get(timeout)`` (the next item: an :class:`~companion.core.observations.Observation`, a link's node
event, one of the Host's keys, :data:`HANDS_DONE` or :data:`END`, else ``None`` after ``timeout``
seconds) and ``stop()``. :class:`Keyboard` is the terminal's keys, read in a thread. The dialogue
with the Host that takes these items is :class:`companion.commands.enroll.Session`.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, TextIO

from companion.core.errors import MalformedInput
from companion.core.observations import Observation
from companion.virtual import NOISE

HANDS_DONE = "hands done"
"""A source item: the simulated hands have placed everything of the step."""
END = "end"
"""A source item: the script (or the keyboard) has nothing more."""


class LinkSource:
    """A real reader node over MQTT or serial; its items are queued by the link's thread."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.items: queue.Queue[Any] = queue.Queue()
        if args.mqtt:
            from companion.links.mqtt import MqttLink

            self.link: Any = MqttLink(args.mqtt, self.items.put, client_id="cupbearer-enroll")
        else:
            from companion.links.serial import SerialLink

            self.link = SerialLink(args.serial, self.items.put)
        self.link.start()

    def begin(self, step: Any) -> None:
        """A step begins (the Host's hands need no telling)."""

    def get(self, timeout: float) -> Any:
        """The next item, or ``None`` after ``timeout`` seconds."""
        try:
            return self.items.get(timeout=timeout)
        except queue.Empty:
            return None

    def stop(self) -> None:
        """Stop the link."""
        self.link.stop()


class VirtualSource:
    """A simulated set and hands (:mod:`companion.virtual.enrollset`) at ``speed`` x real time."""

    def __init__(self, args: argparse.Namespace, houses: list[str]) -> None:
        from companion.virtual.enrollset import EnrollHands, VirtualSet

        rng = random.Random(args.virtual)
        self.hands = EnrollHands(VirtualSet(rng, houses), args.seat, NOISE[args.noise], rng)
        self.speed = args.speed
        self.readings: Iterator[Observation] | None = None
        self.pending: Observation | None = None
        self.start = time.monotonic()
        self.first: float | None = None

    def begin(self, step: Any) -> None:
        """The simulated hands start placing the step's tags."""
        self.readings, self.pending = self.hands.readings(step), None
        self.start, self.first = time.monotonic(), None  # the step's clock starts now

    def get(self, timeout: float) -> Any:
        """The next reading when it is due, :data:`HANDS_DONE` after the last, else ``None``."""
        if self.readings is None:
            time.sleep(timeout)
            return None
        if self.pending is None:
            self.pending = next(self.readings, None)
            if self.pending is None:
                self.readings = None
                return HANDS_DONE
        if self.speed > 0:
            self.first = self.pending.t if self.first is None else self.first
            wait = self.start + (self.pending.t - self.first) / self.speed - time.monotonic()
            if wait > 0:
                time.sleep(min(wait, timeout))
                if wait > timeout:
                    return None
        item, self.pending = self.pending, None
        return item

    def stop(self) -> None:
        """Nothing to stop."""


class ScriptSource:
    """JSON lines: observations and the Host's keys; a bad line is reported and skipped."""

    def __init__(self, name: str, err: TextIO) -> None:
        try:
            self.file = sys.stdin if name == "-" else open(name, encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise MalformedInput(f"cannot read {name}: {error.strerror}", field="script") from None
        self.lines = enumerate(self.file, 1)
        self.err = err

    def begin(self, step: Any) -> None:
        """The script says itself what the Host does."""

    def get(self, timeout: float) -> Any:
        """The next observation or key, or :data:`END`."""
        for number, line in self.lines:
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                if isinstance(data, dict) and "step" in data:
                    if data["step"] not in ("confirm", "skip", "restart"):
                        raise MalformedInput("must be confirm, skip or restart", field="step")
                    return data["step"]
                return Observation.from_json(data)
            except (ValueError, MalformedInput) as error:
                print(f"companion enroll: script line {number}: {error}", file=self.err)
        return END

    def stop(self) -> None:
        """Close the file."""
        if self.file is not sys.stdin:
            self.file.close()


class Keyboard:
    """Lines typed at the terminal, read in a thread: ``confirm``, ``skip``, ``restart``,
    ``quit`` (also at the end of the input)."""

    WORDS = {"": "confirm", "s": "skip", "r": "restart", "q": "quit"}

    def __init__(self, stream: TextIO) -> None:
        self.keys: queue.Queue[str] = queue.Queue()
        self.stream = stream
        threading.Thread(target=self._read, name="enroll-keys", daemon=True).start()

    def _read(self) -> None:
        for line in self.stream:
            self.keys.put(self.WORDS.get(line.strip().lower()[:1], "?"))
        self.keys.put("quit")

    def get(self) -> str | None:
        """The next key, or ``None``."""
        try:
            return self.keys.get_nowait()
        except queue.Empty:
            return None
