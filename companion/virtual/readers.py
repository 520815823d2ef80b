"""Simulated readers under the seats: per-seat snapshots of a :class:`Scenario`, with noise.

Each seat's reader reports, ``rate`` times a second at its own phase, the set of tags it sees: the
Coaster ring and tokens of every Goblet standing on it (two while one Goblet is set down beside
another), minus missed reads, plus crosstalk from the two neighbouring seats. The scenario may be
a live one whose ``motions`` and ``duration`` grow while it is read (:mod:`companion.virtual.live`).
:class:`Noise`:

- ``missed``: probability that a tag on the reader is missed, for a Goblet holding one token;
  ``fill`` makes it likelier in fuller goblets (DESIGN.md: cheap readers "often fail at three or
  more" stacked tags): ``missed * (1 + fill * (tags on the reader - 2))``, at most ``missed_cap``.
- ``crosstalk``: probability that a tag on a neighbouring seat's reader is heard.
- ``blank``: probability that a snapshot reads nothing at all; ``drop``: that it is never
  delivered.
- ``latency``: each snapshot is delivered up to this late, so seats arrive in random order (kept
  below the period, so one seat's snapshots stay in order, as sequence numbers guarantee).
- ``stack``: how many tokens of a Goblet's stack, from the bottom, can be read at all (None: every
  one). The ones above are never read: far from the antenna, in a field a fraction of the one at
  the foot, and detuned by the inlays below them (``hardware/README.md``, "Sensing design").
  A Coaster ring, at the Goblet's foot, is always within reach.
- ``flat``: probability that a token lying flat on a reader (poured out at the reveal,
  :mod:`companion.virtual.pour_out`) is missed in one snapshot.

Presets in ``NOISE``: ``none``; ``moderate`` (about 15% missed, 2% crosstalk); ``heavy`` (about
30% missed, 3% crosstalk); ``brutal`` (40% missed, 5% crosstalk, blank and dropped snapshots),
harder than the tracker's bar; ``stacked`` (what physics allows for tokens stacked in a Goblet:
only the lowest 5 of a stack read at all, so 7 of 12 are never read; flat tokens read well).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator
from dataclasses import dataclass

from companion.core.observations import Observation
from companion.virtual.pour_out import is_pile
from companion.virtual.scenario import Scenario


@dataclass(frozen=True)
class Noise:
    """How badly the simulated readers read (see the module docstring)."""

    missed: float = 0.0
    fill: float = 0.1
    missed_cap: float = 0.85
    crosstalk: float = 0.0
    blank: float = 0.0
    drop: float = 0.0
    latency: float = 0.0
    stack: int | None = None
    flat: float = 0.02

    def miss_probability(self, tags_on_reader: int) -> float:
        """The chance that one tag is missed when ``tags_on_reader`` tags stand on the reader."""
        scaled = self.missed * (1.0 + self.fill * max(0, tags_on_reader - 2))
        return min(self.missed_cap, scaled)


NOISE: dict[str, Noise] = {
    "none": Noise(),
    "moderate": Noise(missed=0.15, crosstalk=0.02, latency=0.05),
    "heavy": Noise(missed=0.30, crosstalk=0.03, latency=0.05),
    "brutal": Noise(missed=0.40, crosstalk=0.05, blank=0.01, drop=0.05, latency=0.08),
    "stacked": Noise(missed=0.2, fill=0.2, crosstalk=0.02, latency=0.05, stack=4, flat=0.03),
}
"""Named noise levels: the tracker's bar is none, moderate and heavy; brutal is beyond it."""


