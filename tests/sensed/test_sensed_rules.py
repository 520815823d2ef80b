"""The sensed table's readings, fed tracker events by hand (docs/rules-notes.md, "Sensed play").

A 4-player table, Host seat 0, so seat 1 plays first ("Starting with the player to the Host's
left"). Places 0-3 hold the Goblets of de_miceti, mctoadery, aconitiers and wespendorf.
"""

from __future__ import annotations

import random

import pytest
from by_hand import FIRST, HOUSES, kinds, pour, poured_first, warned

from companion.core import registry
from companion.core.errors import AmbiguousObservation, MalformedInput
from companion.core.games.goblets import rules
from companion.core.games.goblets.sensed import SensedTable
from companion.core.games.goblets.state import GobletsState


def new_state(**options) -> GobletsState:
    state = registry.get("goblets").new_state({"players": 4, "characters": [], **options})
    assert isinstance(state, GobletsState)
    return state


def table(rng: bool = True, **options) -> SensedTable:
    """A table whose Course started and whose initial pour is done: seat 1 to play."""
    return poured_first(SensedTable(new_state(**options), rng=random.Random(1) if rng else None))


# -- the initial pour -----------------------------------------------------------------------


def test_initial_pour_is_the_first_token_seen_in_each_goblet() -> None:
    sensed = SensedTable(new_state(), rng=random.Random(1))
    assert sensed.start_course().applied == []
    out = sensed.on_events([pour(g, FIRST[g]) for g in reversed(HOUSES)])
    assert out.actions[0] == {
        "type": "initial_pour",
        "tokens": ["antidote", "poison", "poison", "wine"],
    }
    assert out.actions[1]["type"] == "deal_targets"  # drawn with the table's rng
    state = sensed.state
    assert [state.contents_at(p) for p in range(4)] == [{k: 1} for k in FIRST.values()]
    assert sensed.turn_seat() == 1


def test_pours_before_the_host_starts_the_course_wait_for_it() -> None:
    sensed = SensedTable(new_state(), rng=random.Random(1))
    out = sensed.on_events([pour(g, k) for g, k in FIRST.items()])
    assert out.applied == []
    assert sensed.status()["waiting"] == "course_not_started"
    assert sensed.start_course().actions[0]["type"] == "initial_pour"


def test_a_second_token_before_the_initial_pour_is_done_is_poured_outside_any_turn() -> None:
    sensed = SensedTable(new_state(), rng=random.Random(1))
    sensed.start_course()
    events = [pour("de_miceti", "antidote"), pour("de_miceti", "wine")]
    events += [pour(g, FIRST[g]) for g in HOUSES[1:]]
    out = sensed.on_events(events)
    assert [a["type"] for a in out.actions] == ["initial_pour", "deal_targets", "pour"]
    assert out.actions[2] == {"type": "pour", "seat": None, "place": 0, "token": "wine"}
    assert {"notice": "poured_outside_turn", "pours": 1} in out.notices
    assert sensed.state.contents_at(0) == {"antidote": 1, "wine": 1}


def test_an_initial_pour_of_other_tokens_is_recorded_with_a_warning() -> None:
    sensed = SensedTable(new_state(), rng=random.Random(1))
    sensed.start_course()
    out = sensed.on_events([pour(g, "wine") for g in HOUSES])
    assert out.actions[0] == {"type": "initial_pour", "tokens": ["wine"] * 4}
    assert [w[1] for w in warned(out)] == [rules.INITIAL_POUR]
    assert [sensed.state.contents_at(p) for p in range(4)] == [{"wine": 1}] * 4
    with pytest.raises(MalformedInput):
        SensedTable(new_state()).apply_chance({"type": "initial_pour", "tokens": ["wine"]})


def test_goblets_away_from_their_houses_hold_the_course_until_put_right() -> None:
    layout = {0: "mctoadery", 1: "de_miceti", 2: "aconitiers", 3: "wespendorf"}
    sensed = SensedTable(new_state(), layout=layout, rng=random.Random(1))
    out = sensed.start_course()
    assert out.notices[0]["notice"] == "goblets_misplaced"
    assert sensed.on_events([pour(g, k) for g, k in FIRST.items()]).applied == []
    assert sensed.status()["waiting"] == "goblets_misplaced"
    out = sensed.on_event({"event": "swap", "seats": [0, 1]})
    assert out.actions[0]["type"] == "initial_pour"  # setting out the Goblets is no action


