"""Between Courses on the camera: is the table gathered up and set out for the next Course?

On the readers the next Course may start at once after the reveal: its phase stays the initial
pour until the readers see one token poured into each Goblet, and until then a Goblet lifted and
put back is no Peek and a Goblet carried home no Swap (``SensedTable._lift``, ``_on_layout``).
The camera sees no pour, so its game draws the initial pour as soon as the Course starts
(``companion.service.camera``) and play begins at once: the Goblets the players then set back on
their spots, or carry home to their Houses' places, would be recorded as Peeks and Swaps. So the
camera's Course starts only once the table shows the gathering is over (or when the Host taps
"start the Course"):

- every Goblet stands where the engine sets it for the Course (Appetizers: "Each player should
  take the Goblet with the Coaster ring that matches their House and place it in front of
  them"), as the camera's tracker locates it now and believes it; and
- no reveal area is seen holding a token (the revealed tokens are put away); an area not seen
  (a hand, glare, a bowl leaning over it) is no news either way;

both over ``settle`` seconds and ``reads`` frames of the pour-out's settings, every frame of them.
A Goblet lifted and put back inside that time restarts it, so the tracker's ``lift`` of that
Goblet (reported once it has settled, 0.5 s later) is reported before the Course starts, when it
is no Peek.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.core.games.goblets.sensed.pour_out import PourOutConfig


class Gather:
    """Watches the table between two Courses (see the module docstring).

    ``home``: place -> the Goblet the engine sets there for the next Course; ``config``: the
    pour-out's ``settle`` and ``reads``.
    """

    def __init__(self, home: Mapping[int, str], config: PourOutConfig | None = None) -> None:
        self.home = dict(home)
        self.config = config or PourOutConfig()
        self.since: float | None = None
        """When the table was first seen gathered in the current run of frames (None: not)."""
        self.frames = 0
        """Frames in that run."""
        self.now: float | None = None

    def see(
        self,
        t: float,
        goblets: Mapping[int, str | None],
        tokens: Mapping[int, int | None],
    ) -> bool:
        """One frame at ``t``: ``goblets`` (place -> the Goblet located there now, None: none)
        and ``tokens`` (place -> tokens seen in its reveal area, None: not seen). Returns
        :attr:`is_done`."""
        self.now = t if self.now is None else max(self.now, t)
        home = all(goblets.get(place) == name for place, name in self.home.items())
        lying = any(n for n in tokens.values() if n is not None)
        if home and not lying:
            if self.since is None:
                self.since, self.frames = t, 0
            self.frames += 1
        else:
            self.since, self.frames = None, 0
        return self.is_done

    @property
    def is_done(self) -> bool:
        """True once the table has been seen gathered for ``settle`` seconds over ``reads``
        frames."""
        if self.since is None or self.now is None:
            return False
        held = self.now - self.since >= self.config.settle
        return held and self.frames > self.config.reads
