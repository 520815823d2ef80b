"""The Unicorn Antidote and the Ogre Poison: the documented default and the configured choices.

The rulebook lists "1 Unicorn Antidote (blue) | 1 Ogre Poison (green)" and prints no power for
either; docs/rules-notes.md ("Special tokens") documents the default and the alternatives.
"""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInput
from companion.core.games.goblets.scoring import reveal
from companion.core.games.goblets.tokens import DEFAULT_TOKEN_RULES, PRESETS, TokenRules

PLAIN = TokenRules.preset("plain")
STRONG = TokenRules.preset("strong_ogre")


def test_default_ordinary_antidote_cannot_cancel_ogre_poison():
    """Default (rules-notes, Special tokens): "the Ogre Poison is a Poison that an ordinary
    Antidote cannot cancel"; the reveal still reads "If after this Your Goblet still contains at
    least 1 Poison token, you have been poisoned"."""
    assert reveal({"ogre_poison": 1, "antidote": 5}).poisoned
    assert reveal({"ogre_poison": 1, "antidote": 5}).poison_left == 1


def test_default_unicorn_antidote_cancels_ogre_poison():
    """Default: "only the Unicorn Antidote cancels it"."""
    assert reveal({"ogre_poison": 1, "unicorn_antidote": 1}).survived


def test_default_unicorn_antidote_cancels_any_number_of_poisons():
    """Default: "the Unicorn Antidote cancels any number of Poison tokens, the Ogre Poison
    included"."""
    assert reveal({"poison": 15, "ogre_poison": 1, "unicorn_antidote": 1}).survived


def test_default_antidotes_still_remove_ordinary_poison_beside_ogre_poison():
    """ "For each Antidote token in Your Goblet, remove 1 Poison token." — ordinary Antidotes
    keep removing ordinary Poison when an Ogre Poison is in the goblet too."""
    assert reveal({"poison": 2, "antidote": 2, "ogre_poison": 1}).poison_left == 1
    assert reveal({"poison": 2, "antidote": 2}).survived


def test_default_special_tokens_follow_the_printed_reveal_otherwise():
    """ "Leftover Antidote tokens (if any) have no other effect." — a lone Unicorn Antidote does
    nothing; a lone Ogre Poison poisons."""
    assert reveal({"unicorn_antidote": 1}).survived
    assert reveal({"ogre_poison": 1}).poisoned


def test_plain_preset_counts_special_tokens_as_their_ordinary_kind():
    """Alternative "plain": both special tokens count as their ordinary kind."""
    assert reveal({"ogre_poison": 1, "antidote": 1}, PLAIN).survived
    assert reveal({"poison": 2, "unicorn_antidote": 1}, PLAIN).poisoned
    assert reveal({"poison": 1, "ogre_poison": 1, "unicorn_antidote": 1, "antidote": 1}, PLAIN) == (
        reveal({"poison": 2, "antidote": 2})
    )


def test_strong_ogre_preset():
    """Alternative "strong_ogre": an Ogre Poison is 2 doses, a Unicorn Antidote removes at most 2,
    ordinary Antidotes never touch the Ogre Poison."""
    assert reveal({"ogre_poison": 1, "unicorn_antidote": 1}, STRONG).survived
    assert reveal({"ogre_poison": 1, "poison": 1, "unicorn_antidote": 1}, STRONG).poisoned
    assert reveal(
        {"ogre_poison": 1, "poison": 1, "unicorn_antidote": 1, "antidote": 1}, STRONG
    ).survived
    assert reveal({"ogre_poison": 1, "antidote": 9}, STRONG).poison_left == 2


