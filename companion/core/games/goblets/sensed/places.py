"""Goblet names and places: the tracker's names for the Goblets against the engine's places.

The tracker names a Goblet by its Coaster ring (a registry name) and a place by its reader; the
engine numbers its Goblets and names each by the place where it stands now. One reader stands
under each place, so a tracker seat is an engine place. :class:`GobletNames` binds each tracker
name to one engine Goblet:

- with Coaster rings, by House: "Each player also receives the Coaster ring of the same color as
  their House" — ``ring_houses`` says which House each ring belongs to (by default a ring is
  named by its House, as the virtual table and the rulebook do);
- with Raise Your Memory ("remove the Coaster rings from the Goblets"), by where the Goblets stand
  when the Course starts (:meth:`GobletNames.bind_layout`).

:func:`layout_change` names the change between two layouts as a Rotate, one Swap, or the Swaps
that make it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.core.checks import whole
from companion.core.errors import MalformedInput

if TYPE_CHECKING:
    from companion.core.games.goblets.state import GobletsState

Layout = dict[int, str]
"""Place -> Goblet name (one Goblet at each place)."""


class GobletNames:
    """Tracker Goblet names <-> the engine's Goblet numbers (see the module docstring)."""

    def __init__(self, state: GobletsState, ring_houses: Mapping[str, str] | None = None) -> None:
        self.rings = not state.opts.raise_your_memory
        self._index: dict[str, int] = {}
        self._name: dict[int, str] = {}
        if not self.rings:
            if ring_houses:
                raise MalformedInput(
                    "Raise Your Memory plays without Coaster rings", field="ring_houses"
                )
            return
        houses = list(state.ring_of)
        mapping = dict(ring_houses) if ring_houses else {h: h for h in houses if h is not None}
        for name, house in mapping.items():
            if not isinstance(name, str) or not name or house not in houses:
                raise MalformedInput(
                    f"ring {name!r} must belong to a House in play ({houses}), got {house!r}",
                    field=f"ring_houses.{name}",
                )
            index = houses.index(house)
            if index in self._name:
                raise MalformedInput(f"two rings of House {house!r}", field=f"ring_houses.{name}")
            self._index[name] = index
            self._name[index] = name
        missing = [h for i, h in enumerate(houses) if i not in self._name]
        if missing:
            raise MalformedInput(f"no ring for the Houses {missing}", field="ring_houses")

    @property
    def is_bound(self) -> bool:
        """True once every engine Goblet has a tracker name."""
        return bool(self._name)

    def bind_layout(self, state: GobletsState, layout: Mapping[int, str]) -> None:
        """Raise Your Memory: the Goblet standing at each place is the engine's Goblet there."""
        if self.rings:
            return
        self._index = {}
        self._name = {}
        for place, name in layout.items():
            index = state.goblet_at[place]
            self._index[name] = index
            self._name[index] = name

    def index(self, name: str) -> int | None:
        """The engine's number of the Goblet named ``name`` (None for a name it does not know)."""
        return self._index.get(name)

    def name(self, index: int) -> str:
        """The tracker's name of engine Goblet ``index``."""
        return self._name[index]

    def engine_layout(self, state: GobletsState) -> Layout:
        """Where the engine believes each Goblet stands, in tracker names."""
        return {place: self._name[index] for place, index in enumerate(state.goblet_at)}

    def place_of(self, state: GobletsState, name: str) -> int | None:
        """The place where the engine believes the Goblet ``name`` stands."""
        index = self._index.get(name)
        return None if index is None else state.goblet_at.index(index)


def parse_layout(seats: Any, places: int, field: str = "seats") -> Layout:
    """``{"0": NAME, ...}`` (a tracker ``layout``/``fixed`` event) as a :data:`Layout`."""
    if not isinstance(seats, Mapping):
        raise MalformedInput(f"must be an object of seat -> goblet, got {seats!r}", field=field)
    layout: Layout = {}
    for key, name in seats.items():
        try:
            place = int(key)
        except (TypeError, ValueError):
            raise MalformedInput(f"not a seat: {key!r}", field=field) from None
        if not 0 <= place < places or not isinstance(name, str):
            raise MalformedInput(f"bad seat {key!r} -> {name!r}", field=f"{field}.{key}")
        layout[place] = name
    return layout


def is_complete(layout: Mapping[int, str], places: int) -> bool:
    """One Goblet at every place, no Goblet at two."""
    return set(layout) == set(range(places)) and len(set(layout.values())) == places


def layout_change(before: Layout, after: Layout) -> list[dict[str, Any]]:
    """The change from ``before`` to ``after`` (both complete, the same Goblets).

    ``[]`` when nothing moved; ``[{"rotate": "clockwise" | "widdershins"}]`` when every Goblet
    moved one place the same way (Rotate: "Move all of the Goblets one place in the same
    direction"; clockwise is place i -> i+1); else the Swaps ``[{"swap": (a, b)}, ...]`` that,
    done in order, turn ``before`` into ``after`` (one Swap when two Goblets exchanged places).
    """
    n = len(before)
    if before == after:
        return []
    if n > 2:
        for shift, direction in ((1, "clockwise"), (-1, "widdershins")):
            if all(after[(p + shift) % n] == before[p] for p in range(n)):
                return [{"rotate": direction}]
    current = dict(before)
    swaps: list[dict[str, Any]] = []
    for place in range(n):
        wanted = after[place]
        if current[place] == wanted:
            continue
        other = next(q for q in range(n) if current[q] == wanted)
        current[place], current[other] = current[other], current[place]
        swaps.append({"swap": (place, other)})
    return swaps


def follow(
    layout: Layout, event: Mapping[str, Any], places: int, moves: list[dict[str, Any]]
) -> Layout | None:
    """The layout after the tracker's ``rotate``/``swap``/``move``/``layout`` event.

    ``move`` events come one per Goblet that changed place: they are kept in ``moves`` until
    the layout they make is complete (``None`` until then). Bad events raise MalformedInput.
    """
    kind = event["event"]
    new = dict(layout)
    if kind == "rotate":
        step = {"clockwise": 1, "widdershins": -1}.get(event.get("direction"))
        if step is None:
            raise MalformedInput(f"unknown direction {event.get('direction')!r}", field="direction")
        return {(p + step) % places: n for p, n in layout.items()}
    if kind == "swap":
        seats = event.get("seats")
        if not isinstance(seats, list | tuple) or len(seats) != 2:
            raise MalformedInput(f"must be two seats, got {seats!r}", field="seats")
        a, b = (check_place(s, places, "seats") for s in seats)
        new[a], new[b] = new[b], new[a]
        return new
    if kind == "move":
        if event.get("goblet") not in layout.values():
            raise MalformedInput(f"unknown Goblet {event.get('goblet')!r}", field="goblet")
        check_place(event.get("to"), places, "to")
        moves.append(dict(event))
        for move in moves:
            new[move["to"]] = move["goblet"]
        if not is_complete(new, places):
            return None  # the other Goblets of this change are still to come
        moves.clear()
        return new
    new = parse_layout(event.get("seats"), places)
    if not is_complete(new, places):
        raise MalformedInput("must name one Goblet at each place", field="seats")
    return new


def check_place(place: Any, places: int, field: str) -> int:
    """``place`` as a place index, or MalformedInput naming ``field``."""
    message = f"must be a place from 0 to {places - 1}, got {place!r}"
    return whole(place, field, message, low=0, high=places - 1)
