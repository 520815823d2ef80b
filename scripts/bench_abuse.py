"""The dashboard under a guest's load: does the Host page still answer, and how fast?

Usage: ``.venv/bin/python scripts/bench_abuse.py [--streams 200] [--slow 100] [--requests 300]``

``companion serve`` runs as its own process on loopback (the default demo table moving). A guest
device (its sockets from 127.0.0.2) opens ``--streams`` SSE streams and ``--slow`` slowloris
connections (headers begun, one byte every few seconds, never finished); the tablet (127.0.0.1),
logged in as the Host, then loads the Host page ``--requests`` times, one after another, and the
answer times are printed (p50, p99, max), with how many of the guest's streams the server took.
Run twice: with the default limits (a device holds at most 16 streams and 48 connections) and
with the limits raised so the server takes every stream (what streams cost when they are taken).
Loopback only, bounded: every socket is closed at the end. ``docs/benchmarks.md`` quotes it.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # serve_process: how the tests start it too

from serve_process import served_port, start_serve  # noqa: E402

PIN = "2468"
GUEST = "127.0.0.2"


def start(data: Path, limits: dict[str, int]) -> tuple[subprocess.Popen, int]:
    """``companion serve`` with ``limits`` in its settings; returns it and its port."""
    data.mkdir(parents=True)
    (data / "host_pin").write_text(PIN + "\n")
    settings = data / "settings.toml"
    settings.write_text("[web]\n" + "".join(f"{k} = {v}\n" for k, v in limits.items()))
    process = start_serve(data, "--config", str(settings))
    return process, served_port(process)


def guest_streams(port: int, count: int) -> tuple[list[socket.socket], int]:
    """``count`` SSE streams from the guest; returns them and how many the server took."""
    socks, taken = [], 0
    for _ in range(count):
        try:
            sock = socket.create_connection(
                ("127.0.0.1", port), timeout=10, source_address=(GUEST, 0)
            )
            sock.sendall(b"GET /api/stream?viewer=public HTTP/1.1\r\nHost: t\r\n\r\n")
            taken += b" 200 " in sock.recv(65536).split(b"\r\n")[0]
            socks.append(sock)
        except OSError:
            pass
    return socks, taken


def slowloris(port: int, count: int, stop: threading.Event) -> list[socket.socket]:
    """``count`` connections sending headers a byte at a time, never finishing them."""
    socks = []
    for _ in range(count):
        try:
            sock = socket.create_connection(
                ("127.0.0.1", port), timeout=10, source_address=(GUEST, 0)
            )
            sock.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n")
            socks.append(sock)
        except OSError:
            pass

    def dribble() -> None:
        while not stop.wait(2.0):
            for sock in socks:
                with contextlib.suppress(OSError):
                    sock.sendall(b"X")

    threading.Thread(target=dribble, daemon=True).start()
    return socks


def host_page_times(port: int, requests: int) -> list[float]:
    """Seconds per GET /host, logged in, on a kept-alive connection from the tablet."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=("127.0.0.1", 0)
    )
    conn.request("GET", "/api/csrf")
    reply = conn.getresponse()
    cookie = reply.headers["Set-Cookie"].split(";", 1)[0]
    csrf = json.loads(reply.read())["csrf"]
    conn.request(
        "POST",
        "/api/host/login",
        body=json.dumps({"pin": PIN}),
        headers={"Content-Type": "application/json", "X-CSRF-Token": csrf, "Cookie": cookie},
    )
    reply = conn.getresponse()
    cookie = reply.headers["Set-Cookie"].split(";", 1)[0]
    reply.read()
    times = []
    for _ in range(requests):
        begun = time.perf_counter()
        conn.request("GET", "/host", headers={"Cookie": cookie})
        reply = conn.getresponse()
        page = reply.read()
        times.append(time.perf_counter() - begun)
        assert reply.status == 200 and b'id="undo"' in page, "not the Host's page"
    conn.close()
    return times


def run(limits: dict[str, int], args: argparse.Namespace, label: str) -> None:
    """One run under ``limits``; prints its figures."""
    with tempfile.TemporaryDirectory() as work:
        process, port = start(Path(work) / "data", limits)
        stop = threading.Event()
        streams: list[socket.socket] = []
        slow: list[socket.socket] = []
        try:
            time.sleep(1.0)
            quiet = host_page_times(port, args.requests)
            streams, taken = guest_streams(port, args.streams)
            slow = slowloris(port, args.slow, stop)
            loaded = host_page_times(port, args.requests)
        finally:
            stop.set()
            for sock in streams + slow:
                sock.close()
            process.terminate()
            process.wait(timeout=30)
            process.stdout.close()
    for name, times in (("no load", quiet), (f"{args.streams} streams + {args.slow} slow", loaded)):
        ordered = sorted(times)
        p99 = ordered[int(0.99 * (len(ordered) - 1))]
        print(
            f"{label:28s} {name:26s} Host page p50 {statistics.median(ordered) * 1e3:6.1f} ms "
            f"p99 {p99 * 1e3:6.1f} ms max {ordered[-1] * 1e3:6.1f} ms (n={len(ordered)})"
        )
    print(f"{label:28s} guest streams taken: {taken} of {args.streams}")


def main() -> None:
    """Measure with the default limits, then with every stream taken."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--slow", type=int, default=100)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    run({}, args, "default limits")
    raised = {"streams_per_address": args.streams + 10, "connections_per_address": 1000}
    run(raised, args, "every stream taken")


if __name__ == "__main__":
    main()
