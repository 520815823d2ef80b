"""Who sits where: one place per player, or Noble and Winetaster pairs (7 to 12 players).

A *place* is what the 4-6 player game calls a player: one screen (House), one Goblet in front of
it, one Target. In the Winetasters variant "Each pair is considered a single 'player'": a place is
a pair, and "With an odd number of players, the 'extra' player participates as a regular player".

"The Noble sits to the left of their Winetaster." and "After each Course, each player who was a
Noble will play as the Winetaster for the player to their left in the next Course. [...] the
'extra' player will play as the Noble with the player to their right, while the player to their
left will be the new 'extra' player." Both rules are one rotation: in Course ``c`` (0-based) the
seats, read clockwise from seat ``c``, pair up as (Winetaster, Noble), the last odd seat out being
the extra player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Place:
    """Who sits at one place this Course: its seats, and for a pair which is the Winetaster and
    which the Noble (both None for a single player). Never changed: roles move with the Course
    (:func:`layout` makes new places), so a clone shares it."""

    seats: tuple[int, ...]
    winetaster: int | None = None
    noble: int | None = None

    @property
    def lead(self) -> int:
        """The seat that speaks for the place: the Noble of a pair, else the single player."""
        return self.noble if self.noble is not None else self.seats[0]

    @property
    def hands(self) -> int:
        """The seat whose hands move the Goblets here: the single player, or a pair's Winetaster
        ("the Winetaster always plays before the Noble, unless the Noble TOASTS"; "The Noble
        cannot PEEK")."""
        return self.winetaster if self.winetaster is not None else self.seats[0]

    def wire(self) -> dict[str, Any]:
        """The place as the views have always shown it: ``seats`` (a list), ``winetaster``,
        ``noble``."""
        return {"seats": list(self.seats), "winetaster": self.winetaster, "noble": self.noble}


def layout(players: int, winetasters: bool, course_index: int) -> list[Place]:
    """The places, clockwise, for Course ``course_index`` (0-based)."""
    if not winetasters:
        return [Place((seat,)) for seat in range(players)]
    order = [(course_index + j) % players for j in range(players)]
    places: list[Place] = []
    for k in range(players // 2):
        taster, noble = order[2 * k], order[2 * k + 1]
        places.append(Place((taster, noble), winetaster=taster, noble=noble))
    if players % 2:
        places.append(Place((order[-1],)))
    return places


def traitor_vp(noble_poisoned: bool) -> int:
    """ "A Traitor Winetaster, instead, will get 3 VPs if their Noble is poisoned, or 0 VPs"."""
    return 3 if noble_poisoned else 0
