#!/usr/bin/env python3
"""Benchmark of the service: a reader snapshot on the real broker -> the public SSE message.

Prints, from one run on this machine:

- *snapshot -> public SSE*: a virtual node publishes seat snapshots (retained, QoS 1) for 12 seats
  at 10 Hz to a private mosquitto; the service's MQTT link, tracker, sensed session, SQLite journal
  (committed and synced) and SSE hub carry a pour to 20 SSE clients reading
  ``/api/stream?viewer=public`` over HTTP from the dashboard's server, like browsers. Latency is
  from the publish of the first snapshot that shows the new token to the arrival of the SSE
  message carrying its ``pour`` event, at every client. Raise Your Goblets has at most 6 places,
  so seats 0-5 carry the table and seats 6-11 are extra readers the table ignores (load on the
  broker and the link).
- *bare broker round trip* and *one journal commit* (``synchronous=FULL``), in the same run.
- *resident memory* of ``companion serve`` (virtual table, no vision) after it has run a while,
  and *time from start to first page* (process start -> ``GET /`` answered 200).

Usage: ``.venv/bin/python scripts/bench_service.py [--pours 30] [--clients 20]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as paho  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from companion import config as settings  # noqa: E402
from companion.core import registry  # noqa: E402
from companion.core.games.goblets.tags import Ring, TagRegistry, TokenTag  # noqa: E402
from companion.core.games.goblets.tokens import Token  # noqa: E402
from companion.links.broker import MosquittoBroker  # noqa: E402
from companion.links.mqtt import MqttNode  # noqa: E402
from companion.links.records import Hello, Snapshot  # noqa: E402
from companion.service import Service  # noqa: E402
from companion.service.hardware import HardwareTable  # noqa: E402
from companion.store.journal import JournalStore  # noqa: E402
from companion.web import create_app  # noqa: E402
from companion.web.server import WebServer  # noqa: E402

HOUSES = ("de_miceti", "mctoadery", "aconitiers", "wespendorf", "van_visser", "araneros")
SEATS, PLACES, RATE = 12, 6, 10.0


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def line(name: str, values: list[float]) -> str:
    """One result line in milliseconds."""
    ms = [v * 1000 for v in values]
    return f"{name:<44} p50 {pct(ms, 50):8.2f} ms   p99 {pct(ms, 99):8.2f} ms   (n={len(ms)})"


class SseClient(threading.Thread):
    """A browser-like SSE reader: keeps (arrival time, message) for every snapshot."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.received: list[tuple[float, dict]] = []
        self.ready = threading.Event()
        self.sock: socket.socket | None = None

    def run(self) -> None:
        """Connect, then read frames until the server closes."""
        sock = socket.create_connection(("127.0.0.1", self.port))
        self.sock = sock
        request = "GET /api/stream?viewer=public HTTP/1.1\r\nHost: x\r\n"
        sock.sendall((request + "Accept: text/event-stream\r\n\r\n").encode())
        buffer = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    return
                now = time.perf_counter()
                buffer += chunk
                while b"\n\n" in buffer:
                    frame, buffer = buffer.split(b"\n\n", 1)
                    for row in frame.split(b"\n"):
                        if row.startswith(b"data: "):
                            self.received.append((now, json.loads(row[6:])))
                            self.ready.set()
        except OSError:
            return

    def close(self) -> None:
        """Hang up."""
        if self.sock is not None:
            self.sock.close()


def broker_rtt(url_host: str, port: int, count: int) -> list[float]:
    """Raw paho publish -> mosquitto -> subscriber, one message at a time."""
    got = threading.Event()
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="bench-rtt")
    client.on_message = lambda c, u, m: got.set()
    client.connect(url_host, port)
    client.subscribe("bench/rtt", qos=1)
    client.loop_start()
    time.sleep(0.3)
    out = []
    for _ in range(count):
        got.clear()
        start = time.perf_counter()
        client.publish("bench/rtt", b"x", qos=1)
        got.wait(5)
        out.append(time.perf_counter() - start)
    client.loop_stop()
    client.disconnect()
    return out


def journal_commits(path: Path, count: int) -> list[float]:
    """One ``JournalStore.append`` (committed and synced) at a time."""
    out = []
    with JournalStore(path) as store:
        game = store.create_game("bench", {}, t=0.0)
        for n in range(count):
            start = time.perf_counter()
            store.append(game.id, {"type": "pass", "seat": n % 6}, t=float(n))
            out.append(time.perf_counter() - start)
    return out


def serve_figures(workdir: Path, wait: float) -> tuple[float, int]:
    """Time from start to first page and resident memory of ``companion serve`` (virtual)."""
    command = [
        sys.executable,
        "-m",
        "companion.cli",
        "serve",
        "--data",
        str(workdir / "serve"),
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--no-mdns",
    ]
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        port = int(process.stdout.readline().rsplit(":", 1)[1].strip(" /\n"))
        first_page = None
        while first_page is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    if sock.recv(64).startswith(b"HTTP/1.1 200"):
                        first_page = time.perf_counter() - start
            except OSError:
                time.sleep(0.01)
        time.sleep(wait)
        rss = 0
        for row in Path(f"/proc/{process.pid}/status").read_text().splitlines():
            if row.startswith("VmRSS:"):
                rss = int(row.split()[1])
        return first_page, rss
    finally:
        process.terminate()
        process.wait(timeout=20)


