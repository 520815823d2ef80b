"""The reveal of one goblet and the token constants, checked against the rulebook sentences."""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInput
from companion.core.games.goblets.scoring import reveal
from companion.core.games.goblets.tokens import COURSE_SUPPLY, POOL, Token, check_contents


def test_pool_is_the_52_tokens_of_the_ingredients():
    """ "52 plastic tokens: 21 Wine (red) | 15 Poison (black) | 14 Antidote (white) | 1 Unicorn
    Antidote (blue) | 1 Ogre Poison (green)"."""
    assert POOL == {
        "wine": 21,
        "poison": 15,
        "antidote": 14,
        "unicorn_antidote": 1,
        "ogre_poison": 1,
    }
    assert sum(POOL.values()) == 52
    assert set(POOL) == set(Token)


def test_course_supply_behind_each_screen():
    """ "Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool and puts them
    behind their screen."."""
    assert COURSE_SUPPLY == {Token.WINE: 3, Token.POISON: 2, Token.ANTIDOTE: 2}


def test_each_antidote_removes_one_poison():
    """ "For each Antidote token in Your Goblet, remove 1 Poison token."."""
    assert reveal({"poison": 3, "antidote": 2}).poison_left == 1
    assert reveal({"poison": 2, "antidote": 2}).poison_left == 0


def test_poison_left_means_poisoned():
    """ "If after this Your Goblet still contains at least 1 Poison token, you have been
    poisoned."."""
    result = reveal({"poison": 2, "antidote": 1, "wine": 4})
    assert result.poisoned
    assert not result.survived


def test_no_poison_left_means_survived():
    """ "If there are no more Poison tokens left, you have survived."."""
    for contents in ({}, {"wine": 2}, {"poison": 1, "antidote": 1}, {"antidote": 3}):
        result = reveal(contents)
        assert result.survived, contents
        assert not result.poisoned, contents


def test_leftover_antidotes_have_no_effect():
    """ "Leftover Antidote tokens (if any) have no other effect."."""
    assert reveal({"antidote": 5}) == reveal({})
    assert reveal({"antidote": 5, "poison": 1}).survived


def test_wine_never_decides_survival():
    """ "Wine tokens have no effect on whether you survive or get poisoned!"."""
    for wine in range(8):
        assert reveal({"wine": wine, "poison": 1}).poisoned
        assert reveal({"wine": wine}).survived
        assert reveal({"wine": wine}).wine == wine


def test_a_missing_kind_counts_zero():
    """A goblet lists only what it holds ("a missing kind counts 0", issue 2's input format)."""
    assert check_contents({"wine": 1}) == {
        Token.WINE: 1,
        Token.POISON: 0,
        Token.ANTIDOTE: 0,
        Token.UNICORN_ANTIDOTE: 0,
        Token.OGRE_POISON: 0,
    }


@pytest.mark.parametrize(
    ("contents", "field", "problem"),
    [
        ({"poison": -1}, "contents.poison", "non-negative integer, got -1"),
        ({"poison": 1.0}, "contents.poison", "non-negative integer, got 1.0"),
        ({"wine": True}, "contents.wine", "non-negative integer, got True"),
        ({"wine": "2"}, "contents.wine", "non-negative integer, got '2'"),
        ({"water": 1}, "contents.water", "unknown token kind 'water'"),
        ([1, 2], "contents", "must be an object"),
    ],
)
def test_bad_contents_are_malformed_input_naming_the_field(contents, field, problem):
    with pytest.raises(MalformedInput) as caught:
        reveal(contents)
    assert caught.value.field == field
    assert problem in str(caught.value)
