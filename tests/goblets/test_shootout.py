"""The end-of-game tie-break shoot-out (companion/core/games/goblets/shootout.py)."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import play_random

from companion.core.errors import AmbiguousObservation, IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Mode, Viewer
from companion.core.games.goblets.shootout import (
    CHOOSE,
    POUR,
    RULE_CHOOSE,
    RULE_TIE,
    Shootout,
    choosing_order,
)


def pour(wine: str, ids=("1", "2", "3")) -> dict:
    return {"type": POUR, "goblets": {g: "wine" if g == wine else "poison" for g in ids}}


def choose(seat: int, goblet: str) -> dict:
    return {"type": CHOOSE, "seat": seat, "goblet": goblet}


def views(state) -> str:
    viewers = [PUBLIC, HOST, *(Viewer.seat(i) for i in range(state.num_seats))]
    return json.dumps([state.view(v) for v in viewers], sort_keys=True)


def test_caller_tied_chooses_first():
    """ "Starting from the last Toast Caller and proceeding clockwise, each tied player chooses"."""
    assert choosing_order([0, 2, 4], last_toast_caller=2, num_seats=5) == [2, 4, 0]


def test_caller_not_tied_first_tied_clockwise_from_caller():
    """ "Starting from the last Toast Caller": when the caller is not tied, the first tied seat
    clockwise after the caller chooses first (docs/rules-notes.md, Shoot-out)."""
    assert choosing_order([0, 1, 4], last_toast_caller=2, num_seats=5) == [4, 0, 1]
    state = Shootout.start([0, 3], last_toast_caller=1, num_seats=4)
    state.apply(pour("1", ids=("1", "2")))
    assert state.to_move() == 3
    assert state.tied_seats == [3, 0]


def test_one_goblet_per_tied_player_one_wine_rest_poison():
    """ "take 1 Goblet for each tied player. The Host takes 1 Wine token plus a number of Poison
    tokens so that the total is equal to the number of tied players, and randomly pours 1 into
    each Goblet"."""
    state = Shootout.start([0, 1, 2, 3], last_toast_caller=0, num_seats=6)
    assert state.to_move() is CHANCE
    assert state.legal_actions() == []
    wine_goblets = set()
    for seed in range(40):
        action = state.sample_chance(random.Random(seed))
        tokens = list(action["goblets"].values())
        assert sorted(action["goblets"]) == ["1", "2", "3", "4"]
        assert tokens.count("wine") == 1 and tokens.count("poison") == 3
        wine_goblets.add(next(g for g, t in action["goblets"].items() if t == "wine"))
    assert wine_goblets == {"1", "2", "3", "4"}  # random: every goblet can get the Wine


def test_the_survivor_wins():
    """ "each tied player chooses 1 Goblet and reveals its contents. The surviving player is the
    winner!"."""
    state = Shootout.start([1, 3, 4], last_toast_caller=3, num_seats=5)
    state.apply(pour("2"))
    assert state.to_move() == 3
    events = state.apply(choose(3, "1"))
    assert events[0] == {
        "event": "shootout_revealed",
        "seat": 3,
        "goblet": "1",
        "token": "poison",
        "survived": False,
    }
    assert state.winner() is None and not state.is_over()
    assert state.apply(choose(4, "2"))[0]["survived"] is True
    assert [a["goblet"] for a in state.legal_actions()] == ["3"]  # the last choice is forced
    events = state.apply(choose(1, "3"))
    assert events[-1] == {"event": "shootout_over", "winners": [4]}
    assert state.is_over() and state.to_move() is None and state.legal_actions() == []
    assert state.winner() == 4 and state.winners() == [4]
    assert state.outcome() == {
        "winners": [4],
        "revealed": {"1": "poison", "2": "wine", "3": "poison"},
    }


