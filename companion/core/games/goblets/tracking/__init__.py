"""The goblet tracker: per-seat reader snapshots in, table events out (pure).

Modules, one idea each:

- :mod:`.config`: :class:`TrackerConfig`, the debounce thresholds with documented defaults.
- :mod:`.evidence`: :class:`SeatWindow`, the recent snapshots of one seat and the statistics the
  tracker judges presence and absence by.
- :mod:`.moves`: naming a change of layout (one ``rotate``, one ``swap``, or plain ``move`` events).
- :mod:`.pours`: :class:`PourBook`, when the reads of a new token prove it poured, and into which
  Goblet.
- :mod:`.layout`: :class:`LayoutBook`, where each Goblet stands and when a layout is believed (a
  move, a lift, a conflict).
- :mod:`.tracker`: :class:`Tracker`, which follows every Goblet and every poured token.

The events are JSON-able dicts, exactly those ``companion track`` prints (see
:mod:`companion.core.games.goblets.tracking.tracker` for the list).
"""

from companion.core.games.goblets.tracking.config import TrackerConfig
from companion.core.games.goblets.tracking.moves import classify
from companion.core.games.goblets.tracking.tracker import Tracker

__all__ = ["Tracker", "TrackerConfig", "classify"]
