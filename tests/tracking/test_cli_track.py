"""``companion track``: events as JSON lines, malformed lines reported by number, recordings replay
to their committed expected output."""

import io
import json
from pathlib import Path

import pytest

from companion import cli
from companion.virtual import summarize

RECORDINGS = Path(__file__).resolve().parents[1] / "fixtures" / "recordings"
RING = {"A": "04000A", "B": "04000B", "C": "04000C"}
REGISTRY = {
    "tags": {
        **{uid: {"kind": "ring", "goblet": g} for g, uid in RING.items()},
        "041111": {"kind": "token", "token": "poison"},
    }
}


def track(monkeypatch, capsys, tmp_path, lines, *args, registry=REGISTRY):
    path = tmp_path / "registry.json"
    path.write_text(json.dumps(registry))
    stdin = "".join(line if isinstance(line, str) else json.dumps(line) + "\n" for line in lines)
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = cli.main(["track", "--registry", str(path), "--seats", "3", *args])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def table(t0, seconds, seats):
    return [
        {"t": round(t0 + k / 10, 3), "seat": s, "tags": seats.get(s, [])}
        for k in range(round(seconds * 10))
        for s in range(3)
    ]


def test_pour_and_swap_then_state_last(monkeypatch, capsys, tmp_path):
    a, b, c = ([RING[g]] for g in "ABC")
    lines = [
        *table(0, 1.5, {0: a, 1: b, 2: c}),
        *table(1.5, 1.0, {0: [*a, "04:11:11"], 1: b, 2: c}),
        *table(2.5, 1.0, {1: b}),
        *table(3.5, 1.5, {0: c, 1: b, 2: [*a, "041111"]}),
    ]
    status, events, err = track(monkeypatch, capsys, tmp_path, lines)
    assert status == 0 and err == ""
    kinds = [e["event"] for e in events]
    assert kinds == ["layout", "pour", "swap", "state"]
    assert events[1] == {
        "t": events[1]["t"],
        "event": "pour",
        "goblet": "A",
        "token": "poison",
        "uid": "041111",
    }
    assert events[2]["seats"] == [0, 2]
    assert events[-1] == {
        "event": "state",
        "seats": {"0": "C", "1": "B", "2": "A"},
        "goblets": {"A": {"poison": 1}, "B": {}, "C": {}},
    }


def test_malformed_lines_are_reported_by_number_and_skipped(monkeypatch, capsys, tmp_path):
    a, b, c = ([RING[g]] for g in "ABC")
    good = table(0, 1.5, {0: a, 1: b, 2: c})
    lines = [
        good[0],
        "{not json\n",
        {"t": 0.05, "seat": 7, "tags": []},
        {"t": "soon", "seat": 0, "tags": []},
        {"t": 0.05, "seat": 0, "tags": ["zz"]},
        {"t": 0.05, "seat": 0},
        [1, 2],
        {"t": 0.05, "what": 1},
        {"t": 0.05, "node": "n", "online": "yes"},
        {"t": 0.05, "empty": 3},
        "\n",
        *good[1:],
    ]
    status, events, err = track(monkeypatch, capsys, tmp_path, lines)
    assert status == 1
    messages = err.splitlines()
    assert [m.split(":")[1].strip() for m in messages] == [f"line {n}" for n in range(2, 11)]
    assert "not JSON" in messages[0]
    assert "seat" in messages[1]
    assert "t:" in messages[2]
    assert "tags" in messages[3] and "tags" in messages[4]
    assert "online" in messages[7] and "empty" in messages[8]
    assert [e["event"] for e in events] == ["layout", "state"]


def test_unknown_tag_node_status_fix_and_reveal_lines(monkeypatch, capsys, tmp_path):
    a, b, c = ([RING[g]] for g in "ABC")
    lines = [
        *table(0, 1.5, {0: [*a, "0499"], 1: b, 2: c}),
        {"t": 1.6, "node": "n1", "online": False},
        {"t": 1.7, "node": "n1", "online": True},
        *table(1.7, 1.0, {0: [*a, "041111"], 1: b, 2: c}),
        {"t": 2.8, "fix": {"0": "B", "1": "A"}},
        {"t": 2.9, "empty": "all"},
    ]
    status, events, _ = track(monkeypatch, capsys, tmp_path, lines)
    assert status == 0
    kinds = [e["event"] for e in events]
    assert kinds[:4] == ["unknown_tag", "layout", "offline", "online"]
    assert "pour" in kinds and "fixed" in kinds and "emptied" in kinds
    assert events[-1]["goblets"]["A"] == {}


def test_ringless_registry_names_goblets_by_seat(monkeypatch, capsys, tmp_path):
    registry = {"tags": {"041111": {"kind": "token", "token": "wine"}}}
    lines = table(0, 1.0, {1: ["041111"]})
    status, events, _ = track(monkeypatch, capsys, tmp_path, lines, registry=registry)
    assert status == 0
    assert events[0]["goblet"] == "goblet1"
    assert events[-1]["seats"] == {"0": "goblet0", "1": "goblet1", "2": "goblet2"}
    status, events, _ = track(
        monkeypatch, capsys, tmp_path, lines, "--layout", "x,y,z", registry=registry
    )
    assert events[0]["goblet"] == "y"


@pytest.mark.parametrize(
    ("args", "registry", "message"),
    [
        ([], "{", "registry"),
        ([], {"tags": {"04AA": {"kind": "mug"}}}, "tags.04AA.kind"),
        (["--layout", "a,b"], REGISTRY, "layout"),
        (["--tracker", '{"settle": -1}'], REGISTRY, "settle"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    monkeypatch, capsys, tmp_path, args, registry, message
):
    path = tmp_path / "registry.json"
    path.write_text(registry if isinstance(registry, str) else json.dumps(registry))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = cli.main(["track", "--registry", str(path), "--seats", "3", *args])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("companion track: ") and message in err


def test_missing_registry_file(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = cli.main(["track", "--registry", str(tmp_path / "nope.json"), "--seats", "3"])
    assert status == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "seats"), [("rings-4-heavy", 4), ("memory-5-moderate", 5)])
def test_recorded_session_replays_to_its_expected_events(monkeypatch, capsys, name, seats):
    stream = (RECORDINGS / f"{name}.jsonl").read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO(stream))
    registry = str(RECORDINGS / f"{name}.registry.json")
    status = cli.main(["track", "--registry", registry, "--seats", str(seats)])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    expected = (RECORDINGS / f"{name}.events.jsonl").read_text()
    assert out == expected
    # ... and the expected output is the Course's ground truth.
    truth = json.loads((RECORDINGS / f"{name}.truth.json").read_text())
    summary = summarize(json.loads(line) for line in out.splitlines())
    assert list(summary.moves) == truth["moves"]
    assert [list(map(list, s)) for s in summary.pours] == truth["pours"]
    assert summary.final == truth["final"]
