"""The tracker on hand-written tables: every kind of event, hand moves, noise, errors."""

import pytest

from companion.core.errors import MalformedInput
from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tracking import Tracker, TrackerConfig, classify
from companion.core.observations import Observation

RING = {"A": "04000000000A", "B": "04000000000B", "C": "04000000000C", "D": "04000000000D"}
WINE, POISON, ANTIDOTE, WINE2 = "0411", "0422", "0433", "0444"
UNKNOWN = "04FFFF"


def registry(rings=True):
    tags = {WINE: "wine", POISON: "poison", ANTIDOTE: "antidote", WINE2: "wine"}
    data = {uid: {"kind": "token", "token": kind} for uid, kind in tags.items()}
    if rings:
        data.update({uid: {"kind": "ring", "goblet": g} for g, uid in RING.items()})
    return TagRegistry.from_json({"tags": data})


class Table:
    """Feeds a tracker 10 snapshots a second per seat; phases say what each seat reads."""

    def __init__(self, tracker):
        self.tracker = tracker
        self.t = 0.0
        self.events = []

    def hold(self, seconds, seats, every=None):
        """Read ``seats`` (seat -> UIDs) for ``seconds``; ``every`` maps a seat to extra UIDs
        read only on every k-th tick: ``{seat: (k, [uids])}``."""
        ticks = round(seconds * 10)
        for tick in range(ticks):
            for seat in range(self.tracker.seats):
                uids = list(seats.get(seat, []))
                if every and seat in every and tick % every[seat][0] == 0:
                    uids += every[seat][1]
                self.events += self.tracker.observe(Observation.of(self.t, seat, uids))
            self.t = round(self.t + 0.1, 6)
        return self

    def kinds(self):
        return [e["event"] for e in self.events]

    def of(self, kind):
        return [e for e in self.events if e["event"] == kind]


def rings(*goblets):
    return {seat: [RING[g]] for seat, g in enumerate(goblets) if g}


def settled_table(**kwargs):
    table = Table(Tracker(registry(), 4, **kwargs))
    table.hold(1.5, rings("A", "B", "C", "D"))
    return table


def test_first_layout_is_reported_once():
    table = settled_table()
    assert table.kinds() == ["layout"]
    assert table.events[0]["seats"] == {"0": "A", "1": "B", "2": "C", "3": "D"}
    assert table.tracker.layout() == {0: "A", 1: "B", 2: "C", 3: "D"}


def test_pour_with_crosstalk_and_missed_reads():
    table = settled_table()
    seats = rings("A", "B", "C", "D")
    # The Wine is read at seat 1 every other tick and heard at seat 2 once.
    seats_b = {**seats, 1: [RING["B"]]}
    table.hold(0.1, {**seats, 2: [RING["C"], WINE]})
    table.hold(2.0, seats_b, every={1: (2, [WINE])})
    pours = table.of("pour")
    assert pours == [
        {"t": pours[0]["t"], "event": "pour", "goblet": "B", "token": "wine", "uid": WINE}
    ]
    assert table.tracker.contents("B") == {"wine": 1}


def test_tokens_are_conserved_when_no_longer_read():
    table = settled_table()
    seats = rings("A", "B", "C", "D")
    table.hold(1.0, {**seats, 0: [RING["A"], POISON]})
    table.hold(5.0, seats)
    assert table.tracker.state()["goblets"]["A"] == {"poison": 1}
    assert table.of("lift") == []


def rotate_by_hand(table, goblets, step):
    """A chain rotation: each Goblet set down beside the next before that one is lifted."""
    n = len(goblets)
    layout = list(goblets)
    start = 0
    carry = layout[start]
    layout[start] = None
    table.hold(0.6, rings(*layout))
    for i in range(1, n):
        seat = (start + i * step) % n
        both = rings(*layout)
        both[seat] = [RING[layout[seat]], RING[carry]]
        table.hold(0.3, both)  # briefly seen at its new seat before the next is lifted
        carry, layout[seat] = layout[seat], carry
        table.hold(0.8, rings(*layout))  # the next Goblet in the air
    layout[start] = carry
    table.hold(1.5, rings(*layout))
    return layout


