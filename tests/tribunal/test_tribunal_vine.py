"""The vine: layout data, blocking, the extra space down, the bottom space."""

from __future__ import annotations

import pytest
from tribunal_helpers import end, judge, positions, start, tap

from companion.core.errors import MalformedInput
from companion.core.game import PUBLIC
from companion.core.games.tribunal.vine import PRESETS, parse_vine, step_down, step_up

ALTERNATIVE = ["", "L", "", "R", "", "W", "*"]


def test_default_layout_is_documented():
    """The default vine: W, L, R and * once each, Legitimacy directly above Reputation."""
    vine = parse_vine(None)
    assert vine.labels == PRESETS["default"]
    assert vine.labels == ("", "", "", "R", "L", "", "W", "", "", "", "*")
    assert vine.index("L") == vine.index("R") + 1
    assert vine.label(vine.top) == "*"


def test_markers_start_on_l_and_r():
    """ "Place the black wood cylinder in the "L" space and the red cylinder in the "R" space" """
    state = start()
    assert state.view(PUBLIC)["vine"]["legitimacy_label"] == "L"
    assert state.view(PUBLIC)["vine"]["reputation_label"] == "R"
    alternative = start({"vine": ALTERNATIVE})
    assert positions(alternative) == (1, 3)


def test_moving_up_into_the_other_marker_is_blocked():
    """ "the red pawn (Reputation) must be moved up the vine, but the black pawn prevents this" """
    vine = parse_vine("default")
    assert step_up(3, 4, vine) == 3
    assert step_up(3, 5, vine) == 4
    assert step_up(vine.top, 0, vine) == vine.top  # nothing above the top space


def test_moving_down_onto_the_other_marker_moves_one_more_space():
    """ "Because the space below Legitimacy has a pawn, you must move Legitimacy an additional
    space" """
    assert step_down(4, 3) == 2
    assert step_down(4, 1) == 3
    assert step_down(1, 5) == 0


def test_markers_never_share_a_space_on_an_alternative_vine():
    """Reputation below Legitimacy's start on an alternative vine: moves still never share."""
    state = start({"vine": ALTERNATIVE})
    judge(state, "guilty", "red")
    tap(state, "legitimacy_up", 2)  # 1 -> 2, then blocked by Reputation on 3
    assert positions(state) == (2, 3)
    tap(state, "reputation_down")  # 3 -> 2 is Legitimacy: one more, to 1
    assert positions(state) == (2, 1)
    tap(state, "legitimacy_up", 3)
    assert positions(state) == (5, 1)
    assert state.board.blue == "pool"  # Legitimacy reached W on this vine
    end(state)
    assert state.phase == "hear"


def test_a_marker_on_the_bottom_space_loses():
    """ "if either Legitimacy or Reputation ever occupies the bottom space on its vine, you will
    lose." """
    state = start()
    judge(state, "guilty", "red")
    tap(state, "reputation_down", 3)
    assert positions(state) == (4, 0)
    assert state.board.doom == "Reputation on the bottom space"  # the rulebook's marker name
    assert state.legal_actions() == [{"type": "end_sentence"}, {"type": "undo"}]
    end(state)
    assert state.is_over()
    assert state.outcome()["won"] is False


@pytest.mark.parametrize(
    "bad",
    [
        "spiral",
        ["", "L", "R", "W"],
        ["", "L", "R", "W", "*", "*"],
        ["L", "", "R", "W", "*"],
        ["", "L", "R", "W", "*", "X"],
        [1, 2, 3, 4, 5],
        42,
    ],
)
def test_bad_vines_are_malformed(bad):
    with pytest.raises(MalformedInput) as error:
        start({"vine": bad})
    assert error.value.field == "vine"
