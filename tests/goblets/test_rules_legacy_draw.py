"""Raise Your Goblets Legacy: the Character deck running out during the poisoned players' draws.

Desserts, Raise your Goblets Legacy: "If you are poisoned, discard your Character card and draw a
new one for the next Course." Issue 14: when the undealt deck ran out part-way through the draws,
the remaining poisoned players neither discarded nor drew (the discard pile was only used when the
deck was already empty). Now the discard pile is shuffled into a new deck the moment the deck is
out, and the draws go on from it (docs/rules-notes.md, "Legacy").
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import call_toast, finish_toast, new, setup

from companion.core.errors import MalformedInput
from companion.core.game import CHANCE

LEGACY = "If you are poisoned, discard your Character card and draw a new one for the next Course."


def cards(count: int) -> list[dict]:
    """A deck of ``count`` Character cards without effect (only their names matter here)."""
    return [
        {
            "name": f"Card {i}",
            "text": "no effect",
            "timing": "passive",
            "once_per_course": False,
            "effect": "none",
        }
        for i in range(count)
    ]


def at_draw(deck: int, players: int = 4) -> object:
    """A Legacy game on a ``deck``-card deck, Card i dealt to seat i, after the first Toast.

    The default pour puts the Antidote in Goblet 0 and the Poisons in Goblets 1 and 2, and every
    player pours Wine into their own Goblet: seats 1 and 2 are poisoned.
    """
    state = new(players=players, legacy=True, characters=cards(deck))
    setup(state, characters=[f"Card {i}" for i in range(players)])
    call_toast(state)
    finish_toast(state)
    poisoned = [p["seats"][0] for p in state.results[-1]["places"] if p["poisoned"]]
    assert poisoned == [1, 2]
    assert state.phase == "legacy_draw" and state.to_move() is CHANCE
    return state


def undealt(state) -> list[str]:
    """The undealt deck: neither held nor in the discard pile."""
    held = set(state.characters)
    return [
        c.name
        for c in state.opts.characters
        if c.name not in held and c.name not in state.character_discards
    ]


def test_the_discard_pile_is_shuffled_the_moment_the_deck_runs_out():
    """ "If you are poisoned, discard your Character card and draw a new one for the next
    Course." One card is left undealt: seat 1 draws it and discards Card 1; the deck is out, so
    the discard pile (Card 1) becomes the deck and seat 2 draws from it."""
    state = at_draw(5)
    assert undealt(state) == ["Card 4"]
    draw = state.sample_chance(random.Random(0))
    assert draw == {
        "type": "legacy_draw",
        "draws": [{"seat": 1, "character": "Card 4"}, {"seat": 2, "character": "Card 1"}],
    }
    events = state.apply(draw)
    kinds = [e["event"] for e in events]
    assert kinds[:3] == ["character_drawn", "character_discards_shuffled", "character_drawn"]
    assert events[1] == {"event": "character_discards_shuffled", "cards": 1}
    assert state.characters == ["Card 0", "Card 4", "Card 1", "Card 3"]
    assert state.character_discards == ["Card 2"]
    assert state.phase == "initial_pour" and state.course == 2


def test_the_old_partial_draw_is_refused():
    """The gap of issue 14 as a journal entry: seat 2 left without a new card is no longer a
    legal draw, nor is seat 2 drawing back the card it discards ("draw a new one"), nor the one
    card twice."""
    for draws in (
        [{"seat": 1, "character": "Card 4"}],
        [{"seat": 1, "character": "Card 4"}, {"seat": 2, "character": "Card 2"}],
        [{"seat": 1, "character": "Card 4"}, {"seat": 2, "character": "Card 4"}],
        [{"seat": 1, "character": "Card 1"}, {"seat": 2, "character": "Card 4"}],
        [{"seat": 2, "character": "Card 4"}, {"seat": 1, "character": "Card 2"}],
    ):
        state = at_draw(5)
        with pytest.raises(MalformedInput) as error:
            state.apply({"type": "legacy_draw", "draws": draws})
        assert error.value.field == "draws" and "[1, 2]" in str(error.value)
        assert state.phase == "legacy_draw" and state.characters[1:3] == ["Card 1", "Card 2"]


def test_a_deck_that_lasts_needs_no_shuffle():
    """Two undealt cards for two poisoned players: both draw from the deck, the pile keeps both
    discarded cards."""
    state = at_draw(6)
    events = state.apply(state.sample_chance(random.Random(1)))
    assert "character_discards_shuffled" not in [e["event"] for e in events]
    assert sorted(state.characters[1:3]) == ["Card 4", "Card 5"]
    assert state.character_discards == ["Card 1", "Card 2"]


def test_the_shuffled_pile_is_the_deck_of_the_next_course():
    """Once shuffled, the discard pile is the deck: the next Course's draws take its cards first
    and shuffle the newer discards only when it is out again."""
    state = at_draw(5)
    state.apply(state.sample_chance(random.Random(0)))
    assert undealt(state) == [] and state.character_discards == ["Card 2"]
    setup(state)
    call_toast(state)
    finish_toast(state)
    assert state.legacy_pending == [1, 2] and state.characters[1:3] == ["Card 4", "Card 1"]
    events = state.apply(state.sample_chance(random.Random(0)))
    # seat 1: deck out -> the pile (Card 2) shuffled, drawn; seat 2: out again -> Card 4.
    assert [e["event"] for e in events][:4] == [
        "character_discards_shuffled",
        "character_drawn",
        "character_discards_shuffled",
        "character_drawn",
    ]
    assert state.characters == ["Card 0", "Card 2", "Card 4", "Card 3"]
    assert state.character_discards == ["Card 1"]


def test_with_every_card_held_the_poisoned_keep_theirs():
    """A deck of exactly one card per player: nothing is left to draw (a new one does not exist),
    so there is no draw at all and the Course goes on."""
    state = new(players=4, legacy=True, characters=cards(4))
    setup(state, characters=[f"Card {i}" for i in range(4)])
    call_toast(state)
    finish_toast(state)
    assert state.phase == "initial_pour" and state.characters == [f"Card {i}" for i in range(4)]


def check_cards(state) -> None:
    """Every card is held, discarded or undealt, exactly once."""
    held = [name for name in state.characters if name is not None]
    assert len(set(held)) == len(held)
    assert not set(held) & set(state.character_discards)
    together = sorted(held + state.character_discards + undealt(state))
    assert together == sorted(c.name for c in state.opts.characters)


@pytest.mark.parametrize(
    ("players", "deck", "courses", "seed"),
    [(12, 13, 3, 1), (12, 13, 3, 2), (9, 11, 4, 3), (12, 21, 9, 4), (5, 6, 5, 5), (4, 5, 6, 6)],
)
def test_random_games_give_every_poisoned_player_a_new_card(players, deck, courses, seed):
    """Seeded random Legacy games (Winetasters and the 4-6 player game) on decks that run out:
    at every draw each poisoned player (the Noble of a poisoned pair) gets a card they did not
    hold, and no card is ever lost or doubled."""
    state = new(players=players, legacy=True, characters=cards(deck), courses=courses)
    rng = random.Random(seed)
    shuffles = 0
    for _ in range(40_000):
        if state.is_over():
            break
        if state.to_move() is CHANCE:
            action = state.sample_chance(rng)
            if action["type"] == "legacy_draw":
                pending = list(state.legacy_pending)
                before = list(state.characters)
                assert [d["seat"] for d in action["draws"]] == pending
                events = state.apply(action)
                shuffles += [e["event"] for e in events].count("character_discards_shuffled")
                for seat in pending:
                    assert state.characters[seat] != before[seat]
                check_cards(state)
                continue
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
    assert state.is_over()
    assert shuffles > 0  # the deck did run out in this game
