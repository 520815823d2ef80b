"""Where the demo's puppet show goes: the sensed side of ``companion.virtual.show``.

The show's hands move a live table that simulated readers read (:class:`ServiceSink`: each
snapshot to the service's :class:`~companion.service.sensing.SensingBridge`) or the synthetic
camera photographs (:class:`CameraSink`: the camera reads the table itself); the show's phone taps
(Pass, Toast, a Character ability, the reveal, the Host's hand) are what sensors cannot see, and
go to the session (:func:`tap_session`). Each sink tells the show what the journal holds, so the
puppeteer follows the journal when it goes another way.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.core.errors import CupbearerError
from companion.core.game import HOST, Mode
from companion.core.observations import Observation
from companion.service.sensing import SensingBridge
from companion.service.table import Service
from companion.virtual.puppet import Sensed, Tap

log = logging.getLogger(__name__)


def tap_session(
    service: Service, bridge: SensingBridge, game_id: int, tap: Tap, camera: bool
) -> None:
    """One of the show's taps into the demo game's sensed session: what its sensors cannot see.
    The camera reads the reveal off the poured-out areas, so its reveal is a pour-out. A tap the
    session refuses means the journal went another way (the Host acted): the puppeteer follows."""
    try:
        if tap.kind == "start_course":
            bridge.start_course()
        elif tap.kind == "pass":
            bridge.end_turn(tap.seat)
        elif tap.kind == "toast":
            bridge.toast(tap.seat)
        elif tap.kind == "ability":  # a Character ability from the owner's phone
            bridge.seat_input(tap.seat, tap.action)
        elif tap.kind == "reveal" and not camera:
            bridge.reveal()
        elif tap.kind in ("reveal", "pour_out"):
            bridge.pour_out()
        elif tap.kind == "enter":  # the tie-break, entered by the Host
            service.act(tap.action, by=HOST, mode=Mode.RECORDING, game_id=game_id, actor="demo")
        elif tap.kind == "fix_layout":  # the Host's fix after a conflict
            bridge.fix_layout(tap.layout)
    except CupbearerError as error:
        log.info("%s demo: %s refused: %s", "camera" if camera else "sensed", tap.kind, error)


class ServiceSink:
    """The service's sensed table as the sensed side of the puppet show (``virtual.show``)."""

    def __init__(self, service: Service, bridge: SensingBridge) -> None:
        self.service = service
        self.bridge = bridge

    @property
    def game_id(self) -> int:
        """The game this sink records into."""
        return self.bridge.game_id

    def observe(self, obs: Observation) -> None:
        """One reader snapshot."""
        self.bridge.observe(obs)

    def tap(self, tap: Tap) -> None:
        """A phone tap (or the Host's hand): what sensors cannot see."""
        tap_session(self.service, self.bridge, self.game_id, tap, camera=False)

    def sensed(self) -> Sensed:
        """The journal's actions of this game, the layout the tracker believes, the state."""
        with self.service.lock:
            table = self.service.table
            if table is None or table.record.id != self.game_id:
                return Sensed([], None, None)
            actions = [entry.action for entry in table.live]
            sensed = self.bridge.session.table
            conflict = sensed.conflict is not None
            return Sensed(actions, dict(sensed.layout), table.state, conflict)


class CameraSink:
    """The camera's sensed session of the demo game as the sensed side of the show: the camera
    reads the table (its frames, on its own), the taps go to its session. ``camera``: the
    :class:`~companion.service.camera.CameraTable` (imported only with OpenCV)."""

    def __init__(self, service: Service, camera: Any, game_id: int) -> None:
        self.service = service
        self.camera = camera
        self.game_id = game_id

    def observe(self, obs: Observation) -> None:
        """The camera reads the table itself: no snapshot comes from the show."""
        raise TypeError("the camera reads the table; a show hands it no snapshot")

    def _session(self) -> SensingBridge | None:
        # Made by the camera's thread too: one at a time, the camera's lock first as there.
        with self.camera.lock, self.service.lock:
            table = self.service.table
            if table is None or table.record.id != self.game_id:
                return None
            return self.camera.session()

    def tap(self, tap: Tap) -> None:
        """A phone tap (or the Host's hand): what the camera cannot see."""
        bridge = self._session()
        if bridge is not None:
            tap_session(self.service, bridge, self.game_id, tap, camera=True)

    def sensed(self) -> Sensed:
        """The journal's actions of this game, the layout the camera's tracker believes."""
        with self.service.lock:
            table = self.service.table
            bridge = self.camera.bridge
            if table is None or table.record.id != self.game_id:
                return Sensed([], None, None)
            actions = [entry.action for entry in table.live]
            if bridge is None or bridge.game_id != self.game_id:
                return Sensed(actions, None, table.state)
            sensed = bridge.session.table
            return Sensed(actions, dict(sensed.layout), table.state, sensed.conflict is not None)
