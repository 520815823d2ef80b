"""Each game's one door for its secrets: the redaction of journaled actions in a replay, who may
enter what by hand, and what a view shows of a card before it is turned over.

The HTTP noninterference harness (tests/web/test_noninterference.py) proves the whole service;
these unit tests pin each rule down where it lives.
"""

from __future__ import annotations

import random

import pytest

from companion.core import registry
from companion.core.game import CHANCE, HOST, PUBLIC, Mode, Viewer
from companion.core.games.goblets import HOOK_DECK

GOBLETS = registry.get("goblets")


def played(name: str, options: dict, seed: int, until=None):
    """A random legal game and the state before each action: [(state, action)]."""
    rng = random.Random(seed)
    state = registry.get(name).new_state(options)
    steps = []
    for _ in range(5000):
        if state.is_over() or (until is not None and until(state)):
            break
        action = (
            state.sample_chance(rng)
            if state.to_move() is CHANCE
            else rng.choice(state.legal_actions())
        )
        steps.append((state.clone(), action))
        state.apply(action)
    return steps, state


def first(steps, kind):
    return next((state, action) for state, action in steps if action["type"] == kind)


def test_a_pour_is_replayed_without_its_token_whatever_the_screen_held():
    steps, _ = played("goblets", {"players": 4, "characters": []}, 1)
    pours = [(state, action) for state, action in steps if action["type"] == "pour"]
    assert pours
    for state, action in pours:
        assert state.redact(action, PUBLIC) == {k: v for k, v in action.items() if k != "token"}
        assert state.redact(action, HOST) == state.redact(action, PUBLIC)
    # A pour from a screen holding one kind only has no alternative: still no token.
    one_kind = [
        (s, a)
        for s, a in pours
        if sum(1 for n in s.screens[s.place_index(a["seat"])].values() if n) == 1
    ]
    assert one_kind, "the seed gives a pour from a screen of one kind"
    state, action = one_kind[0]
    assert state.hidden_alternatives(action, PUBLIC) == []
    assert "token" not in state.redact(action, PUBLIC)


def test_the_initial_pour_and_the_winetaster_cards_are_replayed_without_what_they_dealt():
    steps, _ = played("goblets", {"players": 8, "characters": []}, 2)
    state, action = first(steps, "initial_pour")
    assert state.redact(action, PUBLIC) == {"type": "initial_pour"}
    state, action = first(steps, "deal_winetaster_cards")
    assert state.redact(action, PUBLIC) == {"type": "deal_winetaster_cards"}
    state, action = first(steps, "deal_targets")
    assert state.redact(action, PUBLIC) == action  # Targets are face up


def test_the_table_chooses_when_pours_are_attributed_and_whether_the_pourer_is_shown():
    options = {"players": 5, "characters": [], "pour_attribution": "after_course"}
    steps, _ = played("goblets", options, 3)
    state, action = first(steps, "pour")
    assert state.redact(action, PUBLIC) == action
    steps, _ = played("goblets", {"players": 5, "characters": [], "show_pourer": False}, 3)
    state, action = first(steps, "pour")
    assert state.redact(action, PUBLIC) == {"type": "pour", "place": action["place"]}
    with pytest.raises(ValueError, match="pour_attribution"):
        GOBLETS.new_state({"players": 5, "pour_attribution": "always"})


def test_an_averted_eyes_ability_is_replayed_without_what_nobody_saw():
    for seed in range(30):
        steps, _ = played("goblets", {"players": 4, "characters": HOOK_DECK, "host": 2}, seed)
        averted = [(s, a) for s, a in steps if a["type"] == "ability" and "coasters" in a]
        if averted:
            break
    state, action = averted[0]
    shown = state.redact(action, PUBLIC)
    assert not {"goblets", "swap", "coasters"} & set(shown) and shown["card"] == action["card"]


