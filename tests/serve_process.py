"""``companion serve`` as a real subprocess, for the tests that need the whole process (a kill -9,
the command line, Chromium against it): start it and read the port from the URL it prints."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_serve(data: Path, *options: str, stderr: int = subprocess.DEVNULL) -> subprocess.Popen:
    """``companion serve --data DATA`` on 127.0.0.1, a free port, no mDNS, then ``options``.

    stdout is a text pipe (its first line is the URL: :func:`served_port`); the caller stops the
    process and closes its pipes.
    """
    command = [
        sys.executable,
        "-m",
        "companion.cli",
        "serve",
        "--data",
        str(data),
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--no-mdns",
        *options,
    ]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def served_port(process: subprocess.Popen) -> int:
    """The port in the URL ``companion serve`` prints on its first line (asserted to be there)."""
    line = process.stdout.readline()
    match = re.search(r"http://\S+:(\d+)/", line)
    assert match, f"companion serve did not start: {line!r}"
    return int(match[1])
