"""Recording mode (sensed play): what happened on the table is recorded, with rule warnings."""

from __future__ import annotations

import json

import pytest
from engine_helpers import act, new, passes, start, tokens_total

from companion.core.errors import AmbiguousObservation, IllegalAction, MalformedInput
from companion.core.game import PUBLIC, Mode
from companion.core.games.goblets import rules

REC = Mode.RECORDING


def warnings(events):
    return [e for e in events if e["event"] == "rule_warning"]


def test_legal_sensed_actions_apply_without_warning():
    """A sensed action that keeps the rules is applied like an enforced one."""
    state = start(4)
    events = act(state, "pour", 1, REC, place=0, token="wine")
    assert not warnings(events)
    assert state.contents_at(0) == {"antidote": 1, "wine": 1}


def test_toast_with_wine_left_is_recorded_with_a_warning():
    """Toast "only if you have no Wine tokens left behind your screen at the beginning of your
    turn" -- a physical table that breaks it is recorded, with the rule."""
    state = start(4)
    events = act(state, "toast", 1, REC)
    assert [w["rule"] for w in warnings(events)] == [rules.TOAST]
    assert state.stage == "toast" and state.toast_caller == 1
    assert state.view(PUBLIC)["warnings"][0]["rule"] == rules.TOAST


def test_a_third_action_is_recorded_with_a_warning():
    """ "each player in turn may perform up to two actions" -- a third one is warned about."""
    state = start(4)
    act(state, "rotate", 1, REC, direction="clockwise")
    act(state, "rotate", 1, REC, direction="clockwise")
    events = act(state, "rotate", 1, REC, direction="clockwise")
    assert [w["rule"] for w in warnings(events)] == [rules.TURNS]
    assert state.ring_at(0) == "mctoadery"  # three rotations happened
    assert state.to_move() == 2


def test_a_later_player_acting_means_the_others_passed():
    """Sensed play cannot see a Pass: a later player's action ends the turns in between."""
    state = start(4)
    events = act(state, "peek", 3, REC)
    assert not warnings(events)
    assert state.to_move() == 3 and state.taken == 1


def test_pour_of_a_token_not_behind_the_screen_is_warned_and_conserved():
    """Pour takes "one of the tokens from behind your screen"; a sensed Ogre Poison comes from the
    pool, with a warning, and the 52 tokens are still all accounted for."""
    state = start(4)
    before = tokens_total(state)
    events = act(state, "pour", 1, REC, place=2, token="ogre_poison")
    assert [w["rule"] for w in warnings(events)] == [rules.POUR]
    assert state.contents_at(2) == {"poison": 1, "ogre_poison": 1}
    assert tokens_total(state) == before
    assert "ogre" not in json.dumps(state.view(PUBLIC))  # the warning does not say what
    with pytest.raises(AmbiguousObservation):
        act(state, "pour", 1, REC, place=2, token="ogre_poison")


def test_pour_by_an_unseen_seat():
    """A pour whose pourer was not seen is the current player's when their screen had it."""
    state = start(4)
    events = state.apply({"type": "pour", "seat": None, "place": 3, "token": "poison"}, REC)
    assert not warnings(events)
    assert state.screens[1]["poison"] == 1
    assert state.taken == 1
    with pytest.raises(Exception) as error:
        state.apply({"type": "pour", "seat": None, "place": 3, "token": "poison"})
    assert error.type.__name__ == "MalformedInput"


def test_out_of_turn_action_in_the_toast_phase_is_warned():
    """ "each player may perform one last action" -- a second one is recorded with a warning."""
    state = start(4)
    act(state, "toast", 1, REC)
    act(state, "rotate", 2, REC, direction="clockwise")
    events = act(state, "rotate", 2, REC, direction="clockwise")
    assert [w["rule"] for w in warnings(events)] == [rules.TOAST_PHASE]


