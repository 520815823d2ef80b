"""The virtual table: scripted or random Courses and the simulated readers under the seats.

This is virtual *hardware*, not part of the pure core: it stands where the reader nodes would, so
the tracker, the links and the service run and are tested without a table.

- :class:`~companion.virtual.scenario.Scenario` (``Scenario.generate(rng, seats, ...)``): a whole
  Course of Raise Your Goblets played by hand (initial pour, pours, rotations both ways, swaps,
  Peeks, goblets moved one at a time, time in the air), as timed physical motions, together with
  its ground truth (the moves in order, the pours into each goblet between two moves, the final
  table).
- :class:`~companion.virtual.readers.SimulatedReaders` (``SimulatedReaders(scenario, noise,
  rng).snapshots()``): per-seat reader snapshots (:class:`~companion.core.observations.Observation`)
  at a rate, with a :class:`~companion.virtual.readers.Noise` of missed reads (likelier in fuller
  goblets), crosstalk from the neighbouring seats, blank and dropped snapshots and shuffled
  delivery. ``NOISE`` holds the presets.
- :mod:`companion.virtual.summary`: tracker events and ground truth reduced to the same
  comparable :class:`~companion.virtual.summary.Summary`.
- :class:`~companion.virtual.puppet.Puppeteer`: a random *legal* game (its own engine, enforcing)
  played by hand on a live :class:`~companion.virtual.live.HandTable`, with the phone taps the
  sensed side needs; :class:`~companion.virtual.show.Show` reads it with ``SimulatedReaders``
  into a sensed session (the service's default virtual table plays it).

Randomness always comes from a ``random.Random`` passed in, so a seed replays a Course exactly.
"""

from companion.virtual.puppet import Puppeteer
from companion.virtual.readers import NOISE, Noise, SimulatedReaders
from companion.virtual.scenario import HANDS, Hands, Scenario
from companion.virtual.summary import Summary, summarize

__all__ = [
    "HANDS",
    "NOISE",
    "Hands",
    "Noise",
    "Puppeteer",
    "Scenario",
    "SimulatedReaders",
    "Summary",
    "summarize",
]
