"""The Judgment Pool: exact odds against brute force, and chi-square tests of the draws."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from tribunal_helpers import judge, start

from companion.core.errors import MalformedInput
from companion.core.games.tribunal.pool import (
    Pool,
    draw_cube,
    judged,
    matches,
    pass_probability,
    simulate_judgment,
)

# Critical values of the chi-square distribution at p = 0.001 (tables), by degrees of freedom.
CHI2_CRITICAL_0_001 = {1: 10.828, 2: 13.816, 3: 16.266, 5: 20.515, 7: 24.322}

# Pools never used while writing the code (held out): odd mixes, one cube, a bag of only one colour.
HELD_OUT = [
    Pool(0, 1, 0),
    Pool(1, 0, 0),
    Pool(0, 0, 1),
    Pool(1, 1, 0),
    Pool(2, 9, 1),
    Pool(11, 0, 1),
    Pool(9, 3, 0),
    Pool(5, 5, 1),
    Pool(0, 3, 0),
    Pool(13, 2, 1),
    Pool(7, 1, 0),
    Pool(3, 3, 1),
]


def brute_force(pool: Pool, verdict: str) -> Fraction:
    """Enumerate every ordered pair of distinct cubes (every single cube if the bag has one)."""
    cubes = ["red"] * pool.red + ["white"] * pool.white + ["blue"] * pool.blue
    draws = min(2, len(cubes))
    outcomes = list(itertools.permutations(range(len(cubes)), draws))
    passes = sum(any(matches(cubes[i], verdict) for i in outcome) for outcome in outcomes)
    return Fraction(passes, len(outcomes))


def chi_square(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


@pytest.mark.parametrize("pool", HELD_OUT, ids=str)
@pytest.mark.parametrize("verdict", ["guilty", "not_guilty"])
def test_exact_odds_match_brute_force_enumeration(pool, verdict):
    """ "If either drawn cube matches your verdict, that judgment passes." Two cubes are drawn
    "one at a time", so without replacement."""
    assert pass_probability(pool, verdict) == brute_force(pool, verdict)


def test_setup_pool_odds():
    """ "Place 4 red cubes and 3 white cubes in the draw bag": Guilty fails only on two whites."""
    assert pass_probability(Pool(4, 3), "guilty") == 1 - Fraction(3, 7) * Fraction(2, 6)
    assert pass_probability(Pool(4, 3), "not_guilty") == 1 - Fraction(4, 7) * Fraction(3, 6)


def test_blue_cube_is_wild():
    """ "The wild token (blue) is counted as a favorable verdict" - for either verdict."""
    assert matches("blue", "guilty") and matches("blue", "not_guilty")
    assert judged("guilty", ["white", "blue"]) == "guilty"
    assert judged("not_guilty", ["blue", "red"]) == "not_guilty"


def test_neither_matching_gives_the_drawn_verdict():
    """ "If neither cube matches, judgment will be in favor of the drawn verdict." """
    assert judged("guilty", ["white", "white"]) == "not_guilty"
    assert judged("not_guilty", ["red", "red"]) == "guilty"
    assert judged("guilty", []) == "guilty"


def test_bad_pools_are_malformed():
    """A pool holds whole numbers of cubes; a verdict is Guilty or Not Guilty."""
    with pytest.raises(MalformedInput) as error:
        Pool(-1, 3)
    assert error.value.field == "red"
    with pytest.raises(MalformedInput):
        Pool(1, True)
    with pytest.raises(MalformedInput):
        pass_probability(Pool(1, 1), "innocent")
    with pytest.raises(ValueError):
        draw_cube(Pool(0, 0), random.Random(1))


def test_single_draws_follow_the_pool_chi_square():
    pool = Pool(5, 3, 1)
    rng = random.Random(20260)
    n = 18_000
    observed = [0, 0, 0]
    for _ in range(n):
        observed[["red", "white", "blue"].index(draw_cube(pool, rng))] += 1
    expected = [n * 5 / 9, n * 3 / 9, n * 1 / 9]
    assert chi_square(observed, expected) < CHI2_CRITICAL_0_001[2]


@pytest.mark.parametrize("pool", [Pool(4, 3, 0), Pool(2, 9, 1), Pool(6, 6, 1)], ids=str)
@pytest.mark.parametrize("verdict", ["guilty", "not_guilty"])
def test_simulated_passes_agree_with_exact_odds_chi_square(pool, verdict):
    """The simulation (the code the game draws with) against the exact odds, 1 degree of freedom."""
    rng = random.Random(pool.red * 100 + pool.white * 10 + pool.blue + len(verdict))
    n = 12_000
    passes = sum(simulate_judgment(pool, verdict, rng)[1] for _ in range(n))
    p = float(pass_probability(pool, verdict))
    statistic = chi_square([passes, n - passes], [n * p, n * (1 - p)])
    assert statistic < CHI2_CRITICAL_0_001[1]


def test_ordered_pairs_of_cubes_chi_square():
    """Both cubes always drawn: the 8 ordered colour pairs follow drawing without replacement."""
    pool = Pool(4, 3, 1)
    rng = random.Random(77)
    n = 16_000
    counts: dict[tuple[str, str], int] = {}
    for _ in range(n):
        cubes, _ = simulate_judgment(pool, "guilty", rng, stop_on_match=False)
        counts[tuple(cubes)] = counts.get(tuple(cubes), 0) + 1
    pairs = [(a, b) for a in ("red", "white", "blue") for b in ("red", "white", "blue")]
    pairs = [pair for pair in pairs if pair != ("blue", "blue")]
    expected = []
    for a, b in pairs:
        first = pool.count(a) / pool.total
        expected.append(n * first * pool.without(a).count(b) / (pool.total - 1))
    assert set(counts) <= set(pairs)
    statistic = chi_square([counts.get(pair, 0) for pair in pairs], expected)
    assert statistic < CHI2_CRITICAL_0_001[7]


def test_chi_square_would_catch_a_biased_draw():
    """The test has teeth: draws with replacement do not pass for a small pool."""
    pool = Pool(2, 2, 0)
    rng = random.Random(5)
    n = 12_000
    passes = 0
    for _ in range(n):
        cubes = [draw_cube(pool, rng), draw_cube(pool, rng)]  # with replacement: wrong
        passes += judged("guilty", cubes) == "guilty"
    p = float(pass_probability(pool, "guilty"))
    assert chi_square([passes, n - passes], [n * p, n * (1 - p)]) > CHI2_CRITICAL_0_001[1]


def test_stop_on_match_keeps_the_odds():
    """Stopping after a matching first cube (Example 1) changes no probability."""
    rng = random.Random(3)
    pool = Pool(3, 4, 1)
    for _ in range(300):
        cubes, passed = simulate_judgment(pool, "guilty", rng)
        assert len(cubes) == 1 if matches(cubes[0], "guilty") else len(cubes) == 2
        assert passed == (judged("guilty", cubes) == "guilty")


def test_game_draws_with_the_pool_code_chi_square():
    """The game's sample_chance draws from the bag as it is (the same draw_cube)."""
    state = start()
    judge(state, "guilty")
    rng = random.Random(11)
    n = 7_000
    observed = {"red": 0, "white": 0, "blue": 0}
    for _ in range(n):
        observed[state.sample_chance(rng)["cube"]] += 1
    assert observed["blue"] == 0  # the blue cube waits on the W space at setup
    statistic = chi_square([observed["red"], observed["white"]], [n * 4 / 7, n * 3 / 7])
    assert statistic < CHI2_CRITICAL_0_001[1]
