"""The state of a 4-12 player game of Raise Your Goblets: the model behind the GameState door.

The state is the fold of its actions (DESIGN.md principle 5): :meth:`GobletsState.apply` is the
only mutator, and it works on a copy that replaces the state only when the action succeeded, so a
refused action leaves the state exactly as it was. The data and its queries are the model's
(:mod:`model`), the rules the engine's (:mod:`engine`, over the rules' chapters), what each viewer
may see the views' (:mod:`views`): this module only joins them into the one interface of
:class:`~companion.core.game.GameState`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.core.errors import IllegalAction
from companion.core.game import HOST, Action, Event, GameState, Mode, Viewer
from companion.core.games.goblets import door, engine, rules, setup, views, vocabulary
from companion.core.games.goblets.model import CHANCE_PHASES, GobletsModel, Phase
from companion.core.games.goblets.options import Options

__all__ = ["CHANCE_PHASES", "GobletsState"]


class GobletsState(GobletsModel, GameState):
    """A game of Raise Your Goblets for 4 to 12 players (Russian Goblette has its own state)."""

    SECRET_FIELDS = views.SECRET_FIELDS

    def __init__(self, opts: Options) -> None:
        super().__init__(opts)
        if not opts.characters:
            setup.start_course(self)

    # -- the interface ---------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move (empty at chance nodes and at the end)."""
        return engine.legal(self)

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw the chance outcome of the current chance phase with ``rng``."""
        return engine.sample_chance(self, rng)

    def apply(self, action: Action, mode: Mode = Mode.ENFORCING) -> list[Event]:
        """Apply ``action``; on any error the state is left exactly as it was.

        Its shape is checked first, at the door (:func:`door.parse`: MalformedInput naming the
        field), then the phase and the rules (:mod:`engine`)."""
        if isinstance(action, Mapping):
            vocabulary.refuse_old(action)  # an old journal is upgraded when it is read
        value = door.parse(self, action, mode)
        if self.phase == Phase.OVER:
            raise IllegalAction("the game is over", rule=rules.GAME_OVER)
        trial = self.clone()
        events = engine.apply(trial, value, mode)
        self.__dict__.update(trial.__dict__)
        return events

    def is_over(self) -> bool:
        """True once the last Course (and any tie-break) is over."""
        return self.phase == Phase.OVER

    def outcome(self) -> dict[str, Any]:
        """Final VP per seat and the winners (seats)."""
        return {"vp": list(self.vp), "winners": list(self.winners or [])}

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see (see :mod:`views`); the Host's view also lists the actions it
        may enter by hand now (``entries``: :func:`views.host_entries`)."""
        data = views.view(self, viewer)
        if viewer == HOST:
            data["entries"] = views.host_entries(self, self.legal_actions())
        return data

    def hidden_alternatives(self, action: Action, viewer: Viewer) -> list[Action]:
        """Actions ``viewer`` could not tell apart from ``action`` (see :mod:`views`)."""
        return views.hidden_alternatives(self, action, viewer)

    def reveals_hidden(self, action: Action) -> bool:
        """True for the reveal, a peek, and a shoot-out choice (contents become known)."""
        return views.reveals_hidden(self, action)

    def publicly_reveals(self, action: Action) -> bool:
        """The Toast's reveal and a shoot-out choice (see :mod:`views`)."""
        return views.publicly_reveals(self, action)

    def visible_events(self, events: list[Event], viewer: Viewer) -> list[Event]:
        """Private events (``"to": seat``: what was poured, peeked, scored) go to their seat."""
        return views.events_for(events, viewer)

    def redact(self, action: Action, viewer: Viewer) -> Action:
        """A journaled action in a replay (see :func:`views.redact`)."""
        return views.redact(self, action, viewer, super().redact(action, viewer))

    def entry_refusal(self, action: Action, viewer: Viewer, mode: Mode) -> tuple[str, str] | None:
        """What the Host may not enter by hand (see :func:`views.entry_refusal`)."""
        return views.entry_refusal(self, action, viewer, mode)

    def clone(self) -> GobletsState:
        """An independent copy (the model's: every field, sharing nothing mutable)."""
        clone = super().clone()
        assert isinstance(clone, GobletsState)
        return clone