def test_enforcing_refuses_out_of_turn_choice_with_the_rule():
    """ "Starting from the last Toast Caller and proceeding clockwise, each tied player chooses
    1 Goblet" -- in turn; the state is unchanged after a refusal."""
    state = Shootout.start([0, 1], last_toast_caller=0, num_seats=4, goblet_ids=["a", "b"])
    state.apply(pour("a", ids=("a", "b")))
    before = views(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(choose(1, "a"))
    assert error.value.rule == RULE_CHOOSE
    assert views(state) == before
    state.apply(choose(0, "b"))
    after_first = views(state)
    with pytest.raises(IllegalAction):
        state.apply(choose(1, "b"))  # already chosen
    with pytest.raises(IllegalAction):
        state.apply(choose(2, "a"))  # not tied
    assert views(state) == after_first
    state.apply(choose(1, "a"))
    assert state.winner() == 1


def test_enforcing_refuses_a_pour_that_is_not_one_wine():
    """ "The Host takes 1 Wine token plus a number of Poison tokens" -- two Wine is refused."""
    state = Shootout.start([0, 1, 2], last_toast_caller=0, num_seats=3)
    bad = {"type": POUR, "goblets": {"1": "wine", "2": "wine", "3": "poison"}}
    with pytest.raises(IllegalAction) as error:
        state.apply(bad)
    assert error.value.rule == RULE_TIE
    assert state.to_move() is CHANCE
    with pytest.raises(IllegalAction):
        state.apply(choose(0, "1"))  # nothing poured yet
    state.apply(pour("3"))
    with pytest.raises(IllegalAction):
        state.apply(pour("1"))  # poured once only
    with pytest.raises(IllegalAction):
        state.sample_chance(random.Random(0))


def test_sensed_pour_breaking_the_rule_is_recorded_with_a_warning():
    """Sensed goblets: the pour comes from the readers; "1 Wine token plus ... Poison tokens"
    broken on the table is recorded with a rule warning, and the survivors share the victory."""
    state = Shootout.start([0, 2], last_toast_caller=1, num_seats=3, goblet_ids=["red", "blue"])
    events = state.apply({"type": POUR, "goblets": {"red": "wine", "blue": "wine"}}, Mode.RECORDING)
    assert events[0] == {"event": "shootout_poured", "goblets": ["red", "blue"]}
    assert events[1]["event"] == "rule_warning" and events[1]["rule"] == RULE_TIE
    assert state.to_move() == 2
    state.apply(choose(2, "blue"), Mode.RECORDING)
    state.apply(choose(0, "red"), Mode.RECORDING)
    assert state.winners() == [2, 0] and state.winner() is None


def test_sensed_pour_with_no_wine_leaves_the_tie_standing():
    """No survivor at all (a sensed pour with no Wine): every tied player shares the victory."""
    state = Shootout.start([0, 1], last_toast_caller=0, num_seats=2)
    state.apply({"type": POUR, "goblets": {"1": "poison", "2": "poison"}}, Mode.RECORDING)
    state.apply(choose(0, "1"), Mode.RECORDING)
    state.apply(choose(1, "2"), Mode.RECORDING)
    assert state.winners() == [0, 1]


def test_sensed_out_of_turn_choice_is_recorded_and_impossible_ones_are_ambiguous():
    """Sensed reality wins (DESIGN principle 6); what cannot have happened is for the host."""
    state = Shootout.start([0, 1, 2], last_toast_caller=0, num_seats=4)
    with pytest.raises(AmbiguousObservation):
        state.apply(choose(0, "1"), Mode.RECORDING)  # before the pour
    state.apply(pour("1"), Mode.RECORDING)
    events = state.apply(choose(2, "1"), Mode.RECORDING)
    assert events[-1]["event"] == "rule_warning" and events[-1]["rule"] == RULE_CHOOSE
    for impossible in (choose(3, "2"), choose(2, "2"), choose(0, "1"), choose(0, "9")):
        with pytest.raises(AmbiguousObservation):
            state.apply(impossible, Mode.RECORDING)
    assert state.to_move() == 0
    state.apply(choose(0, "2"), Mode.RECORDING)
    state.apply(choose(1, "3"), Mode.RECORDING)
    assert state.winner() == 2


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ("nope", "action"),
        ({"type": "dance"}, "action.type"),
        ({"type": POUR}, "action.goblets"),
        ({"type": POUR, "goblets": {"1": "wine"}}, "action.goblets"),
        ({"type": POUR, "goblets": {"1": "wine", "2": "antidote"}}, "goblets.2"),
        ({"type": CHOOSE, "seat": "0", "goblet": "1"}, "action.seat"),
        ({"type": CHOOSE, "seat": 0, "goblet": 1}, "action.goblet"),
    ],
)
def test_malformed_actions_name_the_field(action, field):
    state = Shootout.start([0, 1], last_toast_caller=0, num_seats=2)
    with pytest.raises(MalformedInput) as error:
        state.apply(action)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (([0], 0, 4), "tied_seats"),
        (([0, 0], 0, 4), "tied_seats"),
        (([0, 5], 0, 4), "tied_seats"),
        (([0, 1], 7, 4), "tied_seats"),
        (([0, 1], 0, 1), "num_seats"),
        (([0, 1], 0, 4, ["a"]), "goblet_ids"),
        (([0, 1], 0, 4, ["a", "a"]), "goblet_ids"),
    ],
)
def test_bad_start_arguments_name_the_field(args, field):
    with pytest.raises(MalformedInput) as error:
        Shootout.start(*args)
    assert error.value.field == field


def test_nobody_sees_a_goblet_until_it_is_revealed():
    """Views: nobody -- the Host included -- sees what a goblet holds until it is chosen."""
    first = Shootout.start([0, 1, 2], last_toast_caller=0, num_seats=3)
    second = first.clone()
    first.apply(pour("1"))
    alternatives = second.hidden_alternatives(pour("1"), HOST)
    assert alternatives == [pour("2"), pour("3")]
    second.apply(pour("3"))
    assert views(first) == views(second)
    assert all(g["token"] is None for g in first.view(HOST)["goblets"])
    assert first.reveals_hidden(choose(0, "2")) and not first.reveals_hidden(pour("1"))
    first.apply(choose(0, "2"))
    assert first.view(PUBLIC)["goblets"][1] == {"id": "2", "chosen_by": 0, "token": "poison"}
    assert first.view(PUBLIC)["goblets"][0]["token"] is None


@pytest.mark.parametrize("seed", range(25))
def test_seeded_random_play_ends_with_one_winner_and_replays(seed):
    """ "The surviving player is the winner!" -- over random ties, the journal replays exactly."""
    rng = random.Random(seed)
    seats = rng.randint(2, 12)
    tied = sorted(rng.sample(range(seats), rng.randint(2, seats)))
    caller = rng.randrange(seats)
    state = Shootout.start(tied, caller, seats)
    journal = play_random(state, rng)
    assert len(journal) == len(tied) + 1
    assert state.winner() in tied
    assert [seat for seat, _ in state.choices] == choosing_order(tied, caller, seats)
    replayed = Shootout.start(tied, caller, seats)
    for action in json.loads(json.dumps(journal)):
        replayed.apply(action)
    assert views(replayed) == views(state) and replayed.outcome() == state.outcome()
