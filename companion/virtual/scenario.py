"""A whole Course of Raise Your Goblets played by hand, as timed motions, with its ground truth.

``Scenario.generate(rng, seats)`` plays one Course at random: the Goblets start on their Houses'
seats ("Each player should take the Goblet with the Coaster ring that matches their House and place
it in front of them"), the Host pours one token into each ("Take 1 Antidote and 2 Poison tokens,
plus enough Wine tokens so that the total number of tokens is equal to the number of Goblets"), then
the players take turns clockwise from the Host's left, each performing one or two actions: Pour
(a token from behind their screen into any Goblet), Peek (lift Your Goblet and put it back), Rotate
(either way), Swap (Your Goblet with another player's), or Pass.

The motions are what hands do, not what the rules say: a rotation is done goblet by goblet in one
of three styles (a chain where each Goblet is set down beside the next before that one is lifted,
holding one Goblet while the others shift, or all slid at once), a swap with both Goblets in the air
or one set down beside the other first; every Goblet spends time in the air. :class:`Hands` holds
the timings; ``HANDS["hurried"]`` is faster and sloppier than the tracker's bar.

The ground truth (:meth:`Scenario.truth`) is the moves in order (``rotate``, ``swap``, ``lift`` for
a Peek), the pours into each Goblet between two moves, and the final table, in the form
:func:`companion.virtual.summary.summarize` makes of the tracker's events.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.core.games.goblets.tags import Ring, TagRegistry, TokenTag
from companion.core.games.goblets.tokens import COURSE_SUPPLY, POOL, Token
from companion.virtual.summary import Summary

HOUSE_GOBLETS: tuple[str, ...] = (
    "de_miceti",
    "mctoadery",
    "aconitiers",
    "wespendorf",
    "van_visser",
    "araneros",
)
"""The Goblets named by the House whose Coaster ring they carry, in the rulebook's order."""


@dataclass(frozen=True)
class Motion:
    """One thing a hand does at time ``t``: ``lift``/``place`` a Goblet at a seat, ``pour`` a
    token (``uid``) into it, or ``take`` one out of it (the reveal empties the Goblets)."""

    t: float
    kind: str
    goblet: str
    seat: int | None = None
    uid: str | None = None


@dataclass(frozen=True)
class Hands:
    """How fast and how sloppily the table is handled (ranges of seconds, drawn uniformly).

    ``gap``: between two actions; ``air``: a Goblet in the air while moved; ``peek``: a Goblet
    held up for a Peek; ``overlap``: a Goblet set down beside another before that one is lifted;
    ``pause``: between two hand motions; ``initial``: between two initial pours; ``start`` and
    ``end``: a quiet table before the initial pour and after the last action.
    """

    gap: tuple[float, float] = (1.0, 3.0)
    air: tuple[float, float] = (0.3, 1.2)
    peek: tuple[float, float] = (1.2, 3.0)
    overlap: tuple[float, float] = (0.0, 0.4)
    pause: tuple[float, float] = (0.05, 0.3)
    initial: tuple[float, float] = (0.2, 0.6)
    start: float = 1.0
    end: float = 2.0


HANDS: dict[str, Hands] = {
    "calm": Hands(),
    "hurried": Hands(
        gap=(0.8, 2.0), air=(0.15, 0.9), peek=(1.05, 2.5), overlap=(0.0, 0.7), pause=(0.0, 0.2)
    ),
}
"""Named hand timings: ``calm`` (the tracker's bar) and ``hurried`` (harder than the bar)."""

ACTIONS: tuple[tuple[str, float], ...] = (
    ("pour", 0.45),
    ("peek", 0.13),
    ("rotate", 0.16),
    ("swap", 0.16),
    ("pass", 0.10),
)
"""The actions of the Main Course and how often a simulated player picks each."""


@dataclass(frozen=True)
class Scenario:
    """One Course: the table, its tags, the timed motions and the ground truth."""

    seats: int
    layout: tuple[str, ...]
    registry: TagRegistry
    rings: bool
    motions: tuple[Motion, ...]
    moves: tuple[dict, ...]
    pours: tuple[tuple[tuple[str, str], ...], ...]
    final: dict
    duration: float

    def initial_layout(self) -> dict[int, str]:
        """Seat -> Goblet at the start of the Course."""
        return dict(enumerate(self.layout))

    def truth(self) -> Summary:
        """The ground truth, comparable with :func:`companion.virtual.summary.summarize`."""
        return Summary(moves=self.moves, pours=self.pours, final=self.final)

    def tags_of(self, goblet: str) -> tuple[str, ...]:
        """The Coaster ring UIDs of ``goblet`` (none in Raise Your Memory)."""
        return tuple(self.registry.rings_of(goblet)) if self.rings else ()

    @staticmethod
    def generate(
        rng: random.Random,
        seats: int,
        *,
        actions: tuple[int, int] = (14, 24),
        rings: bool = True,
        hands: Hands | None = None,
        names: Sequence[str] | None = None,
        specials: float = 0.1,
    ) -> Scenario:
        """Play one Course at random at ``seats`` seats (2 or more).

        ``actions``: how many actions (a range); ``rings=False`` plays Raise Your Memory (no
        Coaster rings); ``specials``: the chance that a Pour is of the Unicorn Antidote or Ogre
        Poison while still in the pool (the rulebook leaves who pours them to the Characters).
        """
        return CourseByHand(rng, seats, rings, hands or Hands(), names, specials).play(actions)


