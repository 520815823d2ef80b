"""``companion enroll --mqtt``: a simulated set scanned by a reader node on a real mosquitto."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from test_enroll_interactive import ROOT, TIMEOUT, Terminal

from companion.core.games.goblets.enroll import script
from companion.core.games.goblets.tags import TagRegistry
from companion.links.mqtt import MqttNode
from companion.links.records import Hello, Snapshot
from companion.virtual import NOISE
from companion.virtual.enrollset import EnrollHands, VirtualSet


def test_a_node_on_the_broker_is_enrolled_with_yes(tmp_path, mosquitto):
    rng = random.Random(11)
    tagset = VirtualSet(rng, houses=["de_miceti", "van_visser"])
    hands = EnrollHands(tagset, 0, NOISE["moderate"], rng)
    node = MqttNode(mosquitto.url, Hello("n1", "test", (0, 1))).start()
    assert node.connected.wait(TIMEOUT)
    terminal = Terminal(
        "--mqtt",
        mosquitto.url,
        "--yes",
        "--houses",
        "de_miceti",
        "van_visser",
        "--data-dir",
        str(tmp_path),
    )
    try:
        terminal.expect("node n1 (test) reads seats [0, 1]")  # subscribed: the hello is retained
        for step in script(["de_miceti", "van_visser"]):
            for obs in hands.readings(step):
                seq = obs.seq & 0xFFFF
                node.snapshot(Snapshot(obs.seat, seq, int(obs.t * 1000), tuple(obs.tags)), 5.0)
        terminal.expect("tags enrolled")
    finally:
        node.stop()
        status, rest = terminal.finish()
    assert status == 0, rest
    saved = json.loads((tmp_path / "registry.json").read_text())
    assert TagRegistry.from_json(saved) == tagset.registry()


def test_an_unreachable_broker_is_waited_for_not_fatal(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "enroll", "--mqtt", "mqtt://127.0.0.1:1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(tmp_path),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    out, _ = process.communicate("q\n", timeout=TIMEOUT)
    assert process.returncode == 1
    assert "waiting for seat 0's reader" in out
    assert "0 tags enrolled" in out
