"""Character cards as data, and the hooks the engine calls at each timing."""

from __future__ import annotations

import json

import pytest
from engine_helpers import act, new, passes, setup, tokens_total

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import PUBLIC, Viewer
from companion.core.games.goblets import rules
from companion.core.games.goblets.characters import DEFAULT_DECK, Character, parse_deck

COBRA = {
    "name": "King Cobra",
    "text": "During the Toast Phase, you may take 2 actions instead of 1.",
    "timing": "toast_phase",
    "effect": "extra_toast_action",
}
EYES = {
    "name": "Averted Eyes",
    "timing": "own_turn",
    "once_per_course": True,
    "effect": "swap_and_exchange_coasters",
}


def filler(count, prefix="Plain"):
    return [{"name": f"{prefix} {i}"} for i in range(count)]


def game(cards, players=4, **options):
    """A game whose seats hold ``cards`` (names) in order, set up for the first turn."""
    deck = cards + filler(players)
    state = new(players=players, characters=deck, **options)
    names = [c["name"] for c in deck][:players]
    return setup(state, characters=names)


def test_default_deck_has_21_cards_two_known():
    """ "21 Character cards" -- two known from the rulebook, 19 named placeholders."""
    assert len(DEFAULT_DECK) == 21
    assert DEFAULT_DECK[0].name == "King Cobra"
    assert DEFAULT_DECK[0].text == "During the Toast Phase, you may take 2 actions instead of 1."
    assert DEFAULT_DECK[0].effect == "extra_toast_action"
    assert DEFAULT_DECK[1].effect == "swap_and_exchange_coasters"
    assert DEFAULT_DECK[1].once_per_course
    assert all(card.effect == "none" for card in DEFAULT_DECK[2:])


def test_cards_round_trip_and_bad_cards_name_the_field():
    """A table enters its own cards as data; bad data names the field."""
    card = Character.from_json(
        {
            "name": "Toad",
            "timing": "scoring_override",
            "effect": "scoring_override",
            "override": {"poisoned": 1},
        }
    )
    assert Character.from_json(card.to_json()) == card
    cases = [
        ([{"name": ""}], "characters[0].name"),
        ([{"name": "A", "effect": "fly"}], "characters[0].effect"),
        ([{"name": "A", "effect": "peek_any", "timing": "passive"}], "characters[0].timing"),
        ([{"name": "A", "colour": 1}], "characters[0].colour"),
        ([{"name": "A"}, {"name": "A"}], "characters[1].name"),
        (
            [
                {
                    "name": "A",
                    "effect": "scoring_override",
                    "timing": "scoring_override",
                    "override": {"most_wine": 1},
                }
            ],
            "characters[0].override.most_wine",
        ),
        ([{"name": "A", "once_per_course": "yes"}], "characters[0].once_per_course"),
    ]
    for cards, field in cases:
        with pytest.raises(MalformedInput) as error:
            parse_deck(cards)
        assert error.value.field == field


def finish_course_wine(state, seat):
    """Play until ``seat`` may Toast (everyone pours Wine into goblet 0 first)."""
    while {"type": "toast", "seat": seat} not in state.legal_actions():
        legal = state.legal_actions()
        wine = [a for a in legal if a["type"] == "pour" and a["token"] == "wine"]
        state.apply(wine[0] if wine else {"type": "pass", "seat": state.to_move()})


def test_king_cobra_takes_two_actions_in_the_toast_phase():
    """King Cobra: "During the Toast Phase, you may take 2 actions instead of 1." """
    state = game([COBRA])  # seat 0 holds King Cobra
    finish_course_wine(state, 1)
    act(state, "toast")
    passes(state, 2)
    assert state.to_move() == 0
    act(state, "rotate", direction="clockwise")
    assert state.to_move() == 0
    act(state, "rotate", direction="clockwise")
    assert state.to_move() == 1


def test_averted_eyes_swap_and_or_exchange_coasters_once_per_course():
    """A card whose owner, once per Course, makes everyone avert their eyes and may then Swap
    and/or exchange the Coasters of two Goblets ("Character abilities override the rules!")."""
    state = game([filler(1, "Guest")[0], EYES])  # seat 1 holds Averted Eyes and plays first
    action = {
        "type": "ability",
        "seat": 1,
        "card": "Averted Eyes",
        "places": [0, 2],
        "swap": True,
        "coasters": True,
    }
    assert action in state.legal_actions()
    before = [state.ring_at(p) for p in range(4)]
    events = state.apply(action)
    # both: the rings stand where they stood, the contents moved
    assert [state.ring_at(p) for p in range(4)] == before
    assert state.contents_at(0) == {"poison": 1}
    assert state.contents_at(2) == {"antidote": 1}
    public = [e for e in events if "to" not in e]
    assert public == [{"event": "ability", "seat": 1, "card": "Averted Eyes", "averted": True}]
    assert state.to_move() == 1 and state.taken == 0  # free: still two actions
    with pytest.raises(IllegalAction) as error:
        state.apply({**action, "places": [1, 3]})
    assert error.value.rule == rules.ONCE_PER_COURSE


def test_swap_alone_and_coaster_exchange_alone_look_the_same():
    """With eyes averted, the table sees only where the rings stand afterwards."""
    swapped = game([filler(1, "Guest")[0], EYES])
    exchanged = game([filler(1, "Guest")[0], EYES])
    base = {"type": "ability", "seat": 1, "card": "Averted Eyes", "places": [0, 3]}
    swapped.apply({**base, "swap": True, "coasters": False})
    exchanged.apply({**base, "swap": False, "coasters": True})
    assert swapped.view(PUBLIC) == exchanged.view(PUBLIC)
    assert swapped.contents_at(0) != exchanged.contents_at(0)


