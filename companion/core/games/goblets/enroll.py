"""Enrollment: registering a physical set's tags by scanning it, one kind at a time (pure).

``companion enroll`` walks the Host through a script of :class:`Step` s: each Coaster ring alone
("Each player also receives the Coaster ring of the same color as their House"), then every token
of each kind of the rulebook's Ingredients ("52 plastic tokens: 21 Wine (red) | 15 Poison (black) |
14 Antidote (white) | 1 Unicorn Antidote (blue) | 1 Ogre Poison (green)"), all on one chosen
seat's reader. :class:`Enrollment` is fed that reader's snapshots
(:class:`~companion.core.observations.Observation`) and collects into the current step every tag
it reads steadily; the Host confirms the step (also with fewer tags than the rulebook counts: a
set may have lost or gained tokens), skips it or restarts it. The result is a
:class:`~companion.core.games.goblets.tags.TagRegistry`, the one ``companion track --registry``
reads.

Reading a stack of tags is unreliable (DESIGN.md: cheap readers "often fail at three or more"),
so a tag does not need to be read in every snapshot: it is collected once the chosen seat's
reader read it in ``share`` (and at least ``stable``) of its last ``window`` snapshots (a tag on
a neighbouring reader heard now and then by crosstalk is not), and not more often by another
seat's reader (that tag lies over there). The Host may lift the tokens and place them again in
handfuls: a step's set is the union of everything collected during it. A tag already enrolled as
something else is reported as a ``conflict`` and never re-assigned. Resuming: a registry handed
in marks its steps done (a ring step when the House's ring is registered, a token step when any
token of that kind is).

Every method returns notices, dicts with a ``"notice"`` key:

- ``{"notice": "collected", "uid", "step", "count"}``: a tag joined the current step;
- ``{"notice": "conflict", "uid", "step", "enrolled": {...}}``: read steadily, but enrolled
  already as ``enrolled`` (a tag's JSON form); not taken;
- ``{"notice": "elsewhere", "uid", "step", "seat"}``: read more often by ``seat``'s reader;
  not taken (clear the other readers);
- ``{"notice": "confirmed", "step", "count", "expected", "glimpsed"}``, ``{"notice": "skipped",
  "step"}``, ``{"notice": "restarted", "step"}``, ``{"notice": "done"}``.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.checks import is_number, whole
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.games.goblets.houses import HOUSE_IDS, HOUSES
from companion.core.games.goblets.tags import Ring, Tag, TagRegistry, TokenTag
from companion.core.games.goblets.tokens import POOL, Token
from companion.core.observations import Observation

TOKEN_NAMES: Mapping[Token, str] = {
    Token.WINE: "Wine",
    Token.POISON: "Poison",
    Token.ANTIDOTE: "Antidote",
    Token.UNICORN_ANTIDOTE: "Unicorn Antidote",
    Token.OGRE_POISON: "Ogre Poison",
}
"""Token kinds as the rulebook's Ingredients print them."""

DONE_RULE = "Every step of the enrollment is done."


@dataclass(frozen=True)
class Step:
    """One step of the script: the Coaster ring of House ``name``, or every token of kind
    ``name``; ``expected``: how many tags the rulebook's components have of it."""

    kind: str
    name: str
    expected: int

    @property
    def tag(self) -> Tag:
        """What the tags collected in this step are registered as."""
        return Ring(self.name) if self.kind == "ring" else TokenTag(Token(self.name))

    @property
    def label(self) -> str:
        """``"De Miceti coaster ring"`` or ``"Wine tokens"``."""
        if self.kind == "ring":
            return f"{HOUSES.get(self.name, self.name)} coaster ring"
        return f"{TOKEN_NAMES[Token(self.name)]} token" + ("s" if self.expected != 1 else "")

    def prompt(self, seat: int) -> str:
        """What the Host is asked to do, e.g. "place every Wine token (21) on seat 0's reader"."""
        if self.kind == "ring":
            return f"place the {self.label} alone on seat {seat}'s reader"
        if self.expected == 1:
            return f"place the {self.label} on seat {seat}'s reader"
        return f"place every {self.label[:-1]} ({self.expected}) on seat {seat}'s reader"

    def is_done_in(self, registry: TagRegistry) -> bool:
        """True when ``registry`` already holds tags of this step (a resumed enrollment)."""
        if self.kind == "ring":
            return bool(registry.rings_of(self.name))
        return any(registry.lookup(uid) == self.tag for uid in registry)


