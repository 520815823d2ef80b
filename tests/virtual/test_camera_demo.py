"""The demo table played through the synthetic camera (``companion serve --camera synthetic``).

Real components throughout: the puppeteer's hands, the synthetic camera rendering what they do,
the detector, ``CameraTable``, the camera's sensed session and the service on real SQLite. Only
the camera's clock is modelled (the test reads a frame per frame period, in step with the show,
where ``companion serve`` reads on the camera's own thread).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from companion import config
from companion.commands import serve
from companion.core import registry
from companion.core.game import PUBLIC
from companion.core.games.goblets.tokens import Token
from companion.service import Service
from companion.virtual.camera_scene import BESIDE, TableView
from companion.virtual.live import HandTable
from vision.calibrate import Calibration
from vision.layout import TableLayout


class Clock:
    """The camera's frames' time (seconds), set to the show's table time at each frame."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def demo_rig(tmp_path, seed: int):
    """``companion serve --camera synthetic``'s drivers, not started: the camera read per frame."""
    settings = config.replace(config.Config(), data_dir=str(tmp_path))
    # 2.5 frames a second (5 by default): the Course is the same, the suite half as long.
    settings = config.replace(settings, **{"camera.source": "synthetic", "camera.rate_hz": 2.5})
    service = Service(settings, games=registry.load_all(), rng=random.Random(seed))
    clock = Clock()
    camera_table = None

    def frame(t: float) -> None:
        clock.now = t
        camera_table.step()

    camera_table, demo = serve.start_camera_demo(service, settings, frame=frame, clock=clock)
    demo.rng = random.Random(seed)
    return service, camera_table, demo


def test_the_camera_sees_where_the_goblets_stand_and_what_lies_out():
    table = HandTable(random.Random(1), ["de_miceti", "mctoadery", "aconitiers", "wespendorf"])
    view = TableView(table)
    assert view.scene().rings == dict(enumerate(table.names))
    table.pour(0, table.take(Token.POISON), Token.POISON)  # no camera sees a pour
    table.t += 1.0
    table.lift(1, "mctoadery")  # in the air: in no picture
    table.publish()
    view.advance(table.t)
    scene = view.scene()
    assert scene.rings == {0: "de_miceti", 2: "aconitiers", 3: "wespendorf"}
    assert scene.tokens == {} and scene.loose == ()
    table.t += 0.5
    table.place(2, "mctoadery")  # set down beside the Goblet standing at seat 2
    table.publish()
    view.advance(table.t)
    scene = view.scene()
    assert scene.rings[2] == "aconitiers" and 1 not in scene.rings
    ((house, x, y),) = scene.loose
    spot = TableLayout(4).goblet_spot(2)
    assert house == "mctoadery"
    assert np.hypot(x - spot[0], y - spot[1]) == pytest.approx(BESIDE)
    assert np.hypot(x - 400, y - 400) < np.hypot(spot[0] - 400, spot[1] - 400)  # the middle
    table.t += 0.5
    table.lift(2, "aconitiers")
    table.place(1, "aconitiers")
    table.pour_out(0)  # the reveal: seat 0's Goblet poured out in front of it
    table.publish()
    view.advance(table.t)
    scene = view.scene()
    assert scene.tokens == {0: {"poison": 1}}
    assert 0 not in scene.rings and scene.rings[1] == "aconitiers"


def test_a_whole_course_through_the_synthetic_camera_ends_in_the_puppeteers_score(tmp_path):
    service, camera_table, demo = demo_rig(tmp_path, seed=2)
    assert camera_table.calibration.method == "markers"  # from its own empty table's markers
    assert camera_table.calibration.bare is not None  # its tokens read with the bare table
    for _ in range(2000):
        demo.step()
        state = service.table.state
        if state.results:
            break
    else:
        pytest.fail("the Course did not reach its Toast")
    puppet = demo.show.puppet
    entries = service.store.entries(service.table.record.id)
    kinds = [(e.action["type"], e.actor) for e in entries]
    assert kinds[0] == ("initial_pour", "chance")  # drawn by the camera game, poured by hand
    assert ("reveal", "camera") in kinds and not any(k == "pour" for k, _ in kinds)
    reveal = next(e.action for e in entries if e.action["type"] == "reveal")
    # The camera's counts of the reveal areas are the tokens the hands put into each Goblet...
    mine = puppet.toasts[0]
    assert reveal["goblets"] == [p["contents"] for p in mine["places"]]
    # ... so the journal's Toast is the one the puppeteer's own engine scored.
    assert service.table.state.results[0]["vp"] == mine["vp"]
    assert puppet.desyncs == 0
    # A legal game read exactly: no rule warning (the camera's Toast says the pours were unseen).
    assert service.table.state.warnings == []
    assert next(e.action for e in entries if e.action["type"] == "toast")["pours"] == "unseen"
    assert camera_table.loop.errors == 0 and camera_table.loop.frames > 100
    assert camera_table.tap.camera.renders < camera_table.loop.frames / 5  # drawn on change only


