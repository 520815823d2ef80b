"""A live physical table: Goblets, tokens and hands, read by the simulated readers during play.

:class:`HandTable` is a :class:`~companion.virtual.scenario.CourseByHand` that lasts a whole
game (and the next ones): it keeps which token (tag UID) stands behind which screen and lies in
which Goblet, empties the Goblets at the reveal (each token taken out is a ``take`` motion) and
brings the Goblets back to their Houses' places before a Course ("Each player should take the
Goblet with the Coaster ring that matches their House and place it in front of them").

Its motions are published, in time order, to a :class:`LiveScenario`: the scenario that
:class:`~companion.virtual.readers.SimulatedReaders` reads, whose ``motions`` and ``duration``
grow while it is read, so the readers report snapshots of a table that is still being played.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from companion.core.games.goblets.tags import TokenTag
from companion.core.games.goblets.tokens import Token
from companion.virtual.pour_out import gather_motions, pour_out_motions
from companion.virtual.scenario import CourseByHand, Hands, Motion


class LiveScenario:
    """What :class:`~companion.virtual.readers.SimulatedReaders` reads: the table as it stood when
    reading began (``layout`` and the tags in each Goblet) and the motions since, which grow."""

    def __init__(self, layout: Sequence[str], tags: Mapping[str, Sequence[str]], t: float) -> None:
        self.seats = len(layout)
        self.layout = tuple(layout)
        self._tags = {goblet: tuple(uids) for goblet, uids in tags.items()}
        self.motions: list[Motion] = []
        self.duration = t
        self.forget_read = True
        """The readers drop the motions they have read (a show runs all night: its motions would
        otherwise be kept for ever)."""

    def tags_of(self, goblet: str) -> tuple[str, ...]:
        """The tags in ``goblet`` when reading began (its Coaster ring and tokens)."""
        return self._tags[goblet]


class HandTable(CourseByHand):
    """The physical table of a game played by a puppeteer (see the module docstring).

    ``names``: the Goblets (named by their Coaster rings, the Houses in play, in place order);
    they start at their Houses' places, empty, with every token in the pool.
    """

    def __init__(
        self, rng: random.Random, names: Sequence[str], hands: Hands | None = None
    ) -> None:
        super().__init__(rng, len(names), True, hands or Hands(), names, 0.0)
        self.inside: dict[str, list[str]] = {name: [] for name in self.names}
        self.screens: list[list[tuple[str, Token]]] = [[] for _ in self.names]
        self.lying: dict[int, tuple[str, list[str]]] = {}
        """Seat -> (the Goblet poured out there, the tokens lying flat on its reader)."""
        self.set_down: set[int] = set()
        """Seats whose poured-out Goblet stands on its spot again (:meth:`set_back`)."""
        self.worn = {name: self.registry.rings_of(name) for name in self.names}
        """Goblet (its cup) -> the ring UIDs it wears: its own, until Coasters are exchanged."""
        self.live = self._reading()

    def _reading(self) -> LiveScenario:
        """Start reading the table as it stands now."""
        self.motions.clear()
        tags = {g: [*self.worn[g], *self.inside[g]] for g in self.names}
        return LiveScenario(self.layout, tags, self.t)

    def restore(self, layout: Sequence[str], goblets: Mapping[str, Mapping[str, int]]) -> None:
        """Set the table out as a resumed game left it, without motions: ``layout`` (the Goblet at
        each place) holding ``goblets`` (name -> token kind -> count). Reading starts afresh."""
        for name in self.names:
            self._back_to_pool(self.inside[name])
            self.inside[name] = []
            self.contents[name] = []
        self.layout = list(layout)
        for name, counts in goblets.items():
            for kind, count in counts.items():
                for _ in range(count):
                    self.inside[name].append(self.take(Token(kind)))
                    self.contents[name].append(Token(kind))
        self.live = self._reading()

    # -- screens, pours, the reveal --------------------------------------------------------------

    def deal_screens(self, screens: Sequence[Mapping[str, int]]) -> None:
        """Behind each place's screen, tokens of the kinds and counts ``screens`` says ("Each
        player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool")."""
        for place, counts in enumerate(screens):
            self._back_to_pool(uid for uid, _ in self.screens[place])
            self.screens[place] = [
                (self.take(Token(kind)), Token(kind))
                for kind, count in counts.items()
                for _ in range(count)
            ]

    def pour(self, seat: int, uid: str, kind: Token) -> None:
        """A token poured into the Goblet at ``seat``."""
        self.inside[self.layout[seat]].append(uid)
        super().pour(seat, uid, kind)

    def pour_screen(self, place: int, kind: str, seat: int) -> str:
        """A ``kind`` token from behind ``place``'s screen into the Goblet at ``seat``."""
        screen = self.screens[place]
        index = next(i for i, (_, k) in enumerate(screen) if k.value == kind)
        uid, token = screen.pop(index)
        self.pour(seat, uid, token)
        return uid

    def empty_goblets(self) -> None:
        """The reveal: every token taken out of its Goblet, back to the pool with the screens'.

        All Goblets are emptied at once, at the moment of the reveal: a Goblet whose tokens are
        gone while the readers still count them in would soon look lifted (only its ring read).
        """
        for seat, name in enumerate(self.layout):
            for uid in self.inside[name]:
                self.motions.append(Motion(round(self.t, 3), "take", name, seat, uid))
            self._back_to_pool(self.inside[name])
            self.inside[name] = []
            self.contents[name] = []
        for place, screen in enumerate(self.screens):
            self._back_to_pool(uid for uid, _ in screen)
            self.screens[place] = []

    def pour_out(self, seat: int) -> None:
        """The reveal on the readers: the Goblet at ``seat`` lifted, its tokens poured out flat
        onto the seat's reader spot, the empty Goblet set aside (see ``virtual.pour_out``)."""
        name = self.layout[seat]
        uids = self.inside[name]
        self.motions.extend(pour_out_motions(self.t, seat, name, uids))
        self.lying[seat] = (name, uids)
        self.inside[name] = []
        self.contents[name] = []

    def set_back(self, seat: int) -> None:
        """The Goblet poured out at ``seat`` set down again on its spot, its tokens left lying
        beside it (the camera's reveal areas lie apart from the spots: ``vision/README.md``)."""
        name, _ = self.lying[seat]
        self.motions.append(Motion(round(self.t, 3), "place", name, seat))
        self.set_down.add(seat)

    def gather(self) -> None:
        """After the reveal: the tokens lying out go back to the pool with the screens', and each
        Goblet is set back where it stood (unless it already stands there again)."""
        for seat, (name, uids) in sorted(self.lying.items()):
            goblet = None if seat in self.set_down else name
            self.motions.extend(gather_motions(self.t, seat, goblet, uids))
            self._back_to_pool(uids)
        self.lying = {}
        self.set_down = set()
        for place, screen in enumerate(self.screens):
            self._back_to_pool(uid for uid, _ in screen)
            self.screens[place] = []

    def _back_to_pool(self, uids) -> None:  # type: ignore[no-untyped-def]
        for uid in list(uids):
            tag = self.registry.lookup(uid)
            assert isinstance(tag, TokenTag)
            self.pool[tag.token].append(uid)

    # -- Goblets ---------------------------------------------------------------------------------

    def is_home(self) -> bool:
        """True when every Goblet stands at its House's place."""
        return list(self.layout) == list(self.names)

    def bring_one_home(self) -> None:
        """Swap one Goblet back to its House's place (by hand, as any Swap)."""
        place = next(p for p, name in enumerate(self.layout) if name != self.names[p])
        self.swap(place, self.layout.index(self.names[place]))

    def exchange_coasters(self, a: int, b: int, swap: bool = False) -> None:
        """The Goblets at places ``a`` and ``b`` exchange their Coaster rings (a Character's
        ability), each cup keeping its tokens: both rings slipped off at once, the cups swapped
        meanwhile if ``swap`` (the averted-eyes card's "Swap and/or exchange": the rings then end
        where they were), and each ring slipped onto the other cup. Each cup now belongs at the
        place of its new ring's House."""
        ga, gb = self.layout[a], self.layout[b]
        rings = {ga: self.worn[ga], gb: self.worn[gb]}
        for seat, name in ((a, ga), (b, gb)):
            for uid in rings[name]:
                self.motions.append(Motion(round(self.t, 3), "take", name, seat, uid))
        self.t += self.span(self.hands.pause)
        if swap:
            self.swap(a, b)  # the cups carried with their tokens, the rings in the other hand
        else:
            self.t += self.span(self.hands.air)
        self.worn[ga], self.worn[gb] = rings[gb], rings[ga]
        for name in (ga, gb):
            seat = self.layout.index(name)
            for uid in self.worn[name]:
                self.motions.append(Motion(round(self.t, 3), "pour", name, seat, uid))
            self.t += self.span(self.hands.pause)
        # "Each player should take the Goblet with the Coaster ring that matches their House"
        names = list(self.names)
        i, j = names.index(ga), names.index(gb)
        names[i], names[j] = names[j], names[i]
        self.names = tuple(names)

    def wait(self, seconds: float) -> None:
        """Nothing happens at the table for ``seconds``."""
        self.t += seconds

    def publish(self) -> None:
        """Hand the motions made since the last call to the readers, in time order."""
        self.live.motions.extend(sorted(self.motions, key=lambda m: m.t))
        # A live table plays for hours: keep only what the readers still need.
        self.motions.clear()
        self.moves.clear()
        self.pours = [[]]
        self.live.duration = max(self.live.duration, round(self.t, 3))