def test_russian_goblette_and_cena_and_the_courtroom_redact_their_deals():
    steps, _ = played("goblets", {"players": 3}, 4)
    state, action = first(steps, "initial_pour")
    assert state.redact(action, PUBLIC) == {"type": "initial_pour"}
    state, action = first(steps, "pour")
    assert "token" not in state.redact(action, PUBLIC)
    steps, _ = played("cena", {"players": 4}, 5)
    state, action = first(steps, "deal")
    assert state.redact(action, PUBLIC) == {"type": "deal"}
    state, action = first(steps, "poisons")
    assert state.redact(action, PUBLIC) == {"type": "poisons"}
    state, action = first(steps, "welcome")
    assert state.redact(action, PUBLIC) == {"type": "welcome"}
    state, action = first(steps, "play")
    assert state.redact(action, PUBLIC) == action  # a card played is on the table
    steps, _ = played("tribunal", {}, 6)
    state, action = first(steps, "shuffle")
    assert state.redact(action, PUBLIC) == {"type": "shuffle"}


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("goblets", {"players": 5, "characters": HOOK_DECK}),
        ("goblets", {"players": 9, "characters": []}),
        ("goblets", {"players": 2}),
        ("cena", {"players": 3}),
        ("tribunal", {}),
    ],
)
def test_a_redaction_never_tells_apart_what_its_viewer_could_not(name, options):
    """For every action of a random game and every viewer, the action and each one the viewer
    could not tell it apart from are replayed alike."""
    steps, _ = played(name, options, 7)
    checked = 0
    for state, action in steps:
        for viewer in (PUBLIC, HOST, *(Viewer.seat(s) for s in range(state.num_seats))):
            for other in state.hidden_alternatives(action, viewer):
                assert state.redact(other, viewer) == state.redact(action, viewer), action
                checked += 1
    assert checked


def test_the_host_enters_only_what_the_table_sees():
    steps, _ = played("goblets", {"players": 4, "characters": HOOK_DECK}, 8)
    state, pour = first(steps, "pour")
    for mode in Mode:
        assert state.entry_refusal(pour, HOST, mode) is not None
        assert state.entry_refusal(pour, Viewer.seat(pour["seat"]), mode) is None
        for kind in ("toast", "ability"):
            assert state.entry_refusal({"type": kind, "seat": 0}, HOST, mode) is not None
        assert state.entry_refusal({"type": "initial_pour", "tokens": []}, HOST, mode)
        for kind in ("pass", "rotate", "swap", "peek", "reveal"):
            assert state.entry_refusal({"type": kind, "seat": 0}, HOST, mode) is None
    guess = {"type": "reveal", "seat": 0, "goblets": [{}] * 4}
    assert state.entry_refusal(guess, HOST, Mode.RECORDING) is not None  # not at the reveal
    at_reveal = next(s for s, a in steps if a["type"] == "reveal")
    assert at_reveal.entry_refusal(guess, HOST, Mode.RECORDING) is None  # the Host's count
    assert at_reveal.entry_refusal(guess, HOST, Mode.ENFORCING) is not None
    steps, _ = played("cena", {"players": 3}, 9)
    state, play = first(steps, "play")
    assert state.entry_refusal(play, HOST, Mode.RECORDING) is not None
    assert state.entry_refusal({"type": "reveal_poison"}, HOST, Mode.ENFORCING) is None
    steps, _ = played("tribunal", {}, 9)
    state, draw = first(steps, "draw")
    assert state.entry_refusal(draw, HOST, Mode.RECORDING) is None  # a cube from a real bag


def test_an_accused_cards_back_is_seen_once_it_is_turned_over():
    from companion.core.games.tribunal.cards import anonymous_deck

    deck = [
        {
            "name": card.name,
            "colour": card.colour,
            "guilty": [{"effect": "reputation_up", "n": 1}],
            "not_guilty": [{"effect": "legitimacy_up", "n": 1}],
        }
        for card in anonymous_deck().values()
    ]
    rng = random.Random(1)
    state = registry.get("tribunal").new_state({"deck": deck})
    state.apply(state.sample_chance(rng))
    state.apply({"type": "hear"})
    assert all("printed" not in case for case in state.view(PUBLIC)["cases"])
    state.apply({"type": "verdict", "verdict": "guilty"})
    while state.to_move() is CHANCE:
        assert all("printed" not in case for case in state.view(PUBLIC)["cases"])
        state.apply(state.sample_chance(rng))
    assert state.judgment is not None
    assert all("printed" in case for case in state.view(PUBLIC)["cases"])  # turned over