def test_a_wrong_calibration_sees_no_goblet_and_the_course_does_not_proceed(tmp_path):
    service, camera_table, demo = demo_rig(tmp_path, seed=3)
    right = camera_table.calibration
    # A calibration 200 canonical px off (the camera knocked aside since): no ring is where the
    # calibration puts a seat.
    shift = np.array([[1.0, 0.0, 200.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    wrong = Calibration(right.seats, shift @ right.homography, right.image_size, "markers")
    camera_table._use(wrong)
    for _ in range(40):  # 16 s of table time at 2.5 frames a second
        demo.step()
    assert camera_table.step().rings.seats == {s: None for s in range(4)}  # no ring seen
    entries = service.store.entries(service.table.record.id)
    moves = [e.action["type"] for e in entries if e.actor == "camera"]
    assert not {"rotate", "swap", "peek", "toast", "reveal"} & set(moves)
    assert not service.table.state.results


def driven_demo(tmp_path, speed: float):
    """The camera demo as ``companion serve`` builds it (no ``frame``: the demo reads the camera
    itself), not started; the real clock the show is paced by is moved by the test."""
    from companion.service.camera import CameraTable
    from companion.service.sensed_demo import SensedDemo
    from vision import render
    from vision.camera import SyntheticCamera

    settings = config.replace(config.Config(), data_dir=str(tmp_path))
    service = Service(settings, games=registry.load_all(), rng=random.Random(5))
    synthetic = SyntheticCamera(seats=4, size=(640, 480), still=True)
    synthetic.scene = render.Scene(4)
    camera_table = CameraTable(
        service, synthetic, calibration_path=tmp_path / "cal.json", rate_hz=2.5
    )
    camera_table.calibrate()
    demo = SensedDemo(service, speed=speed, camera=camera_table)
    service.new_game("goblets", demo.options, play="demo")
    real = [0.0]
    demo.real_clock = lambda: real[0]
    camera_table.start()
    return service, camera_table, demo, real


def test_at_any_speed_the_demo_reads_a_frame_per_frame_period_of_table_time(tmp_path):
    # At --speed 40 a camera reading by the real clock would see a Peek for 1/40 of its time.
    service, camera_table, demo, real = driven_demo(tmp_path, 40.0)
    assert not camera_table._thread.is_alive()  # the demo reads the camera, not a thread
    times: list[float] = []
    sink = camera_table.loop.sink

    def seen(t, detections):
        times.append(t)
        sink(t, detections)

    camera_table.loop.sink = seen
    for _ in range(12):
        real[0] += 0.4 / 40  # the machine keeps up with the speed asked
        demo._step()
    camera_table.stop()
    assert len(times) >= 11
    assert all(b - a == pytest.approx(0.4) for a, b in itertools.pairwise(times))
    assert times[-1] == pytest.approx(camera_table.clock())
    assert service.message(PUBLIC)["camera"]["fps"] == pytest.approx(2.5)  # of table time


def test_a_speed_the_camera_cannot_follow_is_clipped_and_said_so(tmp_path, caplog):
    _, camera_table, demo, real = driven_demo(tmp_path, 100.0)
    with caplog.at_level("WARNING", logger="companion.service.sensed_demo"):
        for _ in range(12):
            real[0] += 0.4  # each frame takes 0.4 s to detect: 1x, not the 100x asked
            demo._step()
    frames = camera_table.loop.frames
    camera_table.stop()
    assert frames >= 11  # still a frame per frame period of table time
    (record,) = [r for r in caplog.records if "cannot follow" in r.getMessage()]
    assert "--speed 100" in record.getMessage() and "about 1.0x" in record.getMessage()
