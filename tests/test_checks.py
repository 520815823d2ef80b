"""companion.core.checks: the one whole-number check every door asks (issue 16)."""

from __future__ import annotations

import json

import pytest

from companion.core.checks import is_number, is_whole, whole, within
from companion.core.errors import MalformedInput


def test_json_true_is_not_a_whole_number():
    """``true`` decodes to ``True``, an ``int`` to Python: refused all the same."""
    flag = json.loads("true")
    assert isinstance(flag, int)
    assert not is_whole(flag) and not is_number(flag)
    assert not is_whole(False) and not is_number(False)


@pytest.mark.parametrize("value", [0, 7, -3, 2**63])
def test_ints_are_whole_and_numbers(value):
    assert is_whole(value) and is_number(value)


@pytest.mark.parametrize("value", [1.0, "1", None, [1], {"n": 1}])
def test_other_values_are_not_whole(value):
    assert not is_whole(value)


def test_a_float_is_a_number_but_not_whole():
    assert is_number(2.5) and not is_whole(2.5)
    assert not is_number("2.5") and not is_number(None)


def test_whole_returns_the_value_within_its_bounds():
    assert whole(0, "seat", "a seat", low=0, high=3) == 0
    assert whole(3, "seat", "a seat", low=0, high=3) == 3
    assert whole(-9, "seq", "an integer") == -9  # no bounds: any whole number


@pytest.mark.parametrize(
    ("value", "low", "high"),
    [(True, None, None), (1.0, None, None), ("2", 0, 5), (-1, 0, None), (4, None, 3), (9, 0, 3)],
)
def test_whole_refuses_with_the_callers_field_and_message(value, low, high):
    with pytest.raises(MalformedInput) as error:
        whole(value, "action.house", f"{value!r} is not a House (0 to 3)", low=low, high=high)
    assert error.value.field == "action.house"
    assert error.value.detail == f"{value!r} is not a House (0 to 3)"
    assert str(error.value) == f"action.house: {value!r} is not a House (0 to 3)"


def test_within_words_the_range_and_refuses_what_is_outside_it():
    assert within(3, "players", 2, 12) == 3
    for bad in (1, 13, True, 3.0, "3", None):
        with pytest.raises(MalformedInput) as error:
            within(bad, "players", 2, 12)
        assert error.value.field == "players"
        assert str(error.value).endswith(f"must be an integer from 2 to 12, got {bad!r}")
