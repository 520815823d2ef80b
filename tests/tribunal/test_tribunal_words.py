"""The courtroom's view in words (issue 15): odds before the draw only, cases by their names,
the card's printed lines, the log as sentences -- and a card's back still hidden until turned."""

from __future__ import annotations

import re

from tribunal_helpers import deck_with, effects, start, tap

from companion.core.game import PUBLIC

ROLAND = {
    "name": "Marie Jeanne Roland de la Platierre",
    "guilty": effects(("momentum", 2), ("reputation_up", 1), ("legitimacy_down", 1)),
    "not_guilty": effects(("add_white", 1)),
}
"""Example 1's card: "add two red cubes", "the red pawn (Reputation) must be moved up the vine",
"the black pawn (Legitimacy) must move down the vine"."""


def test_the_odds_are_shown_before_the_draw_and_not_on_the_reduced_pool():
    state = start({"second_draw": "always"})
    assert set(state.view(PUBLIC)["odds"]) == {"guilty", "not_guilty"}  # hear
    state.apply({"type": "hear"})
    assert set(state.view(PUBLIC)["odds"]) == {"guilty", "not_guilty"}  # verdict
    state.apply({"type": "verdict", "verdict": "guilty"})
    assert set(state.view(PUBLIC)["odds"]) == {"second_cube_matches"}
    state.apply({"type": "draw", "cube": "white"})
    assert state.view(PUBLIC)["odds"]["second_cube_matches"]["exact"] == "2/3"  # 4 red of 6
    state.apply({"type": "draw", "cube": "red"})
    view = state.view(PUBLIC)
    assert view["phase"] == "sentence" and view["odds"] == {}
    assert view["pool"] == {"red": 3, "white": 2, "blue": 0}  # the reduced pool, no odds on it


def test_a_stored_card_is_named_and_its_back_worded_only_once_turned_over():
    state = start({"deck": deck_with(ROLAND)}, top=[ROLAND["name"]])
    state.apply({"type": "hear"})
    view = state.view(PUBLIC)
    assert view["cases"][0]["title"] == ROLAND["name"]
    assert view["effect_lines"] == {}  # the back is not read before the judgment
    state.apply({"type": "verdict", "verdict": "guilty"})
    state.apply({"type": "draw", "cube": "red"})
    view = state.view(PUBLIC)
    lines = [view["effect_lines"][f"{e['effect']} {e['n']}"] for e in view["pending"]["effects"]]
    assert lines == ["Add 2 Momentum", "Raise Reputation 1 space", "Lower Legitimacy 1 space"]
    assert view["effect_lines"]["add_white 1"] == "Add a white cube to the Judgment Pool"


def test_an_anonymous_card_is_named_by_where_it_lies_and_its_lines_worded():
    state = start()
    state.apply({"type": "hear"})
    view = state.view(PUBLIC)
    assert view["cases"][0]["title"] == "the top Accused Card"
    assert "colour" not in view["cases"][0]  # the companion's guess, not the card turned up
    state.apply({"type": "verdict", "verdict": "guilty"})
    state.apply({"type": "draw", "cube": "red"})
    view = state.view(PUBLIC)
    assert view["effect_kinds"]["reputation_down"] == "Lower Reputation"
    assert view["effect_lines"]["reputation_down 3"] == "Lower Reputation 3 spaces"
    assert view["effect_lines"]["remove_white 1"] == "Remove a white cube from the Judgment Pool"


def test_the_log_reads_as_sentences():
    state = start({"deck": deck_with(ROLAND)}, top=[ROLAND["name"]])
    state.apply({"type": "hear"})
    state.apply({"type": "verdict", "verdict": "guilty"})
    state.apply({"type": "draw", "cube": "red"})
    for effect in ROLAND["guilty"]:
        tap(state, effect["effect"], effect["n"])
    state.apply({"type": "end_sentence"})
    lines = state.view(PUBLIC)["log_lines"]
    assert len(lines) == len(state.log)
    assert f"Hearing 1: {ROLAND['name']}." in lines
    assert "The first cube drawn is red." in lines
    assert "Judgment: Guilty (your verdict passes)." in lines
    assert "Reputation cannot move (blocked), so it stays." in lines  # Example 1, Diagram A
    jumped = "Legitimacy moves to space 3 (one more space"  # Diagram B
    assert any(line.startswith(jumped) for line in lines)
    assert lines[-1] == "The drawn cubes go back: the bag holds 6 red, 3 white."
    assert not [line for line in lines if re.search(r"[{}\[\]_]", line)], lines


def test_a_lost_game_is_logged_as_the_losing_effect_then_the_end_with_its_reason_once():
    """ "You will also lose if you are instructed to remove a white cube from the Judgment Pool and
    there are none": the log says the moment (still undoable) and then the end, the reason once."""
    state = start()
    state.apply({"type": "hear"})
    state.apply({"type": "verdict", "verdict": "guilty"})
    state.apply({"type": "draw", "cube": "red"})
    while not state.board.doom:
        tap(state, "remove_white")
    state.apply({"type": "end_sentence"})
    lines = state.view(PUBLIC)["log_lines"]
    assert lines[-2:] == [
        "The game will be lost when the sentence ends (unless the effect is undone).",
        "Lost: a hardening of the heart.",
    ]
    assert sum("hardening" in line for line in lines) == 1, lines
