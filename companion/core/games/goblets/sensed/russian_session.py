"""A sensed Russian Goblette session: six reader spots in a row -> tracker -> the engine (pure).

The 4-6 player :class:`~companion.core.games.goblets.sensed.SensedSession`'s pipe (snapshots ->
tracker -> table -> engine, the revealed tokens kept from the tracker until gathered up) with a
:class:`~companion.core.games.goblets.sensed.russian.GobletteTable` on the row and the drinks in
place of the one reveal. Rulebook: "After the Toast, the player to the left of the Toast Caller
"drinks" any one of the Goblets and reveals its contents [...] The next player then chooses a
Goblet, and so on, until there is only one survivor [...] or until all of the Goblets have been
chosen."

The drinks on the readers: once the Toast's final actions are over the snapshots go to a
:class:`~companion.core.games.goblets.sensed.pour_out.PourOut` on the six spots (the tracker is not
fed). The drinker lifts the chosen Goblet, pours it out flat on its own spot and sets it aside; the
first spot whose flat read settles (its Goblet's tag gone for ``settle`` seconds, its tokens
unchanged as long: ``PourOut``'s rule) is the drink of the player whose drink it is, and the drink
is recorded with what was read there. The next drinker's spot settles the same way. Without tags on
the Goblets nothing tells a standing Goblet from a poured-out one: the Host (or the drinker)
confirms the spot drunk (:meth:`GobletteSession.confirm`), as ``PourOut`` asks without rings.
When the Course ends every token read during the drinks is kept from the tracker until gathered
up, and the tracker's Goblets are emptied ("All players must discard any tokens").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.core.errors import AmbiguousObservation, MalformedInput
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.russian import GOBLETS, RussianState
from companion.core.games.goblets.russian_model import Phase
from companion.core.games.goblets.sensed.places import check_place
from companion.core.games.goblets.sensed.pour_out import CONFIRMED, SETTLED, PourOut, PourOutConfig
from companion.core.games.goblets.sensed.result import Result
from companion.core.games.goblets.sensed.russian import RULE_DRINK_SPOT, GobletteTable
from companion.core.games.goblets.sensed.session import SensedSession
from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tracking import Tracker, TrackerConfig
from companion.core.observations import Observation


def default_row(registry: TagRegistry) -> dict[int, str]:
    """The row as set out by default: the six Goblets whose tags are enrolled, in the Houses'
    order (the box's Goblets), else ``goblet1``..``goblet6``."""
    names = registry.goblets()
    if len(names) == GOBLETS:
        names = sorted(names, key=lambda n: HOUSE_IDS.index(n) if n in HOUSE_IDS else 99)
        return dict(enumerate(names))
    return {p: f"goblet{p + 1}" for p in range(GOBLETS)}


class GobletteSession(SensedSession):
    """Readers -> tracker -> :class:`GobletteTable` -> a Russian Goblette engine (module doc).

    ``state``: a Russian Goblette state; ``registry``: the enrolled tags (a ring tag under each
    Goblet's foot, if any: see ``docs/tracking.md``, "Russian Goblette"); ``layout``: spot ->
    Goblet now (default :func:`default_row`); ``config``: tracker thresholds; ``contents``: Goblet
    -> token UIDs already in it; ``pour_out``: how a drink's flat read settles. ``rng`` and the
    camera's keywords are accepted for the service's sake and unused (no deal is drawn here).
    """

    def __init__(
        self,
        state: RussianState,
        registry: TagRegistry,
        *,
        layout: Mapping[int, str] | None = None,
        config: TrackerConfig | None = None,
        contents: Mapping[str, Iterable[str]] | None = None,
        pour_out: PourOutConfig | None = None,
        **_unused: Any,
    ) -> None:
        if not isinstance(registry, TagRegistry):
            raise MalformedInput("must be a TagRegistry", field="registry")
        row = default_row(registry) if layout is None else layout
        self.table = GobletteTable(state, layout=row)  # type: ignore[assignment]
        self.tracker = Tracker(
            registry,
            GOBLETS,
            config,
            initial_layout=dict(self.table.layout),
            initial_contents=contents,
        )
        self.registry = registry
        self.pour_out_config = pour_out or PourOutConfig()
        self.reveal_apart = False
        self.pouring: PourOut | None = None
        """The drinks' reading of the row while a Course's Goblets are drunk (else None)."""
        self._now = 0.0
        self.lying_out: dict[str, float] = {}
        self.gather = None
        self.tagged = all(registry.rings_of(n) for n in self.table.layout.values())
        """Every Goblet carries a tag: a drink settles on the readers (else confirmed)."""

    @property
    def state(self) -> RussianState:  # type: ignore[override]
        """The engine state (the fold of every applied action)."""
        return self.table.state  # type: ignore[return-value]

    # -- the drinks ----------------------------------------------------------------------------

    def observe(self, obs: Observation) -> Result:
        """One spot's snapshot (to the drinks' reading while the Goblets are drunk)."""
        return super().observe(obs).extend(self._begin_drinks(obs.t))

    def advance(self, t: float) -> Result:
        """Time passes with no snapshot."""
        return super().advance(t).extend(self._begin_drinks(t))

    def end_turn(self, seat: int) -> Result:
        """``seat`` passes (its 1 single action, or its final action)."""
        return self.table.end_turn(seat).extend(self._begin_drinks(self.now))

    def _begin_drinks(self, t: float) -> Result:
        if self.pouring is not None or self.state.phase != Phase.DRINKING:
            return Result()
        table = self.table
        # Each spot's own Goblet (its tag) says whether it still stands there.
        self.pouring = PourOut(
            dict(table.layout),
            self.registry,
            rings=self.tagged,
            t=t,
            config=self.pour_out_config,
        )
        return Result(notices=[{"notice": "pour_out"}])

    def pour_out(self, t: float) -> Result:
        """The Host's "reveal": the drinks are read already once due; refused before then."""
        if self.pouring is not None:
            return Result()
        if self.state.phase != Phase.DRINKING:
            raise AmbiguousObservation(
                f"no Goblet is drunk now (phase {self.state.phase}) (rule: {RULE_DRINK_SPOT})"
            )
        return self._begin_drinks(t)

    def reveal(
        self, t: float | None = None, counts: list[Mapping[str, int]] | None = None
    ) -> Result:
        """As :meth:`pour_out`: the Goblets are revealed one drink at a time."""
        return self.pour_out(self.now if t is None else t)

    def confirm(
        self, place: int, counts: Mapping[str, int] | None = None, t: float | None = None
    ) -> Result:
        """The Goblet at spot ``place`` was drunk: ``counts`` poured out there, or as read."""
        spot = check_place(place, GOBLETS, "spot")
        if self.pouring is None:
            raise AmbiguousObservation(f"no Goblet is drunk now (rule: {RULE_DRINK_SPOT})")
        if spot in self.state.drunk:
            raise AmbiguousObservation(f"the Goblet at spot {spot} was drunk already")
        self.pouring.confirm(spot, counts)
        return self._reveal_if_poured(self.pouring.now if t is None else t)

    def _reveal_if_poured(self, t: float) -> Result:
        """Record the drink of the first spot poured out (settled, or confirmed by hand)."""
        pouring, state = self.pouring, self.state
        if pouring is None or state.phase != Phase.DRINKING:
            return Result()
        for spot in range(GOBLETS):
            if spot not in state.drunk and pouring.status(spot) in (SETTLED, CONFIRMED):
                result = self.table.drink(spot, pouring.counts(spot))  # type: ignore[attr-defined]
                if self.state.phase != Phase.DRINKING:
                    result.extend(self._end_drinks(t))
                return result
        return Result()

    def _end_drinks(self, t: float) -> Result:
        """The Course is over: the tokens read on the row are kept from the tracker until
        gathered up, and the tracker's Goblets are emptied."""
        pouring = self.pouring
        assert pouring is not None
        for uid in pouring.seen:
            self.lying_out[uid] = t
        self.pouring = None
        return Result(tracked=self.tracker.empty_goblets(t=t))

    # -- what the 4-6 player session has and this one has not ------------------------------------

    def set_out(self, t: float, tokens: Mapping[int, int | None]) -> bool:
        """Camera play is not read for Russian Goblette: never set out."""
        return False

    def apply_chance(self, action: Any) -> Result:
        """Russian Goblette has no deal; its initial pour is read from the hands."""
        raise AmbiguousObservation("Russian Goblette draws no chance the readers cannot see")
