"""``companion enroll`` at a terminal: the Host's keys typed on stdin of a real process (Enter
confirms, ``s`` skips, ``r`` restarts, ``q`` quits), every wait bounded by a timeout."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 30.0


class Terminal:
    """``companion enroll`` in a subprocess; :meth:`expect` waits for a line containing a text."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "enroll", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, text: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r} in:\n" + "\n".join(self.seen))

    def type(self, keys: str) -> None:
        self.process.stdin.write(keys + "\n")
        self.process.stdin.flush()

    def finish(self) -> tuple[int, str]:
        try:
            self.process.stdin.close()
            status = self.process.wait(timeout=TIMEOUT)
            rest = []
            while (line := self.lines.get(timeout=TIMEOUT)) is not None:
                rest.append(line)
            return status, "\n".join(rest)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdout.close()
            self.process.stderr.close()


def test_confirm_restart_skip_and_quit(tmp_path):
    terminal = Terminal(
        "--virtual", "5", "--speed", "0", "--houses", "de_miceti", "--data-dir", str(tmp_path)
    )
    try:
        terminal.expect("[1/6] place the De Miceti coaster ring alone on seat 0's reader")
        terminal.expect("the simulated hands are done")
        terminal.type("r")
        terminal.expect("restarted")
        terminal.expect("De Miceti coaster ring: 1 / 1")
        terminal.expect("the simulated hands are done")
        terminal.type("")
        terminal.expect("confirmed 1 of 1 expected")
        terminal.expect("[2/6] place every Wine token (21)")
        terminal.type("s")
        terminal.expect("skipped")
        terminal.expect("[3/6] place every Poison token (15)")
        terminal.expect("Poison tokens: 15 / 15")
        terminal.expect("the simulated hands are done")
        terminal.type("")
        terminal.expect("confirmed 15 of 15 expected")
        terminal.expect("[4/6] place every Antidote token (14)")
        terminal.type("q")
    finally:
        status, rest = terminal.finish()
    assert status == 1
    assert "not enrolled yet: wine, antidote, unicorn_antidote, ogre_poison" in rest
    tags = json.loads((tmp_path / "registry.json").read_text())["tags"]
    kinds = sorted({t.get("token", t["kind"]) for t in tags.values()})
    assert (len(tags), kinds) == (16, ["poison", "ring"])


def test_enter_with_nothing_read_asks_again_and_end_of_input_quits(tmp_path):
    # So slow that the simulated hands have placed nothing yet when Enter comes.
    terminal = Terminal("--virtual", "1", "--speed", "0.0001", "--data-dir", str(tmp_path))
    try:
        terminal.expect("[1/11] place the De Miceti coaster ring alone")
        terminal.type("")
        terminal.expect("nothing read yet: place them on the reader, or s to skip")
        terminal.type("x")
        terminal.expect("? Enter: confirm, s: skip, r: restart, q: quit")
    finally:
        status, rest = terminal.finish()  # stdin closed: the Host has gone
    assert status == 1
    assert "0 tags enrolled" in rest
    assert not (tmp_path / "registry.json").exists()
