"""Sensed play of Raise Your Goblets: tracker events drive the engine in recording mode (pure).

Data flow (DESIGN.md): reader snapshots -> :class:`~companion.core.games.goblets.tracking.Tracker`
-> table events -> :class:`SensedTable` -> Goblets engine actions applied with ``Mode.RECORDING`` (a
broken rule is a ``rule_warning`` event, never a refusal). At the Toast the sensed contents are
revealed and scored by the engine. Rulebook readings: ``docs/rules-notes.md``, "Sensed play".

- :class:`SensedSession`: the whole pipe from snapshots (owns the tracker). Most callers want it.
- :class:`SensedTable`: tracker events (from a tracker you own) and inputs in, actions out.
- :class:`Result`: ``applied`` (each an :class:`Applied`: the ``action`` to journal with
  ``Mode.RECORDING`` and the ``events`` it produced), ``notices`` for the Host, ``tracked``
  (the tracker's events).

How a caller (the service's virtual table or hardware links) uses it::

    state = registry.get("goblets").new_state(options)       # 4-12 players
    session = SensedSession(state, tag_registry, rng=rng)    # rng draws Character/Target deals
    result = session.start_course()                          # the Host: Goblets in place
    for obs in snapshots:                                    # from links or SimulatedReaders
        result = session.observe(obs)
        for applied in result.applied:                       # journal, then publish views
            journal.append(applied.action, mode=Mode.RECORDING)
        show_to_host(result.notices)                         # conflicts, unknown tags, ...
    session.end_turn(seat)      # a player's "end turn" button (sensors cannot see a Pass)
    session.toast(seat)         # a player's "Toast!" button
    session.reveal(t)           # the Host: Goblets revealed; the engine scores the Toast
    session.fix_layout({0: "de_miceti", ...}, t)   # the Host's fix after a conflict

Replaying the journaled actions (recording mode) into a new state rebuilds ``session.state``.
"""

from companion.core.games.goblets.sensed.places import GobletNames, layout_change
from companion.core.games.goblets.sensed.result import Applied, Result
from companion.core.games.goblets.sensed.session import SensedSession
from companion.core.games.goblets.sensed.table import SensedTable

__all__ = ["Applied", "GobletNames", "Result", "SensedSession", "SensedTable", "layout_change"]
