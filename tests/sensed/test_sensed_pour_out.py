"""The reveal on the readers: Goblets poured out flat on the seats' readers score the Toast.

A reader reads a tall stack of tokens in a Goblet badly (``NOISE["stacked"]``: only the lowest 4
tokens of a stack are within reach, and those are missed 60% of the time in a 12-stack), so the
tracked pours lose most of a full Goblet. At the Toast every player pours their Goblet out onto
their reader spot; the counts read there, flat, are what the Toast is scored from. The judge is
the generator's ground truth, scored independently (``sensed_script.expected``).
"""

from __future__ import annotations

import random

import pytest
from sensed_script import check_revealed, course, event, run

from companion.core.errors import AmbiguousObservation, MalformedInput
from companion.core.game import HOST
from companion.core.games.goblets.sensed.pour_out import (
    CONFIRMED,
    SETTLED,
    SETTLING,
    WAITING,
    PourOut,
    PourOutConfig,
)
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation
from companion.virtual import NOISE

FULL_GOBLETS = (21, 26)
"""Seeds of long 4-seat Courses (44-52 actions) that end with 12 tokens stacked in one Goblet."""


def long_course(seed: int):
    return course(random.Random(5000 + seed), 4, actions=(44, 52))


@pytest.mark.parametrize("seed", FULL_GOBLETS)
def test_a_full_goblet_lost_to_the_readers_is_scored_exactly_from_the_reveal(seed: int) -> None:
    c = long_course(seed)
    final = c.scenario.final
    truth = {p: final["goblets"][final["seats"][str(p)]] for p in range(4)}
    full = max(truth, key=lambda p: sum(truth[p].values()))
    assert sum(truth[full].values()) == 12
    played = run(c, "stacked", seed, reveal="readers")
    corrected = {e["place"]: e for e in played.result.events if e["event"] == "reveal_corrected"}
    # The tracked pours had lost most of the 12 (only the lowest tokens are within reach) ...
    assert sum(corrected[full]["tracked"].values()) <= 5
    # ... and the reveal shows every place's true contents and scores the true VP.
    check_revealed(c, played)
    assert [n["notice"] for n in played.result.notices] == ["pour_out"]


@pytest.mark.parametrize("seed", FULL_GOBLETS)
def test_the_tracked_reveal_of_the_same_course_is_wrong(seed: int) -> None:
    # The judge can fail: revealing what was tracked misses the tokens the readers never saw.
    c = long_course(seed)
    with pytest.raises(AssertionError):
        check_revealed(c, run(c, "stacked", seed, reveal="tracked"))


@pytest.mark.parametrize("noise", ["moderate", "stacked"])
@pytest.mark.parametrize("seats", [4, 5, 6])
def test_courses_revealed_on_the_readers_are_the_truth(seats: int, noise: str) -> None:
    # 6 seats, seed 1, stacked: the pool cannot supply the missed Wine; it comes from behind the
    # screens, where the engine believed the unseen pours still were.
    for seed in range(3):
        c = course(random.Random(1000 * seats + seed), seats)
        played = run(c, noise, seed, reveal="readers")
        check_revealed(c, played)
        assert [n["notice"] for n in played.result.notices].count("not_recorded") == 0


def test_a_reveal_that_agrees_with_the_journal_is_a_plain_reveal() -> None:
    c = course(random.Random(4000), 4)
    played = run(c, "none", 0, reveal="readers")
    assert played.result.actions[-1] == {"type": "reveal", "seat": played.caller}
    assert not [e for e in played.result.events if e["event"] == "reveal_corrected"]


def test_asking_twice_to_pour_out_keeps_the_reading() -> None:
    c = course(random.Random(4003), 4)
    end = c.scenario.duration
    seen = []

    def tap_again(session):
        first = session.pouring
        result = session.pour_out(end + 4.0)  # a second tap on "Reveal"
        seen.append(session.pouring is first is not None)
        return result

    played = run(c, "moderate", 1, reveal="readers", schedule=[(end + 4.0, tap_again)])
    assert seen == [True]
    check_revealed(c, played)


