"""What an input to the sensed table did: the actions applied, their events, the Host's notices."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.core.game import Action, Event


@dataclass(frozen=True)
class Applied:
    """One action applied to the engine and the events it produced (journal ``action``)."""

    action: Action
    events: list[Event]


@dataclass
class Result:
    """What one input did: ``applied`` actions in order and ``notices`` for the Host."""

    applied: list[Applied] = field(default_factory=list)
    notices: list[Event] = field(default_factory=list)
    tracked: list[Event] = field(default_factory=list)
    """The tracker events behind it (filled by
    :class:`~companion.core.games.goblets.sensed.SensedSession`)."""

    @property
    def actions(self) -> list[Action]:
        """The applied actions, in order."""
        return [a.action for a in self.applied]

    @property
    def events(self) -> list[Event]:
        """Every engine event of the applied actions, in order."""
        return [e for a in self.applied for e in a.events]

    def extend(self, other: Result) -> Result:
        """Append ``other`` to this result; returns self."""
        self.applied.extend(other.applied)
        self.notices.extend(other.notices)
        self.tracked.extend(other.tracked)
        return self
