"""Two sensors on one table: the readers' and the camera's layouts and reveals compared (pure).

With reader nodes and an overhead camera both at the table, each keeps its own
:class:`~companion.core.games.goblets.tracking.Tracker` (``vision/README.md``, "Feeding the
tracker": a seat's snapshot is everything one source sees there, so two sources in one tracker would
make each look like the other's missed reads). The readers drive the game; the camera is a witness.

- :class:`LayoutFusion` compares the two trackers' believed layouts (which Goblet stands at which
  seat). Agreement is nothing. A disagreement is a conflict only once the same disagreement has
  held for ``grace`` seconds (:class:`FusionConfig`): the two trackers settle a move at different
  moments, and a Goblet in mid-move is no conflict. A camera that sees nothing (covered, no
  frames, a refused frame) has no layout to compare: no disagreement, and a disagreement seen
  again after a blind spell must hold its whole grace again. The Host settles a conflict
  by naming the source that is right (:meth:`LayoutFusion.settle`); the same disagreement is not
  raised again while it lasts (the wrong source would only repeat itself).
- :class:`FusedPourOut` is the readers' reveal
(:class:`~companion.core.games.goblets.sensed.pour_out.PourOut`)
  with the camera's count of each seat as a witness: a seat settles only when the two counts
  agree; when they differ the seat waits for the Host (:data:`DIFFERS`), never silently one of
  them. A seat the camera has not read lately (its reveal area covered) is settled on the readers
  alone, as a blind camera is no disagreement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.checks import is_number, whole
from companion.core.errors import AmbiguousObservation, MalformedInput
from companion.core.games.goblets.sensed.pour_out import SETTLED, SETTLING, PourOut

READERS = "readers"
CAMERA = "camera"
SOURCES = (READERS, CAMERA)
"""The two sources the Host chooses between."""
DIFFERS = "differs"
"""A poured-out seat whose readers' and camera's settled counts differ: the Host picks one."""

Layout = Mapping[int, str]
_Key = tuple[tuple[tuple[int, str], ...], tuple[tuple[int, str], ...]]


@dataclass(frozen=True)
class FusionConfig:
    """How the two sources are compared.

    - ``grace`` (3.0 s): a disagreement must hold this long before the Host is asked. The readers'
      tracker believes a new layout about ``settle`` + ``window`` (1.5 s) after the Goblets are
      set down, the camera's at its own frame rate a little later or earlier; a hand carrying a
      Goblet across the table takes a second or two. Three seconds covers both without keeping a
      real disagreement from the Host for long.
    """

    grace: float = 3.0

    def __post_init__(self) -> None:
        value = self.grace
        if not is_number(value) or value <= 0:
            raise MalformedInput(f"must be a positive number, got {value!r}", field="grace")


def differing(readers: Layout | None, camera: Layout | None) -> list[int]:
    """The seats at which the two layouts name different Goblets, in seat order.

    Either layout ``None`` (not read yet, or the camera sees nothing) is no disagreement: ``[]``.
    A seat only one of them names is a difference (the other has a Goblet elsewhere).
    """
    if readers is None or camera is None:
        return []
    seats = sorted(set(readers) | set(camera))
    return [s for s in seats if readers.get(s) != camera.get(s)]


def _key(readers: Layout, camera: Layout) -> _Key:
    return tuple(sorted(readers.items())), tuple(sorted(camera.items()))


def _named(layout: Layout) -> dict[str, str]:
    return {str(s): name for s, name in sorted(layout.items())}


class LayoutFusion:
    """The readers' and the camera's layouts compared over time (see the module docstring)."""

    def __init__(self, config: FusionConfig | None = None) -> None:
        self.config = config or FusionConfig()
        self.conflict: dict[str, Any] | None = None
        """The open conflict: ``{"seats", "readers", "camera", "since"}`` (layouts with string
        seats), shown to the Host until settled or until the two agree again."""
        self._pending: tuple[_Key, float] | None = None
        self._ruled: set[_Key] = set()

    def compare(self, t: float, readers: Layout | None, camera: Layout | None) -> list[dict]:
        """Compare the two believed layouts at time ``t`` (seconds); returns notices:
        ``{"notice": "disagreement", ...the conflict}`` once a disagreement has held for
        ``grace``, ``{"notice": "agreement"}`` when an open conflict's sources agree again."""
        if readers is None or camera is None:
            # Nothing to compare: a blind spell ends no conflict, and a disagreement seen again
            # after it must hold its whole grace again (it was not seen to hold meanwhile).
            self._pending = None
            return []
        seats = differing(readers, camera)
        if not seats:
            self._pending = None
            self._ruled.clear()  # the table agrees again: an old ruling says nothing any more
            if self.conflict is not None:
                self.conflict = None
                return [{"notice": "agreement"}]
            return []
        key = _key(readers, camera)
        if key in self._ruled:
            self._pending = None
            return []
        if self._pending is None or self._pending[0] != key:
            self._pending = (key, t)  # a new disagreement: its grace starts now
        since = self._pending[1]
        conflict = {
            "seats": seats,
            "readers": _named(readers),
            "camera": _named(camera),
            "since": since,
        }
        if self.conflict is not None:
            self.conflict = conflict  # still open: the Host sees what each source reads now
            return []
        if t - since < self.config.grace:
            return []
        self.conflict = conflict
        return [{"notice": "disagreement", **conflict}]

    def settle(self, source: Any) -> dict[int, str]:
        """The Host says ``source`` ("readers" or "camera") is right; returns its layout (place ->
        Goblet), the one the game goes on with. This disagreement is not raised again."""
        if source not in SOURCES:
            raise MalformedInput(f"must be one of {', '.join(SOURCES)}", field="source")
        conflict = self.conflict
        if conflict is None:
            raise AmbiguousObservation("the readers and the camera agree: nothing to settle")
        readers = {int(s): n for s, n in conflict["readers"].items()}
        camera = {int(s): n for s, n in conflict["camera"].items()}
        self._ruled.add(_key(readers, camera))
        self._pending = None
        self.conflict = None
        return readers if source == READERS else camera

    def ruled(self, readers: Layout, camera: Layout) -> None:
        """Remember that the Host already settled this disagreement (after a restart)."""
        self._ruled.add(_key(readers, camera))

    def rulings(self) -> list[dict[str, dict[str, str]]]:
        """The disagreements the Host settled that still last: ``[{"readers": {seat: Goblet},
        "camera": {...}}]`` (string seats, sorted), to keep across a restart."""
        return [
            {"readers": {str(s): n for s, n in r}, "camera": {str(s): n for s, n in c}}
            for r, c in sorted(self._ruled)
        ]


