"""The legal puppeteer: a random legal game played by hand, read by noisy simulated readers through
the tracker into the sensed session, must come out of the engine (recording mode) as exactly the
puppeteer's own game: the same pours into the same Goblets, moves, Peeks, passes, Toast, reveal
and scores, with no rule warning and no notice for the Host.

The seeds are fixed. Measured beyond them (docs/tracking.md, "The legal puppeteer"): every game
exact at no and moderate noise; at heavy noise a few games in a hundred meet a tracker misjudgement
(a pour first credited to the neighbour's Goblet, a spurious lift), after which the puppeteer
follows the journal (``desyncs``).
"""

from __future__ import annotations

import random

import pytest

from companion.core import registry
from companion.core.errors import MalformedInput
from companion.core.game import CHANCE, Mode
from companion.virtual.puppet import Puppeteer, Sensed
from tests.virtual import variant_play

SEEDS = (0, 1)
"""The first two seeds at every table size. Of seeds 0-7 at 4, 5 and 6 players and the three
noise levels (2 Courses each), 71 of 72 games were exact; the other (5 players, seed 4, heavy)
met a spurious lift at the start of the reading."""


def play(seed: int, players: int, noise: str, courses: int = 2, reveal: str = "readers"):
    options = {"players": players, "characters": [], "courses": courses}
    return variant_play.play(seed, options, noise, reveal=reveal)


def replayed(options: dict, actions: list[dict]):
    """The puppeteer's actions replayed into a fresh engine, enforcing every rule."""
    state = registry.get("goblets").new_state({"characters": [], **options})
    for action in actions:
        state.apply(action, Mode.ENFORCING)  # an illegal one raises IllegalAction
    return state


@pytest.mark.parametrize("noise", ["none", "moderate", "heavy"])
@pytest.mark.parametrize("players", [4, 5, 6])
def test_the_sensed_journal_is_the_puppeteers_legal_game(players: int, noise: str) -> None:
    kinds: set[str] = set()
    for seed in SEEDS:
        puppet, sink = play(seed, players, noise)
        assert puppet.desyncs == 0
        assert sink.actions == puppet.actions
        events = sink.result.events
        assert [e for e in events if e.get("event") == "rule_warning"] == []
        # The only notices: each Course's "pour out your Goblets" (and a shoot-out's).
        notices = [n["notice"] for n in sink.result.notices if n["notice"] != "shootout"]
        assert notices == ["pour_out", "pour_out"]
        sensed = sink.session.state
        assert sensed.results == puppet.engine.results  # contents revealed, poisoned, VP
        assert sensed.outcome() == puppet.engine.outcome()
        assert len(sensed.results) == 2
        legal = replayed({"players": players, "courses": 2}, puppet.actions)
        assert legal.outcome() == puppet.engine.outcome()
        kinds |= {a["type"] for a in puppet.actions}
    assert {"initial_pour", "deal_targets", "pour", "reveal", "toast"} <= kinds
    assert len(kinds & {"peek", "rotate", "swap", "pass"}) >= 3


def test_the_puppeteer_can_reveal_what_was_tracked() -> None:
    # [sensing] reveal = "tracked": the Goblets are emptied where they stand, nothing poured out.
    puppet, sink = play(0, 5, "moderate", reveal="tracked")
    assert puppet.desyncs == 0
    assert sink.actions == puppet.actions
    assert [n for n in sink.result.notices if n["notice"] != "shootout"] == []
    assert sink.session.state.results == puppet.engine.results
    assert not puppet.table.lying


def test_every_action_kind_and_a_shootout_in_whole_games() -> None:
    kinds: set[str] = set()
    for seed, players in ((0, 4), (1, 6)):
        puppet, sink = play(seed, players, "moderate", courses=3)
        assert sink.actions == puppet.actions and puppet.desyncs == 0
        assert [e for e in sink.result.events if e.get("event") == "rule_warning"] == []
        kinds |= {a["type"] for a in puppet.actions}
    assert {"peek", "rotate", "swap", "pass", "toast", "reveal"} <= kinds
    assert {"shootout_pour", "shootout_choose"} <= kinds  # seed 0 ends in a tie


def test_the_puppeteer_alone_deals_for_itself_and_plays_legal_games() -> None:
    for seed in range(12):
        players = 4 + seed % 3
        puppet = Puppeteer.new_game(random.Random(seed), {"players": players})
        for _ in range(20_000):
            if puppet.is_over:
                break
            puppet.step()
        assert puppet.is_over
        state = replayed({"players": players}, puppet.actions)
        assert state.is_over() and state.outcome() == puppet.engine.outcome()
        assert len(state.results) == 3
        # The hands did what the engine says: each Goblet where the engine has it.
        table = puppet.table
        assert list(table.layout) == [state.ring_of[g] for g in state.goblet_at] or table.is_home()
        assert [tap.t for tap in puppet.taps] == sorted(tap.t for tap in puppet.taps)


