"""The virtual table: Courses are consistent with their ground truth, readers read what stands."""

import random
from collections import Counter

import pytest

from companion.core.games.goblets.tags import Ring, TokenTag
from companion.virtual import HANDS, NOISE, Noise, Scenario, SimulatedReaders, summarize
from companion.virtual.readers import _apply


def play_motions(scenario):
    """Replay the motions on a model table, checking each one is physically possible."""
    standing = [[g] for g in scenario.layout]
    tags = {g: list(scenario.tags_of(g)) for g in scenario.layout}
    in_air = set()
    for motion in scenario.motions:
        if motion.kind == "lift":
            assert motion.goblet in standing[motion.seat]
            in_air.add(motion.goblet)
        elif motion.kind == "place":
            assert motion.goblet in in_air
            in_air.discard(motion.goblet)
        else:
            assert motion.goblet in standing[motion.seat]
        _apply(motion, standing, tags)
    assert not in_air
    return standing, tags


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 8])
@pytest.mark.parametrize("rings", [True, False])
def test_motions_end_in_the_final_table(seats, rings):
    for seed in range(5):
        scenario = Scenario.generate(random.Random(seed), seats, rings=rings)
        standing, tags = play_motions(scenario)
        assert all(len(goblets) == 1 for goblets in standing)
        final_seats = {str(s): goblets[0] for s, goblets in enumerate(standing)}
        assert final_seats == scenario.final["seats"]
        for goblet, uids in tags.items():
            kinds = Counter(
                scenario.registry.lookup(u).token.value
                for u in uids
                if isinstance(scenario.registry.lookup(u), TokenTag)
            )
            assert dict(kinds) == scenario.final["goblets"][goblet]
            rings_here = [u for u in uids if isinstance(scenario.registry.lookup(u), Ring)]
            assert len(rings_here) == (1 if rings else 0)


def test_truth_counts_pours_and_moves():
    scenario = Scenario.generate(random.Random(3), 5)
    truth = scenario.truth()
    assert len(truth.pours) == len(truth.moves) + 1
    # Appetizers: one token into each Goblet, 1 Antidote, 2 Poison, the rest Wine.
    initial = Counter(kind for _, kind in truth.pours[0][:5])
    assert sum(initial.values()) == 5
    poured = sum(len(stretch) for stretch in truth.pours)
    held = sum(sum(c.values()) for c in truth.final["goblets"].values())
    assert poured == held


def test_generation_is_seeded():
    a = Scenario.generate(random.Random(9), 6)
    b = Scenario.generate(random.Random(9), 6)
    assert a == b
    readers_a = list(SimulatedReaders(a, NOISE["heavy"], random.Random(1)).snapshots())
    readers_b = list(SimulatedReaders(b, NOISE["heavy"], random.Random(1)).snapshots())
    assert readers_a == readers_b


def test_noiseless_readers_read_exactly_what_stands():
    scenario = Scenario.generate(random.Random(4), 4, actions=(4, 6))
    snapshots = list(
        SimulatedReaders(scenario, NOISE["none"], random.Random(0), rate=5).snapshots()
    )
    standing = [[g] for g in scenario.layout]
    tags = {g: list(scenario.tags_of(g)) for g in scenario.layout}
    motions = list(scenario.motions)
    for obs in snapshots:
        while motions and motions[0].t <= obs.t:
            _apply(motions.pop(0), standing, tags)
        assert obs.tags == frozenset(u for g in standing[obs.seat] for u in tags[g])
    per_seat = Counter(obs.seat for obs in snapshots)
    assert set(per_seat) == {0, 1, 2, 3}
    assert max(per_seat.values()) - min(per_seat.values()) <= 1


def test_noise_misses_more_in_fuller_goblets_and_hears_neighbours():
    noise = Noise(missed=0.3, crosstalk=0.03)
    assert noise.miss_probability(2) == pytest.approx(0.3)
    assert noise.miss_probability(8) > noise.miss_probability(4) > noise.miss_probability(2)
    assert noise.miss_probability(100) == noise.missed_cap
    scenario = Scenario.generate(random.Random(5), 4)
    snapshots = list(SimulatedReaders(scenario, NOISE["heavy"], random.Random(2)).snapshots())
    ring_of = {scenario.registry.rings_of(g)[0]: g for g in scenario.layout}
    start = [obs for obs in snapshots if obs.t < scenario.motions[0].t]
    seen = Counter((obs.seat, ring_of[u]) for obs in start for u in obs.tags if u in ring_of)
    reads = Counter(obs.seat for obs in start)
    own = [seen[(s, scenario.layout[s])] / reads[s] for s in range(4)]
    assert all(0.55 < rate < 0.85 for rate in own)  # about 30% missed
    heard = sum(seen[(s, scenario.layout[(s + 1) % 4])] for s in range(4))
    assert heard < sum(reads.values()) * 0.1  # crosstalk is rare but happens
    ts = [obs.t for obs in snapshots]
    assert ts != sorted(ts)  # delivery shuffles the seats


def test_summary_applies_corrections_and_reports_differences():
    events = [
        {"event": "pour", "goblet": "a", "token": "wine", "uid": "01"},
        {"event": "rotate", "direction": "clockwise"},
        {"event": "pour_corrected", "uid": "01", "token": "wine", "from": "a", "to": "b"},
        {"event": "state", "seats": {"0": "b", "1": "a"}, "goblets": {"a": {}, "b": {"wine": 1}}},
    ]
    summary = summarize(events)
    assert summary.pours == ((("b", "wine"),), ())
    assert summary.moves == ({"event": "rotate", "direction": "clockwise"},)
    other = summarize(events[1:])
    assert summary.differences(summary) == []
    assert other.differences(summary)[0].startswith("pours before move 0")


def test_hurried_hands_are_faster():
    calm, hurried = HANDS["calm"], HANDS["hurried"]
    assert hurried.gap[0] < calm.gap[0] and hurried.peek[0] < calm.peek[0]
    assert (
        Scenario.generate(random.Random(1), 4, hands=hurried).duration
        < Scenario.generate(random.Random(1), 4).duration
    )