@pytest.mark.parametrize(("step", "direction"), [(1, "clockwise"), (-1, "widdershins")])
def test_rotation_goblet_by_goblet_is_one_rotate(step, direction):
    table = settled_table()
    layout = rotate_by_hand(table, ["A", "B", "C", "D"], step)
    assert table.kinds() == ["layout", "rotate"]
    assert table.of("rotate")[0]["direction"] == direction
    assert table.tracker.layout() == dict(enumerate(layout))
    assert layout == (["D", "A", "B", "C"] if step == 1 else ["B", "C", "D", "A"])


def test_swap_by_hand_is_one_swap():
    table = settled_table()
    table.hold(0.9, rings("A", None, "C", "D"))  # B in the air
    table.hold(0.9, rings("A", None, "C", None))  # D in the air too
    table.hold(0.3, rings("A", "D", "C", None))
    table.hold(1.5, rings("A", "D", "C", "B"))
    assert table.kinds() == ["layout", "swap"]
    assert table.of("swap")[0]["seats"] == [1, 3]


def test_peek_is_a_lift_and_short_misses_are_not():
    table = settled_table()
    table.hold(0.3, rings("A", "B", None, "D"))  # missed reads, not a lift
    table.hold(1.0, rings("A", "B", "C", "D"))
    assert table.kinds() == ["layout"]
    table.hold(2.0, rings("A", "B", None, "D"))  # held up for a Peek
    table.hold(1.5, rings("A", "B", "C", "D"))
    assert table.of("lift") == [
        {"t": table.of("lift")[0]["t"], "event": "lift", "goblet": "C", "seat": 2}
    ]


def test_three_cycle_is_reported_as_moves():
    table = settled_table()
    table.hold(1.0, rings(None, None, None, "D"))
    table.hold(1.5, rings("C", "A", "B", "D"))
    assert [(e["goblet"], e["from"], e["to"]) for e in table.of("move")] == [
        ("A", 0, 1),
        ("B", 1, 2),
        ("C", 2, 0),
    ]
    assert "rotate" not in table.kinds() and "swap" not in table.kinds()


def test_classify_names_each_kind_of_change():
    before = {0: "A", 1: "B", 2: "C"}
    assert classify(before, before, 3) == []
    assert classify(before, {0: "C", 1: "A", 2: "B"}, 3) == [
        {"event": "rotate", "direction": "clockwise"}
    ]
    assert classify(before, {0: "B", 1: "C", 2: "A"}, 3) == [
        {"event": "rotate", "direction": "widdershins"}
    ]
    assert classify(before, {0: "C", 1: "B", 2: "A"}, 3) == [{"event": "swap", "seats": [0, 2]}]
    assert classify({0: "A", 1: "B"}, {0: "B", 1: "A"}, 2) == [{"event": "swap", "seats": [0, 1]}]


def test_unknown_tag_is_reported_once_and_not_fatal():
    table = settled_table()
    table.hold(1.0, {**rings("A", "B", "C", "D"), 3: [RING["D"], UNKNOWN]})
    unknown = table.of("unknown_tag")
    assert [(e["uid"], e["seat"]) for e in unknown] == [(UNKNOWN, 3)]
    assert table.tracker.layout() == {0: "A", 1: "B", 2: "C", 3: "D"}


def test_missing_goblet_raises_a_conflict_that_a_fix_resolves():
    table = settled_table(config=TrackerConfig(conflict_after=3.0))
    table.hold(5.0, rings("A", "B", None, "D"))  # C taken away (or its reader is dead)
    conflicts = table.of("conflict")
    assert len(conflicts) == 1
    assert conflicts[0]["missing"] == ["C"]
    assert conflicts[0]["seats"]["2"] == []
    assert "seat 2 holds no goblet" in conflicts[0]["reason"]
    events = table.tracker.fix_layout({"2": "C"}, t=table.t)
    assert [e["event"] for e in events] == ["fixed", "layout"]
    assert events[1]["seats"] == {"0": "A", "1": "B", "2": "C", "3": "D"}
    # The fix holds although C is still unread; the table is quiet again.
    table.hold(5.0, rings("A", "B", None, "D"))
    assert len(table.of("conflict")) == 1
    assert table.tracker.state()["seats"]["2"] == "C"