class SimulatedReaders:
    """The readers of every seat of ``scenario``, reading at ``rate`` Hz through ``noise``."""

    def __init__(
        self,
        scenario: Scenario,
        noise: Noise | None = None,
        rng: random.Random | None = None,
        rate: float = 10.0,
        node: str | None = None,
    ) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.scenario = scenario
        self.noise = noise or Noise()
        self.rng = rng or random.Random(0)
        self.rate = rate
        self.node = node
        registry = getattr(scenario, "registry", None)
        self._is_token = (
            (lambda uid: registry.token_kind(uid) is not None) if registry else (lambda uid: True)
        )

    def snapshots(self) -> Iterator[Observation]:
        """Every snapshot of the Course, in delivery order (each seat's in time order)."""
        scenario, noise, rng = self.scenario, self.noise, self.rng
        n = scenario.seats
        period = 1.0 / self.rate
        phases = [rng.uniform(0.0, period) for _ in range(n)]
        order = sorted(range(n), key=lambda s: phases[s])
        standing: list[list[str]] = [[g] for g in scenario.layout]
        tags = {g: list(scenario.tags_of(g)) for g in scenario.layout}
        motions = scenario.motions
        forget = getattr(scenario, "forget_read", False)
        next_motion = 0
        pending: list[tuple[float, int, Observation]] = []
        counter = 0
        k = 0
        # The duration is read at every tick: a live table (the puppeteer's) grows while it is
        # read, and the snapshots go on as long as its motions do.
        while k < int(scenario.duration * self.rate) + 1:
            for seat in order:
                t = k * period + phases[seat]
                while next_motion < len(motions) and motions[next_motion].t <= t:
                    _apply(motions[next_motion], standing, tags)
                    next_motion += 1
                if forget and next_motion >= FORGET_AFTER:
                    del motions[:next_motion]  # a live table's: read, and not needed again
                    next_motion = 0
                while pending and pending[0][0] <= t:
                    yield heapq.heappop(pending)[2]
                seen = self._read(seat, standing, tags)
                if noise.drop and rng.random() < noise.drop:
                    continue
                obs = Observation(
                    t=round(t, 4), seat=seat, tags=frozenset(seen), seq=k, node=self.node
                )
                delay = rng.uniform(0.0, noise.latency) if noise.latency else 0.0
                heapq.heappush(pending, (t + delay, counter, obs))
                counter += 1
            k += 1
        while pending:
            yield heapq.heappop(pending)[2]

    def _read(self, seat: int, standing: list[list[str]], tags: dict[str, list[str]]) -> list[str]:
        noise, rng, n = self.noise, self.rng, self.scenario.seats
        if noise.blank and rng.random() < noise.blank:
            return []
        stacked = [uid for g in standing[seat] if not is_pile(g) for uid in self._reach(tags[g])]
        flat = [uid for g in standing[seat] if is_pile(g) for uid in tags[g]]
        miss = noise.miss_probability(len(stacked))
        seen = [uid for uid in stacked if not miss or rng.random() >= miss]
        seen.extend(uid for uid in flat if not noise.flat or rng.random() >= noise.flat)
        if noise.crosstalk:
            for neighbour in {(seat - 1) % n, (seat + 1) % n} - {seat}:
                for goblet in standing[neighbour]:
                    heard = tags[goblet] if is_pile(goblet) else self._reach(tags[goblet])
                    seen.extend(u for u in heard if rng.random() < noise.crosstalk)
        return seen

    def _reach(self, uids: list[str]) -> list[str]:
        """The tags of a Goblet the reader can reach: its ring and the lowest ``stack`` tokens
        (``uids`` are in the order they went in: the first poured lies at the bottom)."""
        if self.noise.stack is None:
            return uids
        out, tokens = [], 0
        for uid in uids:
            if self._is_token(uid):
                tokens += 1
                if tokens > self.noise.stack:
                    continue
            out.append(uid)
        return out


FORGET_AFTER = 256
"""Motions of a live table read before the readers drop them."""


def _apply(motion, standing: list[list[str]], tags: dict[str, list[str]]) -> None:
    """Move the physical table on by one motion."""
    if motion.kind == "pour":
        tags.setdefault(motion.goblet, []).append(motion.uid)
    elif motion.kind == "take":
        tags[motion.goblet].remove(motion.uid)  # a token taken out of its Goblet: the reveal
    elif motion.kind == "lift":
        standing[motion.seat].remove(motion.goblet)
    else:
        tags.setdefault(motion.goblet, [])
        standing[motion.seat].append(motion.goblet)
