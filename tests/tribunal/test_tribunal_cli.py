"""``companion tribunal odds`` and ``companion tribunal play``."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from companion.cli import main
from companion.core.games.tribunal.pool import Pool, simulate_judgment
from companion.core.journal import Journal, replay


def run(capsys, *argv):
    status = main(["tribunal", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_odds_prints_the_exact_probability(capsys):
    status, out, err = run(capsys, "odds", "--red", "4", "--white", "3", "--verdict", "guilty")
    assert status == 0 and err == ""
    assert json.loads(out) == {"p_pass": float(Fraction(6, 7))}  # the exact value, rounded once
    status, out, _ = run(
        capsys, "odds", "--red", "2", "--white", "1", "--blue", "1", "--verdict", "not-guilty"
    )
    assert json.loads(out) == {"p_pass": float(Fraction(5, 6))}


def test_simulate_uses_the_games_pool_code(capsys):
    argv = ["odds", "--red", "5", "--white", "4", "--blue", "1", "--verdict", "guilty"]
    status, out, _ = run(capsys, *argv, "--simulate", "2000", "--seed", "9")
    assert status == 0
    result = json.loads(out)
    rng = random.Random(9)
    expected = sum(simulate_judgment(Pool(5, 4, 1), "guilty", rng)[1] for _ in range(2000))
    assert result == {"p_pass": pytest.approx(1 - 4 / 10 * 3 / 9), "simulated_passes": expected}


def test_simulate_with_the_system_random(capsys):
    status, out, _ = run(
        capsys, "odds", "--red", "0", "--white", "3", "--verdict", "guilty", "--simulate", "50"
    )
    assert status == 0
    assert json.loads(out) == {"p_pass": 0.0, "simulated_passes": 0}


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--red", "-1", "--white", "3", "--verdict", "guilty"],
        ["odds", "--red", "0", "--white", "0", "--verdict", "guilty"],
        ["odds", "--red", "x", "--white", "3", "--verdict", "guilty"],
        ["odds", "--red", "1", "--white", "3", "--verdict", "innocent"],
        ["odds", "--red", "1", "--white", "3"],
        ["odds", "--red", "1", "--white", "3", "--verdict", "guilty", "--simulate", "-5"],
        ["play"],
        ["play", "--seed", "x"],
        [],
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv):
    try:
        status = main(["tribunal", *argv])
    except SystemExit as exit_:
        status = exit_.code
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1


def test_play_prints_a_replayable_journal(capsys):
    status, out, _ = run(capsys, "play", "--seed", "12")
    assert status == 0
    printed = json.loads(out)
    state, _ = replay(Journal.from_json(printed["journal"]))
    assert state.is_over()
    assert state.outcome() == printed["result"]
    assert printed["result"]["won"] in (True, False)
    _, again, _ = run(capsys, "play", "--seed", "12")
    assert again == out
    _, other, _ = run(capsys, "play", "--seed", "13", "--vine", "long", "--second-draw", "always")
    assert json.loads(other)["journal"]["options"]["vine"] == "long"
