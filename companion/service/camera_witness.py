"""The overhead camera as the witness of the reader nodes at one table.

Beside reader nodes (a game played ``"readers"`` with the camera configured too), the camera is a
witness (:class:`CameraWitness`): it keeps its own tracker of the rings (``vision/README.md``,
"Feeding the tracker"), and after each frame the two trackers' layouts are compared
(:class:`~companion.core.games.goblets.sensed.fusion.LayoutFusion`): a disagreement held past
``[sensing] fusion_grace`` is a notice to the Host, who settles it by a tap (``{"input": "settle",
"source": "readers" | "camera"}``). A frame that does not show one ring at every seat is no layout
to compare (a hand, a Goblet in the air, a covered ring). At the reveal on the readers the camera
counts its reveal areas as a witness: a seat settles only when both counts agree
(:class:`~companion.core.games.goblets.sensed.fusion.FusedPourOut`), else the Host picks one
(``{"input": "pick", "place": p, "source": ...}``) or counts it by hand. The camera counts its
reveal areas, not the reader spots: calibrated so, the two count the same tokens; otherwise every
seat with tokens differs and the Host is asked (never a silent choice).
"""

from __future__ import annotations

import json

from companion.core.games.goblets.sensed.fusion import READERS, SOURCES, FusionConfig, LayoutFusion
from companion.core.games.goblets.sensed.pour_out import PourOut
from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tracking import Tracker
from companion.service.camera_tags import with_tokens
from companion.service.sensing import SensingBridge
from vision import rings
from vision.detect import Detections


class CameraWitness:
    """The camera beside the readers of one game: its own tracker of the rings and, at the
    reveal, its own pour-out of the reveal areas, compared with the readers' (see the module
    docstring). Made by :class:`CameraTable` for the readers' ``bridge``; attaches itself to it
    (``bridge.witness``), so the Host's answers reach it through the readers' session."""

    def __init__(self, bridge: SensingBridge, registry: TagRegistry, config: FusionConfig) -> None:
        self.bridge = bridge
        self.game_id = bridge.game_id
        self.registry = registry
        session = bridge.session
        self.places = session.table.places
        start = session.tracker.layout() or dict(session.table.layout)
        # The readers' layout as the camera's starting belief: the camera joins a table already
        # read, and its first frames then confirm (or contradict) it like any later move.
        self.tracker = Tracker(registry, self.places, initial_layout=start)
        self.fusion = LayoutFusion(config)
        # The Host's "the readers are right" changes no journaled state, so the ruling is kept as
        # a table setting (SQLite, committed): after a restart a camera that still misreads the
        # same is not asked about again.
        self._setting = f"fusion.rulings.{self.game_id}"
        store = bridge.service.store
        for ruling in json.loads(store.setting(self._setting) or "[]"):
            readers, camera = ({int(s): n for s, n in ruling[k].items()} for k in SOURCES)
            self.fusion.ruled(readers, camera)
        self._kept = self.fusion.rulings()
        self.pouring: PourOut | None = None
        bridge.witness = self

    def frame(self, t: float, detections: Detections, seq: int) -> None:
        """One detected frame (called under the readers' session lock)."""
        session = self.bridge.session
        areas = detections.tokens or {}
        covered = {seat for seat, counts in areas.items() if counts is None}
        if session.pouring is not None:
            if self.pouring is not None:
                for obs in rings.observations(detections.rings, t, seq):
                    if obs.seat < self.places and obs.seat not in covered:
                        counted = with_tokens(obs, areas.get(obs.seat))
                        if counted is not None:
                            self.pouring.observe(counted)
            return
        self.pouring = None
        for obs in rings.observations(detections.rings, t, seq):
            if obs.seat < self.places:
                self.tracker.observe(obs)
        self.tracker.advance(t)
        readers = None if session.table.conflict is not None else session.tracker.layout()
        for notice in self.fusion.compare(t, readers, self._seen(detections)):
            kind = notice["notice"]
            if kind == "disagreement":
                detail = {k: notice[k] for k in ("seats", "readers", "camera")}
                seats = ", ".join(map(str, notice["seats"]))
                message = f"the readers and the camera disagree at seats {seats}: which is right?"
                self.bridge.service.notice(kind, message, detail=detail)
            else:
                self.bridge.service.notice(kind, "the readers and the camera agree again")
            self.bridge.service.publish()
        self._keep()

    def _keep(self) -> None:
        """Store the Host's rulings when they changed (settled, or moot once the two agree)."""
        rulings = self.fusion.rulings()
        if rulings != self._kept:
            self.bridge.service.store.set_setting(self._setting, json.dumps(rulings))
            self._kept = rulings

    def _seen(self, detections: Detections) -> dict[int, str] | None:
        """The camera's believed layout when this frame shows exactly it (one ring at every
        seat), else None: a frame with a seat unread, or one in mid-move, compares nothing."""
        reading = {}
        for seat in range(self.places):
            houses = list(detections.rings.houses_at(seat))
            if len(houses) != 1:
                return None
            reading[seat] = houses[0]
        believed = self.tracker.layout()
        return believed if believed == reading else None

    def begin_pour_out(self, t: float) -> PourOut:
        """The readers' pour-out begins: the camera counts its reveal areas alongside."""
        self.pouring = PourOut(
            {p: "" for p in range(self.places)},
            self.registry,
            rings=False,
            apart=True,
            witness=True,  # the readers' own pour-out says when a seat has poured
            t=t,
            config=self.bridge.session.pour_out_config,
        )
        return self.pouring

    def settle(self, source: str) -> dict[int, str]:
        """The Host's answer to the open disagreement; returns the layout the game goes on with
        (the camera's tracker is put right when the readers were)."""
        layout = self.fusion.settle(source)
        if source == READERS:
            self.tracker.fix_layout(layout)
        self._keep()
        return layout