def test_recording_never_refuses_a_rule_break_but_enforcing_does():
    """Two modes from one engine: the same action is refused when enforcing."""
    enforcing, recording = start(4), start(4)
    with pytest.raises(IllegalAction):
        act(enforcing, "swap", 1, **{"with": 1})
    events = act(recording, "swap", 1, REC, **{"with": 1})
    assert [w["rule"] for w in warnings(events)] == [rules.SWAP]


def test_sensed_swap_between_two_other_goblets():
    """Sensed play may see a Swap of two Goblets neither of which is the swapper's."""
    state = start(4)
    events = act(state, "swap", 1, REC, **{"from": 2, "with": 3})
    assert [w["rule"] for w in warnings(events)] == [rules.SWAP]
    assert state.ring_at(2) == "wespendorf"


def test_reveal_without_a_toast_is_ambiguous():
    """The reveal comes after a Toast; sensors seeing it earlier need the host."""
    state = start(4)
    with pytest.raises(AmbiguousObservation):
        act(state, "reveal", 1, REC)


def test_sensed_course_runs_to_the_reveal():
    """A whole sensed Course: turns inferred from who acts, the Toast Phase, the reveal."""
    state = start(4, hidden_vp=False)
    for seat in (1, 2, 3, 0):
        act(state, "pour", seat, REC, place=seat, token="wine")
        act(state, "pour", seat, REC, place=seat, token="wine")
    for seat in (1, 2, 3, 0):
        act(state, "pour", seat, REC, place=seat, token="wine")
    passes(state, 0)
    events = act(state, "toast", 2, REC)
    assert not warnings(events)
    events = act(state, "reveal", 3, REC)
    assert any(e["event"] == "revealed" for e in events)
    assert not warnings(events)
    assert state.course == 2


def test_sensed_initial_pour_of_other_tokens_is_recorded_with_a_warning():
    """ "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens" -- a table that poured
    something else is recorded (sensed) or refused (enforced)."""
    state = new(players=4, characters=[])
    wrong = {"type": "initial_pour", "tokens": ["poison", "poison", "poison", "wine"]}
    with pytest.raises(MalformedInput):
        state.apply(wrong)
    events = state.apply(wrong, REC)
    assert [w["rule"] for w in warnings(events)] == [rules.INITIAL_POUR]
    assert state.contents_at(2) == {"poison": 1}
    assert tokens_total(state)["poison"] == 15
    assert "poison" not in json.dumps(warnings(events))


def test_sensed_reveal_counts_win_over_the_tracked_pours():
    """ "each player takes the Goblet in front of them [...] and reveals its contents" -- the
    camera's counts are what was revealed; a difference is reported and the tokens conserved."""
    state = start(4, hidden_vp=False)
    act(state, "toast", 1, REC)
    counts = [{"antidote": 1}, {"poison": 1}, {"wine": 2}, {"wine": 1}]
    events = act(state, "reveal", 1, REC, goblets=counts)
    corrected = [e for e in events if e["event"] == "reveal_corrected"]
    assert corrected == [
        {"event": "reveal_corrected", "place": 2, "tracked": {"poison": 1}, "sensed": {"wine": 2}}
    ]
    revealed = next(e for e in events if e["event"] == "revealed")
    assert not revealed["places"][2]["poisoned"]
    assert revealed["places"][2]["most_wine"]
    assert tokens_total(state)["wine"] == 21 and tokens_total(state)["poison"] == 15


def test_an_enforced_reveal_is_told_no_contents_right_or_wrong():
    """The enforcing engine reads the Goblets itself: a reveal that names contents is refused
    alike whether they are right or wrong (a guess learns nothing), and before it is compared."""
    state = start(4)
    act(state, "toast", 1, REC)
    truth = [state.contents_at(place) for place in range(4)]
    refusals = []
    for goblets in (truth, [{}, {}, {}, {}], [{"gold": 1}, {}, {}, {}]):
        with pytest.raises(MalformedInput) as error:
            act(state, "reveal", 1, goblets=goblets)
        refusals.append((error.value.field, error.value.detail))
    assert len(set(refusals)) == 1 and refusals[0][0] == "goblets"