def test_without_an_rng_sensed_events_wait_for_the_target_deal() -> None:
    sensed = table(rng=False)
    assert sensed.status()["waiting"] == "chance"
    assert sensed.on_event(pour("wespendorf", "wine")).applied == []
    targets = ["mctoadery", "aconitiers", "wespendorf", "de_miceti"]
    out = sensed.apply_chance({"type": "deal_targets", "targets": targets})
    assert kinds(out) == [("deal_targets", None), ("pour", 1)]


# -- who acted --------------------------------------------------------------------------------


def test_pour_and_rotate_are_the_acts_of_the_seat_whose_turn_it_is() -> None:
    sensed = table()
    out = sensed.on_event(pour("aconitiers", "poison"))
    assert out.actions == [{"type": "pour", "seat": 1, "place": 2, "token": "poison"}]
    out = sensed.on_event({"event": "rotate", "direction": "widdershins"})
    assert out.actions == [{"type": "rotate", "seat": 1, "direction": "widdershins"}]
    assert sensed.turn_seat() == 2  # "up to two actions": the turn ended on its limit
    assert sensed.status()["engine_layout"] == sensed.status()["layout"]
    assert sensed.state.screens[1] == {"wine": 3, "poison": 1, "antidote": 2}


def test_a_lift_at_the_players_place_is_their_peek() -> None:
    sensed = table()
    out = sensed.on_event({"event": "lift", "goblet": "mctoadery", "seat": 1})
    assert out.actions == [{"type": "peek", "seat": 1}]
    peeked = [e for e in out.events if e["event"] == "peeked"]
    assert peeked == [{"event": "peeked", "to": 1, "place": 1, "contents": {"poison": 1}}]


def test_a_lift_at_a_later_place_means_the_seats_between_passed() -> None:
    sensed = table()
    out = sensed.on_event({"event": "lift", "goblet": "wespendorf", "seat": 3})
    assert out.actions == [{"type": "peek", "seat": 3}]
    assert warned(out) == []
    assert sensed.state.steps[0].seat == 3 and sensed.state.taken == 1


def test_a_swap_with_your_own_goblet_is_yours() -> None:
    sensed = table()
    out = sensed.on_event({"event": "swap", "seats": [3, 1]})
    assert out.actions == [{"type": "swap", "seat": 1, "with": 3}]
    assert sensed.status()["engine_layout"]["1"] == "wespendorf"


def test_a_swap_of_two_other_goblets_is_recorded_with_a_warning() -> None:
    sensed = table()
    out = sensed.on_event({"event": "swap", "seats": [2, 3]})
    assert out.actions == [{"type": "swap", "seat": 1, "from": 2, "with": 3}]
    assert warned(out) == [("Swap exchanges Your Goblet for another player's", rules.SWAP)]
    assert sensed.status()["engine_layout"] == sensed.status()["layout"]


def test_a_change_that_is_no_single_action_is_recorded_as_swaps() -> None:
    sensed = table()
    moves = [
        {"event": "move", "goblet": "de_miceti", "from": 0, "to": 1},
        {"event": "move", "goblet": "mctoadery", "from": 1, "to": 2},
        {"event": "move", "goblet": "aconitiers", "from": 2, "to": 0},
    ]
    out = sensed.on_events(moves)
    assert [a["type"] for a in out.actions] == ["swap", "swap"]
    assert out.notices[0]["notice"] == "move"
    assert sensed.status()["engine_layout"] == {
        "0": "aconitiers",
        "1": "de_miceti",
        "2": "mctoadery",
        "3": "wespendorf",
    }


# -- rule breaks are warnings, not refusals -------------------------------------------------


def test_three_actions_in_a_turn_are_recorded_with_a_warning() -> None:
    sensed = table()
    sensed.on_events([pour("aconitiers", "poison"), pour("aconitiers", "wine")])
    out = sensed.on_event({"event": "lift", "goblet": "mctoadery", "seat": 1})
    assert out.actions == [{"type": "peek", "seat": 1}]
    assert warned(out) == [("McToadery acted out of turn", rules.TURNS)]
    assert any(e["event"] == "peeked" for e in out.events)  # what happened, happened
    assert sensed.turn_seat() == 2


