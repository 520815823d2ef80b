"""Scoring a Toast: the rulebook's table, Most Wine, and Character scoring overrides."""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInput
from companion.core.games.goblets.scoring import (
    NORMAL_SCORING,
    ScoringOverride,
    ToastScore,
    score_toast,
)
from companion.core.games.goblets.tokens import TokenRules

SEATS = ["ann", "bob", "cat", "dan"]
RING = {"ann": "bob", "bob": "cat", "cat": "dan", "dan": "ann"}
SAFE = {"wine": 1}
POISONED = {"wine": 1, "poison": 1}


def goblets(**contents):
    table = dict.fromkeys(SEATS, SAFE)
    table.update(contents)
    return table


def test_one_vp_if_you_survived():
    """ "1 VP | if you survived"."""
    scores = score_toast(SEATS, RING, goblets())
    # everyone survived, nobody's Target is poisoned, Wine is tied
    assert all(s.survived and not s.target_poisoned and not s.most_wine for s in scores.values())
    assert {p: s.vp for p, s in scores.items()} == dict.fromkeys(SEATS, 1)


def test_one_vp_if_your_target_has_been_poisoned():
    """ "1 VP | if your Target has been poisoned"."""
    scores = score_toast(SEATS, RING, goblets(ann=POISONED, bob=POISONED))
    # dan targets ann (poisoned) and survived: 1 + 1 + 1 extra; ann targets bob but is poisoned
    assert scores["ann"] == ToastScore(
        poisoned=True, survived=False, target_poisoned=True, most_wine=False, vp=1
    )


def test_extra_vp_if_both():
    """ "+1 VP | extra if you achieved both of the above goals"."""
    scores = score_toast(SEATS, RING, goblets(ann=POISONED))
    assert scores["dan"].survived and scores["dan"].target_poisoned
    assert scores["dan"].vp == 3


def test_poisoned_with_target_alive_scores_nothing():
    """The table gives nothing for being poisoned while your Target survived ("1 VP | if you
    survived", "1 VP | if your Target has been poisoned")."""
    scores = score_toast(SEATS, RING, goblets(bob=POISONED))
    assert scores["bob"].vp == 0


def test_most_wine_whether_or_not_you_survived():
    """ "1 VP | if you have the most Wine tokens in Your Goblet (no matter if you survived or
    not; ...)"."""
    scores = score_toast(SEATS, RING, goblets(cat={"wine": 3, "poison": 2}))
    assert scores["cat"].poisoned and scores["cat"].most_wine
    assert scores["cat"].vp == 1
    assert [p for p, s in scores.items() if s.most_wine] == ["cat"]


def test_tie_for_most_wine_gives_nobody_the_bonus():
    """ "if there's a tie, no one receives this bonus VP"."""
    scores = score_toast(SEATS, RING, goblets(ann={"wine": 3}, cat={"wine": 3}))
    assert not any(s.most_wine for s in scores.values())
    assert scores["ann"].vp == 1


def test_all_empty_goblets_tie_on_wine():
    """ "if there's a tie, no one receives this bonus VP" — no Wine anywhere is a tie at 0."""
    scores = score_toast(SEATS, RING, {p: {} for p in SEATS})
    assert not any(s.most_wine for s in scores.values())


def test_goblet_in_front_of_you_is_yours():
    """ "each player takes the Goblet in front of them, no matter the color of its Coaster, and
    reveals its contents" — scoring only sees the goblet in front of each player."""
    scores = score_toast(SEATS, RING, goblets(dan=POISONED))
    assert scores["dan"].poisoned and scores["cat"].target_poisoned


def test_override_replaces_the_normal_scoring():
    """ "Some Character abilities change the scoring rules for their player (you apply their
    effect instead of the normal scoring)."."""
    override = ScoringOverride(survived=0, poisoned=2, target_poisoned=1, both=0)
    scores = score_toast(SEATS, RING, goblets(bob=POISONED), overrides={"bob": override})
    assert scores["bob"].poisoned and not scores["bob"].target_poisoned
    assert scores["bob"].vp == 2
    # others keep the table
    assert scores["ann"].vp == 3


def test_override_never_touches_most_wine():
    """ "The bonus VP for "Most Wine tokens" though is NEVER affected; the single player with
    the most Wine tokens in Their Goblet will always receive 1 VP."."""
    zero = ScoringOverride(survived=0, target_poisoned=0, both=0)
    scores = score_toast(SEATS, RING, goblets(ann={"wine": 5}), overrides={"ann": zero})
    assert scores["ann"].most_wine and scores["ann"].vp == 1
    with pytest.raises(MalformedInput) as caught:
        ScoringOverride.from_json({"most_wine": 0}, "overrides.ann")
    assert caught.value.field == "overrides.ann.most_wine"