def test_own_turn_ability_cannot_be_used_in_the_toast_phase():
    """ "Unless the Ability specifically says otherwise, you CANNOT use your Character Ability
    during the Toast Phase." """
    state = game([filler(1, "Guest")[0], EYES])
    finish_course_wine(state, 1)
    act(state, "toast")
    passes(state, 3)
    assert state.to_move() == 1
    assert all(a["type"] != "ability" for a in state.legal_actions())
    with pytest.raises(IllegalAction) as error:
        state.apply(
            {
                "type": "ability",
                "seat": 1,
                "card": "Averted Eyes",
                "places": [0, 2],
                "swap": True,
                "coasters": False,
            }
        )
    assert error.value.rule == rules.NO_ABILITY_IN_TOAST_PHASE


def test_course_start_abilities_from_the_host_clockwise():
    """ "Starting with the Host and going clockwise, each player that has a Character Ability which
    can be used "At the beginning of each Course" may choose to use their Abilities now." """
    spies = [{"name": f"Spy {i}", "timing": "course_start", "effect": "peek_any"} for i in range(4)]
    state = game(spies, host=2)
    order = []
    while state.stage == "course_start":
        order.append(state.to_move())
        if state.to_move() == 3:
            act(state, "ability", card="Spy 3", place=1)
        else:
            act(state, "decline")
    assert order == [2, 3, 0, 1]
    assert state.view(Viewer.seat(3))["you"]["peeks"][0]["contents"] == {"poison": 1}
    assert "contents" not in json.dumps(state.view(Viewer.seat(2)))
    assert state.stage == "turns" and state.to_move() == 3


def test_before_drinking_abilities_from_the_callers_left():
    """ "starting with the player to the left of the Toast Caller and going clockwise, each player
    that has a Character Ability which can be used "Before Drinking" [...] may use their
    Abilities." """
    swappers = [
        {"name": f"Juggler {i}", "timing": "before_drinking", "effect": "swap_any"}
        for i in range(4)
    ]
    state = game(swappers)
    finish_course_wine(state, 1)
    act(state, "toast")
    passes(state, 4)
    order = []
    while state.steps[0].kind == "ability":
        order.append(state.to_move())
        act(state, "decline")
    assert order == [2, 3, 0, 1]
    assert state.steps[0].kind == "reveal"


def test_scoring_override_replaces_the_owners_table_but_not_most_wine():
    """ "Some Character abilities change the scoring rules for their player (you apply their
    effect instead of the normal scoring). The bonus VP for "Most Wine tokens" though is NEVER
    affected" """
    martyr = {
        "name": "Martyr",
        "timing": "scoring_override",
        "effect": "scoring_override",
        "override": {"poisoned": 2, "survived": 0, "both": 0},
    }
    state = game([filler(1, "Guest")[0], martyr], hidden_vp=False)
    finish_course_wine(state, 1)  # goblets: antidote + wine | poison | poison | wine
    act(state, "toast")
    passes(state, 4)
    act(state, "reveal")
    result = state.results[0]["places"]
    assert result[1]["poisoned"] and result[1]["target_poisoned"]
    assert state.results[0]["vp"][1] == 2 + 1 + int(result[1]["most_wine"])


def test_extra_action_card_gives_a_third_action():
    """A card with the ``extra_action`` effect: "Character abilities override the rules!" """
    hasty = {"name": "Hasty", "timing": "own_turn", "effect": "extra_action"}
    state = game([filler(1, "Guest")[0], hasty])
    for _ in range(3):
        assert state.to_move() == 1
        act(state, "rotate", direction="clockwise")
    assert state.to_move() == 2


def test_placeholder_cards_never_ask_anything():
    """The 19 unknown cards have no effect: they add no step and no action."""
    state = setup(new(players=6), characters=[f"Character {i}" for i in range(3, 9)])
    assert state.stage == "turns"
    assert all(a["type"] != "ability" for a in state.legal_actions())


def test_take_token_puts_a_special_token_into_play():
    """The special tokens start "in a common pool"; a card may bring one into play (``take_token``),
    and the 52 tokens stay conserved."""
    ogre = {"name": "Ogre", "timing": "own_turn", "effect": "take_token", "token": "ogre_poison"}
    state = game([filler(1, "Guest")[0], ogre])
    use = {"type": "ability", "seat": 1, "card": "Ogre"}
    assert use in state.legal_actions()
    events = state.apply(use)
    assert events == [{"event": "ability", "seat": 1, "card": "Ogre", "token": "ogre_poison"}]
    assert state.screens[1]["ogre_poison"] == 1
    assert tokens_total(state)["ogre_poison"] == 1
    act(state, "pour", place=2, token="ogre_poison")
    assert state.contents_at(2) == {"poison": 1, "ogre_poison": 1}
    passes(state, 3)
    with pytest.raises(IllegalAction):  # the pool has no second Ogre Poison
        state.apply(use)
    with pytest.raises(MalformedInput) as error:
        parse_deck([{"name": "X", "effect": "take_token", "timing": "own_turn", "token": "gold"}])
    assert error.value.field == "characters[0].token"
