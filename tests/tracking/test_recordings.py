"""Recordings of raw sensor streams: written line by line, replayed through the tracker the same
as live; ``companion simulate`` makes one that ``companion track`` reads back to the truth."""

import io
import json
import os
import random

import pytest

from companion import cli
from companion.core.errors import MalformedInput
from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tracking import Tracker
from companion.core.observations import Observation
from companion.store.recordings import RecordingWriter, apply, recording_path
from companion.virtual import NOISE, Scenario, SimulatedReaders, summarize


def test_a_recording_replays_to_the_live_events(tmp_path):
    scenario = Scenario.generate(random.Random(11), 4, actions=(6, 8))
    live = Tracker(scenario.registry, 4)
    live_events = []
    path = recording_path(tmp_path, "course-1")
    assert path == tmp_path / "recordings" / "course-1.jsonl"
    with RecordingWriter(path) as writer:
        for i, obs in enumerate(
            SimulatedReaders(scenario, NOISE["heavy"], random.Random(1)).snapshots()
        ):
            if i == 50:
                writer.node_status("n1", False, obs.t)
                live_events += live.node_status("n1", False, obs.t)
                writer.node_status("n1", True, obs.t)
                live_events += live.node_status("n1", True, obs.t)
            writer.observation(obs)
            live_events += live.observe(obs)
        writer.reveal(None, obs.t + 1)
        live_events += live.empty_goblets(None, obs.t + 1)
        writer.fix({0: scenario.final["seats"]["0"]}, obs.t + 2)
        live_events += live.fix_layout({0: scenario.final["seats"]["0"]}, obs.t + 2)
        assert writer.lines > 100
    replayed = Tracker(scenario.registry, 4)
    events = []
    for line in path.read_text().splitlines():
        events += apply(replayed, json.loads(line))
    assert events == live_events
    assert [e["event"] for e in events][-3:] == ["emptied", "fixed", "layout"]
    assert replayed.state() == live.state()


def test_writer_on_a_stream_leaves_it_open():
    stream = io.StringIO()
    with RecordingWriter(stream) as writer:
        writer.reveal(["a"], 1.0)
    assert json.loads(stream.getvalue()) == {"t": 1.0, "empty": ["a"]}
    assert not stream.closed


@pytest.mark.parametrize("name", ["", "../x", "a b", "x" * 65])
def test_recording_names_are_plain(tmp_path, name):
    with pytest.raises(MalformedInput) as caught:
        recording_path(tmp_path, name)
    assert caught.value.field == "name"


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ({"t": 1, "fix": [1]}, "fix"),
        ({"t": 1, "node": 3, "online": True}, "node"),
        ({"t": True, "seat": 0, "tags": []}, "t"),
    ],
)
def test_apply_rejects_bad_lines(line, field):
    with pytest.raises(MalformedInput) as caught:
        apply(Tracker(Scenario.generate(random.Random(1), 4).registry, 4), line)
    assert caught.value.field == field


@pytest.mark.parametrize(("seed", "rings"), [(5, True), (6, False)])
def test_simulate_then_track_tells_the_truth(monkeypatch, capsys, tmp_path, seed, rings):
    registry, truth = tmp_path / "reg.json", tmp_path / "truth.json"
    args = ["simulate", "--seats", "5", "--noise", "heavy" if rings else "moderate"]
    args += ["--seed", str(seed), "--registry-out", str(registry), "--truth-out", str(truth)]
    assert cli.main(args + ([] if rings else ["--no-rings"])) == 0
    stream = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(stream))
    assert cli.main(["track", "--registry", str(registry), "--seats", "5"]) == 0
    out = capsys.readouterr().out
    summary = summarize(json.loads(line) for line in out.splitlines())
    expected = json.loads(truth.read_text())
    assert expected["seed"] == seed
    assert list(summary.moves) == expected["moves"]
    assert [list(map(list, s)) for s in summary.pours] == expected["pours"]
    assert summary.final == expected["final"]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--noise", "loud"], "noise"),
        (["--hands", "slow"], "hands"),
        (["--seats", "1"], "seats"),
        (["--rate", "0"], "rate"),
        (["--actions", "0"], "actions"),
    ],
)
def test_simulate_bad_arguments(capsys, tmp_path, extra, field):
    status = cli.main(["simulate", "--registry-out", str(tmp_path / "r.json"), *extra])
    assert status == 2
    assert f"{field}:" in capsys.readouterr().err


def test_a_recording_stops_at_its_cap_and_the_oldest_go_first(tmp_path):
    from companion.store.recordings import prune

    folder = tmp_path / "recordings"
    for index in range(5):
        path = recording_path(tmp_path, f"game-{index}")
        with RecordingWriter(path, limit=2000) as writer:
            for n in range(100):
                writer.observation(Observation.of(float(n), 0, ["04A1B2C3D4E5F6"]))
        assert writer.stopped and path.stat().st_size <= 2000
        assert json.loads(path.read_text().splitlines()[-1])["note"].startswith("recording stopped")
        os.utime(path, (index, index))  # oldest first
    newest = folder / "game-4.jsonl"
    deleted = prune(tmp_path, 4000, spare=newest)
    assert [p.name for p in deleted] == ["game-0.jsonl", "game-1.jsonl", "game-2.jsonl"]
    assert sum(p.stat().st_size for p in folder.glob("*.jsonl")) <= 4000
    tracker = Tracker(TagRegistry.from_json({"tags": {}}), 2)
    for line in newest.read_text().splitlines():
        apply(tracker, json.loads(line))  # the note line is skipped, the rest replays