class CourseByHand:
    """The table while a Course is played by hand: its tags, the Goblets' places, the timed motions.

    :meth:`play` plays a random Course (what :meth:`Scenario.generate` returns); a caller that
    chooses the actions itself (the legal puppeteer, :mod:`companion.virtual.puppet`) uses the
    hand motions directly: :meth:`pour`, :meth:`peek`, :meth:`rotate` (``step`` 1 is clockwise),
    :meth:`swap`, with ``t`` the time of the next motion and :meth:`span` a random duration.
    """

    def __init__(
        self,
        rng: random.Random,
        seats: int,
        rings: bool,
        hands: Hands,
        names: Sequence[str] | None,
        specials: float,
    ) -> None:
        if seats < 2:
            raise ValueError("a table needs at least 2 seats")
        self.rng = rng
        self.n = seats
        self.rings = rings
        self.hands = hands
        self.specials = specials
        if names is None:
            names = HOUSE_GOBLETS if seats <= 6 else [f"goblet{i}" for i in range(seats)]
        self.names = tuple(names[:seats])
        self.layout = list(self.names)
        self.registry = TagRegistry()
        self.used: set[str] = set()
        if rings:
            for name in self.names:
                self.registry.add(self.uid(), Ring(name))
        self.pool: dict[Token, list[str]] = {}
        for kind, count in POOL.items():
            self.pool[kind] = [self.uid() for _ in range(count)]
            for uid in self.pool[kind]:
                self.registry.add(uid, TokenTag(kind))
        self.motions: list[Motion] = []
        self.moves: list[dict] = []
        self.pours: list[list[tuple[str, str]]] = [[]]
        self.contents: dict[str, list[Token]] = {name: [] for name in self.names}
        self.t = hands.start

    def uid(self) -> str:
        """A fresh 7-byte UID, as NTAG stickers have."""
        while True:
            uid = f"04{self.rng.getrandbits(48):012X}"
            if uid not in self.used:
                self.used.add(uid)
                return uid

    def span(self, bounds: tuple[float, float]) -> float:
        """A random duration within ``bounds`` (seconds)."""
        return self.rng.uniform(*bounds)

    def take(self, kind: Token) -> str:
        """A token of ``kind`` from the pool (a fresh one if a large table emptied it)."""
        if not self.pool[kind]:
            uid = self.uid()
            self.registry.add(uid, TokenTag(kind))
            return uid
        return self.pool[kind].pop()

    def pour(self, seat: int, uid: str, kind: Token) -> None:
        """Pour the token ``uid`` of ``kind`` into the Goblet at ``seat``, now."""
        goblet = self.layout[seat]
        self.motions.append(Motion(round(self.t, 3), "pour", goblet, seat, uid))
        self.contents[goblet].append(kind)
        self.pours[-1].append((goblet, kind.value))

    def lift(self, seat: int, goblet: str) -> None:
        """Lift ``goblet`` off ``seat``, now."""
        self.motions.append(Motion(round(self.t, 3), "lift", goblet, seat))

    def place(self, seat: int, goblet: str) -> None:
        """Set ``goblet`` down on ``seat``, now."""
        self.motions.append(Motion(round(self.t, 3), "place", goblet, seat))

    def moved(self, move: dict) -> None:
        """Note a move of the ground truth (a new stretch of pours begins)."""
        self.moves.append(move)
        self.pours.append([])

    def play(self, actions: tuple[int, int]) -> Scenario:
        """Play a whole random Course of ``actions`` (a range) actions: the Scenario."""
        n = self.n
        # Appetizers: "1 Antidote and 2 Poison tokens, plus enough Wine tokens so that the total
        # number of tokens is equal to the number of Goblets", poured one into each at random.
        initial = [Token.ANTIDOTE, Token.POISON, Token.POISON, *[Token.WINE] * max(0, n - 3)][:n]
        self.rng.shuffle(initial)
        for seat in self.rng.sample(range(n), n):
            kind = initial[seat]
            self.pour(seat, self.take(kind), kind)
            self.t += self.span(self.hands.initial)
        # "Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool".
        screens = [
            [(self.take(kind), kind) for kind, count in COURSE_SUPPLY.items() for _ in range(count)]
            for _ in range(n)
        ]
        host = self.rng.randrange(n)
        player = (host + 1) % n
        remaining = self.rng.randint(*actions)
        while remaining > 0:
            for _ in range(self.rng.choice((1, 2, 2))):
                self.t += self.span(self.hands.gap)
                self.act(player, screens[player])
                remaining -= 1
            player = (player + 1) % n
        self.t += self.hands.end
        final = {
            "seats": {str(s): g for s, g in enumerate(self.layout)},
            "goblets": {g: _counts(self.contents[g]) for g in sorted(self.contents)},
        }
        return Scenario(
            seats=n,
            layout=self.names,
            registry=self.registry,
            rings=self.rings,
            motions=tuple(sorted(self.motions, key=lambda m: m.t)),
            moves=tuple(self.moves),
            pours=tuple(tuple(sorted(segment)) for segment in self.pours),
            final=final,
            duration=round(self.t, 3),
        )

    def act(self, player: int, screen: list[tuple[str, Token]]) -> None:
        """One random action of ``player`` (``screen``: the tokens behind their screen)."""
        kinds, weights = zip(*ACTIONS, strict=True)
        action = self.rng.choices(kinds, weights)[0]
        if action == "pour" and screen:
            self.pour_from(screen)
        elif action == "peek":
            self.peek(player)
        elif action == "rotate":
            self.rotate(self.rng.choice((1, -1)))
        elif action == "swap":
            other = self.rng.choice([s for s in range(self.n) if s != player])
            self.swap(player, other)

    def peek(self, seat: int) -> None:
        """Peek: the Goblet at ``seat`` lifted, looked into and put back."""
        goblet = self.layout[seat]
        self.lift(seat, goblet)
        self.t += self.span(self.hands.peek)
        self.place(seat, goblet)
        self.moved({"event": "lift", "goblet": goblet, "seat": seat})

    def pour_from(self, screen: list[tuple[str, Token]]) -> None:
        """Pour a random token from ``screen`` (now and then a special one from the pool)."""
        specials = [k for k in (Token.UNICORN_ANTIDOTE, Token.OGRE_POISON) if self.pool[k]]
        if specials and self.rng.random() < self.specials:
            kind = self.rng.choice(specials)
            uid = self.take(kind)
        else:
            uid, kind = screen.pop(self.rng.randrange(len(screen)))
        self.pour(self.rng.randrange(self.n), uid, kind)

    def rotate(self, step: int) -> None:
        """Rotate by hand, Goblet by Goblet: ``step`` 1 is clockwise (seat i to i+1), -1 back."""
        n, hands, old = self.n, self.hands, list(self.layout)
        start = self.rng.randrange(n)
        style = self.rng.choice(("chain", "hold", "slide"))
        if style == "chain":
            # Each Goblet is set down beside the next one before that one is lifted.
            carry = old[start]
            self.lift(start, carry)
            for i in range(1, n):
                seat = (start + i * step) % n
                self.t += self.span(hands.air)
                self.place(seat, carry)
                self.t += self.span(hands.overlap)
                carry = old[seat]
                self.lift(seat, carry)
            self.t += self.span(hands.air)
            self.place(start, carry)
        elif style == "hold":
            # One Goblet held up while the others shift, one at a time, into the gap.
            self.lift(start, old[start])
            for i in range(1, n):
                src = (start - i * step) % n
                self.t += self.span(hands.pause)
                self.lift(src, old[src])
                self.t += self.span(hands.air)
                self.place((src + step) % n, old[src])
            self.t += self.span(hands.pause)
            self.place((start + step) % n, old[start])
        else:
            # Every Goblet slid at once, each lifted and set down at its own moment.
            t0, end = self.t, self.t
            for seat in range(n):
                self.t = t0 + self.span((0.0, 0.3))
                self.lift(seat, old[seat])
                self.t += self.span(hands.air)
                self.place((seat + step) % n, old[seat])
                end = max(end, self.t)
            self.t = end
        self.layout = [old[(s - step) % n] for s in range(n)]
        direction = "clockwise" if step == 1 else "widdershins"
        self.moved({"event": "rotate", "direction": direction})

    def swap(self, a: int, b: int) -> None:
        """Swap the Goblets at seats ``a`` and ``b`` by hand (the one at ``a`` lifted first)."""
        hands, ga, gb = self.hands, self.layout[a], self.layout[b]
        if self.rng.random() < 0.5:
            self.lift(a, ga)
            self.t += self.span(hands.pause)
            self.lift(b, gb)
            self.t += self.span(hands.air)
            self.place(b, ga)
            self.t += self.span(hands.pause)
            self.place(a, gb)
        else:
            # Your Goblet set down beside theirs, then theirs carried to your seat.
            self.lift(a, ga)
            self.t += self.span(hands.air)
            self.place(b, ga)
            self.t += self.span(hands.overlap)
            self.lift(b, gb)
            self.t += self.span(hands.air)
            self.place(a, gb)
        self.layout[a], self.layout[b] = gb, ga
        self.moved({"event": "swap", "seats": sorted((a, b))})


_Course = CourseByHand
"""The former private name (kept for callers that subclass it)."""


def _counts(kinds: Sequence[Token]) -> dict[str, int]:
    """Token kind -> count in the rulebook's order, kinds absent left out."""
    return {t.value: kinds.count(t) for t in Token if t in kinds}
