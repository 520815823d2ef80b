"""``kill -9`` of ``companion serve`` in the middle of a Course, then a restart: same state, and
every message a client was shown is in the journal (nothing shown was lost)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

from serve_process import served_port, start_serve

from companion.store.journal import JournalStore


def start(data: Path, pace: float) -> tuple[subprocess.Popen, str]:
    process = start_serve(data, "--virtual", "engine", "--pace", str(pace))
    return process, f"http://127.0.0.1:{served_port(process)}"


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def listen(url: str, seen: list[dict]) -> None:
    """Keep every SSE snapshot until the server dies."""
    try:
        with urllib.request.urlopen(url, timeout=30) as stream:
            for raw in stream:
                line = raw.decode()
                if line.startswith("data: "):
                    seen.append(json.loads(line[6:]))
    except OSError:
        return  # the server was killed


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)
    process.stdout.close()


def test_kill9_mid_course_then_restart(tmp_path):
    process, base = start(tmp_path, pace=0.02)
    seen: list[dict] = []
    try:
        listener = threading.Thread(
            target=listen, args=(f"{base}/api/stream?viewer=public", seen), daemon=True
        )
        listener.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if seen and seen[-1]["seq"] >= 40 and seen[-1]["view"]["stage"] == "turns":
                break
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)  # mid-Course: the regular turns are going on
        process.wait(timeout=10)
        listener.join(timeout=10)
    finally:
        stop(process)
    shown = seen[-1]  # the last message a client saw (a few actions after the kill decision)
    assert shown["seq"] >= 40 and not shown["over"]
    with JournalStore(tmp_path / "journal.sqlite") as store:
        stored = store.entries(shown["game_id"])
    # Everything shown had been committed first: no event a client saw was lost.
    assert stored[-1].seq >= shown["seq"]
    assert [e.seq for e in stored] == list(range(len(stored)))

    process, base = start(tmp_path, pace=3600)  # restarted; the virtual table now stands still
    try:
        again = get(f"{base}/api/state")
        assert again["game_id"] == shown["game_id"]
        assert again["seq"] == stored[-1].seq
        if again["seq"] == shown["seq"]:  # killed after publishing: exactly what was shown
            assert again["view"] == shown["view"]
        assert again["view"]["course"] == shown["view"]["course"]
        process.send_signal(signal.SIGTERM)  # a clean stop this time
        assert process.wait(timeout=20) == 0
    finally:
        stop(process)
