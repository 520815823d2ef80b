"""The puppeteer's live table as the synthetic overhead camera sees it (``--camera synthetic``).

The demo of ``companion serve --camera synthetic`` plays the puppet show of
:mod:`companion.virtual.show` with the overhead camera in place of the readers: the same
:class:`~companion.virtual.puppet.Puppeteer` (``sensor="camera"``) makes the same hand motions on
its :class:`~companion.virtual.live.HandTable`, and :class:`TableView` follows those motions to a
table time and says what a camera above the table would photograph then, as a
:class:`vision.render.Scene`:

- each Goblet standing on a seat's spot, by its Coaster ring (the Goblets are named by their
  Houses' rings); a Goblet in the air (lifted for a Peek, carried in a Swap or a Rotate) is in no
  picture, and one set down beside another on a seat stands off the spot, towards the middle of
  the table (:data:`BESIDE`), until the other is lifted;
- at the reveal, the tokens each player poured out in front of them: counted by kind in the
  seat's reveal area (the renderer spreads them there).

What is *inside* a Goblet is never in the scene: the camera sees no pour (``vision/README.md``),
and the camera game takes pours from nowhere (docs/rules-notes.md, "Camera play").
:class:`CameraShow` keeps the puppeteer's plan a little ahead, hands its taps (Pass, Toast, the
reveal) to a sink in time order and, once per camera frame period of table time, sets the
camera's scene; the frames themselves are read and detected by the camera's reader
(:class:`companion.service.camera.CameraTable`), on its own thread in ``companion serve``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from companion.core.games.goblets.tags import TagRegistry
from companion.virtual.live import HandTable
from companion.virtual.pour_out import is_pile
from companion.virtual.puppet import Puppeteer
from companion.virtual.show import LOOKAHEAD, Sink
from vision import layout
from vision.layout import TableLayout
from vision.render import Scene

BESIDE = 2 * layout.RING_OUTER + 2
"""Canonical pixels between a seat's spot and a Goblet set down beside the one standing there
(towards the middle of the table): rings apart, and out of the 34 px that make a ring stand at
the seat (``vision/README.md``, "Rings"), so it is read as a Goblet off its spot."""


class TableView:
    """The physical table of ``table`` (a puppeteer's) at a table time, as a camera sees it.

    Follows the motions its live scenario is handed (:meth:`HandTable.publish`), dropping them
    once followed: a demo plays all night.
    """

    def __init__(self, table: HandTable) -> None:
        live = table.live
        self.live = live
        self.registry: TagRegistry = table.registry
        self.seats = live.seats
        self.standing: list[list[str]] = [[g] for g in live.layout]
        self.tags: dict[str, list[str]] = {g: list(live.tags_of(g)) for g in live.layout}
        self.t = live.duration

    def advance(self, t: float) -> None:
        """Every motion up to table time ``t`` done."""
        motions = self.live.motions
        done = 0
        while done < len(motions) and motions[done].t <= t:
            motion = motions[done]
            if motion.kind == "pour":
                self.tags.setdefault(motion.goblet, []).append(motion.uid)
            elif motion.kind == "take":
                self.tags[motion.goblet].remove(motion.uid)
            elif motion.kind == "lift":
                self.standing[motion.seat].remove(motion.goblet)
            else:  # place
                self.tags.setdefault(motion.goblet, [])
                self.standing[motion.seat].append(motion.goblet)
            done += 1
        del motions[:done]
        self.t = max(self.t, t)

    def scene(self) -> Scene:
        """What the camera photographs now (see the module docstring)."""
        table = TableLayout(self.seats)
        rings: dict[int, str | None] = {}
        loose: list[tuple[str, float, float]] = []
        tokens: dict[int, dict[str, int]] = {}
        for seat, names in enumerate(self.standing):
            goblets = [name for name in names if not is_pile(name)]
            if goblets:
                rings[seat] = goblets[0]  # the one standing there first keeps the spot
            x, y = table.goblet_spot(seat)
            angle = table.seat_angle(seat)
            for name in goblets[1:]:
                # Set down beside it, towards the middle (a Swap or a Rotate by hand).
                loose.append((name, x - BESIDE * math.cos(angle), y - BESIDE * math.sin(angle)))
            for name in names:
                if is_pile(name):
                    tokens[seat] = self._counts(self.tags[name])
        return Scene(self.seats, rings, tuple(loose), tokens)

    def _counts(self, uids: list[str]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for uid in uids:
            kind = self.registry.token_kind(uid)
            if kind is not None:
                counts[kind.value] = counts.get(kind.value, 0) + 1
        return counts


class CameraShow:
    """``puppet`` played at a live table that ``camera`` (a ``SyntheticCamera``) photographs.

    :meth:`step` moves table time on by one frame period (``1 / rate`` seconds), like
    :meth:`companion.virtual.show.Show.step` moves it on by one reader snapshot. The scene is
    replaced only when the table changed (the camera draws a scene once: ``still``).
    """

    def __init__(
        self,
        puppet: Puppeteer,
        sink: Sink,
        camera,  # type: ignore[no-untyped-def]
        rate: float = 5.0,
        frame: Callable[[float], None] | None = None,
    ) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.puppet = puppet
        self.sink = sink
        self.camera = camera
        self.period = 1.0 / rate
        self.frame = frame
        """Called with ``t`` once the scene of table time ``t`` is set: whoever reads the camera
        in step with the show (a test's modelled clock); ``companion serve``'s camera reads on its
        own thread instead."""
        self.view = TableView(puppet.table)
        self.now = self.view.t
        self.scenes = 0
        """How many times the scene changed (each one drawing for the camera)."""
        self._show(self.view.scene())

    def step(self, before: Callable[[float], bool] | None = None) -> bool:
        """Move on to the next frame time: plan ahead, deliver the taps due, set the scene.
        ``before(t)`` is called first and may wait; it returns False to stop."""
        puppet = self.puppet
        t = self.now + self.period
        while puppet.table.live.duration < t + LOOKAHEAD:
            puppet.step(self.sink.sensed())
        if before is not None and not before(t):
            return False
        while puppet.taps and puppet.taps[0].t <= t:
            self.sink.tap(puppet.taps.pop(0))
        self.view.advance(t)
        self._show(self.view.scene())
        self.now = t
        if self.frame is not None:
            self.frame(t)
        return True

    def _show(self, scene: Scene) -> None:
        if scene != self.camera.scene:
            self.camera.scene = scene
            self.scenes += 1