def test_impossible_layout_two_goblets_on_one_seat():
    table = settled_table(config=TrackerConfig(conflict_after=2.0))
    table.hold(4.0, {0: [RING["A"]], 1: [RING["B"], RING["C"]], 3: [RING["D"]]})
    conflict = table.of("conflict")[0]
    assert conflict["seats"]["1"] == ["B", "C"]
    assert "seat 1 holds 2 goblets" in conflict["reason"]
    assert "seat 2 holds no goblet" in conflict["reason"]
    # The Host puts C back on its seat: the table settles and the conflict is over.
    table.hold(1.5, rings("A", "B", "C", "D"))
    assert table.tracker.layout() == {0: "A", 1: "B", 2: "C", 3: "D"}


def test_node_offline_keeps_its_seats():
    table = settled_table()
    t = table.t
    events = table.tracker.node_status("node-b", False, t, seats=[2, 3])
    assert events == [{"t": t, "event": "offline", "node": "node-b", "seats": [2, 3]}]
    # Only seats 0 and 1 report for a while: seats 2 and 3 keep their Goblets.
    for tick in range(30):
        for seat in (0, 1):
            table.tracker.observe(Observation.of(t + tick / 10, seat, [RING["AB"[seat]]]))
    events = table.tracker.node_status("node-b", True, t + 3.0, seats=[2, 3])
    assert events[0]["event"] == "online"
    assert table.tracker.location("C") == 2 and table.tracker.location("D") == 3


def test_nodes_seats_are_learned_from_observations():
    tracker = Tracker(registry(), 4)
    tracker.observe(Observation.of(0.0, 2, [RING["C"]], node="n1"))
    assert tracker.node_status("n1", False, 0.5)[0]["seats"] == [2]


def test_empty_goblets_at_the_reveal():
    table = settled_table()
    seats = rings("A", "B", "C", "D")
    table.hold(1.0, {**seats, 0: [RING["A"], POISON, ANTIDOTE]})
    events = table.tracker.empty_goblets(t=table.t)
    assert {e["goblet"]: e["tokens"] for e in events} == {
        "A": {"poison": 1, "antidote": 1},
        "B": {},
        "C": {},
        "D": {},
    }
    assert table.tracker.state()["goblets"]["A"] == {}
    # Poured again next Course: a new pour.
    table.hold(1.0, {**seats, 3: [RING["D"], POISON]})
    assert table.of("pour")[-1]["goblet"] == "D"
    with pytest.raises(MalformedInput):
        table.tracker.empty_goblets(["Z"])


def test_raise_your_memory_follows_goblets_by_their_tokens():
    layout = {0: "A", 1: "B", 2: "C", 3: "D"}
    table = Table(Tracker(registry(rings=False), 4, initial_layout=layout))
    table.hold(1.0, {})  # empty Goblets without rings cannot be read
    assert table.events == []
    table.hold(1.0, {0: [WINE], 1: [POISON], 2: [ANTIDOTE], 3: [WINE2]})
    assert [(e["goblet"], e["token"]) for e in table.of("pour")] == [
        ("A", "wine"),
        ("B", "poison"),
        ("C", "antidote"),
        ("D", "wine"),
    ]
    # Swap A and C by hand: only their tokens say where they went.
    table.hold(1.0, {1: [POISON], 3: [WINE2]})
    table.hold(1.5, {0: [ANTIDOTE], 1: [POISON], 2: [WINE], 3: [WINE2]})
    assert table.of("swap") == [{"t": table.of("swap")[0]["t"], "event": "swap", "seats": [0, 2]}]
    assert table.tracker.state()["seats"] == {"0": "C", "1": "B", "2": "A", "3": "D"}


