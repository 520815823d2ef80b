"""Winetasters (7 to 12 players): a tie for the most VP is shot out, as in the standard game.

The Toast: "In case of a tie, take 1 Goblet for each tied player. The Host takes 1 Wine token plus
a number of Poison tokens so that the total is equal to the number of tied players, and randomly
pours 1 into each Goblet. Starting from the last Toast Caller and proceeding clockwise, each tied
player chooses 1 Goblet and reveals its contents. The surviving player is the winner!" The
Winetasters variant lists its changes ("The rules are mostly the same as normal, with the
following changes") and the tie-break is not among them (issue 14). Its VP are each player's own
("Each player has to make sure to keep their own VPs in front of themselves"), so the tied players
are seats, a Noble and their Winetaster each with a Goblet (docs/rules-notes.md, "Winetasters: the
tie-break").
"""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import act, call_toast, finish_toast, start

from companion.core.game import CHANCE, PUBLIC
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.journal import Journal, play_random, replay

TIE_RULE = (
    "In case of a tie, take 1 Goblet for each tied player. The Host takes 1 Wine token plus a "
    "number of Poison tokens so that the total is equal to the number of tied players, and "
    "randomly pours 1 into each Goblet. Starting from the last Toast Caller and proceeding "
    "clockwise, each tied player chooses 1 Goblet and reveals its contents. The surviving player "
    "is the winner!"
)


def one_course(players: int, earlier: list[int] | None = None, **options):
    """A one-Course Winetasters game played to its reveal; ``earlier``: VP from Courses before.

    Everyone pours Wine into their own Goblet, a Noble toasts, all pass. With 7 players the
    Course scores [4, 4, 3, 1, 0, 0, 1]: the Loyal Winetaster (seat 0) ties their Noble (seat 1).
    """
    state = start(players, courses=1, **options)
    if earlier is not None:
        state.vp = list(earlier)  # VP won in earlier Courses (the state's own running total)
    caller = call_toast(state)
    events = finish_toast(state)
    return state, caller, events


def test_a_noble_and_their_loyal_winetaster_tied_shoot_it_out():
    """ "In case of a tie, take 1 Goblet for each tied player. ... Starting from the last Toast
    Caller and proceeding clockwise, each tied player chooses 1 Goblet and reveals its contents.
    The surviving player is the winner!" — with Winetasters too."""
    state, caller, events = one_course(7)
    assert state.opts.is_winetasters and caller == 3
    assert state.vp == [4, 4, 3, 1, 0, 0, 1]
    assert {"event": "shootout_started", "tied": [0, 1]} in events
    assert state.phase == "shootout" and not state.is_over()
    assert state.to_move() is CHANCE  # the Host (the last Toast Caller) pours
    pour = state.sample_chance(random.Random(5))
    assert sorted(pour["goblets"]) == ["de_miceti", "mctoadery"]
    assert sorted(pour["goblets"].values()) == ["poison", "wine"]
    state.apply(pour)
    assert "wine" not in json.dumps(state.view(PUBLIC)["shootout"])
    # clockwise from the caller (seat 3): 4, 5, 6, then seat 0 -- the Winetaster chooses first
    assert state.to_move() == 0
    assert [a["seat"] for a in state.legal_actions()] == [0, 0]
    wine = next(g for g, token in pour["goblets"].items() if token == "wine")
    act(state, "shootout_choose", goblet=next(g for g in pour["goblets"] if g != wine))
    assert state.to_move() == 1
    events = act(state, "shootout_choose", goblet=wine)
    assert state.is_over() and state.outcome()["winners"] == [1]
    assert events[-1]["event"] == "game_over" and events[-1]["winners"] == [1]


