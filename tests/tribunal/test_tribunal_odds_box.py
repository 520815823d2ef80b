"""``companion tribunal odds`` warns about a Judgment Pool the box cannot hold (issue 14).

The rulebook's Elements of the Game: "11 red cubes will represent the willingness of the court to
pass a guilty verdict.", "3 white cubes will represent the willingness of the court to exonerate
the accused.", "One blue cube will be placed on the "W" space of the Court Legitimacy Vine."
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.tribunal import BOX
from companion.core.games.tribunal.pool import Pool, pass_probability

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "the-gods-will-have-blood.txt"
COMPONENTS = {
    "red": "11 red cubes will represent the willingness of the court to pass a guilty verdict.",
    "white": "3 white cubes will represent the willingness of the court to exonerate the accused.",
    "blue": 'One blue cube will be placed on the "W" space of the Court Legitimacy Vine.',
}
NUMBERS = {"One": 1}


def run(capsys, *argv):
    status = main(["tribunal", "odds", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_box_is_the_rulebooks_component_list():
    """BOX holds the numbers of the printed component list, not invented ones."""
    if RULEBOOK.exists():  # the shared rulebook sits beside the checkout
        book = RULEBOOK.read_text()
        assert all(sentence in book for sentence in COMPONENTS.values())
    printed = {}
    for colour, sentence in COMPONENTS.items():
        count = re.match(r"(\w+) " + colour + " cubes?", sentence)
        assert count is not None
        printed[colour] = NUMBERS.get(count[1]) or int(count[1])
    assert BOX == printed == {"red": 11, "white": 3, "blue": 1}


def test_a_pool_beyond_the_box_warns_and_still_computes(capsys):
    status, out, err = run(
        capsys, "--red", "20", "--white", "9", "--blue", "3", "--verdict", "guilty"
    )
    assert status == 0
    assert json.loads(out) == {"p_pass": float(pass_probability(Pool(20, 9, 3), "guilty"))}
    assert err.count("\n") == 1 and "warning" in err
    assert "11 red, 3 white and 1 blue" in err  # the box's numbers
    assert "20 red, 9 white, 3 blue" in err  # what the pool asked for beyond them


@pytest.mark.parametrize(
    ("argv", "beyond"),
    [
        (["--red", "12", "--white", "3"], "12 red"),
        (["--red", "4", "--white", "4"], "4 white"),
        (["--red", "4", "--white", "3", "--blue", "2"], "2 blue"),
    ],
)
def test_one_colour_beyond_the_box_is_named(capsys, argv, beyond):
    status, out, err = run(capsys, *argv, "--verdict", "not-guilty")
    assert status == 0 and "p_pass" in json.loads(out)
    assert beyond in err
    others = {"12 red", "4 white", "2 blue"} - {beyond}
    assert not any(other in err for other in others)


def test_the_fullest_pool_the_box_allows_is_silent(capsys):
    """11 red, 3 white and the blue cube together: every cube of the box in the bag, no warning."""
    status, out, err = run(
        capsys, "--red", "11", "--white", "3", "--blue", "1", "--verdict", "guilty"
    )
    assert status == 0 and err == ""
    expected = pass_probability(Pool(11, 3, 1), "guilty")
    assert Fraction(json.loads(out)["p_pass"]).limit_denominator(10_000) == expected