def script(houses: Sequence[str] = HOUSE_IDS) -> tuple[Step, ...]:
    """The steps: each House's Coaster ring alone, then every token kind with the pool's count.

    ``houses``: the Houses whose rings the set has (default all six, in rulebook order).
    """
    if isinstance(houses, str) or not houses:
        raise MalformedInput("must name at least one House", field="houses")
    for house in houses:
        if house not in HOUSES:
            known = ", ".join(HOUSE_IDS)
            raise MalformedInput(f"unknown House {house!r} (known: {known})", field="houses")
    if len(set(houses)) != len(houses):
        raise MalformedInput("a House is named twice", field="houses")
    rings = [Step("ring", house, 1) for house in houses]
    # Rings first: with nothing enrolled yet, a token left on the reader cannot be mistaken for a
    # ring of another House later, and a ring left behind shows up as a conflict in token steps.
    return (*rings, *(Step("token", kind.value, count) for kind, count in POOL.items()))


@dataclass(frozen=True)
class Stability:
    """When a tag counts as read steadily: in at least ``stable`` and ``share`` of the last
    ``window`` snapshots of a reader."""

    stable: int = 3
    share: float = 0.4
    window: int = 10

    def __post_init__(self) -> None:
        for name in ("stable", "window"):
            value = getattr(self, name)
            whole(value, name, f"must be at least 1, got {value!r}", low=1)
        share = self.share
        if not is_number(share) or not 0 < share <= 1:
            raise MalformedInput(f"must be in (0, 1], got {self.share!r}", field="share")
        if self.stable > self.window:
            raise MalformedInput("must not exceed the window", field="stable")

    def needed(self, snapshots: int) -> int:
        """Reads needed in the window of a reader that has made ``snapshots`` snapshots."""
        return max(self.stable, math.ceil(self.share * min(self.window, snapshots) - 1e-9))


class _Seat:
    """What one seat's reader has read during the current step: its last ``window`` snapshots."""

    def __init__(self, window: int) -> None:
        self.snapshots = 0
        self.recent: deque[frozenset[str]] = deque(maxlen=window)
        self.hits: Counter[str] = Counter()
        self.total: Counter[str] = Counter()

    def read(self, tags: frozenset[str]) -> None:
        if len(self.recent) == self.recent.maxlen:
            self.hits.subtract(self.recent[0])
        self.recent.append(tags)
        self.hits.update(tags)
        self.total.update(tags)
        self.snapshots += 1


