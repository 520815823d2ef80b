"""The Toast as the table's screens show it (issue 15): a seat's own outcome, the reveal's order."""

from __future__ import annotations

from engine_helpers import call_toast, finish_toast, start

from companion.core.game import HOST, PUBLIC, Viewer


def test_each_seat_sees_its_own_verdict_and_vp_and_nobody_else_has_one():
    """ "If your Goblet still contains at least 1 Poison token, you have been poisoned": each
    seat's outcome is its own place's verdict, with its own VP even when VP are hidden."""
    state = start(4, hidden_vp=True)
    assert all(state.view(Viewer.seat(s))["you"]["outcome"] is None for s in range(4))
    call_toast(state)
    finish_toast(state)
    result = state.results[-1]
    assert state.view(PUBLIC)["results"][-1].get("vp") is None  # hidden VP stay hidden
    for seat in range(4):
        mine = result["places"][state.place_index(seat)]
        own = state.view(Viewer.seat(seat))["you"]["outcome"]
        assert own == {
            "course": 1,
            "poisoned": mine["poisoned"],
            "target_poisoned": mine["target_poisoned"],
            "most_wine": mine["most_wine"],
            "vp": result["vp"][seat],
        }
    assert {r["poisoned"] for r in result["places"]} == {True, False}  # both verdicts shown
    assert "you" not in state.view(PUBLIC) and "you" not in state.view(HOST)


def test_the_reveal_goes_from_the_toast_callers_left_and_says_what_poison_is_left():
    """ "Starting with the player to the left of the Toast Caller and proceeding clockwise": the
    public view's reveal order for the tablet; each Goblet's Poison left after its Antidotes."""
    state = start(5)
    assert state.view(PUBLIC)["reveal"] is None
    caller = call_toast(state)
    finish_toast(state)
    reveal = state.view(PUBLIC)["reveal"]
    here = state.place_index(caller)
    assert reveal["order"][-1] == here and reveal["order"][0] == (here + 1) % 5
    assert sorted(reveal["order"]) == list(range(5))
    for place in state.results[-1]["places"]:
        contents = place["contents"]
        left = max(0, contents.get("poison", 0) - contents.get("antidote", 0))
        assert reveal["poison_left"][place["place"]] == left
        assert (left > 0) == place["poisoned"]