def test_unicorn_antidote_cancel_count_is_configurable():
    """Configured: one Unicorn Antidote removes exactly ``unicorn_antidote_cancels`` doses."""
    rules = TokenRules(unicorn_antidote_cancels=3)
    assert reveal({"poison": 3, "unicorn_antidote": 1}, rules).survived
    assert reveal({"poison": 4, "unicorn_antidote": 1}, rules).poison_left == 1
    assert reveal({"poison": 4, "unicorn_antidote": 2}, rules).survived
    none = TokenRules(unicorn_antidote_cancels=0)
    assert reveal({"poison": 1, "unicorn_antidote": 1}, none).poisoned


def test_unicorn_antidote_may_be_barred_from_ogre_poison():
    """Configured: a table where nothing but an ordinary Antidote cures the Ogre Poison."""
    rules = TokenRules(
        unicorn_antidote_cancels_ogre_poison=False, antidote_cancels_ogre_poison=True
    )
    assert reveal({"ogre_poison": 1, "unicorn_antidote": 1}, rules).poisoned
    assert reveal({"ogre_poison": 1, "antidote": 1}, rules).survived
    # the Unicorn takes the ordinary Poison so the Antidote is free for the Ogre Poison
    assert reveal(
        {"ogre_poison": 1, "poison": 3, "antidote": 1, "unicorn_antidote": 1}, rules
    ).survived


def test_ogre_poison_doses_need_one_removal_each():
    """Configured: an Ogre Poison of ``ogre_poison_doses`` doses, each removed by one Antidote
    ("For each Antidote token in Your Goblet, remove 1 Poison token")."""
    rules = TokenRules(antidote_cancels_ogre_poison=True, ogre_poison_doses=3)
    assert reveal({"ogre_poison": 1, "antidote": 2}, rules).poison_left == 1
    assert reveal({"ogre_poison": 1, "antidote": 3}, rules).survived


def test_removals_are_assigned_to_leave_the_least_poison():
    """Which Antidote removes which Poison never matters: the most Poison possible is removed
    (rules-notes, Special tokens)."""
    rules = TokenRules(unicorn_antidote_cancels=1)
    # The Unicorn must take the Ogre Poison and the Antidote the ordinary Poison.
    assert reveal(
        {"ogre_poison": 1, "poison": 1, "antidote": 1, "unicorn_antidote": 1}, rules
    ).survived


def test_from_json_presets_and_fields():
    assert TokenRules.from_json(None) == DEFAULT_TOKEN_RULES
    assert TokenRules.from_json({}) == DEFAULT_TOKEN_RULES
    assert TokenRules.from_json("plain") == PLAIN
    assert TokenRules.from_json({"preset": "plain", "ogre_poison_doses": 2}) == TokenRules(
        unicorn_antidote_cancels=1, antidote_cancels_ogre_poison=True, ogre_poison_doses=2
    )
    assert TokenRules.from_json({"unicorn_antidote_cancels": None}).unicorn_antidote_cancels is None


@pytest.mark.parametrize("rules", list(PRESETS.values()))
def test_to_json_round_trips(rules):
    assert TokenRules.from_json(rules.to_json()) == rules


@pytest.mark.parametrize(
    ("data", "field", "problem"),
    [
        ("fancy", "token_rules.preset", "unknown preset 'fancy'"),
        ({"preset": 3}, "token_rules.preset", "must be a string"),
        ({"colour": 1}, "token_rules.colour", "unknown key"),
        ({"unicorn_antidote_cancels": -1}, "token_rules.unicorn_antidote_cancels", "got -1"),
        ({"unicorn_antidote_cancels": True}, "token_rules.unicorn_antidote_cancels", "got True"),
        ({"ogre_poison_doses": 0}, "token_rules.ogre_poison_doses", "integer >= 1, got 0"),
        ({"antidote_cancels_ogre_poison": 1}, "token_rules.antidote_cancels_ogre_poison", "true"),
        ([1], "token_rules", "must be an object or a preset name"),
    ],
)
def test_bad_token_rules_name_the_field(data, field, problem):
    with pytest.raises(MalformedInput) as caught:
        TokenRules.from_json(data)
    assert caught.value.field == field
    assert problem in str(caught.value)