def test_the_table_is_set_out_as_a_resumed_game() -> None:
    puppet = Puppeteer.new_game(random.Random(7), {"players": 5})
    while not (puppet.engine.phase == "play" and puppet.engine.turn_number >= 6):
        puppet.step()
    resumed = Puppeteer(random.Random(8), puppet.engine, actions=puppet.actions)
    table, engine = resumed.table, resumed.engine
    assert list(table.layout) == [engine.ring_of[g] for g in engine.goblet_at]
    for index, contents in enumerate(engine.goblets):
        name = engine.ring_of[index]
        kinds = sorted(table.registry.lookup(uid).token.value for uid in table.inside[name])
        assert kinds == sorted(k for k, n in contents.items() for _ in range(n))
        assert set(table.live.tags_of(name)) >= set(table.inside[name])
    for place, screen in enumerate(table.screens):
        counts: dict[str, int] = {}
        for _, kind in screen:
            counts[kind.value] = counts.get(kind.value, 0) + 1
        assert counts == {k: n for k, n in engine.screens[place].items() if n}
    assert resumed.engine.to_move() is not CHANCE


def test_the_puppeteer_follows_a_journal_that_went_another_way() -> None:
    puppet, _ = play(0, 4, "none", courses=1)
    # Someone else acted (the Host entered a Pass for the Toast Caller's final action): the
    # puppeteer, which poured or moved instead, follows the journal from there.
    theirs = puppet.actions[:-2]
    other = replayed({"players": 4, "courses": 1}, theirs)
    theirs.append({"type": "pass", "seat": other.to_move()})
    other.apply(theirs[-1], Mode.ENFORCING)
    puppet.step(Sensed(theirs, state=other))
    assert puppet.desyncs == 1
    assert puppet.actions == theirs and puppet.engine.to_move() == other.to_move()
    assert puppet.engine is not other


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"players": 3}, "players"),  # Russian Goblette (Winetasters and Characters: played)
        ({"players": 4, "raise_your_memory": True}, "raise_your_memory"),
    ],
)
def test_options_the_puppeteer_cannot_play_are_refused(options: dict, field: str) -> None:
    state = registry.get("goblets").new_state(options)
    with pytest.raises(MalformedInput) as error:
        Puppeteer(random.Random(0), state)
    assert error.value.field == field


def test_an_action_of_someone_else_is_followed_before_the_puppeteer_acts() -> None:
    puppet = Puppeteer.new_game(random.Random(3), {"players": 4})
    while not (puppet.engine.phase == "play" and puppet.engine.stage == "turns"):
        puppet.step()
    other = puppet.engine.clone()
    theirs = [*puppet.actions, {"type": "pass", "seat": other.to_move()}]
    other.apply(theirs[-1], Mode.ENFORCING)  # a phone's Pass the puppeteer did not tap
    motions = len(puppet.table.live.motions)
    puppet.step(Sensed(theirs, state=other))
    assert puppet.desyncs == 1 and puppet.actions == theirs
    assert len(puppet.table.live.motions) == motions  # nothing done at the table meanwhile
    puppet.step(Sensed(theirs, state=other))
    assert puppet.actions[: len(theirs)] == theirs and puppet.desyncs == 1


def test_the_host_fixes_the_layout_when_the_tracker_cannot_read_the_table() -> None:
    puppet, sink = play(1, 4, "none", courses=1)
    sensed = sink.sensed()
    puppet.step(Sensed(sensed.actions, sensed.layout, sensed.state, conflict=True))
    puppet.step(Sensed(sensed.actions, sensed.layout, sensed.state, conflict=True))
    fixes = [tap for tap in puppet.taps if tap.kind == "fix_layout"]
    assert len(fixes) == 1  # once, not at every look
    assert fixes[0].layout == dict(enumerate(puppet.table.layout))
    sink.tap(fixes[0])
    assert [e["event"] for e in sink.result.tracked[-2:]] == ["fixed", "layout"]


def test_goblets_the_readers_do_not_see_back_home_are_set_right_by_the_host() -> None:
    puppet = Puppeteer.new_game(random.Random(2), {"players": 4}, patience=3.0)
    wrong = {0: "mctoadery", 1: "de_miceti", 2: "aconitiers", 3: "wespendorf"}
    for _ in range(40):
        puppet.step(Sensed([], wrong, puppet.engine))
    fixes = [tap for tap in puppet.taps if tap.kind == "fix_layout"]
    assert fixes and fixes[0].layout == dict(enumerate(puppet.table.names))
    assert not any(tap.kind == "start_course" for tap in puppet.taps)  # not before it is right
