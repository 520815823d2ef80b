"""Sensed Russian Goblette: six reader spots in a row, whose act a sensed event is, the drinks.

Rulebook, Russian Goblette: "Players take turns performing 1 single action. All actions work like
in a normal game, except for ROTATE (you can't Rotate in a 2-3 player game) and SWAP (when you
Swap, you can swap the position of any two Goblets: no player has "Their Goblet")." and "After
the Toast, the player to the left of the Toast Caller "drinks" any one of the Goblets and reveals
its contents".
"""

from __future__ import annotations

import copy

import pytest

from companion.core import registry
from companion.core.errors import AmbiguousObservation, MalformedInput
from companion.core.game import HOST
from companion.core.games.goblets.sensed.russian import GobletteTable
from companion.core.games.goblets.sensed.russian_session import GobletteSession, default_row
from companion.core.games.goblets.tags import Ring, TagRegistry
from companion.core.observations import Observation

INITIAL = ["antidote", "poison", "poison", "wine", "wine", "wine"]
NAMES = [f"g{p}" for p in range(6)]


def new_state(players: int = 2):
    return registry.get("goblets").new_state({"variant": "russian_goblette", "players": players})


def poured_table(players: int = 2) -> GobletteTable:
    """A table whose Course has started and whose initial pour was read."""
    table = GobletteTable(new_state(players), layout=dict(enumerate(NAMES)))
    table.start_course()
    for p, kind in enumerate(INITIAL):
        table.on_event({"event": "pour", "goblet": NAMES[p], "token": kind, "uid": f"u{p}"})
    assert table.state.phase == "turns"
    return table


def warnings(result) -> list[str]:
    return [e["rule"] for e in result.events if e.get("event") == "rule_warning"]


def test_the_first_token_into_each_goblet_is_the_initial_pour_by_spot() -> None:
    table = GobletteTable(new_state(), layout=dict(enumerate(NAMES)))
    # Before the Host starts the Course, a token poured waits (the row is still being set out).
    early = table.on_event({"event": "pour", "goblet": "g5", "token": "wine", "uid": "u5"})
    assert early.applied == []
    table.start_course()
    result = None
    for p in range(5):
        result = table.on_event(
            {"event": "pour", "goblet": NAMES[p], "token": INITIAL[p], "uid": f"u{p}"}
        )
    assert result is not None
    assert result.actions == [{"type": "initial_pour", "tokens": INITIAL}]


def test_a_sensed_act_is_the_act_of_the_player_whose_turn_it_is() -> None:
    # "no player has 'Their Goblet'": a Swap of two Goblets nobody sits at, and a Peek into
    # one, cannot be told by whose Goblet they touched; "Players take turns performing 1 single
    # action", so each is the act of the player whose turn it is, and the turn passes with it.
    table = poured_table(players=3)
    first = table.state.current
    assert first == 1  # "Starting with the player to the Host's left"
    swap = table.on_event({"event": "swap", "seats": [4, 5], "t": 10.0})
    assert swap.actions == [{"type": "swap", "seat": 1, "places": [4, 5]}]
    # The Goblet now at spot 4 is g5: a lift there is a Peek into position 4, by the next player.
    peek = table.on_event({"event": "lift", "goblet": "g5", "seat": 4, "t": 12.0})
    assert peek.actions == [{"type": "peek", "seat": 2, "place": 4}]
    pour = table.on_event({"event": "pour", "goblet": "g4", "token": "poison", "uid": "x"})
    assert pour.actions == [{"type": "pour", "seat": 0, "place": 5, "token": "poison"}]
    assert warnings(swap) + warnings(peek) + warnings(pour) == []
    assert table.state.current == 1


def test_two_moves_read_as_one_change_are_two_players_turns() -> None:
    # The tracker may read two Swaps made in quick succession as one change of the row; each
    # Swap is "1 single action", so they are the turns of two players in order.
    table = poured_table(players=2)
    layout = {str(p): n for p, n in enumerate(NAMES)}
    layout["0"], layout["1"], layout["2"], layout["3"] = "g1", "g0", "g3", "g2"
    result = table.on_event({"event": "layout", "seats": layout, "t": 9.0})
    assert result.actions == [
        {"type": "swap", "seat": 1, "places": [0, 1]},
        {"type": "swap", "seat": 0, "places": [2, 3]},
    ]
    assert warnings(result) == []


def test_a_rotation_read_on_the_row_is_recorded_with_the_rule_it_breaks() -> None:
    table = poured_table()
    result = table.on_event({"event": "rotate", "direction": "clockwise", "t": 5.0})
    assert result.actions == [{"type": "rotate", "seat": 1, "direction": "clockwise"}]
    assert any("you can't Rotate" in rule for rule in warnings(result))
    assert table.bound[1] == "g0"  # the row followed: the Goblet at spot 0 is now at 1


def test_a_pour_into_an_unknown_goblet_is_refused_and_changes_nothing() -> None:
    table = poured_table()
    before = copy.deepcopy(table.state.view(HOST))
    with pytest.raises(MalformedInput) as error:
        table.on_event({"event": "pour", "goblet": "nowhere", "token": "wine", "uid": "x"})
    assert error.value.field == "goblet"
    assert table.state.view(HOST) == before


