"""The pure enrollment procedure (companion.core.games.goblets.enroll): the script, stable reads,
missed reads and crosstalk, duplicates and conflicts, fewer tags than the rulebook counts, and
resuming."""

from __future__ import annotations

import random

import pytest

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.games.goblets.enroll import Enrollment, Stability, Step, script
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.tags import Ring, TagRegistry, TokenTag
from companion.core.games.goblets.tokens import Token
from companion.core.games.goblets.tracking import Tracker
from companion.core.observations import Observation
from companion.virtual import NOISE
from companion.virtual.enrollset import EnrollHands, VirtualSet


class Reader:
    """Feeds snapshots of seats to an enrollment, numbering time."""

    def __init__(self, enrollment: Enrollment) -> None:
        self.enrollment = enrollment
        self.t = 0.0
        self.notices: list[dict] = []

    def read(self, *tags: str, seat: int = 0) -> list[dict]:
        self.t += 0.1
        notices = self.enrollment.observe(Observation.of(self.t, seat, tags))
        self.notices += notices
        return notices

    def times(self, count: int, *tags: str, seat: int = 0) -> None:
        for _ in range(count):
            self.read(*tags, seat=seat)


def uid(n: int) -> str:
    return f"E004{n:012X}"


def test_the_script_follows_the_rulebook_components():
    """ "52 plastic tokens: 21 Wine (red) | 15 Poison (black) | 14 Antidote (white) | 1 Unicorn
    Antidote (blue) | 1 Ogre Poison (green)", and one Coaster ring per House."""
    steps = script()
    assert [s.name for s in steps[:6]] == list(HOUSE_IDS)
    assert all(s.kind == "ring" and s.expected == 1 for s in steps[:6])
    tokens = {s.name: s.expected for s in steps[6:]}
    assert tokens == {
        "wine": 21,
        "poison": 15,
        "antidote": 14,
        "unicorn_antidote": 1,
        "ogre_poison": 1,
    }
    assert sum(tokens.values()) == 52
    assert steps[0].prompt(1) == "place the De Miceti coaster ring alone on seat 1's reader"
    assert steps[6].prompt(1) == "place every Wine token (21) on seat 1's reader"
    assert steps[9].prompt(2) == "place the Unicorn Antidote token on seat 2's reader"


def test_bad_houses_and_seats_are_named():
    with pytest.raises(MalformedInput, match="houses"):
        script(["de_miceti", "castle_grey"])
    with pytest.raises(MalformedInput, match="houses"):
        script(["de_miceti", "de_miceti"])
    with pytest.raises(MalformedInput, match="seat"):
        Enrollment(-1)
    with pytest.raises(MalformedInput, match="stable"):
        Stability(stable=0)
    with pytest.raises(MalformedInput, match="share"):
        Stability(share=1.5)


def test_a_tag_counts_once_read_steadily_not_at_a_glimpse():
    enrollment = Enrollment(0, houses=["de_miceti"])
    reader = Reader(enrollment)
    reader.times(2, uid(1))
    assert enrollment.collected == frozenset()
    assert enrollment.glimpsed() == [uid(1)]
    reader.read(uid(1))
    assert enrollment.collected == {uid(1)}
    assert enrollment.progress()["count"] == 1
    notices = enrollment.confirm()
    assert notices[0]["notice"] == "confirmed" and notices[0]["count"] == 1
    assert enrollment.registry.ring_goblet(uid(1)) == "de_miceti"
    assert enrollment.current == Step("token", "wine", 21)


def test_missed_reads_in_a_stack_still_count_and_handfuls_accumulate():
    """Stacked tags are missed often: a tag read in half the snapshots is taken; the Host may
    lift and re-place the tokens in handfuls, and the step's set is their union."""
    enrollment = Enrollment(0, houses=["de_miceti"])
    enrollment.skip()  # to the Wine step
    reader = Reader(enrollment)
    first, second = [uid(i) for i in range(10)], [uid(i) for i in range(10, 21)]
    rng = random.Random(1)
    for hand in (first, second):
        for _ in range(30):
            reader.read(*[u for u in hand if rng.random() < 0.5])
        reader.times(5)  # lifted off
    assert enrollment.collected == set(first + second)
    assert enrollment.progress()["count"] == 21


def test_crosstalk_from_a_neighbour_is_not_taken():
    """A tag lying on seat 1's reader, heard now and then by seat 0's, belongs to seat 1."""
    enrollment = Enrollment(0, houses=["de_miceti"])
    enrollment.skip()
    reader = Reader(enrollment)
    rng = random.Random(2)
    neighbour = [uid(100 + i) for i in range(8)]
    mine = [uid(i) for i in range(5)]
    for _ in range(200):
        reader.read(*mine, *[u for u in neighbour if rng.random() < 0.05])
        reader.read(*neighbour, *[u for u in mine if rng.random() < 0.05], seat=1)
    assert enrollment.collected == set(mine)
    assert enrollment.glimpsed() == []  # crosstalk is not "read badly here"


