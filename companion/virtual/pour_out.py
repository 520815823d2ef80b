"""The reveal on the readers, by hand: each Goblet poured out flat onto its seat's reader spot.

At the Toast "each player takes the Goblet in front of them [...] and reveals its contents"
(rulebook, The Toast); on a sensed table they pour it out onto their seat's reader spot, one
layer, and set the empty Goblet aside (``hardware/README.md``, "Sensing design";
:mod:`companion.core.games.goblets.sensed.pour_out` reads it). Here that is motions: the Goblet is
lifted off its seat, a *pile* (the tokens lying flat) is set down there, and each token is taken out
of the Goblet and put into the pile. The simulated readers read a pile's tokens as flat ones
(``Noise.flat``), not as a stack in a Goblet. Gathering up puts the tokens away and the Goblet
back where it stood.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

from companion.virtual.scenario import Hands, Motion, Scenario

PILE = "~pile "
"""The name prefix of a pile of poured-out tokens (never a Goblet's name)."""


def pile(seat: int) -> str:
    """The name of the pile of tokens poured out on ``seat``'s reader spot."""
    return f"{PILE}{seat}"


def is_pile(name: str) -> bool:
    """True for the name of a pile of poured-out tokens."""
    return name.startswith(PILE)


def pour_out_motions(t: float, seat: int, goblet: str, uids: Iterable[str]) -> list[Motion]:
    """``goblet`` at ``seat`` lifted at ``t`` and its tokens ``uids`` poured out flat there."""
    motions = [
        Motion(round(t, 3), "lift", goblet, seat),
        Motion(round(t, 3), "place", pile(seat), seat),
    ]
    for uid in uids:
        motions.append(Motion(round(t, 3), "take", goblet, seat, uid))
        motions.append(Motion(round(t, 3), "pour", pile(seat), seat, uid))
    return motions


def gather_motions(t: float, seat: int, goblet: str | None, uids: Iterable[str]) -> list[Motion]:
    """The tokens ``uids`` lying at ``seat`` gathered up at ``t``; ``goblet`` set back there
    (None: it already stands there again)."""
    motions = [Motion(round(t, 3), "take", pile(seat), seat, uid) for uid in uids]
    motions.append(Motion(round(t, 3), "lift", pile(seat), seat))
    if goblet is not None:
        motions.append(Motion(round(t, 3), "place", goblet, seat))
    return motions


def standing_at_end(scenario: Scenario) -> tuple[list[list[str]], dict[str, list[str]]]:
    """What stands on each seat at the end of ``scenario`` and the tags in each Goblet."""
    standing: list[list[str]] = [[g] for g in scenario.layout]
    tags = {g: list(scenario.tags_of(g)) for g in scenario.layout}
    for motion in scenario.motions:
        if motion.kind == "pour":
            tags.setdefault(motion.goblet, []).append(motion.uid or "")
        elif motion.kind == "take":
            tags[motion.goblet].remove(motion.uid or "")
        elif motion.kind == "lift":
            standing[motion.seat or 0].remove(motion.goblet)
        else:
            standing[motion.seat or 0].append(motion.goblet)
    return standing, tags


def poured_out(
    scenario: Scenario,
    rng: random.Random,
    *,
    start: float | None = None,
    hands: Hands | None = None,
    tail: float = 5.0,
) -> Scenario:
    """``scenario`` going on with the reveal on the readers from ``start`` (default: its end):
    the players pour their Goblets out one after another, in a random order, then the table
    stays still for ``tail`` seconds while the readers settle."""
    hands = hands or Hands()
    standing, tags = standing_at_end(scenario)
    t = scenario.duration if start is None else start
    motions = list(scenario.motions)
    registry = scenario.registry
    for seat in rng.sample(range(scenario.seats), scenario.seats):
        t += rng.uniform(*hands.gap)
        goblet = standing[seat][0]
        tokens = [uid for uid in tags[goblet] if registry.token_kind(uid) is not None]
        motions.extend(pour_out_motions(t, seat, goblet, tokens))
    return replace(
        scenario, motions=tuple(sorted(motions, key=lambda m: m.t)), duration=round(t + tail, 3)
    )
