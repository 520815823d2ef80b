"""Cena's first Host House: an option, or drawn at random when there is no evidence (issue 14).

Game Setup, step 4: "The player who most recently poisoned someone (or randomly if there is no
evidence) becomes the Host House and receives the invitation tile." The engine cannot know who
poisoned whom, so option ``host`` names the House (default House 0, as every journal so far was
played), and ``host: "random"`` makes it a chance action ``first_host`` after the poison pile
(step 3), journaled like the pile and the deals.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from cena_helpers import deal_with, leads_per_round, new

from companion.cli import main
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Viewer
from companion.core.games.cena import rules
from companion.core.journal import Journal, play_random, replay

SETUP_HOST = (
    "The player who most recently poisoned someone (or randomly if there is no evidence) becomes "
    "the Host House and receives the invitation tile."
)


def test_the_rule_is_quoted_by_the_engine():
    assert rules.HOST == SETUP_HOST


def test_a_named_host_is_no_chance_action():
    """ "The player who most recently poisoned someone ... becomes the Host House": the table
    knows who, so the option names the House and the pile is followed at once by the deal."""
    state = new({"players": 4, "host": 2})
    assert state.host == 2
    state.apply({"type": "poisons", "pile": [1, 2, 3]})
    assert state.phase == "deal" and state.host == 2
    with pytest.raises(IllegalAction):  # no draw is due: the Host is known
        state.clone().apply({"type": "first_host", "house": 0})
    default = new({"players": 4})
    default.apply({"type": "poisons", "pile": [1, 2, 3]})
    assert default.phase == "deal" and default.host == 0


def test_random_host_is_drawn_after_the_pile_and_then_hosts():
    """ "(or randomly if there is no evidence) becomes the Host House and receives the invitation
    tile." The drawn House reveals the poison ("The Host House reveals the top card of the poison
    pile") and "The Host House leads the first trick."."""
    state = new({"players": 5, "host": "random"})
    assert state.host is None and state.view(PUBLIC)["host"] is None
    state.apply({"type": "poisons", "pile": [4, 5, 6]})
    assert state.phase == "host" and state.to_move() is CHANCE
    assert state.legal_actions() == []
    drawn = state.sample_chance(random.Random(3))
    assert drawn["type"] == "first_host" and 0 <= drawn["house"] < 5
    events = state.apply({"type": "first_host", "house": 3})
    assert events == [{"event": "host_drawn", "house": 3}]
    assert state.host == 3 and state.phase == "deal"
    assert state.view(PUBLIC)["host"] == 3 and state.view(PUBLIC)["invitation"] == 3
    state.apply(deal_with(5))
    assert state.to_move() == 3  # the Host reveals
    state.apply({"type": "reveal_poison"})
    assert state.to_move() == 3  # the Welcome starts with the Host


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_house_can_be_drawn(players):
    """ "randomly": over 600 seeded draws every House comes up, near 1/n of the time each."""
    rng = random.Random(players)
    counts = Counter()
    for _ in range(600):
        state = new({"players": players, "host": "random"})
        state.apply({"type": "poisons", "pile": [1, 2, 3]})
        counts[state.sample_chance(rng)["house"]] += 1
    assert set(counts) == set(range(players))
    expected = 600 / players
    # chi-square, n-1 <= 4 degrees of freedom: 18.5 is the 0.999 quantile for 4.
    assert sum((counts[h] - expected) ** 2 / expected for h in range(players)) < 18.5


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (4, 8)])
def test_random_host_games_rotate_from_the_drawn_house_and_replay(players, seed):
    """ "If this is not the end of the third round, the House to the left of the current Host
    House becomes the Host House for the next round." — counted from the drawn House."""
    journal = Journal("cena", {"players": players, "host": "random"})
    state, events = play_random(journal, random.Random(seed))
    assert state.is_over()
    drawn = [e["house"] for e in events if e["event"] == "host_drawn"]
    assert len(drawn) == 1
    first = drawn[0]
    assert leads_per_round(events) == [(first + r) % players for r in range(3)]
    kinds = [entry.action["type"] for entry in journal.entries]
    assert kinds[:3] == ["poisons", "first_host", "deal"]  # setup steps 3 and 4, then the deal
    again, _ = replay(Journal.from_json(json.loads(json.dumps(journal.to_json()))))
    assert again.outcome() == state.outcome() and again.host == state.host


@pytest.mark.parametrize("house", [-1, 3, True, "1", None, 1.0])
def test_a_drawn_house_outside_the_table_is_malformed(house):
    state = new({"players": 3, "host": "random"})
    state.apply({"type": "poisons", "pile": [1, 2, 3]})
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "first_host", "house": house})
    assert error.value.field == "action.house"
    assert state.phase == "host" and state.host is None


@pytest.mark.parametrize("host", ["randomly", "Random", 5, -1, [0], 1.5])
def test_a_bad_host_option_names_host(host):
    with pytest.raises(MalformedInput) as error:
        new({"players": 4, "host": host})
    assert error.value.field == "host"


def test_the_draw_is_public():
    """Who the Host is is no secret: every viewer sees the same drawn House."""
    state = new({"players": 4, "host": "random"})
    state.apply({"type": "poisons", "pile": [1, 2, 3]})
    action = {"type": "first_host", "house": 1}
    assert state.hidden_alternatives(action, PUBLIC) == []
    state.apply(action)
    views = [state.view(v) for v in (PUBLIC, HOST, Viewer.seat(0), Viewer.seat(1))]
    assert {v["host"] for v in views} == {1}


def run(capsys, *argv):
    try:
        status = main(["cena", "play", *argv])
    except SystemExit as leave:
        status = leave.code
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_host_random_journals_the_draw(capsys):
    argv = ["--players", "4", "--seed", "6", "--host", "random", "--variant", "single_course"]
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == ""
    document = json.loads(out)
    journal = Journal.from_json(document["journal"])
    assert journal.options == {"players": 4, "host": "random", "single_course": True}
    assert journal.entries[1].action["type"] == "first_host"
    state, _ = replay(journal)
    assert state.outcome() == document["result"]


def test_cli_host_number_names_the_house(capsys):
    status, out, _ = run(capsys, "--players", "3", "--seed", "2", "--host", "2")
    assert status == 0
    journal = Journal.from_json(json.loads(out)["journal"])
    assert journal.options == {"players": 3, "host": 2}
    assert "first_host" not in [entry.action["type"] for entry in journal.entries]


@pytest.mark.parametrize("host", ["3", "x", "-1"])
def test_cli_bad_host_is_one_line_exit_2(capsys, host):
    status, out, err = run(capsys, "--players", "3", "--seed", "1", "--host", host)
    assert status == 2 and out == "" and err.count("\n") == 1
