"""The virtual table as virtual hardware: a legal puppet game, read by simulated readers.

The default of ``companion serve`` without hardware, and an attract mode: it plays only while the
Host's demo switch is on, only in its own games (the service refuses its actions in any other),
and a game a person starts switches it off until the Host switches it on again. A
:class:`~companion.virtual.puppet.Puppeteer` plays a random *legal* game of Raise Your Goblets
with its own engine and turns every action into hand motions on a live table (pours, Peeks,
Rotates and Swaps by hand, Goblet by Goblet) and phone taps (Pass, Toast, reveal, the Host's
"start the Course"). :class:`~companion.virtual.SimulatedReaders` (noise: ``[virtual] noise``)
read that table in real time (``speed`` scales it) into the service's
:class:`~companion.service.sensing.SensingBridge`: tracker -> sensed session -> engine (recording)
-> journal -> views. Since the game is legal and read exactly, the dashboard shows whole Courses
to the Toast, the reveal and the next Course, game after game, with no rule warning. The players
look at the table: each waits until the journal has its last action before the next one, and the
Target deal they play under is the one the service drew.

Restarts: the demo resumes the journal's game where it stands, mid-Course included. The hands set
the physical table out as the journal has it (each Goblet at its place holding the tokens the
journal says, the screens likewise) and the tracker starts knowing those tokens are in their
Goblets, so nothing is poured twice. What was in the air at the kill (a Goblet lifted, a token
read but not yet journaled) is lost, as it is not in the journal: the Course goes on from the last
journaled action. A Course killed during its initial pour starts its initial pour again.

When the journal goes another way than the puppeteer (the Host enters or undoes an action, a
person plays a seat from a phone, a misread), the puppeteer follows the journal from there.

With the synthetic camera (``companion serve --camera synthetic``, ``camera=``): the same hands
play for the overhead camera (``Puppeteer(sensor="camera")``) and the synthetic camera photographs
their table (:class:`~companion.virtual.camera_scene.CameraShow`: the Goblets on their spots by
ring, the tokens poured out at the reveal); the frames go through the real detector and
:class:`~companion.service.camera.CameraTable` into the camera's sensed session of the demo game,
as a real camera's would. What the camera game takes from elsewhere is entered as it expects it
(docs/rules-notes.md, "Camera play"): the initial pour is the one the camera game drew (the hands
pour it), pours during play are recorded nowhere, Pass, the Toast and the reveal are taps
(:mod:`companion.service.demo_sinks`). The scene changes only when the hands move something,
and the camera draws a scene once (``SyntheticCamera(still=True)``): a still table costs a
detection per frame, not a render.

The camera demo reads the camera itself, one frame per frame period of the show's table time
(:class:`ShowClock`, ``CameraTable.drive``), not on the camera's thread by the real clock: at
``--speed`` 10 a camera reading by the real clock would see a 1.2 s Peek for 0.12 s, fewer frames
than the tracker needs to tell a lift from a missed read. So at any speed each table second has
the camera's ``rate_hz`` frames, and a speed the machine cannot detect frames fast enough for is
clipped: the show runs as fast as the frames are detected, and the log says so once (with the
speed reached).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.core.errors import CupbearerError, MalformedInput
from companion.core.games.goblets.options import check_variant
from companion.core.games.goblets.russian import RussianState
from companion.core.games.goblets.sensed.pour_out import PourOutConfig
from companion.core.games.goblets.state import GobletsState
from companion.service.demo_sinks import CameraSink, ServiceSink
from companion.service.sensing import SensingBridge
from companion.service.table import Service
from companion.virtual import NOISE
from companion.virtual.goblette_puppet import GoblettePuppeteer
from companion.virtual.puppet import Puppeteer, check_options
from companion.virtual.show import Show

if TYPE_CHECKING:
    from companion.service.camera import CameraTable
    from companion.virtual.camera_scene import CameraShow

log = logging.getLogger(__name__)

DEMO_OPTIONS: dict[str, Any] = {"players": 4, "characters": []}
"""The sensed demo's game: four Houses, no Character abilities (the sensors cannot see them)."""
IDLE = 0.5
"""Seconds between two looks at the table while the demo is switched off."""
BEHIND = 2.0
"""Seconds the show may fall behind the real clock before it stops trying to catch up."""


CLIPPED = 0.9
"""A camera show reaching less than this share of its speed is said to be clipped."""


class ShowClock:
    """The camera demo's frame clock (seconds): the show's table time while the show plays, the
    real clock's pace while it rests; it never goes back (a new show's table starts again at 0,
    and the camera's trackers must not see time run backwards)."""

    def __init__(self) -> None:
        self.now = 0.0
        self._offset: float | None = None
        self._last: float | None = None

    def __call__(self) -> float:
        """The frame time now."""
        return self.now

    def show(self, t: float) -> None:
        """The show's frame at table time ``t``."""
        if self._offset is None or self._last is None or t < self._last:
            self._offset = self.now - t  # a new show, or the show after a rest: go on from now
        self._last = t
        self.now = max(self.now, t + self._offset)

    def rest(self, seconds: float) -> None:
        """No show for ``seconds`` of the real clock."""
        self.now += seconds
        self._offset = None