def test_the_pour_out_is_refused_before_the_toast_and_changes_nothing() -> None:
    c = course(random.Random(4001), 4)
    played = run(c, "none", 0)  # tracked: revealed already, the next Course waits to start
    session = played.session
    before = session.state.view(HOST)
    with pytest.raises(AmbiguousObservation, match="without a Toast"):
        session.pour_out(999.0)
    assert session.pouring is None
    assert session.state.view(HOST) == before


# -- the pour-out on its own --------------------------------------------------------------------


def table(seats: int = 3, tokens: int = 6) -> tuple[TagRegistry, dict[int, str], list[str]]:
    registry = TagRegistry()
    layout = {}
    for seat in range(seats):
        layout[seat] = f"g{seat}"
        registry.add_ring(f"AA{seat:02X}", f"g{seat}")
    uids = [f"BB{i:02X}" for i in range(tokens)]
    for i, uid in enumerate(uids):
        registry.add_token(uid, ("wine", "poison", "antidote")[i % 3])
    return registry, layout, uids


def feed(pour: PourOut, t0: float, t1: float, reads: dict[int, list[str]]) -> float:
    t = t0
    while t < t1:
        for seat, tags in reads.items():
            pour.observe(Observation.of(t, seat, tags))
        t = round(t + 0.1, 3)
    return t


def test_a_seat_waits_while_its_goblet_stands_then_settles_on_its_flat_read() -> None:
    registry, layout, uids = table()
    pour = PourOut(layout, registry, t=0.0)
    # Goblets standing: rings read with a partial read of what is inside.
    feed(pour, 0.0, 3.0, {0: ["AA00", uids[0]], 1: ["AA01"], 2: ["AA02"]})
    assert [pour.status(p) for p in range(3)] == [WAITING] * 3
    # Seat 0 pours out: ring gone, three tokens flat.
    t = feed(pour, 3.0, 4.0, {0: uids[:3], 1: ["AA01"], 2: ["AA02"]})
    assert pour.status(0) == WAITING  # the ring left less than ``settle`` ago
    t = feed(pour, t, 6.0, {0: uids[:3], 1: ["AA01"], 2: ["AA02"]})
    assert pour.status(0) == SETTLED
    assert pour.counts(0) == {"antidote": 1, "poison": 1, "wine": 1}
    assert not pour.is_done


def test_a_token_added_late_starts_the_settling_again() -> None:
    registry, layout, uids = table(1)
    pour = PourOut(layout, registry, t=0.0)
    t = feed(pour, 0.0, 2.5, {0: uids[:2]})
    assert pour.status(0) == SETTLED
    t = feed(pour, t, t + 1.0, {0: uids[:3]})
    assert pour.status(0) == SETTLING
    feed(pour, t, t + 2.5, {0: uids[:3]})
    assert pour.status(0) == SETTLED
    assert sum(pour.counts(0).values()) == 3


def test_missed_reads_and_a_neighbours_crosstalk_do_not_change_the_count() -> None:
    registry, layout, uids = table(2)
    pour = PourOut(layout, registry, t=0.0)
    rng = random.Random(3)
    t = 0.0
    while t < 4.0:
        pour.observe(Observation.of(t, 0, [u for u in uids[:3] if rng.random() > 0.1]))
        heard = [uids[0]] if rng.random() < 0.05 else []  # seat 0's token heard next door
        pour.observe(Observation.of(t, 1, [*uids[3:], *heard]))
        t = round(t + 0.1, 3)
    assert pour.is_done
    assert [sum(c.values()) for c in pour.revealed()] == [3, 3]


def test_without_rings_every_seat_is_counted_by_hand() -> None:
    registry, layout, uids = table(2)
    pour = PourOut(layout, registry, rings=False, t=0.0)
    feed(pour, 0.0, 5.0, {0: uids[:3], 1: uids[3:]})
    assert [pour.status(p) for p in range(2)] == [SETTLING, SETTLING]
    pour.confirm(0)  # as read
    pour.confirm(1, {"wine": 2, "poison": 0})
    assert [pour.status(p) for p in range(2)] == [CONFIRMED, CONFIRMED]
    assert pour.revealed() == [{"antidote": 1, "poison": 1, "wine": 1}, {"wine": 2}]
    assert pour.is_done