class Enrollment:
    """The enrollment of one set on one seat's reader (see the module docstring).

    ``seat``: the reader every step uses; ``houses``: the Houses whose rings are enrolled;
    ``registry``: a partial registry to resume (it is not modified; :attr:`registry` is a copy
    that grows with every confirmed step); ``stability``: when a tag counts as read.
    """

    def __init__(
        self,
        seat: int,
        houses: Sequence[str] = HOUSE_IDS,
        registry: TagRegistry | None = None,
        stability: Stability | None = None,
    ) -> None:
        whole(seat, "seat", f"must be a seat index >= 0, got {seat!r}", low=0)
        self.seat = seat
        self.steps = script(houses)
        self.stability = stability or Stability()
        self.registry = TagRegistry.from_json((registry or TagRegistry()).to_json())
        self.resumed = tuple(s for s in self.steps if s.is_done_in(self.registry))
        self.skipped: list[Step] = []
        self.confirmed: list[Step] = []
        self.index = -1
        self._next()

    # -- where we are ------------------------------------------------------------------------

    @property
    def current(self) -> Step | None:
        """The step being scanned, or ``None`` once every step is done or skipped."""
        return self.steps[self.index] if self.index < len(self.steps) else None

    @property
    def is_done(self) -> bool:
        """True when no step is left to scan."""
        return self.current is None

    @property
    def is_complete(self) -> bool:
        """True when every step of the script has tags in the registry (none was skipped)."""
        return all(step.is_done_in(self.registry) for step in self.steps)

    @property
    def collected(self) -> frozenset[str]:
        """The tags collected in the current step so far."""
        return frozenset(self._collected)

    def glimpsed(self) -> list[str]:
        """Tags not enrolled that the chosen seat has read in this step, but not steadily and
        not less than another seat (a neighbour's heard by crosstalk are not counted; sorted)."""
        here = self._seats.get(self.seat)
        if here is None:
            return []
        taken = self._collected | self._conflicts | self._elsewhere
        return sorted(
            uid
            for uid in here.total
            if uid not in taken
            and uid not in self.registry
            and all(s.total[uid] <= here.total[uid] for s in self._seats.values())
        )

    def progress(self) -> dict[str, Any]:
        """The current step for a display: its number, label, prompt and counts."""
        step = self.current
        if step is None:
            return {"done": True, "complete": self.is_complete, "tags": len(self.registry)}
        return {
            "done": False,
            "step": self.index + 1,
            "steps": len(self.steps),
            "kind": step.kind,
            "name": step.name,
            "label": step.label,
            "prompt": step.prompt(self.seat),
            "count": len(self._collected),
            "expected": step.expected,
            "glimpsed": len(self.glimpsed()),
            "conflicts": len(self._conflicts),
        }

    # -- inputs ------------------------------------------------------------------------------

    def observe(self, obs: Observation) -> list[dict[str, Any]]:
        """One reader snapshot (any seat: other seats' readers only tell crosstalk apart)."""
        if not isinstance(obs, Observation):
            raise MalformedInput("must be an Observation", field="observation")
        step = self.current
        if step is None:
            return []
        window = self.stability.window
        self._seats.setdefault(obs.seat, _Seat(window)).read(obs.tags)
        if obs.seat != self.seat:
            return []
        here = self._seats[self.seat]
        notices: list[dict[str, Any]] = []
        for uid in sorted(obs.tags - self._collected - self._conflicts):
            if here.hits[uid] < self.stability.needed(here.snapshots):
                continue
            other = self._louder_seat(uid, here.hits[uid] / len(here.recent))
            if other is not None:
                if uid not in self._elsewhere:
                    self._elsewhere.add(uid)
                    notices.append(self._notice("elsewhere", uid=uid, seat=other))
                continue
            self._elsewhere.discard(uid)
            enrolled = self.registry.lookup(uid)
            if enrolled is not None and enrolled != step.tag:
                # Never silently re-assigned: the Host decides (the registry is theirs to edit).
                self._conflicts.add(uid)
                notices.append(self._notice("conflict", uid=uid, enrolled=enrolled.to_json()))
                continue
            self._collected.add(uid)
            notices.append(self._notice("collected", uid=uid, count=len(self._collected)))
        return notices

    def confirm(self) -> list[dict[str, Any]]:
        """The Host confirms the current step: its tags join :attr:`registry` (fewer than
        expected is allowed: a set may have lost tokens); the next step begins."""
        step = self._require_step()
        for uid in sorted(self._collected):
            self.registry.add(uid, step.tag)
        self.confirmed.append(step)
        notice = self._notice(
            "confirmed",
            count=len(self._collected),
            expected=step.expected,
            glimpsed=len(self.glimpsed()),
        )
        return [notice, *self._next()]

    def skip(self) -> list[dict[str, Any]]:
        """Leave the current step for later (nothing of it is registered)."""
        step = self._require_step()
        self.skipped.append(step)
        return [self._notice("skipped"), *self._next()]

    def restart(self) -> list[dict[str, Any]]:
        """Forget what the current step collected and scan it again."""
        self._require_step()
        self._reset()
        return [self._notice("restarted")]

    # -- inside ------------------------------------------------------------------------------

    def _require_step(self) -> Step:
        step = self.current
        if step is None:
            raise IllegalAction("the enrollment is over", rule=DONE_RULE)
        return step

    def _reset(self) -> None:
        self._seats: dict[int, _Seat] = {}
        self._collected: set[str] = set()
        self._conflicts: set[str] = set()
        self._elsewhere: set[str] = set()

    def _next(self) -> list[dict[str, Any]]:
        """Move to the next step not done in the registry."""
        self._reset()
        self.index += 1
        while self.index < len(self.steps) and self.steps[self.index].is_done_in(self.registry):
            self.index += 1
        return [{"notice": "done"}] if self.current is None else []

    def _louder_seat(self, uid: str, rate: float) -> int | None:
        """Another seat whose reader reads ``uid`` steadily and more often than ours, if any."""
        best, loudest = None, rate
        for number, seat in sorted(self._seats.items()):
            if number == self.seat or seat.hits[uid] < self.stability.needed(seat.snapshots):
                continue
            if seat.hits[uid] / len(seat.recent) > loudest:
                best, loudest = number, seat.hits[uid] / len(seat.recent)
        return best

    def _notice(self, kind: str, **data: Any) -> dict[str, Any]:
        step = self.current
        return {"notice": kind, "step": step.name if step else None, **data}