class SensedDemo:
    """A thread playing the puppet show on ``service``'s goblets game; :meth:`stop` ends it.

    ``options``: the game (merged over :data:`DEMO_OPTIONS`; one the puppeteer cannot play is
    refused here); ``speed``: times real time; ``noise``: a ``NOISE`` preset of the readers;
    ``rng``: the puppeteer's choices (the deals are the service's); ``reveal`` and ``settle``:
    how the Goblets are revealed (``[sensing]``: poured out on the readers by default);
    ``camera``: the :class:`~companion.service.camera.CameraTable` of a synthetic camera, which
    then photographs the hands' table instead of simulated readers reading it (the module
    docstring); ``frame``: called with the table time of each frame once its scene is set (a
    test reading the camera in step with its own clock); without it the demo reads the camera
    itself, a frame per frame period of table time (:class:`ShowClock`), whatever the speed.
    """

    def __init__(
        self,
        service: Service,
        *,
        options: dict[str, Any] | None = None,
        speed: float = 1.0,
        noise: str = "moderate",
        rng: random.Random | None = None,
        reveal: str = "readers",
        settle: float = 2.0,
        camera: CameraTable | None = None,
        frame: Callable[[float], None] | None = None,
    ) -> None:
        self.service = service
        self.camera = camera
        self.frame = frame
        self.clock: ShowClock | None = None
        """The camera's frame clock when the demo reads the camera itself (``frame`` None)."""
        self.real_clock: Callable[[], float] = time.monotonic
        """The real clock the show is paced by."""
        self._clipped = False
        if camera is not None:
            camera.plays.add("demo")  # the demo's games are the camera's to read
            if frame is None:
                self.clock = ShowClock()
                camera.drive(self.clock)
                self.frame = self._read_frame
        self.reveal = reveal
        self.pour_out = PourOutConfig(settle=settle)
        self.options = {**DEMO_OPTIONS, **(options or {})}
        try:
            if check_variant(self.options)[1] == "russian_goblette":
                self.options.pop("characters", None)  # "Play without Character cards"
            state = service.games["goblets"].new_state(self.options)
            if camera is not None or not isinstance(state, RussianState):
                check_options(state)  # the Goblette puppeteer plays the readers' row
        except MalformedInput as error:  # refused at start, with the way out
            message = f"{error.detail}; the engine virtual table (--virtual engine) plays any"
            raise MalformedInput(message, field=error.field) from None
        if noise not in NOISE:
            raise MalformedInput(f"unknown noise {noise!r} (known: {sorted(NOISE)})", field="noise")
        self.speed = speed
        self.noise = NOISE[noise]
        self.rng = rng or random.Random()
        self.show: Show | CameraShow | None = None
        self.sink: ServiceSink | CameraSink | None = None
        self.games = 0
        """How many new games the demo thread itself started (one after each finished game)."""
        self._anchor: tuple[float, float] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sensed-demo", daemon=True)
        service.offer_demo(sensed=True)  # the hands pour; other deals are drawn until a session

    @property
    def bridge(self) -> SensingBridge | None:
        """The sensed session of the current game."""
        if self.camera is not None:
            return self.camera.bridge
        return None if not isinstance(self.sink, ServiceSink) else self.sink.bridge

    def start(self) -> SensedDemo:
        """Start playing."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop and wait for the thread."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    # -- the thread ------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except CupbearerError as error:
                log.warning("sensed demo: %s; following the journal afresh", error)
                self.sink = self.show = None  # a table set out anew as the journal has it
                self._stop.wait(1.0)
            except Exception:
                log.exception("sensed demo failed; following the journal afresh")
                self.sink = self.show = None
                self._stop.wait(2.0)

    def _new_game(self) -> None:
        self.service.new_game("goblets", self.options, play="demo")
        self.games += 1

    def _step(self, paced: bool = True) -> None:
        service = self.service
        with service.lock:
            on, table = service.demo_on, service.table
            if on and table is None:
                self._new_game()
                return
        if not on or table is None or not table.record.is_demo:
            self.sink = self.show = None  # the Host's game, or no demo: the hands rest
            self._anchor = None
            if self.clock is not None and paced:
                self._rest_frame()
            else:
                self._stop.wait(IDLE)
            return
        if table.state.is_over():
            if not paced or not self._stop.wait(self.service.config.virtual.restart_after):
                with service.lock:
                    if service.demo_on and service.table is table:
                        self._new_game()
            self._anchor = None
            return
        if self.sink is None or self.sink.game_id != table.record.id:
            self._attach()
        assert self.show is not None
        self.show.step(before=self._pace if paced else None)

    def step(self) -> None:
        """One step of the demo's thread, without waiting for the real clock (tests)."""
        self._step(paced=False)

    def _attach(self) -> None:
        """Play the service's current game: the puppeteer takes it up from the journal."""
        service = self.service
        with service.lock:
            table = service.table
            assert table is not None
            state = table.state
            actions = [entry.action for entry in table.live]
        assert isinstance(state, GobletsState | RussianState)
        rng = random.Random(self.rng.random())
        if self.camera is not None:
            assert isinstance(state, GobletsState)
            self._attach_camera(table.record.id, state, actions, rng)
            return
        show = self.show
        puppet: Puppeteer
        if isinstance(state, RussianState):
            # Six spots in a row: the Goblette puppeteer, on a row of its own.
            puppet, show = GoblettePuppeteer(rng, state, actions=actions), None
        elif show is not None and not any(show.puppet.table.inside.values()):
            # The Goblets stand empty where the last game left them: the hands go on from there.
            puppet = Puppeteer(
                rng, state, actions=actions, table=show.puppet.table, reveal=self.reveal
            )
        else:
            # Set out as the journal has it.
            puppet = Puppeteer(rng, state, actions=actions, reveal=self.reveal)
            show = None
        hands = puppet.table
        contents = {name: list(uids) for name, uids in hands.inside.items() if uids}
        layout = dict(enumerate(hands.layout))
        bridge = SensingBridge(
            service,
            hands.registry,
            layout,
            contents=contents,
            actor="demo",
            reveal=self.reveal,
            pour_out=self.pour_out,
        )
        if show is not None and self.sink is not None:
            bridge.take_over(self.sink.bridge)  # the last reveal's tokens may still lie out
        self.sink = ServiceSink(service, bridge)
        if show is None:
            self.show = Show(puppet, self.sink, self.noise, random.Random(rng.random()))
        else:
            show.puppet, show.sink = puppet, self.sink
        for seat in range(state.num_seats):
            service.set_reader(seat, "virtual")
        self._anchor = None
        log.info("sensed demo: playing game %s from seq %s", table.record.id, table.seq)

    def _attach_camera(
        self, game_id: int, state: GobletsState, actions: list, rng: random.Random
    ) -> None:
        """Play the service's current game for the camera (see the module docstring)."""
        # Imported here: OpenCV and numpy are loaded only when a camera is asked for.
        from companion.virtual.camera_scene import CameraShow

        camera = self.camera
        assert camera is not None
        show = self.show
        sink = CameraSink(self.service, camera, game_id)
        if isinstance(show, CameraShow) and not any(show.puppet.table.inside.values()):
            # The Goblets stand empty where the last game left them: the hands go on from there.
            show.puppet = Puppeteer(
                rng, state, actions=actions, table=show.puppet.table, sensor="camera"
            )
            show.sink = sink
        else:
            puppet = Puppeteer(rng, state, actions=actions, sensor="camera")
            synthetic = camera.tap.camera
            show = CameraShow(puppet, sink, synthetic, camera.rate_hz, frame=self.frame)
        self.show, self.sink = show, sink
        self._anchor = None
        log.info("camera demo: playing game %s", game_id)

    def _read_frame(self, t: float) -> None:
        """The show's frame at table time ``t``: the camera read and detected now, at ``t``."""
        assert self.clock is not None and self.camera is not None
        self.clock.show(t)
        self.camera.step()

    def _rest_frame(self) -> None:
        """No demo game: the camera still reads the (still) table at its rate, by the real
        clock, for whatever game the Host plays with it."""
        assert self.clock is not None and self.camera is not None
        period = 1.0 / self.camera.rate_hz
        self.clock.rest(period)
        self.camera.step()
        self._stop.wait(period)

    def _pace(self, t: float) -> bool:
        """Wait until the real clock reaches table time ``t``; False when stopping."""
        now = self.real_clock()
        if self._anchor is None:
            self._anchor = (now, t)
        start, t0 = self._anchor
        delay = start + (t - t0) / self.speed - now
        if delay > 0:
            return not self._stop.wait(delay)
        if delay < -BEHIND:
            reached = (t - t0) / (now - start) if now > start else self.speed
            if self.camera is not None and not self._clipped and reached < CLIPPED * self.speed:
                # The frames are read in table time, so the show waits for the detector.
                self._clipped = True
                log.warning(
                    "camera demo: the camera cannot follow --speed %g (a frame every %.2f s of "
                    "table time): the show runs as fast as frames are detected, about %.1fx",
                    self.speed,
                    1.0 / self.camera.rate_hz,
                    reached,
                )
            self._anchor = (now, t)  # a pause (a slow machine, a long wait): go on from here
        return not self._stop.is_set()
