"""Benchmark: sensor-to-event latency through a real mosquitto, beside the bare broker round trip.

Starts its own mosquitto on a free loopback port (stopped at the end, whatever happens), then:

1. the bare broker round trip: a raw paho client publishes a small QoS 1 message, another raw
   paho client subscribed to it receives it (``--rtt-count`` messages, one at a time);
2. a simulated Course at ``--seats`` seats (default 12) read at ``--rate`` Hz (default 10) through
   noisy simulated readers, each snapshot published in real time by a virtual node
   (:class:`companion.links.mqtt.MqttNode`, retained QoS 0 as the firmware does) and received by
   the service's :class:`companion.links.mqtt.MqttLink`, whose sink feeds the real tracker. For
   every snapshot: sensor (publish) -> observation decoded by the link, and -> tracker done with
   it. For every pour event: first sensor read of the token -> the event (this one is dominated by
   the tracker's confirmation window, in sensor time, not by the link).

Everything runs in one process, so one clock (``time.perf_counter``) times both ends. Bounded:
``--seconds`` of the Course (default 20). Usage: ``.venv/bin/python scripts/bench_links.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from companion.core.games.goblets.tracking import Tracker
from companion.core.observations import Observation
from companion.links.broker import MOSQUITTO, MosquittoBroker
from companion.links.mqtt import MqttLink, MqttNode
from companion.links.wire import Hello, Snapshot
from companion.virtual import NOISE, Scenario, SimulatedReaders


def percentiles(samples: list[float]) -> str:
    """``p50 x ms  p99 y ms  (n=...)`` of samples in seconds."""
    if not samples:
        return "no samples"
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:7.2f} ms   p99 {p99 * 1000:7.2f} ms"
        f"   (n={len(ordered)})"
    )


def bare_round_trip(broker: MosquittoBroker, count: int) -> list[float]:
    """Raw paho publish -> broker -> raw paho subscriber, one message at a time."""
    received = threading.Event()
    arrival: list[float] = []

    def on_message(client, userdata, message):
        arrival.append(time.perf_counter())
        received.set()

    def client(name: str) -> paho.Client:
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=name, protocol=paho.MQTTv311)
        c.connect(broker.host, broker.port)
        c.loop_start()
        return c

    sub, pub = client("bench-sub"), client("bench-pub")
    subscribed = threading.Event()
    sub.on_subscribe = lambda *args: subscribed.set()
    sub.on_message = on_message
    sub.subscribe("bench/rtt", qos=1)
    samples = []
    try:
        if not subscribed.wait(10):
            raise RuntimeError("bench subscriber never subscribed")
        payload = b'{"node":"n1","seat":0,"seq":1,"t_ms":1,"tags":["04A1B2C3D4E5F6"]}'
        for _ in range(count):
            received.clear()
            start = time.perf_counter()
            pub.publish("bench/rtt", payload, qos=1)
            if not received.wait(5):
                raise RuntimeError("a round-trip message was lost")
            samples.append(arrival[-1] - start)
    finally:
        for c in (pub, sub):
            c.disconnect()
            c.loop_stop()
    return samples


class Pipeline:
    """The service side: MqttLink -> sink -> tracker, timing each snapshot and pour event."""

    def __init__(self, scenario: Scenario, seats: int) -> None:
        self.tracker = Tracker(scenario.registry, seats, initial_layout=scenario.initial_layout())
        self.sent: dict[tuple[int, int], float] = {}
        self.first_read: dict[str, float] = {}
        self.decoded: list[float] = []
        self.processed: list[float] = []
        self.pours: list[float] = []
        self.events: list[dict] = []
        self.received = 0
        self.lock = threading.Lock()

    def __call__(self, item) -> None:
        """The link's sink (runs in the link's network thread)."""
        if not isinstance(item, Observation):
            return
        decoded = item.t
        events = self.tracker.observe(item)
        done = time.perf_counter()
        with self.lock:
            self.received += 1
            sent = self.sent.get((item.seat, item.seq))
            if sent is not None:
                self.decoded.append(decoded - sent)
                self.processed.append(done - sent)
            for event in events:
                self.events.append(event)
                if event["event"] == "pour" and event["uid"] in self.first_read:
                    self.pours.append(done - self.first_read[event["uid"]])


def stream(broker: MosquittoBroker, args: argparse.Namespace) -> Pipeline:
    """Play the Course's snapshots in real time through the broker into the pipeline."""
    rng = random.Random(args.seed)
    scenario = Scenario.generate(rng, args.seats)
    readings = SimulatedReaders(scenario, NOISE[args.noise], rng, rate=args.rate, node="bench")
    pipeline = Pipeline(scenario, args.seats)
    link = MqttLink(broker.url, pipeline, client_id="bench-service", clock=time.perf_counter)
    node = MqttNode(broker.url, Hello("bench", "bench", tuple(range(args.seats))))
    link.start()
    node.start()
    try:
        if not (link.subscribed.wait(10) and node.connected.wait(10)):
            raise RuntimeError("could not connect to the benchmark broker")
        start = time.perf_counter()
        for obs in readings.snapshots():
            if obs.t > args.seconds:
                break
            delay = start + obs.t - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            seq = (obs.seq or 0) & 0xFFFF
            now = time.perf_counter()
            with pipeline.lock:
                pipeline.sent[(obs.seat, seq)] = now
                for uid in obs.tags:
                    pipeline.first_read.setdefault(uid, now)
            node.snapshot(Snapshot(obs.seat, seq, int(obs.t * 1000), tuple(obs.tags)))
        deadline = time.perf_counter() + 10
        while pipeline.received < len(pipeline.sent) and time.perf_counter() < deadline:
            time.sleep(0.05)
    finally:
        node.stop()
        link.stop()
    return pipeline


def main(argv: list[str] | None = None) -> int:
    """Run both measurements and print them side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=12)
    parser.add_argument("--rate", type=float, default=10.0, help="snapshots per seat per second")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of Course played")
    parser.add_argument("--noise", default="moderate", choices=sorted(NOISE))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rtt-count", type=int, default=500)
    args = parser.parse_args(argv)
    version = subprocess.run([MOSQUITTO, "-h"], capture_output=True, text=True, timeout=10)
    with tempfile.TemporaryDirectory() as tmp, MosquittoBroker(Path(tmp)) as broker:
        print(f"broker: {version.stdout.splitlines()[0]} on {broker.host}:{broker.port}")
        rtt = bare_round_trip(broker, args.rtt_count)
        pipeline = stream(broker, args)
    sent = len(pipeline.sent)
    print(
        f"stream: {args.seats} seats x {args.rate:g} Hz for {args.seconds:g} s "
        f"({args.noise} noise): {sent} snapshots sent, {pipeline.received} received"
        f" ({sent - min(sent, pipeline.received)} lost), {len(pipeline.events)} tracker events"
    )
    print(f"bare broker round trip (raw publish -> subscriber): {percentiles(rtt)}")
    print(f"sensor -> observation decoded by the link:         {percentiles(pipeline.decoded)}")
    print(f"sensor -> tracker done with the snapshot:          {percentiles(pipeline.processed)}")
    print(f"first read of a token -> its pour event:           {percentiles(pipeline.pours)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
