"""A game night, compressed: does ``companion serve`` stay the same size and as quick for hours?

Usage: ``.venv/bin/python scripts/soak.py [--hours 4] [--speed 50] [--sample 10] [--clients 8]``

``companion serve`` runs as its own process on loopback with its default demo table at
``--speed`` times real time (simulated hands, simulated readers, the tracker, the journal: game
after game), so four hours of a table take ``hours * 3600 / speed`` seconds (288 s at 50x).
``--clients`` public SSE clients stay connected all along, as tablets and phones do. Every
``--sample`` seconds the script prints: the process's resident memory, the data directory's size,
the journal's entries and games, and the SSE latency of the messages received since the last
sample (from the journal time of the newest action to the message's arrival at the client; both
clocks are this machine's). Bounded and loopback only: the server and the clients stop at the
end. ``docs/benchmarks.md``, "A game night, compressed", quotes it.
"""

from __future__ import annotations

import argparse
import json
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # serve_process: how the tests start it too

from serve_process import served_port, start_serve  # noqa: E402


def rss_mib(pid: int) -> float:
    """The resident memory of process ``pid`` in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def folder_mib(folder: Path) -> float:
    """The size of every file under ``folder`` in MiB."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / (1024 * 1024)


def journal_counts(path: Path) -> tuple[int, int]:
    """(entries, games) in the journal file, read-only."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        entries = db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        return entries, games
    finally:
        db.close()


class Listener(threading.Thread):
    """One public SSE client: the latency of each snapshot carrying a new action."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.stop_event = stop
        self.latencies: list[float] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        """Read the stream until stopped, noting each new action's latency."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.sendall(b"GET /api/stream?viewer=public HTTP/1.1\r\nHost: t\r\n\r\n")
        buffer, seen = b"", -1
        while not self.stop_event.is_set():
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                break
            arrived = time.time()
            buffer += chunk
            while b"\n\n" in buffer:
                frame, buffer = buffer.split(b"\n\n", 1)
                for line in frame.split(b"\n"):
                    if line.startswith(b"data: "):
                        message = json.loads(line[6:])
                        if message.get("seq", -1) != seen and "at" in message:
                            seen = message["seq"]
                            with self.lock:
                                self.latencies.append(arrived - message["at"])
        sock.close()

    def take(self) -> list[float]:
        """The latencies since the last call."""
        with self.lock:
            out, self.latencies = self.latencies, []
        return out


def main() -> None:
    """Run the night and print a line per sample."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=4.0)
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    seconds = args.hours * 3600 / args.speed
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / "data"
        settings = Path(work) / "settings.toml"
        settings.write_text("[virtual]\nrestart_after = 2.0\n")
        server = start_serve(data, "--speed", str(args.speed), "--config", str(settings))
        port = served_port(server)
        stop = threading.Event()
        listeners = [Listener(port, stop) for _ in range(args.clients)]
        for listener in listeners:
            listener.start()
        print(
            f"{args.hours:g} h of table at {args.speed:g}x: {seconds:.0f} s, "
            f"{args.clients} SSE clients, a sample every {args.sample:g} s"
        )
        print("   t s  table h  RSS MiB  data MiB  entries  games  SSE p50 ms  SSE p99 ms")
        begun = time.monotonic()
        try:
            while (elapsed := time.monotonic() - begun) < seconds:
                time.sleep(min(args.sample, seconds - elapsed))
                elapsed = time.monotonic() - begun
                latencies = sorted(x for listener in listeners for x in listener.take())
                entries, games = journal_counts(data / "journal.sqlite")
                p50 = statistics.median(latencies) * 1e3 if latencies else float("nan")
                p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1e3 if latencies else p50
                print(
                    f"{elapsed:6.0f}  {elapsed * args.speed / 3600:7.2f}  "
                    f"{rss_mib(server.pid):7.1f}  {folder_mib(data):8.2f}  {entries:7d}  "
                    f"{games:5d}  {p50:10.1f}  {p99:10.1f}",
                    flush=True,
                )
        finally:
            stop.set()
            server.terminate()
            server.wait(timeout=30)
            server.stdout.close()


if __name__ == "__main__":
    main()
