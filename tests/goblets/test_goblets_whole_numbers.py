"""Raise Your Goblets' doors ask the one whole-number check, core/checks.py (issue 16).

JSON's ``true`` is an ``int`` to Python; each door below refuses it where a count, a seat, a
place or a time is due, naming the same field with the same message as a number out of range
(the message the door has always given), and no hand-written "int but not bool" is left in the
package to drift from the others.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core.errors import MalformedInput
from companion.core.games.goblets.enroll import Stability
from companion.core.games.goblets.options import parse_options
from companion.core.games.goblets.russian_rules import parse_options as russian_options
from companion.core.games.goblets.scoring import ScoringOverride
from companion.core.games.goblets.sensed.fusion import FusionConfig
from companion.core.games.goblets.sensed.places import check_place
from companion.core.games.goblets.sensed.pour_out import PourOutConfig
from companion.core.games.goblets.shootout import Shootout
from companion.core.games.goblets.tokens import TokenRules, check_count
from companion.core.games.goblets.tracking.config import TrackerConfig
from companion.core.games.goblets.vocabulary import upgraded

PACKAGE = Path(__file__).resolve().parents[2] / "companion" / "core" / "games" / "goblets"

CASES = [
    (lambda v: check_count(v, "n"), "n", "must be a non-negative integer, got {v!r}"),
    (
        lambda v: parse_options({"players": v}),
        "players",
        "must be an integer from 2 to 12, got {v!r}",
    ),
    (lambda v: russian_options({"host": v}), "host", "must be an integer from 0 to 1, got {v!r}"),
    (lambda v: Stability(stable=v), "stable", "must be at least 1, got {v!r}"),
    (lambda v: check_place(v, 4, "place"), "place", "must be a place from 0 to 3, got {v!r}"),
    (lambda v: Shootout.start([0, 1], 0, v), "num_seats", "must be an integer >= 2"),
    (lambda v: Shootout.start([0, v], 0, 4), "tied_seats", "seat {v!r} is not a seat of the table"),
    (lambda v: TrackerConfig(window=v), "window", "must be a positive number, got {v!r}"),
    (lambda v: FusionConfig(grace=v), "grace", "must be a positive number, got {v!r}"),
    (lambda v: PourOutConfig(lifted=v), "lifted", "must be a positive number, got {v!r}"),
    (
        lambda v: TokenRules.from_json({"ogre_poison_doses": v}, "rules"),
        "rules.ogre_poison_doses",
        "must be an integer >= 1, got {v!r}",
    ),
    (
        lambda v: ScoringOverride.from_json({"poisoned": v}, "o"),
        "o.poisoned",
        "must be a non-negative integer, got {v!r}",
    ),
]


@pytest.mark.parametrize(("door", "field", "message"), CASES)
@pytest.mark.parametrize("value", [True, -1, "1"])
def test_each_door_refuses_a_non_number_naming_its_field(door, field, message, value):
    """``True`` is refused like a number out of range or a string: the same field and words."""
    with pytest.raises(MalformedInput) as error:
        door(value)
    assert error.value.field == field
    assert error.value.detail == message.format(v=value)


def test_an_old_journals_place_is_a_whole_number():
    """The journal's upgrade renames ``goblet`` only when it holds a place: ``true`` is none."""
    assert upgraded({"type": "peek", "seat": 0, "goblet": 2}) == {
        "type": "peek",
        "seat": 0,
        "place": 2,
    }
    kept = {"type": "peek", "seat": 0, "goblet": True}
    assert upgraded(kept) == kept


def test_no_hand_written_int_but_not_bool_is_left():
    """Every module of the package asks core/checks.py (is_whole, is_number, whole)."""
    written = re.compile(r"isinstance\((\w+), bool\) or not isinstance\(\1, int")
    reversed_ = re.compile(r"isinstance\((\w+), int[^)]*\) (and|or) not isinstance\(\1, bool\)")
    negated = re.compile(r"not isinstance\((\w+), int[^)]*\) or isinstance\(\1, bool\)")
    found = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if any(p.search(path.read_text()) for p in (written, reversed_, negated))
    ]
    assert found == []