def test_more_tied_players_than_goblets_in_play_take_the_boxs_other_goblets():
    """7 players play 4 Goblets (3 pairs and the extra player); a tie of 5 takes "1 Goblet for
    each tied player" from the box's six: the four in play, then the next House's."""
    #                   course:  4  4  3  1  0  0  1
    state, _, events = one_course(7, earlier=[1, 1, 0, 0, 5, 5, 4])
    assert state.vp == [5, 5, 3, 1, 5, 5, 5]
    assert {"event": "shootout_started", "tied": [0, 1, 4, 5, 6]} in events
    assert state.shootout.goblet_ids == [*HOUSE_IDS[:4], HOUSE_IDS[4]]
    assert state.shootout.tied_seats == [4, 5, 6, 0, 1]  # clockwise from the caller, seat 3


def test_six_tied_is_the_most_the_box_can_shoot_out():
    """Six tied players take the box's "6 Goblets"."""
    #                     course: 4  4  3  1  0  0  0  1  1  1  0  1
    earlier = [0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 4, 0]
    state, _, events = one_course(12, earlier=earlier)
    assert state.vp == [4, 4, 3, 1, 0, 0, 0, 4, 4, 4, 4, 1]
    assert {"event": "shootout_started", "tied": [0, 1, 7, 8, 9, 10]} in events
    assert state.phase == "shootout" and sorted(state.shootout.goblet_ids) == sorted(HOUSE_IDS)
    rng = random.Random(1)
    while not state.is_over():
        if state.to_move() is CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    winners = state.outcome()["winners"]
    assert len(winners) == 1 and winners[0] in (0, 1, 7, 8, 9, 10)


def test_a_tie_of_more_than_six_is_shared():
    """ "take 1 Goblet for each tied player" with "6 Goblets" in the box: seven or more tied players
    (only possible with Winetasters) cannot shoot out, and the tie stands."""
    earlier = [0, 0, 1, 3, 4, 4, 4, 3, 3, 3, 4, 3]  # + [4, 4, 3, 1, 0, 0, 0, 1, 1, 1, 0, 1]
    state, _, events = one_course(12, earlier=earlier)
    assert state.vp == [4] * 12
    assert {"event": "tie_shared", "tied": list(range(12)), "goblets": 6} in events
    assert state.is_over() and state.outcome()["winners"] == list(range(12))


def test_raise_your_memory_numbers_the_shootout_goblets():
    """Raise Your Memory: "remove the Coaster rings from the Goblets": the Goblets are numbered."""
    state, _, _ = one_course(8, raise_your_memory=True)
    assert state.phase == "shootout" and state.shootout.goblet_ids == ["1", "2"]


@pytest.mark.parametrize("players", [7, 8, 9, 10, 11, 12])
def test_random_winetasters_games_end_with_one_winner_or_a_shared_tie_of_seven(players):
    """Seeded random games: a tie of 2 to 6 is always shot out and leaves one winner among the
    tied; only a tie of 7 or more is shared. The journal replays to the same end."""
    for seed in range(4):
        options = {"players": players, "characters": [], "courses": 2}
        journal = Journal("goblets", options)
        state, events = play_random(journal, random.Random(players * 100 + seed))
        best = max(state.vp)
        tied = [seat for seat, vp in enumerate(state.vp) if vp == best]
        winners = state.outcome()["winners"]
        if len(tied) == 1:
            assert winners == tied
        elif len(tied) <= 6:
            assert {"event": "shootout_started", "tied": tied} in events
            assert len(winners) == 1 and winners[0] in tied
        else:
            assert {"event": "tie_shared", "tied": tied, "goblets": 6} in events
            assert winners == tied
        again, _ = replay(Journal.from_json(json.loads(json.dumps(journal.to_json()))))
        assert again.outcome() == state.outcome()


def test_random_winetasters_games_do_reach_the_shootout():
    """The property test above is not vacuous: random Winetasters games do end tied."""
    shot_out = 0
    for seed in range(12):
        journal = Journal("goblets", {"players": 7 + seed % 6, "characters": [], "courses": 1})
        _, events = play_random(journal, random.Random(seed))
        shot_out += any(e["event"] == "shootout_started" for e in events)
    assert shot_out >= 3
