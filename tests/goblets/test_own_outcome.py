"""A seat's own outcome of the latest Toast, as its phone shows it at the reveal (issue 15)."""

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