def test_a_swap_as_a_third_action_is_the_players_and_warned() -> None:
    sensed = table()
    sensed.on_events([pour("aconitiers", "poison"), pour("aconitiers", "wine")])
    out = sensed.on_event({"event": "swap", "seats": [1, 3]})
    assert out.actions == [{"type": "swap", "seat": 1, "with": 3}]
    assert warned(out) == [("McToadery acted out of turn", rules.TURNS)]
    assert sensed.status()["engine_layout"] == sensed.status()["layout"]


def test_a_toast_with_wine_left_is_recorded_with_a_warning() -> None:
    sensed = table()
    out = sensed.toast(1)
    assert out.actions == [{"type": "toast", "seat": 1}]
    assert warned(out) == [("Toast only as the first action, with no Wine left", rules.TOAST)]
    assert sensed.state.stage == "toast" and sensed.state.toast_caller == 1


def test_end_turn_after_the_second_action_changes_nothing() -> None:
    sensed = table()
    sensed.on_events([pour("aconitiers", "poison"), pour("aconitiers", "wine")])
    out = sensed.end_turn(1)
    assert out.applied == [] and out.notices == []
    out = sensed.end_turn(2, t=10.0)
    assert out.applied == [] and sensed.status()["pending_pass"] == 2
    assert sensed.turn_seat() == 3  # the table already sees seat 3 to play
    assert sensed.tick(11.0).applied == []
    out = sensed.tick(12.5)
    assert kinds(out) == [("pass", 2)] and warned(out) == []
    assert sensed.state.steps[0].seat == 3


def test_a_peek_reported_just_after_end_turn_is_still_the_players() -> None:
    # The tracker believes a Goblet put back once it settled: often after the button.
    sensed = table()
    sensed.on_event(pour("aconitiers", "poison"))
    assert sensed.end_turn(1, t=10.0).applied == []
    out = sensed.on_event({"t": 11.2, "event": "lift", "goblet": "mctoadery", "seat": 1})
    assert kinds(out) == [("peek", 1)] and warned(out) == []
    assert sensed.state.steps[0].seat == 2  # the two actions ended the turn
    assert sensed.tick(20.0).applied == []  # the pass changes nothing any more


def test_the_next_players_act_applies_the_pass_first() -> None:
    sensed = table()
    sensed.on_event(pour("aconitiers", "poison"))
    sensed.end_turn(1, t=10.0)
    out = sensed.on_event({"t": 10.5, "event": "pour", "goblet": "de_miceti", "token": "wine"})
    assert kinds(out) == [("pass", 1), ("pour", 2)]
    # A lift at the passer's place long after the pass is a Peek out of turn.
    sensed.on_event(pour("de_miceti", "wine"))
    sensed.end_turn(3, t=20.0)
    out = sensed.on_event({"t": 23.0, "event": "lift", "goblet": "wespendorf", "seat": 3})
    assert kinds(out) == [("pass", 3), ("peek", 3)]
    assert warned(out) == [("Wespendorf acted out of turn", rules.TURNS)]


# -- the Toast Phase and the reveal -----------------------------------------------------------


def test_final_actions_are_sensed_and_the_rest_passed_at_the_reveal() -> None:
    sensed = table()
    sensed.toast(1)
    out = sensed.on_event(pour("de_miceti", "poison"))
    assert out.actions == [{"type": "pour", "seat": 2, "place": 0, "token": "poison"}]
    out = sensed.on_event({"event": "lift", "goblet": "de_miceti", "seat": 0})
    assert kinds(out) == [("peek", 0)] and warned(out) == []  # seat 3 passed
    sensed_contents = {g: dict(sensed.state.contents_at(p)) for p, g in enumerate(HOUSES)}
    out = sensed.reveal(sensed_contents)
    assert kinds(out) == [("pass", 1), ("reveal", 1)]
    revealed = next(e for e in out.events if e["event"] == "revealed")
    assert [p["contents"] for p in revealed["places"]] == [
        {"poison": 1, "antidote": 1},
        {"poison": 1},
        {"poison": 1},
        {"wine": 1},
    ]
    assert out.notices == []


