"""Winetasters at a sensed table: a Noble and their Winetaster share one Goblet and one reader.

"Each pair is considered a single 'player'": a pair is one place, one screen and one Goblet, so
one reader spot (six at most: "6 Goblets"; 7 players play 4 Goblets, 12 play 6). The readers see
the pair's Goblet, never which of the two hands moved it, so whose act a sensed event is follows
from the order the rulebook gives the pair's turn:

- "When their turn comes, the Winetaster always plays before the Noble, unless the Noble TOASTS."
  and "Each player of a pair only gets to perform 1 action each turn": the pair's first act on
  the table is the Winetaster's, the next the Noble's (the engine's steps, one action each).
- "If not, the Noble may decide to play before their Winetaster to TOAST. If the Noble decides not
  to, the pair plays as normal": the Toast is the Noble's phone tap; a Winetaster's act (or Pass)
  while the Noble may still Toast *is* the Noble's decision not to, journaled as their ``defer``.
- "During the Toast phase, when their turn comes, each Winetaster can perform 1 free Peek action
  before the Noble performs the final action": a lift of the pair's Goblet then is the
  Winetaster's Peek; any other act of the pair is the Noble's final action, and the Winetaster's
  free Peek not taken is journaled as their ``pass``.
- "The Noble cannot PEEK": a lift at a pair's place is the Winetaster's whenever it is not the
  pair's turn (``actors.peeker``); one during the Noble's own step is recorded as the Noble's Peek,
  which the engine warns about.

The reveal needs nothing of its own: "each player takes the Goblet in front of them" is one
Goblet per place, poured out on the place's reader spot, and the engine scores the pair
("a Loyal Winetaster will get the same number of VPs as their Noble").

:func:`implied` gives the step a sensed act closes without a word: the Noble's ``defer`` or the
Winetaster's ``pass`` of their free Peek, applied before the act so the journal says it.
"""

from __future__ import annotations

from companion.core.game import Action
from companion.core.games.goblets.model import GobletsModel, StepKind

SILENT = {StepKind.TOAST_OPTION: "defer", StepKind.FREE_PEEK: "pass"}
"""The pair's steps a partner's act closes: the Noble not Toasting, the free Peek not taken."""
ACTS = frozenset({"pour", "peek", "rotate", "swap", "pass", "ability", "toast"})
"""Actions that are a pair's act at the table (a reveal or a chance event is no one's)."""


def implied(state: GobletsModel, action: Action) -> list[Action]:
    """The actions ``action`` implies first (see the module docstring); [] in most cases.

    Only when the current step is a pair's ``toast_option`` or ``free_peek`` and ``action`` is an
    act of the pair's other seat, the one whose step comes next.
    """
    current, after = state.current_step(), state.next_step()
    if current is None or after is None or action.get("type") not in ACTS:
        return []
    seat = action.get("seat")
    if current.kind not in SILENT or seat == current.seat or seat is None:
        return []
    if after.seat != seat or after.place != current.place:
        return []  # someone else's act out of turn: the engine judges it
    if action["type"] == "peek" and current.kind == StepKind.FREE_PEEK:
        return []  # the free Peek itself, whoever is named: the engine judges it
    return [{"type": SILENT[current.kind], "seat": current.seat}]