def test_pour_won_by_crosstalk_is_corrected():
    table = settled_table()
    seats = rings("A", "B", "C", "D")
    # The new Wine is heard 3 times at seat 2 (crosstalk) before its own seat 1 reads it ...
    table.hold(0.3, {**seats, 2: [RING["C"], WINE]})
    assert table.of("pour")[0]["goblet"] == "C"
    # ... then it is plainly in B.
    table.hold(3.0, {**seats, 1: [RING["B"], WINE]})
    corrected = table.of("pour_corrected")
    assert [(e["uid"], e["from"], e["to"]) for e in corrected] == [(WINE, "C", "B")]
    assert table.tracker.contents("B") == {"wine": 1}
    assert table.tracker.contents("C") == {}


def test_stale_snapshot_is_ignored():
    tracker = Tracker(registry(), 4)
    tracker.observe(Observation.of(5.0, 0, [RING["A"]]))
    assert tracker.observe(Observation.of(4.0, 0, [UNKNOWN])) == []


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda tr: tr.observe(Observation.of(0.0, 4, [])), "seat"),
        (lambda tr: tr.observe({"t": 0, "seat": 0, "tags": []}), "observation"),
        (lambda tr: tr.advance(float("nan")), "t"),
        (lambda tr: tr.fix_layout({"x": "A"}), "layout"),
        (lambda tr: tr.fix_layout({9: "A"}), "layout.9"),
        (lambda tr: tr.fix_layout({0: "A", 1: "A"}), "layout.1"),
        (lambda tr: tr.fix_layout([("0", "A")]), "layout"),
        (lambda tr: tr.contents("nobody"), "goblet"),
    ],
)
def test_bad_input_is_a_typed_error(call, field):
    tracker = Tracker(registry(), 4)
    with pytest.raises(MalformedInput) as caught:
        call(tracker)
    assert caught.value.field == field


def test_config_is_validated():
    with pytest.raises(MalformedInput) as caught:
        TrackerConfig(settle=0)
    assert caught.value.field == "settle"
    with pytest.raises(MalformedInput) as caught:
        TrackerConfig.from_json({"setle": 1})
    assert caught.value.field == "setle"
    with pytest.raises(MalformedInput):
        TrackerConfig(absent_confidence=2)
    assert TrackerConfig.from_json({"settle": 0.8}).settle == 0.8
    with pytest.raises(MalformedInput) as caught:
        Tracker(registry(), 1)
    assert caught.value.field == "seats"


def test_a_spare_ring_heard_in_passing_does_not_block_the_table():
    spare = "04000000000E"
    tags = TagRegistry.from_json(
        {"tags": {**registry().to_json()["tags"], spare: {"kind": "ring", "goblet": "E"}}}
    )
    table = Table(Tracker(tags, 4))
    table.hold(1.5, rings("A", "B", "C", "D"))
    table.hold(0.1, {**rings("A", "B", "C", "D"), 2: [RING["C"], spare]})
    table.hold(1.0, rings(None, None, "C", "D"))
    table.hold(1.5, rings("B", "A", "C", "D"))
    assert table.kinds() == ["layout", "swap"]
    assert "E" not in table.tracker.state()["goblets"]


def test_a_fifth_goblet_on_the_table_is_a_conflict():
    spare = "04000000000E"
    tags = TagRegistry.from_json(
        {"tags": {**registry().to_json()["tags"], spare: {"kind": "ring", "goblet": "E"}}}
    )
    table = Table(Tracker(tags, 4, TrackerConfig(conflict_after=2.0)))
    table.hold(1.5, rings("A", "B", "C", "D"))
    table.hold(3.0, {**rings("A", "B", "C", "D"), 2: [RING["C"], spare]})
    conflict = table.of("conflict")[0]
    assert conflict["seats"]["2"] == ["C", "E"]
    assert "5 goblets on a table of 4 seats" in conflict["reason"]