def test_the_reveal_needs_a_toast() -> None:
    with pytest.raises(AmbiguousObservation, match="without a Toast"):
        table().reveal()


def test_a_difference_from_the_trackers_contents_is_reported() -> None:
    sensed = table()
    sensed.toast(1)
    sensed_contents = {g: {k: 1} for g, k in FIRST.items()}
    sensed_contents["wespendorf"] = {"wine": 2}
    out = sensed.reveal(sensed_contents)
    assert out.notices == [
        {
            "notice": "contents_mismatch",
            "goblet": "wespendorf",
            "engine": {"wine": 1},
            "sensed": {"wine": 2},
        }
    ]
    # The tracker's reading wins: the reveal carries it and the engine corrects its Goblets.
    assert out.actions[-1] == {
        "type": "reveal",
        "seat": 1,
        "goblets": [{"antidote": 1}, {"poison": 1}, {"poison": 1}, {"wine": 2}],
    }
    assert any(e["event"] == "reveal_corrected" for e in out.events)
    revealed = next(e for e in out.events if e["event"] == "revealed")
    assert revealed["places"][3]["contents"] == {"wine": 2}


def test_the_cameras_counts_win_at_the_reveal() -> None:
    sensed = table()
    sensed.toast(1)
    counts = [{"antidote": 1}, {"poison": 1}, {"wine": 1}, {"wine": 1}]
    out = sensed.reveal(counts=counts)
    assert out.actions[-1]["goblets"] == counts
    revealed = next(e for e in out.events if e["event"] == "revealed")
    assert [p["contents"] for p in revealed["places"]] == counts
    bad = table()
    bad.toast(1)
    for counts, field in (([{"beer": 1}] * 4, "counts[0].beer"), ([{}], "counts")):
        with pytest.raises(MalformedInput) as error:
            bad.reveal(counts=counts)
        assert error.value.field == field
    assert bad.state.stage == "toast" and bad.state.steps[0].seat == 2  # nothing applied


def test_the_next_course_waits_for_the_host() -> None:
    sensed = table(courses=2)
    sensed.toast(1)
    sensed.reveal()
    assert sensed.state.course == 2 and sensed.state.phase == "initial_pour"
    assert sensed.on_events([pour(g, k) for g, k in FIRST.items()]).applied == []
    out = sensed.start_course()
    assert [a["type"] for a in out.actions] == ["initial_pour", "deal_targets"]
    assert sensed.turn_seat() == 2  # the Host is now the Toast Caller, seat 1


# -- conflicts -------------------------------------------------------------------------------


def test_a_conflict_pauses_and_the_hosts_fix_resumes() -> None:
    sensed = table()
    conflict = {"t": 5.0, "event": "conflict", "reason": "seat 1 holds no goblet"}
    out = sensed.on_event(conflict)
    assert out.applied == [] and out.notices[0]["notice"] == "conflict"
    assert sensed.on_event(pour("de_miceti", "wine")).applied == []
    assert sensed.end_turn(1).applied == []
    assert sensed.status()["waiting"] == "conflict" and sensed.status()["queued"] == 2
    with pytest.raises(AmbiguousObservation, match="conflict"):
        sensed.reveal()
    assert sensed.on_event({"event": "fixed", "seats": {}}).applied == []
    fixed = {"0": "de_miceti", "1": "wespendorf", "2": "aconitiers", "3": "mctoadery"}
    out = sensed.on_event({"t": 9.0, "event": "layout", "seats": fixed})
    assert [n["notice"] for n in out.notices][:2] == ["conflict_resolved", "move"]
    # The move made during the conflict first, then what waited, in order.
    assert out.actions == [
        {"type": "swap", "seat": 1, "with": 3},
        {"type": "pour", "seat": 1, "place": 0, "token": "wine"},
    ]
    assert sensed.status()["waiting"] is None and sensed.turn_seat() == 2


# -- host events and bad input ------------------------------------------------------------


