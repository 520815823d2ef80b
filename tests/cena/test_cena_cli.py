"""``companion cena play`` and ``companion cena score``."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli import main
from companion.core.journal import Journal, replay


def run(capsys, monkeypatch, *argv, stdin=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        status = main(["cena", *argv])
    except SystemExit as leave:
        status = leave.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("players", "variants"),
    [
        (3, []),
        (4, ["private_feast"]),
        (5, ["single_course"]),
        (4, ["private_feast", "single_course"]),
    ],
)
def test_play_prints_a_replayable_journal(capsys, monkeypatch, players, variants):
    argv = ["play", "--players", str(players), "--seed", "5"]
    for variant in variants:
        argv += ["--variant", variant]
    status, out, err = run(capsys, monkeypatch, *argv)
    assert status == 0 and err == ""
    document = json.loads(out)
    journal = Journal.from_json(document["journal"])
    assert journal.options == {"players": players, **dict.fromkeys(variants, True)}
    state, _ = replay(journal)
    assert state.is_over() and state.outcome() == document["result"]
    assert len(document["result"]["rounds"]) == (1 if "single_course" in variants else 3)
    assert run(capsys, monkeypatch, *argv)[1] == out  # the seed decides everything


def test_score_prints_points_per_house(capsys, monkeypatch):
    request = {
        "alliances": [["mead-6", "wine-6", "beer-2"], ["beer-6"], []],
        "poison": [1, 2],
    }
    status, out, err = run(capsys, monkeypatch, "score", stdin=json.dumps(request))
    assert status == 0 and err == ""
    result = json.loads(out)
    assert [h["points"] for h in result["houses"]] == [3 - 20 - 4, 4 - 30 - 8, 1 - 10 - 4]
    assert [p["name"] for p in result["poisons"]] == ["Mandragora officinarum", "Arsenicum"]


def test_score_aconitum_needs_the_last_trick(capsys, monkeypatch):
    request = {"alliances": [["wine-1"], ["wine-2"], ["wine-3"], ["wine-4"]], "poison": 6}
    status, out, err = run(capsys, monkeypatch, "score", stdin=json.dumps(request))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "last_trick" in err
    request["last_trick"] = 3
    status, out, _ = run(capsys, monkeypatch, "score", stdin=json.dumps(request))
    assert [h["points"] for h in json.loads(out)["houses"]] == [2 - 25, 2, 2, 2 - 25]


@pytest.mark.parametrize(
    ("stdin", "field"),
    [
        ("not json", "input"),
        ("[]", "input"),
        ('{"poison": 1}', "alliances"),
        ('{"alliances": [[], [], []]}', "poison"),
        ('{"alliances": [[], []], "poison": 1}', "alliances"),
        ('{"alliances": [[], "x", []], "poison": 1}', "alliances[1]"),
        ('{"alliances": [[], ["wine-11"], []], "poison": 1}', "alliances[1][0]"),
        ('{"alliances": [["wine-1"], ["wine-1"], []], "poison": 1}', "alliances[1][0]"),
        ('{"alliances": [[], [], []], "poison": 9}', "poison"),
        ('{"alliances": [[], [], []], "poison": [1, 1]}', "poison"),
        ('{"alliances": [[], [], []], "poison": [1, "2"]}', "poison[1]"),
        ('{"alliances": [[], [], []], "poison": 6, "last_trick": 3}', "last_trick"),
        ('{"alliances": [[], [], []], "poison": 1, "bonus": 1}', "bonus"),
        ('{"alliances": [[], [], []], "poison": 1, "a\\nb": 1}', "a b"),
    ],
)
def test_score_bad_input_one_line_naming_the_field(capsys, monkeypatch, stdin, field):
    status, out, err = run(capsys, monkeypatch, "score", stdin=stdin)
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"companion cena: {field}:")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "2", "--seed", "1"],
        ["play", "--players", "3"],
        ["play", "--players", "3", "--seed", "1", "--variant", "legacy"],
        [],
    ],
)
def test_play_bad_arguments_exit_2_one_line(capsys, monkeypatch, argv):
    status, out, err = run(capsys, monkeypatch, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1