# -- the drinks, read from snapshots -------------------------------------------------------------


class Row:
    """Six reader spots read at 10 Hz without noise: spot -> the tags on it."""

    def __init__(self, tagged: bool = True) -> None:
        self.registry = TagRegistry()
        self.rings = [f"04AA0000000{p}" for p in range(6)]
        for p, uid in enumerate(self.rings):
            if tagged:  # a tag under each Goblet's foot
                self.registry.add(uid, Ring(NAMES[p]))
        self.spots = [{uid} if tagged else set() for uid in self.rings]
        self.t = 0.0
        self.count = 0

    def token(self, kind: str) -> str:
        self.count += 1
        uid = f"04BB{self.count:010X}"
        self.registry.add_token(uid, kind)
        return uid

    def run(self, session: GobletteSession, seconds: float) -> list:
        results = []
        end = self.t + seconds
        while self.t < end:
            self.t = round(self.t + 0.1, 3)
            for p in range(6):
                results.append(session.observe(Observation(self.t, p, frozenset(self.spots[p]))))
        return results


def drinking_session(tagged: bool = True) -> tuple[Row, GobletteSession]:
    row = Row(tagged)
    session = GobletteSession(new_state(), row.registry, layout=dict(enumerate(NAMES)))
    row.run(session, 1.0)
    session.start_course()
    for p, kind in enumerate(INITIAL):
        row.spots[p].add(row.token(kind))
        row.run(session, 0.6)
    assert session.state.phase == "turns"
    session.toast(1)  # with Wine left: recorded, the engine warns
    session.end_turn(0)  # the final actions: "The Toast Caller will be the last"
    session.end_turn(1)
    assert session.state.phase == "drinking"
    return row, session


def test_a_goblet_poured_out_on_its_spot_is_the_drink_of_the_player_whose_drink_it_is() -> None:
    row, session = drinking_session()
    row.run(session, 1.0)
    assert session.state.current == 0  # "the player to the left of the Toast Caller"
    row.spots[3].discard(row.rings[3])  # the Goblet lifted off, its token poured out flat
    results = row.run(session, 3.0)
    drinks = [a for r in results for a in r.actions]
    assert drinks == [{"type": "drink", "seat": 0, "place": 3}]
    assert session.state.drunk[3]["contents"] == {"wine": 1}
    # The next drink is the next player's: a poisoned Goblet ends the Course for them.
    row.spots[3].clear()  # "they keep the contents of the Goblet in front of them"
    row.spots[1].discard(row.rings[1])
    results = row.run(session, 3.0)
    assert [a for r in results for a in r.actions] == [{"type": "drink", "seat": 1, "place": 1}]
    assert session.state.results[-1]["winners"] == [0]
    assert session.pouring is None and session.state.phase == "initial_pour"


def test_bad_drinks_are_refused_precisely_and_change_nothing() -> None:
    row = Row()
    session = GobletteSession(new_state(), row.registry, layout=dict(enumerate(NAMES)))
    before = copy.deepcopy(session.state.view(HOST))
    # A pour-out out of turn: no Toast has been called.
    with pytest.raises(AmbiguousObservation, match="no Goblet is drunk now"):
        session.pour_out(1.0)
    with pytest.raises(AmbiguousObservation, match="no Goblet is drunk now"):
        session.confirm(2)
    assert session.state.view(HOST) == before and session.pouring is None
    row, session = drinking_session()
    row.run(session, 0.5)
    before = copy.deepcopy(session.state.view(HOST))
    # An unknown spot: the row has six.
    with pytest.raises(MalformedInput) as error:
        session.confirm(6, {"wine": 1})
    assert error.value.field == "spot"
    with pytest.raises(MalformedInput):
        session.confirm(2, {"vinegar": 1})
    assert session.state.view(HOST) == before
    # The Host's count of a spot is the drink of the player whose drink it is; a spot drunk
    # already is refused.
    result = session.confirm(4, {"wine": 1})
    assert result.actions == [{"type": "drink", "seat": 0, "place": 4}]
    before = copy.deepcopy(session.state.view(HOST))
    with pytest.raises(AmbiguousObservation, match="drunk already"):
        session.confirm(4)
    assert session.state.view(HOST) == before


def test_the_default_row_is_the_enrolled_goblets_in_the_houses_order() -> None:
    tags = TagRegistry()
    for p, house in enumerate(
        reversed(["de_miceti", "mctoadery", "aconitiers", "wespendorf", "van_visser", "araneros"])
    ):
        tags.add(f"04CC0000000{p}", Ring(house))
    assert default_row(tags)[0] == "de_miceti" and default_row(tags)[5] == "araneros"
    assert default_row(TagRegistry())[0] == "goblet1"


def test_without_foot_tags_the_drink_is_the_spot_the_host_confirms() -> None:
    # Without a tag under the Goblet nothing tells a Goblet poured out on its spot from one
    # standing there (the same token on the same reader): no drink is taken from the readers.
    row, session = drinking_session(tagged=False)
    results = row.run(session, 5.0)
    assert [a for r in results for a in r.actions] == []
    assert session.confirm(5).actions == [{"type": "drink", "seat": 0, "place": 5}]
    assert session.state.drunk[5]["contents"] == {"wine": 1}