def main() -> int:
    """Run every measurement and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pours", type=int, default=30, help="timed pours")
    parser.add_argument("--clients", type=int, default=20, help="public SSE clients")
    parser.add_argument("--count", type=int, default=300, help="broker and journal samples")
    parser.add_argument("--serve-wait", type=float, default=10.0, help="seconds before RSS")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-service-"))
    broker = MosquittoBroker(workdir / "mosquitto").start()
    rng = random.Random(1)
    tags = TagRegistry()
    rings = {}
    for house in HOUSES:
        rings[house] = f"04{rng.getrandbits(48):012X}"
        tags.add(rings[house], Ring(house))
    pool = {kind: [] for kind in Token}
    for kind, count in ((Token.WINE, 21), (Token.POISON, 15), (Token.ANTIDOTE, 14)):
        for _ in range(count):
            uid = f"04{rng.getrandbits(48):012X}"
            tags.add(uid, TokenTag(kind))
            pool[kind].append(uid)

    config = settings.replace(
        settings.Config(),
        data_dir=str(workdir / "data"),
        **{"hardware.mqtt": broker.url, "web.threads": 32},
    )
    service = Service(config, games=registry.load_all())
    service.sense("readers")
    service.new_game("goblets", {"players": PLACES}, play="readers")
    hardware = HardwareTable(service, tags, mqtt=broker.url).start()
    server = WebServer(
        create_app(service, config),
        host="127.0.0.1",
        port=0,
        threads=8,
        streams_per_address=args.clients + 4,  # every client here is one loopback address
    ).start()
    clients = [SseClient(server.port) for _ in range(args.clients)]
    for client in clients:
        client.start()
    for client in clients:
        client.ready.wait(10)

    node = MqttNode(broker.url, Hello("bench", "bench", tuple(range(SEATS)))).start()
    node.connected.wait(10)
    seen = {seat: [rings[HOUSES[seat]]] if seat < PLACES else [] for seat in range(SEATS)}
    lock = threading.Lock()
    published: dict[str, float] = {}  # token uid -> first publish time
    stop = threading.Event()
    seq = [0] * SEATS

    def stream() -> None:
        """Every seat's snapshot at RATE Hz, like the readers under the table."""
        period = 1.0 / RATE
        next_t = time.perf_counter()
        while not stop.is_set():
            for seat in range(SEATS):
                with lock:
                    current = tuple(seen[seat])
                    new = [
                        uid for uid in current if uid not in published and uid not in rings.values()
                    ]
                    now = time.perf_counter()
                    for uid in new:
                        published[uid] = now
                seq[seat] = (seq[seat] + 1) & 0xFFFF
                node.snapshot(Snapshot(seat, seq[seat], int(now * 1000) & 0xFFFFFFFF, current))
            next_t += period
            stop.wait(max(0.0, next_t - time.perf_counter()))

    publisher = threading.Thread(target=stream, daemon=True)
    publisher.start()
    time.sleep(1.5)  # the layout settles: every Goblet at its House's place
    # The Host's initial pour by hand: 1 Antidote, 2 Poison, Wine for the rest.
    initial = [Token.ANTIDOTE, Token.POISON, Token.POISON] + [Token.WINE] * (PLACES - 3)
    for seat, kind in enumerate(initial):
        with lock:
            seen[seat].append(pool[kind].pop())
        time.sleep(0.4)
    time.sleep(2.0)
    kinds = [Token.WINE, Token.POISON, Token.ANTIDOTE]
    timed: list[str] = []
    for n in range(args.pours):
        kind = kinds[n % 3]
        if not pool[kind]:
            break
        uid = pool[kind].pop()
        seat = rng.randrange(PLACES)
        with lock:
            seen[seat].append(uid)
        timed.append(uid)
        time.sleep(0.6)  # a pour at a human pace
    time.sleep(2.0)
    stop.set()
    publisher.join()

    # Match each timed pour with the first SSE message carrying it, at every client.
    latencies: list[float] = []
    pours_seen = 0
    for client in clients:
        first: dict[int, float] = {}
        for arrived, message in client.received:
            for event in message.get("events", []):
                if event.get("event") == "pour" and event["seq"] not in first:
                    first[event["seq"]] = arrived
        pour_seqs = sorted(first)[-len(timed) :]
        pours_seen = max(pours_seen, len(pour_seqs))
        for uid, seq_no in zip(timed[-len(pour_seqs) :], pour_seqs, strict=False):
            latencies.append(first[seq_no] - published[uid])
    for client in clients:
        client.close()
    node.client.disconnect()
    node.client.loop_stop()
    hardware.stop()
    service.hub.close()
    server.stop()
    service.close()

    rtt = broker_rtt("127.0.0.1", broker.port, args.count)
    broker.stop()
    commits = journal_commits(workdir / "commits.sqlite", args.count)
    first_page, rss_kb = serve_figures(workdir, args.serve_wait)

    print(
        f"load: {SEATS} seats x {RATE:g} Hz on the broker ({PLACES} at the table), "
        f"{args.clients} public SSE clients, {len(timed)} pours, {pours_seen} seen"
    )
    print(line("snapshot published -> public SSE message:", latencies))
    print(line("bare broker round trip (QoS 1):", rtt))
    print(line("one journal commit (WAL, synchronous=FULL):", commits))
    print(
        f"{'companion serve resident memory:':<44} {rss_kb / 1024:8.1f} MiB (virtual table, "
        f"after {args.serve_wait:g} s)"
    )
    print(f"{'companion serve start -> first page:':<44} {first_page * 1000:8.0f} ms")
    print(f"(median of the SSE latency: {statistics.median(latencies) * 1000:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