def test_normal_override_is_the_table():
    """An override with the table's own numbers scores exactly as "the normal scoring"."""
    table = goblets(ann=POISONED, cat={"wine": 4})
    plain = score_toast(SEATS, RING, table)
    same = score_toast(SEATS, RING, table, overrides=dict.fromkeys(SEATS, NORMAL_SCORING))
    assert plain == same


def test_override_target_survived_field():
    """A Character may pay for a Target that survived ("you apply their effect instead of the
    normal scoring")."""
    kind = ScoringOverride(target_survived=2, target_poisoned=0, both=0)
    scores = score_toast(SEATS, RING, goblets(), overrides={"ann": kind})
    assert scores["ann"].vp == 3


def test_override_json_round_trip_and_defaults():
    data = {"survived": 2, "character": "Some Card"}
    override = ScoringOverride.from_json(data)
    assert override == ScoringOverride(survived=2, character="Some Card")
    assert ScoringOverride.from_json(override.to_json()) == override
    assert ScoringOverride.from_json({}) == NORMAL_SCORING
    assert "character" not in NORMAL_SCORING.to_json()


@pytest.mark.parametrize(
    ("data", "field", "problem"),
    [
        ({"survived": -1}, "o.survived", "non-negative integer, got -1"),
        ({"survived": 1.5}, "o.survived", "got 1.5"),
        ({"both": False}, "o.both", "got False"),
        ({"luck": 1}, "o.luck", "unknown key"),
        ({"character": 7}, "o.character", "must be a string"),
        ("x", "o", "must be an object"),
    ],
)
def test_bad_override_names_the_field(data, field, problem):
    with pytest.raises(MalformedInput) as caught:
        ScoringOverride.from_json(data, "o")
    assert caught.value.field == field
    assert problem in str(caught.value)


def test_special_tokens_rules_reach_the_scoring():
    """The Toast uses the table's special-token rules (rules-notes, Special tokens)."""
    table = goblets(ann={"ogre_poison": 1, "antidote": 1})
    assert score_toast(SEATS, RING, table)["ann"].poisoned
    assert score_toast(SEATS, RING, table, rules=TokenRules.preset("plain"))["ann"].survived


def test_scores_come_in_seat_order():
    scores = score_toast(list(reversed(SEATS)), RING, goblets())
    assert list(scores) == list(reversed(SEATS))


@pytest.mark.parametrize(
    ("seats", "targets", "table", "field", "problem"),
    [
        (["ann"], {"ann": "bob"}, {"ann": {}}, "seats", "at least 2 players"),
        ("annbob", RING, goblets(), "seats", "must be a list"),
        (["ann", "ann"], RING, goblets(), "seats[1]", "duplicate player 'ann'"),
        (["ann", ""], RING, goblets(), "seats[1]", "non-empty string"),
        (["ann", 3], RING, goblets(), "seats[1]", "non-empty string"),
        (SEATS, {**RING, "eve": "ann"}, goblets(), "targets.eve", "not a seated player"),
        (SEATS, {**RING, "ann": "eve"}, goblets(), "targets.ann", "must be a seated player"),
        (SEATS, {**RING, "ann": "ann"}, goblets(), "targets.ann", "can't target yourself"),
        (SEATS, {**RING, "ann": None}, goblets(), "targets.ann", "must be a seated player"),
        (SEATS, {"ann": "bob"}, goblets(), "targets.bob", "missing target"),
        (SEATS, [], goblets(), "targets", "must be an object"),
        (SEATS, RING, {"ann": {}}, "goblets.bob", "missing goblet"),
        (SEATS, RING, {**goblets(), "eve": {}}, "goblets.eve", "not a seated player"),
        (SEATS, RING, goblets(cat={"poison": -2}), "goblets.cat.poison", "got -2"),
        (SEATS, RING, goblets(cat={"mead": 1}), "goblets.cat.mead", "unknown token kind"),
        (SEATS, RING, goblets(cat=None), "goblets.cat", "must be an object"),
    ],
)
def test_bad_toast_input_names_the_field(seats, targets, table, field, problem):
    with pytest.raises(MalformedInput) as caught:
        score_toast(seats, targets, table)
    assert caught.value.field == field
    assert problem in str(caught.value)


def test_bad_override_objects_are_refused():
    with pytest.raises(MalformedInput) as caught:
        score_toast(SEATS, RING, goblets(), overrides={"ann": {"survived": 2}})
    assert caught.value.field == "overrides.ann"
    with pytest.raises(MalformedInput) as caught:
        score_toast(SEATS, RING, goblets(), overrides={"eve": NORMAL_SCORING})
    assert caught.value.field == "overrides.eve"
