"""A simulated physical set to enroll: its tags, and the hands and readers of an enrollment.

:class:`VirtualSet` is one copy of the game with a fresh random UID on every tag: one Coaster ring
per House and the rulebook's 52 tokens (fewer when some are ``lost``), plus a stranger tag that
is no part of the set (a bank card in a pocket). :class:`EnrollHands` plays what a Host does for
each step of :mod:`companion.core.games.goblets.enroll`: places the ring alone, or the step's tokens
in handfuls (a full stack is read badly), each handful left a moment and lifted again, and sets
what was scanned down on the neighbouring seat's reader until the next step. The readers of the
chosen seat and of that neighbour report snapshots through a
:class:`~companion.virtual.readers.Noise`: missed reads (likelier in a fuller stack), and
crosstalk from the pile next door; now and then the stranger passes over the reader for a
snapshot. Every handful is placed twice (``passes``), as the Host is advised to do when the
count stays short.

``companion enroll --virtual SEED`` uses it so a newcomer can try the enrollment without
hardware, and the tests drive it with a seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from companion.core.games.goblets.enroll import Step
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.tags import Ring, TagRegistry, TokenTag
from companion.core.games.goblets.tokens import POOL, Token
from companion.core.observations import Observation
from companion.virtual.readers import Noise


class VirtualSet:
    """The tags of one physical set (see the module docstring).

    ``lost``: token kind -> how many of that kind the set is missing (a table may have fewer).
    """

    def __init__(
        self,
        rng: random.Random,
        houses: Sequence[str] = HOUSE_IDS,
        lost: Mapping[str, int] | None = None,
    ) -> None:
        self.rng = rng
        self._used: set[str] = set()
        self.rings = {house: self._uid() for house in houses}
        lost = lost or {}
        self.tokens = {
            kind: [self._uid() for _ in range(max(0, count - lost.get(kind.value, 0)))]
            for kind, count in POOL.items()
        }
        self.stranger = self._uid()

    def _uid(self) -> str:
        """A fresh 8-byte ISO 15693 UID (``E004...``, as the ICODE SLIX2 tags have)."""
        while True:
            uid = f"E004{self.rng.getrandbits(48):012X}"
            if uid not in self._used:
                self._used.add(uid)
                return uid

    def tags_of(self, step: Step) -> list[str]:
        """The UIDs the Host places for ``step``."""
        if step.kind == "ring":
            return [self.rings[step.name]] if step.name in self.rings else []
        return list(self.tokens[Token(step.name)])

    def registry(self) -> TagRegistry:
        """The truth: what a perfect enrollment of this set registers."""
        registry = TagRegistry()
        for house, uid in self.rings.items():
            registry.add(uid, Ring(house))
        for kind, uids in self.tokens.items():
            for uid in uids:
                registry.add(uid, TokenTag(kind))
        return registry


class EnrollHands:
    """The Host's hands and two readers during an enrollment on ``seat``.

    ``neighbour``: the seat whose reader lies under the previous step's tags (default
    ``seat + 1``); ``handful``: most tokens placed at once; ``passes``: how many times every
    handful is placed (a tag missed in one pass is read in the next, as the Host is advised to
    lift and re-place when the count stays short); ``dwell``: seconds a handful stays on
    the reader; ``rate``: snapshots per second per reader; ``stranger``: chance that a step sees
    the stranger tag pass over the reader once.
    """

    def __init__(
        self,
        tagset: VirtualSet,
        seat: int,
        noise: Noise,
        rng: random.Random,
        *,
        neighbour: int | None = None,
        handful: int = 7,
        passes: int = 2,
        dwell: tuple[float, float] = (1.5, 2.5),
        rate: float = 10.0,
        stranger: float = 0.3,
    ) -> None:
        self.tagset = tagset
        self.seat = seat
        self.neighbour = seat + 1 if neighbour is None else neighbour
        self.noise = noise
        self.rng = rng
        self.handful = handful
        self.passes = passes
        self.dwell = dwell
        self.period = 1.0 / rate
        self.stranger = stranger
        self.pile: list[str] = []
        self._placing: list[str] = []
        self.t = 0.0
        self.seq = 0

    def readings(self, step: Step) -> Iterator[Observation]:
        """Every snapshot of both readers while the Host scans ``step`` (the previous step's tags
        lie next door). Time goes on from the previous step's last snapshot."""
        tags = self.tagset.tags_of(step)
        # The previous step's tags are set down next door, even when it ended half-way.
        self.pile, self._placing = self._placing, list(tags)
        self.rng.shuffle(tags)
        handfuls = [tags[i : i + self.handful] for i in range(0, len(tags), self.handful)]
        handfuls *= self.passes
        stranger_at = len(handfuls) if self.rng.random() < self.stranger else -1
        yield from self._read([], 0.5)
        for number, handful in enumerate(handfuls or [[]]):
            yield from self._read(handful, self.rng.uniform(*self.dwell))
            if number == stranger_at - 1:
                yield from self._read([self.tagset.stranger], self.period)
            yield from self._read([], 0.4)  # lifted off; the next handful is picked up

    def _read(self, on_reader: list[str], seconds: float) -> Iterator[Observation]:
        """Both readers, ``seconds`` long, with ``on_reader`` on the chosen seat's."""
        noise, rng = self.noise, self.rng
        for _ in range(max(1, round(seconds / self.period))):
            self.t += self.period
            self.seq += 1
            here = self._seen(on_reader) + [u for u in self.pile if rng.random() < noise.crosstalk]
            there = self._seen(self.pile) + [u for u in on_reader if rng.random() < noise.crosstalk]
            t = round(self.t, 4)
            yield Observation(t, self.seat, frozenset(here), seq=self.seq)
            yield Observation(t, self.neighbour, frozenset(there), seq=self.seq)

    def _seen(self, tags: list[str]) -> list[str]:
        miss = self.noise.miss_probability(len(tags))
        return [uid for uid in tags if not miss or self.rng.random() >= miss]
