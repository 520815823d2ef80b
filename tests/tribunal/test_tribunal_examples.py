"""Examples 1 and 2 of the rulebook (Diagrams A, B, Y and Z), reproduced step by step.

The diagrams are not printed in the text we have; the positions follow from the text on the
default vine (docs/rules-notes.md): Legitimacy on L (space 4) directly above Reputation on R (3).
"""

from __future__ import annotations

from tribunal_helpers import deck_with, effects, end, judge, positions, start, tap

from companion.core.game import CHANCE, PUBLIC
from companion.core.games.tribunal.vine import step_up

ROLAND = "Marie Jeanne Roland de la Platiere"
ROLAND_CARD = {
    "name": ROLAND,
    "guilty": effects(("momentum", 2), ("reputation_up", 1), ("legitimacy_down", 1)),
    "not_guilty": effects(("legitimacy_up", 1)),
}
L, R = 4, 3


def example_1(state, press):
    """ "You have read the charges facing Marie Jeanne Roland de la Platierre and decided to find
    her guilty. The first cube drawn from the Judgment Pool is red. The defendant is found
    guilty." """
    events = judge(state, "guilty", "red")
    assert state.board.drawn == ["red"] and state.judgment == "guilty"
    assert {"event": "judgment", "verdict": "guilty", "passed": True} in events
    # "First, you must add two red cubes from the Momentum Box to the Judgment Pool."
    press(state, "momentum", 2)
    assert (state.board.box, state.board.red) == (5, 5)
    # "Second, the red pawn (Reputation) must be moved up the vine, but the black pawn prevents
    # this (Diagram A). Instead, you proceed to the next effect."
    events = press(state, "reputation_up", 1)
    assert events[-1] == {"event": "blocked", "marker": "reputation", "from": R, "to": R}
    assert positions(state) == (L, R)  # Diagram A
    # "Finally, the black pawn (Legitimacy) must move down the vine. Because the space below
    # Legitimacy has a pawn, you must move Legitimacy an additional space (Diagram B)."
    events = press(state, "legitimacy_down", 1)
    assert events[-1] == {
        "event": "moved",
        "marker": "legitimacy",
        "from": L,
        "to": 2,
        "jumped": True,
    }
    assert positions(state) == (2, R)  # Diagram B
    end(state)
    assert state.view(PUBLIC)["discarded"]["cards"] == [state.cases[0]]
    assert (state.board.box, state.board.red) == (5, 6)


def test_example_1_with_effect_buttons():
    state = start()
    example_1(state, tap)


def test_example_1_with_a_stored_deck():
    state = start({"deck": deck_with(ROLAND_CARD)}, top=[ROLAND])

    def press(state, effect, n):
        # The stored card offers exactly its next printed effect.
        assert state.legal_actions()[0] == {"type": "effect", "effect": effect, "n": n}
        return tap(state, effect, n)

    example_1(state, press)
    assert state.view(PUBLIC)["discarded"]["cards"] == [ROLAND]


def example_2_deck():
    return deck_with(
        {"name": "The last straw", "guilty": effects(("momentum", 7))},
        {"name": "First accused", "guilty": effects(("legitimacy_down", 1))},
        {"name": "Second accused", "guilty": effects(("momentum", 1), ("reputation_up", 1))},
    )


def example_2_start():
    state = start({"deck": example_2_deck()}, top=["The last straw"])
    judge(state, "guilty", "red")
    tap(state, "momentum", 7)
    end(state)
    # "The Momentum Box no longer has red cubes. The Accused Deck is divided in two and two cases
    # are heard at a time."
    view = state.view(PUBLIC)
    assert view["momentum_box"] == 0 and view["two_case_mode"]
    assert view["deck"]["stacks"] == [12, 11]
    state.apply({"type": "hear"})
    assert len(state.cases) == 2
    # The physical cards turned up are the two of the example: the player names them.
    state.apply({"type": "name_card", "case": 0, "card": "First accused"})
    state.apply({"type": "name_card", "case": 1, "card": "Second accused"})
    assert state.cases == ["First accused", "Second accused"]
    # "After reading both, the player decides to find both defendants guilty. A white cube, then a
    # red cube are pulled from the Judgment Pool. Both will now be condemned."
    state.apply({"type": "verdict", "verdict": "guilty"})
    state.apply({"type": "draw", "cube": "white"})
    assert state.to_move() is CHANCE  # white does not match: the second cube is drawn
    state.apply({"type": "draw", "cube": "red"})
    assert state.judgment == "guilty" and state.phase == "choose"
    assert positions(state) == (L, R)
    return state


def test_example_2():
    state = example_2_start()
    # "The player starts with the top card, because Reputation cannot currently be increased (per
    # the second card)."
    assert step_up(R, state.board.legitimacy, state.options.vine) == R
    state.apply({"type": "sentence", "card": "First accused"})
    # "Legitimacy lowers an extra space due to the Reputation Marker's placement (Diagram Y)."
    events = tap(state, "legitimacy_down", 1)
    assert events[-1]["jumped"] is True
    assert positions(state) == (2, R)  # Diagram Y
    end(state)
    # "Then the player must carry out the second sentence. A momentum cube cannot be added (box
    # empty), so Legitimacy lowers one space. Then Reputation is raised one space on the vine
    # (Diagram Z)."
    assert state.sentence == "Second accused"
    events = tap(state, "momentum", 1)
    assert {"event": "momentum_box_empty"} in events
    assert positions(state) == (1, R)
    tap(state, "reputation_up", 1)
    assert positions(state) == (1, 4)  # Diagram Z
    end(state)
    view = state.view(PUBLIC)
    assert view["discarded"]["cards"][-2:] == ["First accused", "Second accused"]
    assert view["pool"]["white"] == 3 and view["drawn"] == []
    assert state.phase == "hear"


def test_example_2_in_the_other_order():
    """ "You may do so for the cards in any order." Here the momentum of the second card lowers
    Legitimacy past Reputation first, so Diagram Z is reached either way."""
    state = example_2_start()
    state.apply({"type": "sentence", "card": "Second accused"})
    tap(state, "momentum", 1)
    tap(state, "reputation_up", 1)
    end(state)
    tap(state, "legitimacy_down", 1)
    assert positions(state) == (1, 4)
