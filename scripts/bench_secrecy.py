"""Timing as a channel: does any answer's time depend on what the asker may not see?

Usage: ``.venv/bin/python scripts/bench_secrecy.py [--requests N] [--seed S]``

Two companions hold the same Raise Your Goblets game right after its first initial pour, except
for where the pour put each token (the two initial pours are indistinguishable for everyone but
the Goblets). The Host sends the probes a curious player would, interleaved: a reveal naming table
A's true contents (right at A, wrong at B), a reveal with a guess wrong at both, the Host entering
a Pour. Each answer's time is measured on loopback HTTP (the dashboard's own server). A server's own
speed differs a little from the other's, so the figure that matters is, at each table, the time
of "A's contents" minus the time of "a wrong guess": a leak would make it differ between A (where
the guess is right) and B (where it is wrong). The answers themselves must be the same at both.
The ``docs/benchmarks.md`` section "Secrecy" quotes this script.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion import config
from companion.core import registry
from companion.core.game import CHANCE
from companion.service import Service
from companion.store.journal import JournalStore
from companion.web import create_app
from companion.web.server import WebServer

PIN = "2468"


def opening(seed: int) -> tuple[list[dict], list[dict]]:
    """Two journals up to the first seat's turn, differing only in the initial pour's order."""
    rng = random.Random(seed)
    state = registry.get("goblets").new_state({"players": 4, "characters": []})
    actions = []
    while state.to_move() is CHANCE:
        action = state.sample_chance(rng)
        state.apply(action)
        actions.append(action)
    other = [dict(a) for a in actions]
    pour = next(a for a in other if a["type"] == "initial_pour")
    tokens = list(pour["tokens"])
    while tokens == pour["tokens"]:
        rng.shuffle(tokens)
    pour["tokens"] = tokens
    return actions, other


class Served:
    """A companion holding ``actions`` on the dashboard's server (loopback), the Host logged in."""

    def __init__(self, directory: Path, actions: list[dict]) -> None:
        directory.mkdir(parents=True)
        store = JournalStore(directory / "journal.sqlite")
        record = store.create_game(
            "goblets", {"players": 4, "characters": []}, t=0.0, join_code="B"
        )
        for action in actions:
            store.append(record.id, action, t=0.0, actor="chance")
        settings = config.replace(config.Config(), data_dir=str(directory), **{"host.pin": PIN})
        self.service = Service(settings, store=store, games=registry.load_all())
        self.service.resume()
        app = create_app(self.service, settings)
        self.server = WebServer(app, host="127.0.0.1", port=0, threads=8).start()
        self.connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        self.cookie = ""
        self.csrf = json.loads(self.request("GET", "/api/csrf")[1])["csrf"]
        self.request("POST", "/api/host/login", {"pin": PIN})

    def request(self, method: str, url: str, body: dict | None = None) -> tuple[int, bytes, float]:
        """One request on the kept-alive connection: status, body, seconds."""
        headers = {"Content-Type": "application/json", "Cookie": self.cookie}
        if method == "POST":
            headers["X-CSRF-Token"] = self.csrf
        data = json.dumps(body).encode() if body is not None else None
        start = time.perf_counter()
        self.connection.request(method, url, body=data, headers=headers)
        reply = self.connection.getresponse()
        payload = reply.read()
        elapsed = time.perf_counter() - start
        for value in reply.headers.get_all("Set-Cookie") or []:
            pair = value.split(";", 1)[0]
            if pair.startswith("cupbearer_host="):
                self.cookie = pair
        if url == "/api/host/login":
            self.csrf = json.loads(payload)["csrf"]
        return reply.status, payload, elapsed

    def close(self) -> None:
        """Stop the server and close the journal."""
        self.connection.close()
        self.service.hub.close()
        self.server.stop()
        self.service.close()


def summary(samples: list[float]) -> tuple[float, float]:
    """Median and p99 of ``samples``."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.99 * (len(ordered) - 1))]


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=600, help="timed requests per probe")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    first, second = opening(args.seed)
    with tempfile.TemporaryDirectory() as work:
        tables = [Served(Path(work) / "a", first), Served(Path(work) / "b", second)]
        try:
            state = tables[0].service.table.state
            seat = state.to_move()
            truth = [state.contents_at(p) for p in range(len(state.places))]
            probes = {
                "reveal naming table A's contents": {
                    "action": {"type": "reveal", "seat": seat, "goblets": truth},
                    "mode": "enforcing",
                },
                "reveal with a wrong guess": {
                    "action": {"type": "reveal", "seat": seat, "goblets": [{"poison": 9}] * 4},
                    "mode": "enforcing",
                },
                "the Host enters a Pour": {
                    "action": {"type": "pour", "seat": seat, "goblet": 0, "token": "poison"},
                    "mode": "recording",
                },
            }
            print(f"{args.requests} timed requests per probe and table, interleaved, loopback HTTP")
            names = list(probes)
            times = {(t, n): [] for t in range(2) for n in names}
            answers = {(t, n): set() for t in range(2) for n in names}
            for _ in range(20):  # warm up
                for table in tables:
                    for body in probes.values():
                        table.request("POST", "/api/host/act", body)
            for _ in range(args.requests):
                for which, table in enumerate(tables):
                    for name in names:
                        status, payload, elapsed = table.request(
                            "POST", "/api/host/act", probes[name]
                        )
                        times[which, name].append(elapsed)
                        answers[which, name].add((status, payload))
            for name in names:
                (ma, pa), (mb, pb) = summary(times[0, name]), summary(times[1, name])
                same = "same" if answers[0, name] == answers[1, name] else "DIFFERENT"
                print(
                    f"{name:34s} A p50 {ma * 1e3:6.3f} ms p99 {pa * 1e3:6.3f} ms | "
                    f"B p50 {mb * 1e3:6.3f} ms p99 {pb * 1e3:6.3f} ms | answers {same}"
                )
            right, wrong = names[0], names[1]
            deltas = [
                statistics.median(times[t, right]) - statistics.median(times[t, wrong])
                for t in range(2)
            ]
            halves = [
                abs(
                    statistics.median(times[0, wrong][::2])
                    - statistics.median(times[0, wrong][1::2])
                )
            ]
            print(
                f"A's contents minus a wrong guess: at A (right) {deltas[0] * 1e6:+6.1f} us, "
                f"at B (wrong) {deltas[1] * 1e6:+6.1f} us; difference "
                f"{abs(deltas[0] - deltas[1]) * 1e6:5.1f} us "
                f"(one table's own halves differ by {halves[0] * 1e6:5.1f} us)"
            )
        finally:
            for table in tables:
                table.close()


if __name__ == "__main__":
    main()