def test_a_tag_read_better_at_another_seat_is_reported_elsewhere():
    enrollment = Enrollment(0, houses=["de_miceti"])
    reader = Reader(enrollment)
    for _ in range(10):
        reader.read(uid(7), seat=1)
        reader.read(uid(7), seat=2)
    for i in range(10):
        reader.read(*([uid(7)] if i % 2 else []))
    assert enrollment.collected == frozenset()
    assert [n["seat"] for n in reader.notices if n["notice"] == "elsewhere"] == [1]


def test_a_tag_enrolled_as_something_else_is_a_conflict_never_reassigned():
    enrollment = Enrollment(0, houses=["de_miceti", "mctoadery"])
    reader = Reader(enrollment)
    reader.times(3, uid(1))
    enrollment.confirm()  # uid 1: De Miceti's ring
    reader.times(5, uid(1), uid(2))  # left on the reader with McToadery's ring
    conflicts = [n for n in reader.notices if n["notice"] == "conflict"]
    assert conflicts == [
        {
            "notice": "conflict",
            "step": "mctoadery",
            "uid": uid(1),
            "enrolled": {"kind": "ring", "goblet": "de_miceti"},
        }
    ]
    assert enrollment.collected == {uid(2)}
    enrollment.confirm()
    assert enrollment.registry.ring_goblet(uid(1)) == "de_miceti"
    assert enrollment.registry.ring_goblet(uid(2)) == "mctoadery"
    assert enrollment.progress()["conflicts"] == 0  # a new step starts clean


def test_duplicates_within_a_step_count_once():
    enrollment = Enrollment(0, houses=["de_miceti"])
    enrollment.skip()
    reader = Reader(enrollment)
    reader.times(5, uid(1), uid(2))
    reader.times(5)
    reader.times(5, uid(2), "e0:04:00:00:00:00:00:01")  # the same UID written differently
    assert enrollment.collected == {uid(1), uid(2)}


def test_confirm_with_fewer_skip_restart_and_the_end():
    enrollment = Enrollment(0, houses=["de_miceti"])
    reader = Reader(enrollment)
    reader.times(3, uid(1))
    assert enrollment.restart()[0]["notice"] == "restarted"
    assert enrollment.collected == frozenset()
    reader.times(3, uid(9))
    enrollment.confirm()
    reader.times(3, *[uid(10 + i) for i in range(19)])  # two Wine tokens lost
    notice = enrollment.confirm()[0]
    assert (notice["count"], notice["expected"]) == (19, 21)
    assert enrollment.skip()[0] == {"notice": "skipped", "step": "poison"}
    while not enrollment.is_done:
        enrollment.skip()
    assert not enrollment.is_complete
    assert enrollment.progress() == {"done": True, "complete": False, "tags": 20}
    with pytest.raises(IllegalAction):
        enrollment.confirm()
    assert enrollment.observe(Observation.of(99, 0, [uid(1)])) == []


def test_resume_skips_the_steps_the_registry_holds():
    partial = TagRegistry({uid(1): Ring("de_miceti"), uid(2): TokenTag(Token.WINE)})
    enrollment = Enrollment(0, houses=["de_miceti", "mctoadery"], registry=partial)
    assert [s.name for s in enrollment.resumed] == ["de_miceti", "wine"]
    assert enrollment.current == Step("ring", "mctoadery", 1)
    Reader(enrollment).times(3, uid(3))
    enrollment.confirm()
    assert enrollment.current.name == "poison"  # Wine was done before
    assert enrollment.registry.ring_goblet(uid(1)) == "de_miceti"
    assert uid(3) not in partial  # the registry handed in is left alone


def scan(seed: int, noise: str) -> tuple[Enrollment, VirtualSet, list[dict]]:
    rng = random.Random(seed)
    tagset = VirtualSet(rng)
    hands = EnrollHands(tagset, 2, NOISE[noise], rng)
    enrollment = Enrollment(2)
    notices: list[dict] = []
    while not enrollment.is_done:
        for obs in hands.readings(enrollment.current):
            notices += enrollment.observe(obs)
        notices += enrollment.confirm()
    return enrollment, tagset, notices


@pytest.mark.parametrize("noise", ["none", "moderate", "heavy"])
def test_a_simulated_set_is_enrolled_exactly(noise):
    """Missed reads (likelier in a fuller stack), crosstalk from the previous step's tokens set
    down on the neighbouring reader, and a stranger passing by: the registry is the set."""
    for seed in range(3):
        enrollment, tagset, notices = scan(seed, noise)
        assert enrollment.registry == tagset.registry(), (noise, seed)
        assert enrollment.is_complete
        assert tagset.stranger not in enrollment.registry
        counts = [n["count"] for n in notices if n["notice"] == "confirmed"]
        assert counts == [1] * 6 + [21, 15, 14, 1, 1]


def test_an_unenrolled_tag_is_reported_by_the_tracker_not_fatal():
    """The enrolled registry drives the tracker; the stranger is an unknown_tag event."""
    enrollment, tagset, _ = scan(4, "moderate")
    ring = tagset.rings["de_miceti"]
    tracker = Tracker(enrollment.registry, 4)
    events = []
    for k in range(20):
        events += tracker.observe(Observation.of(k * 0.1, 0, [ring, tagset.stranger]))
    unknown = [e for e in events if e["event"] == "unknown_tag"]
    assert unknown == [{"t": 0.0, "event": "unknown_tag", "uid": tagset.stranger, "seat": 0}]
