"""The Judgment Pool: the bag of cubes, one draw, a judgment's draws, and their exact odds.

"After choosing a verdict, you will draw two cubes (one at a time) from the judgment pool to
determine the fate of the accused. If either drawn cube matches your verdict, that judgment passes.
If neither cube matches, judgment will be in favor of the drawn verdict." The blue cube is wild:
"The wild token (blue) is counted as a favorable verdict".

This module is the ONE place cubes are drawn: the game's ``sample_chance`` and the command line's
simulation both call :func:`draw_cube`, so the odds printed and the draws made cannot disagree.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from companion.core.checks import is_whole
from companion.core.errors import MalformedInput

COLOURS = ("red", "white", "blue")
"""Cube colours, in the order :func:`draw_cube` numbers the cubes in the bag."""

GUILTY = "guilty"
NOT_GUILTY = "not_guilty"
VERDICTS = (GUILTY, NOT_GUILTY)

DRAWS_PER_JUDGMENT = 2


@dataclass(frozen=True)
class Pool:
    """How many cubes of each colour are in the bag."""

    red: int
    white: int
    blue: int = 0

    def __post_init__(self) -> None:
        for colour in COLOURS:
            count = getattr(self, colour)
            if not is_whole(count) or count < 0:
                raise MalformedInput(
                    f"a cube count is a whole number >= 0, not {count!r}", field=colour
                )

    @property
    def total(self) -> int:
        """Cubes in the bag."""
        return self.red + self.white + self.blue

    def count(self, colour: str) -> int:
        """Cubes of ``colour`` in the bag."""
        return getattr(self, colour)

    def without(self, colour: str) -> Pool:
        """The bag after one ``colour`` cube is drawn from it."""
        counts = {c: self.count(c) for c in COLOURS}
        counts[colour] -= 1
        return Pool(**counts)


def other_verdict(verdict: str) -> str:
    """The verdict that is not ``verdict``."""
    return NOT_GUILTY if verdict == GUILTY else GUILTY


def matches(cube: str, verdict: str) -> bool:
    """True if ``cube`` favours ``verdict``: red is guilty, white not guilty, blue either (wild)."""
    return cube == "blue" or cube == ("red" if verdict == GUILTY else "white")


def check_verdict(verdict: object, field: str = "verdict") -> str:
    """``verdict`` if it is ``"guilty"`` or ``"not_guilty"``; otherwise malformed input."""
    if verdict not in VERDICTS:
        raise MalformedInput(f"a verdict is 'guilty' or 'not_guilty', not {verdict!r}", field=field)
    return str(verdict)


def judged(verdict: str, cubes: list[str]) -> str:
    """The verdict that stands after ``cubes`` were drawn for the chosen ``verdict``.

    Blue being wild, "neither matches" means every cube is of the opposite colour, so the drawn
    verdict is the other one (docs/rules-notes.md, "The drawn verdict"). An empty bag opposes
    nothing: the chosen verdict stands.
    """
    if not cubes or any(matches(cube, verdict) for cube in cubes):
        return verdict
    return other_verdict(verdict)


def draw_cube(pool: Pool, rng: random.Random) -> str:
    """Draw one cube uniformly from ``pool`` with ``rng``; the bag must not be empty."""
    if pool.total == 0:
        raise ValueError("cannot draw from an empty Judgment Pool")
    pick = rng.randrange(pool.total)
    for colour in COLOURS:
        if pick < pool.count(colour):
            return colour
        pick -= pool.count(colour)
    raise AssertionError("unreachable: pick is below the total")


def simulate_judgment(
    pool: Pool, verdict: str, rng: random.Random, *, stop_on_match: bool = True
) -> tuple[list[str], bool]:
    """Draw a judgment's cubes without replacement: the cubes, and whether ``verdict`` passed.

    With ``stop_on_match`` the second cube is not drawn once the first matches (Example 1, the
    default ``second_draw`` rule); the chance of passing is the same either way.
    """
    cubes: list[str] = []
    while len(cubes) < DRAWS_PER_JUDGMENT and pool.total > 0:
        cube = draw_cube(pool, rng)
        cubes.append(cube)
        pool = pool.without(cube)
        if stop_on_match and matches(cube, verdict):
            break
    return cubes, judged(verdict, cubes) == verdict


def pass_probability(pool: Pool, verdict: str) -> Fraction:
    """The exact chance that ``verdict`` passes, drawing two cubes from ``pool`` (no replacement).

    The verdict fails only when every drawn cube is of the opposite colour: with ``k`` such cubes
    among ``n``, that is k/n * (k-1)/(n-1) for two draws (one draw when the bag holds one cube).
    """
    check_verdict(verdict)
    against = pool.count("white" if verdict == GUILTY else "red")
    total = pool.total
    failing = Fraction(1)
    for drawn in range(min(DRAWS_PER_JUDGMENT, total)):
        failing *= Fraction(against - drawn, total - drawn)
    return 1 - failing