def test_unknown_tags_and_nodes_are_shown_to_the_host_only() -> None:
    sensed = table()
    events = [
        {"event": "unknown_tag", "uid": "04FF", "seat": 2},
        {"event": "offline", "node": "n1", "seats": [0, 1]},
        {"event": "online", "node": "n1", "seats": [0, 1]},
        {"event": "emptied", "goblet": "de_miceti", "tokens": {}},
    ]
    events.append(
        {
            "event": "pour_corrected",
            "uid": "04AA",
            "token": "poison",
            "from": "de_miceti",
            "to": "x",
        }
    )
    events.append({"event": "teleport", "goblet": "de_miceti"})
    out = sensed.on_events(events)
    assert out.applied == []
    assert [n["notice"] for n in out.notices] == [
        "unknown_tag",
        "offline",
        "online",
        "pour_corrected",
        "unknown_event",
    ]
    # Before the reveal nobody sees contents, the Host included: no token kind, no UID.
    for notice in out.notices:
        assert not {"token", "uid"} & set(notice) and "04AA" not in str(notice)


@pytest.mark.parametrize(
    ("event", "field"),
    [
        ({"nothing": 1}, "event"),
        ({"event": "pour", "goblet": "nobody", "token": "wine"}, "goblet"),
        ({"event": "pour", "goblet": "de_miceti", "token": "beer"}, "token"),
        ({"event": "lift", "goblet": "de_miceti", "seat": 9}, "seat"),
        ({"event": "rotate", "direction": "up"}, "direction"),
        ({"event": "swap", "seats": [1]}, "seats"),
        ({"event": "layout", "seats": {"0": "de_miceti"}}, "seats"),
    ],
)
def test_malformed_tracker_events_name_the_field(event: dict, field: str) -> None:
    with pytest.raises(MalformedInput) as error:
        table().on_event(event)
    assert error.value.field == field


def test_bad_inputs_name_the_field() -> None:
    sensed = table()
    for bad in (9, -1, "1", True):
        with pytest.raises(MalformedInput) as error:
            sensed.end_turn(bad)
        assert error.value.field == "seat"
    with pytest.raises(MalformedInput) as error:
        SensedTable(new_state(), ring_houses={"red": "nowhere"})
    assert error.value.field == "ring_houses.red"
    with pytest.raises(MalformedInput) as error:
        SensedTable(new_state(), layout={0: "de_miceti"})
    assert error.value.field == "layout"
    with pytest.raises(AmbiguousObservation):
        table().start_course()


# -- Coaster rings and Raise Your Memory ---------------------------------------------------


def test_rings_are_mapped_to_houses_by_the_registry() -> None:
    colours = {"red": "de_miceti", "green": "mctoadery", "blue": "aconitiers", "gold": "wespendorf"}
    sensed = SensedTable(new_state(), ring_houses=colours, rng=random.Random(1))
    assert sensed.layout == {0: "red", 1: "green", 2: "blue", 3: "gold"}
    sensed.start_course()
    sensed.on_events([pour(c, FIRST[h]) for c, h in colours.items()])
    out = sensed.on_event(pour("gold", "antidote"))
    assert out.actions == [{"type": "pour", "seat": 1, "place": 3, "token": "antidote"}]


def test_raise_your_memory_binds_goblets_where_they_stand_at_the_course_start() -> None:
    layout = {0: "cup_a", 1: "cup_b", 2: "cup_c", 3: "cup_d"}
    state = new_state(raise_your_memory=True)
    sensed = SensedTable(state, layout=layout, rng=random.Random(1))
    # Goblets without rings are alike: however they were set out, they are bound at the start.
    sensed.on_event({"event": "swap", "seats": [0, 2]})
    sensed.start_course()
    tokens = {"cup_c": "antidote", "cup_b": "poison", "cup_a": "poison", "cup_d": "wine"}
    out = sensed.on_events([pour(g, k) for g, k in tokens.items()])
    assert out.actions[0]["tokens"] == ["antidote", "poison", "poison", "wine"]
    out = sensed.on_event({"event": "swap", "seats": [1, 0]})
    assert out.actions == [{"type": "swap", "seat": 1, "with": 0}]
    assert sensed.state.contents_at(1) == {"antidote": 1}
    with pytest.raises(MalformedInput):
        SensedTable(state, ring_houses={"red": "de_miceti"})
