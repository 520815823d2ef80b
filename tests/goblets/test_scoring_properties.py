"""Hypothesis properties of the reveal and the Toast scoring."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.games.goblets.scoring import (
    NORMAL_SCORING,
    ScoringOverride,
    reveal,
    score_toast,
)
from companion.core.games.goblets.tokens import PRESETS, Token, TokenRules

count = st.integers(min_value=0, max_value=6)
contents = st.fixed_dictionaries({kind.value: count for kind in Token})
token_rules = st.one_of(
    st.sampled_from(list(PRESETS.values())),
    st.builds(
        TokenRules,
        unicorn_antidote_cancels=st.one_of(st.none(), st.integers(0, 4)),
        unicorn_antidote_cancels_ogre_poison=st.booleans(),
        antidote_cancels_ogre_poison=st.booleans(),
        ogre_poison_doses=st.integers(1, 3),
    ),
)
overrides = st.builds(
    ScoringOverride,
    survived=st.integers(0, 3),
    target_poisoned=st.integers(0, 3),
    both=st.integers(0, 3),
    poisoned=st.integers(0, 3),
    target_survived=st.integers(0, 3),
)


@st.composite
def toasts(draw):
    """A random Toast: 2-6 seated players, non-self targets, goblets, rules, overrides."""
    n = draw(st.integers(2, 6))
    seats = [f"p{i}" for i in range(n)]
    targets = {p: draw(st.sampled_from([q for q in seats if q != p])) for p in seats}
    goblets = {p: draw(contents) for p in seats}
    chosen = draw(st.dictionaries(st.sampled_from(seats), overrides, max_size=n))
    return seats, targets, goblets, draw(token_rules), chosen


def add(goblet, kind, n=1):
    return {**goblet, kind: goblet.get(kind, 0) + n}


@given(contents, token_rules, st.integers(1, 5))
def test_wine_never_decides_survival(goblet, rules, more):
    """ "Wine tokens have no effect on whether you survive or get poisoned!"."""
    before = reveal(goblet, rules)
    after = reveal(add(goblet, "wine", more), rules)
    assert (after.poisoned, after.poison_left) == (before.poisoned, before.poison_left)
    assert after.wine == before.wine + more


@given(contents, token_rules)
def test_survived_is_exactly_not_poisoned(goblet, rules):
    """ "If after this Your Goblet still contains at least 1 Poison token, you have been
    poisoned. If there are no more Poison tokens left, you have survived."."""
    result = reveal(goblet, rules)
    assert result.survived is not result.poisoned
    assert result.poisoned == (result.poison_left > 0)


@given(contents, token_rules, st.sampled_from(["antidote", "unicorn_antidote"]))
def test_another_antidote_never_poisons(goblet, rules, kind):
    """ "For each Antidote token in Your Goblet, remove 1 Poison token." — more Antidote never
    leaves more Poison."""
    assert reveal(add(goblet, kind), rules).poison_left <= reveal(goblet, rules).poison_left


@given(contents, token_rules, st.sampled_from(["poison", "ogre_poison"]))
def test_another_poison_never_saves(goblet, rules, kind):
    """ "If after this Your Goblet still contains at least 1 Poison token, you have been
    poisoned." — more Poison never leaves less."""
    assert reveal(add(goblet, kind), rules).poison_left >= reveal(goblet, rules).poison_left


@given(contents)
def test_without_special_tokens_every_rule_set_is_the_printed_rule(goblet):
    """ "For each Antidote token in Your Goblet, remove 1 Poison token." — the special-token
    rules change nothing when no special token is in the goblet."""
    ordinary = {**goblet, "unicorn_antidote": 0, "ogre_poison": 0}
    expected = max(0, ordinary["poison"] - ordinary["antidote"])
    for rules in PRESETS.values():
        assert reveal(ordinary, rules).poison_left == expected


@given(contents)
def test_plain_preset_is_ordinary_tokens(goblet):
    """Alternative "plain" (rules-notes): both special tokens count as their ordinary kind."""
    merged = {
        "wine": goblet["wine"],
        "poison": goblet["poison"] + goblet["ogre_poison"],
        "antidote": goblet["antidote"] + goblet["unicorn_antidote"],
    }
    assert reveal(goblet, TokenRules.preset("plain")) == reveal(merged)


@settings(max_examples=150)
@given(toasts())
def test_toast_invariants(toast):
    """ "1 VP if you have the most Wine tokens in Your Goblet (... if there's a tie, no one
    receives this bonus VP)" and "The bonus VP for "Most Wine tokens" though is NEVER
    affected"."""
    seats, targets, goblets, rules, chosen = toast
    scores = score_toast(seats, targets, goblets, rules=rules, overrides=chosen)
    assert list(scores) == seats
    winners = [p for p, s in scores.items() if s.most_wine]
    wines = [g["wine"] for g in goblets.values()]
    if wines.count(max(wines)) == 1:
        assert len(winners) == 1 and goblets[winners[0]]["wine"] == max(wines)
    else:
        assert winners == []
    for player, score in scores.items():
        table = chosen.get(player, NORMAL_SCORING)
        condition_vp = table.vp(survived=score.survived, target_poisoned=score.target_poisoned)
        assert score.vp - condition_vp == int(score.most_wine)
        assert score.target_poisoned == scores[targets[player]].poisoned
        if player not in chosen:
            assert 0 <= score.vp <= 4


@settings(max_examples=100)
@given(toasts(), st.randoms(use_true_random=False))
def test_seat_order_and_names_do_not_change_scores(toast, rnd):
    """Scoring depends only on each goblet and Target, not on where players sit or their ids."""
    seats, targets, goblets, rules, chosen = toast
    scores = score_toast(seats, targets, goblets, rules=rules, overrides=chosen)
    shuffled = list(seats)
    rnd.shuffle(shuffled)
    rename = {p: f"x{p}" for p in seats}
    again = score_toast(
        [rename[p] for p in shuffled],
        {rename[p]: rename[t] for p, t in targets.items()},
        {rename[p]: g for p, g in goblets.items()},
        rules=rules,
        overrides={rename[p]: o for p, o in chosen.items()},
    )
    assert {p: again[rename[p]] for p in seats} == scores


@given(token_rules, overrides)
def test_json_round_trips(rules, override):
    assert TokenRules.from_json(rules.to_json()) == rules
    assert ScoringOverride.from_json(override.to_json()) == override