class FusedPourOut(PourOut):
    """The readers' pour-out with the camera's own as a witness (see the module docstring).

    Made with :meth:`joined` from the readers' :class:`PourOut` as the session began it and a
    :class:`PourOut` of the camera's reveal areas (``apart``, no rings) on the same places.
    """

    witness: PourOut

    @classmethod
    def joined(cls, readers: PourOut, witness: PourOut) -> FusedPourOut:
        """``readers`` (not read yet) judged with ``witness``'s counts."""
        if witness.places != readers.places:
            raise MalformedInput("the camera reads another number of places", field="places")
        fused = cls.__new__(cls)
        fused.__dict__.update(vars(readers))
        fused.witness = witness
        return fused

    def witness_counts(self, place: int) -> dict[str, int] | None:
        """The camera's count at ``place`` (None: not read for ``settle`` seconds, or never)."""
        seat = self.witness.seats[place]
        now = max(self.now, self.witness.now)
        if not seat.reads or now - seat.reads[-1][0] > self.config.settle:
            return None
        return self.witness.counts(place)

    def status(self, place: int) -> str:
        """As :meth:`PourOut.status`, and a settled seat is held until the camera's settled
        count agrees (:data:`SETTLING` while it settles, :data:`DIFFERS` when it differs)."""
        own = super().status(place)
        if own != SETTLED:
            return own
        seen = self.witness_counts(place)
        if seen is None:
            return SETTLED  # the camera does not see this seat: no disagreement
        if self.witness.status(place) != SETTLED:
            return SETTLING
        return SETTLED if seen == self.counts(place) else DIFFERS

    def differences(self) -> list[dict[str, Any]]:
        """Each seat whose counts differ: ``{"place", "readers": {kind: n}, "camera": {...}}``.
        These are the poured-out contents: show them only while the reveal is under way."""
        out = []
        for place in range(self.places):
            if self.status(place) == DIFFERS:
                camera = self.witness_counts(place)
                out.append({"place": place, "readers": self.counts(place), "camera": camera})
        return out

    def pick(self, place: int, source: Any) -> dict[str, int]:
        """The Host takes ``source``'s count at ``place`` (a differing seat); returns it."""
        if source not in SOURCES:
            raise MalformedInput(f"must be one of {', '.join(SOURCES)}", field="source")
        message = f"must be a place 0-{self.places - 1}, got {place!r}"
        whole(place, "place", message, low=0, high=self.places - 1)
        if self.status(place) != DIFFERS:
            raise AmbiguousObservation(f"place {place}: the readers and the camera agree")
        counts = self.counts(place) if source == READERS else self.witness_counts(place)
        assert counts is not None  # a differing seat has both counts
        self.confirm(place, counts)
        return counts