def test_poured_out_apart_from_the_goblets_a_seat_settles_on_its_read_alone() -> None:
    # The camera's reveal areas lie beside the Goblets' spots: a ring still read there (or no
    # rings at all) says nothing about the tokens poured out.
    for rings in (True, False):
        registry, layout, uids = table(2)
        pour = PourOut(layout, registry, rings=rings, apart=True, t=0.0)
        feed(pour, 0.0, 2.6, {0: ["AA00", *uids[:2]], 1: ["AA01", *uids[2:]]})
        assert pour.is_done
        assert [sum(c.values()) for c in pour.revealed()] == [2, 4]


@pytest.mark.parametrize(
    ("place", "counts", "field"),
    [
        (5, None, "place"),
        (True, None, "place"),
        (0, {"beer": 1}, "counts"),
        (0, {"wine": -1}, None),
    ],
)
def test_a_bad_hand_count_is_refused(place, counts, field) -> None:
    registry, layout, _ = table(2)
    pour = PourOut(layout, registry)
    with pytest.raises(MalformedInput) as error:
        pour.confirm(place, counts)
    if field == "place":
        assert error.value.field == "place"
    assert pour.status(0) != CONFIRMED


def test_an_unknown_tag_is_noticed_once_and_never_counted() -> None:
    registry, layout, _ = table(1)
    pour = PourOut(layout, registry)
    notices = [n for t in range(5) for n in pour.observe(Observation.of(t / 10, 0, ["CC01"]))]
    assert notices == [{"notice": "unknown_tag", "seat": 0}]
    assert pour.counts(0) == {}


def test_pour_out_settings_are_checked() -> None:
    assert PourOutConfig.from_json({"settle": 1.5}).settle == 1.5
    with pytest.raises(MalformedInput) as error:
        PourOutConfig.from_json({"setle": 1.5})
    assert error.value.field == "setle"
    with pytest.raises(MalformedInput):
        PourOutConfig(settle=0)


def test_tokens_left_lying_on_a_reader_are_not_the_next_courses_pours() -> None:
    c = course(random.Random(4002), 4)
    played = run(c, "moderate", 2, reveal="readers")
    session = played.session
    event(played.result, "revealed")
    (notice,) = session.start_course().notices  # the Goblets go back to their Houses' places
    home = {int(p): name for p, name in notice["expected"].items()}
    lying = sorted(session.lying_out)
    assert len(lying) == 12
    t = session.table.now + 1.0
    # The Goblets are set out at home while five revealed tokens still lie by seat 0's reader.
    for step in range(50):
        for seat in range(4):
            tags = [*session.registry.rings_of(home[seat]), *(lying[:5] if seat == 0 else [])]
            session.observe(Observation.of(t + step / 10, seat, tags))
    state = session.tracker.state()
    assert state["seats"] == {str(p): name for p, name in home.items()}
    assert all(contents == {} for contents in state["goblets"].values())
    assert NOISE["stacked"].stack == 4


def test_a_gathered_token_poured_at_once_into_the_next_course_is_seen() -> None:
    # The Host gathers the revealed tokens and pours one straight into a Goblet: once the Course
    # has started, a token no longer read is no longer kept from the tracker.
    c = course(random.Random(4002), 4)
    played = run(c, "moderate", 2, reveal="readers")
    session = played.session
    home = {int(p): n for p, n in session.start_course().notices[0]["expected"].items()}
    t = session.table.now + 1.0
    rings = {p: session.registry.rings_of(home[p]) for p in range(4)}
    for step in range(20):  # the Goblets set out at home, the tokens gathered up
        for seat in range(4):
            session.observe(Observation.of(t + step / 10, seat, rings[seat]))
    session.start_course()
    assert session.lying_out == {}
