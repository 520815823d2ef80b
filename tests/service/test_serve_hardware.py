"""``companion serve --mqtt URL``: the tag registry is required (a clear error without one), and
with one the service reads the broker and records a sensed game."""

from __future__ import annotations

import json
import random
import subprocess
import time
import urllib.request
from pathlib import Path

from serve_process import served_port, start_serve

from companion.virtual import Scenario


def serve(data: Path, url: str) -> subprocess.Popen:
    return start_serve(data, "--mqtt", url, stderr=subprocess.PIPE)


def test_without_a_registry_the_error_names_it(tmp_path):
    process = serve(tmp_path, "mqtt://127.0.0.1:1")
    _, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "registry" in err and "enroll" in err


def test_serve_reads_the_broker(tmp_path, mosquitto):
    scenario = Scenario.generate(random.Random(3), 4, specials=0.0)
    (tmp_path / "registry.json").write_text(json.dumps(scenario.registry.to_json()))
    process = serve(tmp_path, mosquitto.url)
    try:
        port = served_port(process)
        deadline = time.monotonic() + 20
        state = {}
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as r:
                state = json.loads(r.read())
            if state.get("sensed"):
                break
            time.sleep(0.2)
        assert state["sensed"] and not state["virtual"]
        assert state["game"] == "goblets"
        assert state["view"]["phase"] == "initial_pour"  # waiting for the Host's hands
    finally:
        process.terminate()
        process.wait(timeout=20)
        process.stdout.close()
        process.stderr.close()
    assert process.returncode == 0
