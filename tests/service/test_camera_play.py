"""Camera play through the service: synthetic camera -> detector -> CameraTable -> journal.

The camera is the virtual twin (``vision.camera.SyntheticCamera``: rendered frames of a scene the
test sets, at a fixed camera pose, with fresh sensor noise per frame); everything after it is the
real thing: the detector, the frame loop (stepped, no thread), the sensed session, the service on
real SQLite. The Toast is scored from the camera's counts and compared with the scene's ground
truth scored independently (``score_toast``).
"""

from __future__ import annotations

import json
import random
import time

import cv2
import numpy as np
import pytest

from companion import config
from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import HOST, PUBLIC, Viewer
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.scoring import score_toast
from companion.service import Service
from companion.service.camera import CameraTable, camera_registry, token_uid
from companion.service.setup import check_play
from vision import render
from vision.camera import SyntheticCamera
from vision.detect import detect
from vision.layout import TableLayout

SIZE = (640, 480)


class Clock:
    """The frames' time (seconds), moved by the test: settling is judged in modelled time."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Defocused:
    """A camera whose lens is out of focus (the markers cannot be read, the table's outline can):
    the synthetic camera's frames blurred as a defocused lens blurs them."""

    def __init__(self, camera: SyntheticCamera, sigma: float = 3.0) -> None:
        self.camera, self.sigma = camera, sigma

    def read(self):
        return cv2.GaussianBlur(self.camera.read(), (0, 0), self.sigma)

    def close(self) -> None:
        self.camera.close()


class Glitchy:
    """A camera that sends one truncated frame when asked (a USB hiccup: a frame of another
    size than the calibration's), else the synthetic camera's."""

    def __init__(self, camera: SyntheticCamera) -> None:
        self.camera = camera
        self.glitch = False

    def read(self):
        frame = self.camera.read()
        if self.glitch:
            self.glitch = False
            return np.ascontiguousarray(frame[: frame.shape[0] // 2])
        return frame

    def close(self) -> None:
        self.camera.close()


@pytest.fixture
def service(tmp_path):
    settings = config.replace(config.Config(), data_dir=str(tmp_path))
    svc = Service(settings, games=registry.load_all(), rng=random.Random(3))
    yield svc
    svc.close()


@pytest.fixture
def rig(service, tmp_path):
    """A 4-seat synthetic camera behind a CameraTable (not started: the test steps it)."""
    clock = Clock()
    synthetic = SyntheticCamera(seed=2, seats=4, noise="realistic", size=SIZE)
    camera = Glitchy(synthetic)
    table = CameraTable(
        service,
        camera,
        calibration_path=tmp_path / "vision-calibration.json",
        settle=1.0,
        clock=clock,
    )
    yield table, synthetic, camera, clock
    table.stop()
    assert not table._thread.is_alive()


def steps(table: CameraTable, clock: Clock, n: int, dt: float = 0.5) -> None:
    for _ in range(n):
        clock.now += dt
        table.step()


def start(service, table, synthetic, clock):
    """Calibrate on the empty table, start a 4-player camera game, set the Goblets down: the
    Course starts once the frames have shown the table set out for ``settle`` (1 s here)."""
    synthetic.scene = render.Scene(4)
    result = table.calibrate()
    assert result["method"] == "markers"
    service.new_game("goblets", {"players": 4}, play="camera")
    houses = list(service.table.state.opts.houses)
    synthetic.scene = render.Scene(4, dict(enumerate(houses)))
    steps(table, clock, 2)
    assert service.table.state.phase == "initial_pour"  # set out for less than ``settle``
    for _ in range(6):
        steps(table, clock, 1)
        if service.table.state.phase == "play":
            break
    return houses


def camera_entries(service):
    return [
        (e.action["type"], e.actor)
        for e in service.store.entries(service.table.record.id)
        if e.actor == "camera"
    ]


def test_the_camera_registry_enrols_rings_and_counted_tokens():
    reg = camera_registry()
    assert reg.ring_goblet("CA3E0000") == "de_miceti"
    assert reg.token_kind(token_uid(3, "poison", 14)).value == "poison"
    assert token_uid(3, "poison", 14) == "CB03010E"
    assert token_uid(3, "poison", 15) not in reg  # the pool holds 15 Poison: 0-14


def test_rings_seen_by_the_camera_drive_swaps_and_rotations(service, rig):
    table, synthetic, _, clock = rig
    houses = start(service, table, synthetic, clock)
    assert service.table.state.phase == "play"  # the initial pour was drawn: the camera can't see
    first = service.store.entries(service.table.record.id)[0]
    assert (first.action["type"], first.actor) == ("initial_pour", "chance")

    seat = table.bridge.turn_seat()
    other = (seat + 1) % 4
    layout = dict(enumerate(houses))
    layout[seat], layout[other] = layout[other], layout[seat]
    synthetic.scene = render.Scene(4, layout)
    steps(table, clock, 4)
    assert camera_entries(service)[-1] == ("swap", "camera")
    swap = service.store.entries(service.table.record.id)[-1].action
    assert {swap["seat"], swap["with"]} == {seat, other}

    seat = table.bridge.turn_seat()
    layout = {(p + 1) % 4: h for p, h in layout.items()}  # every Goblet one place clockwise
    synthetic.scene = render.Scene(4, layout)
    steps(table, clock, 4)
    assert camera_entries(service)[-1] == ("rotate", "camera")
    places = {p["place"]: p["ring"] for p in service.table.state.view(PUBLIC)["places"]}
    assert places == layout  # the engine's Goblets stand where the camera saw them
    assert service.message(PUBLIC)["camera"]["status"] == "ok"


def test_the_camera_reads_only_the_rings_of_the_houses_in_play(service, rig):
    # Rulebook, Setup: each player receives the Coaster ring of their House's colour; the
    # others stay in the box. The frame loop is told the game's Houses, so a ring of a House
    # no one plays (here set down at seat 0) is no ring of this game, never misnamed as one.
    table, synthetic, _, clock = rig
    houses = start(service, table, synthetic, clock)
    assert table.loop.houses == tuple(houses)
    stranger = next(h for h in HOUSE_IDS if h not in houses)
    layout = dict(enumerate(houses))
    layout[0] = stranger
    synthetic.scene = render.Scene(4, layout)
    clock.now += 0.5
    found = table.step()
    assert found.rings.seats[0] is None
    assert [found.rings.seats[seat] for seat in (1, 2, 3)] == houses[1:]
    bare = detect(synthetic.read(), table.loop.calibration, tokens=False)
    assert bare.rings.seats[0] == stranger  # the bare detector does see that ring


def test_the_toast_is_scored_from_the_camera_counts(service, rig):
    table, synthetic, camera, clock = rig
    houses = start(service, table, synthetic, clock)
    targets = dict(zip(houses, service.table.state.targets, strict=True))  # the deal
    seat = table.bridge.turn_seat()
    service.act({"type": "toast", "seat": seat}, by=Viewer.seat(seat))
    # The camera saw no pour: the engine cannot know whether the caller had Wine left.
    assert service.table.state.warnings == []
    service.sensing.host_input({"input": "reveal"})
    assert service.message(PUBLIC)["pour_out"][0]["status"] == "waiting"  # nothing shown yet

    poured = {
        0: {"wine": 2, "poison": 1},
        1: {"antidote": 2},
        2: {"wine": 1, "poison": 2},
        3: {},
    }
    goblets = dict(enumerate(houses))
    # Every Goblet lifted and poured out (seat 3's is empty), still in the players' hands.
    synthetic.scene = render.Scene(4, {}, (), poured)
    steps(table, clock, 2)
    before = service.message(PUBLIC)["pour_out"]
    assert [s["tokens"] for s in before] == [3, 2, 3, 0]
    assert before[3]["status"] == "settling"  # lifted, nothing in the area: not yet empty

    # A frame the detector refuses (a truncated frame) changes nothing.
    errors = table.loop.errors
    camera.glitch = True
    steps(table, clock, 1)
    assert table.loop.errors == errors + 1
    assert service.message(PUBLIC)["camera"]["errors"] == errors + 1
    assert service.message(PUBLIC)["pour_out"] == before

    # The Goblets set down again; seat 2's bowl leans over its reveal area: that area is not
    # seen, so that seat gets no snapshot (the others go on being read).
    x, y = TableLayout(4).reveal_centre(2)
    leaning = {p: h for p, h in goblets.items() if p != 2}
    synthetic.scene = render.Scene(4, leaning, ((goblets[2], x + 50, y),), poured)
    for _ in range(4):  # long enough for a read of nothing there to replace the count
        clock.now += 0.25
        covered = table.step()
        assert covered.tokens[2] is None, "the detector no longer reports this area as not seen"
        assert service.message(PUBLIC)["camera"]["status"] == "covered"
        assert service.message(PUBLIC)["pour_out"][2]["tokens"] == 3

    synthetic.scene = render.Scene(4, goblets, (), poured)
    for _ in range(10):
        if service.table.state.view(PUBLIC).get("results"):
            break
        steps(table, clock, 1)
    result = service.table.state.view(PUBLIC)["results"][0]
    assert [p["contents"] for p in result["places"]] == [poured[p] for p in range(4)]

    # The scene's ground truth, scored independently of the engine.
    truth = score_toast(houses, targets, {houses[p]: poured[p] for p in range(4)})
    assert service.table.state.results[0]["vp"] == [truth[h].vp for h in houses]
    assert [p["poisoned"] for p in result["places"]] == [truth[h].poisoned for h in houses]
    kinds = [e.action["type"] for e in service.store.entries(service.table.record.id)]
    assert kinds.count("reveal") == 1


def test_gathering_up_after_the_reveal_is_never_recorded_as_play(service, rig):
    """The camera's game draws the next Course's initial pour as soon as the Course starts, so
    the Course must not start while the players still carry their Goblets back: a Goblet set
    down again on its spot would be a Peek (docs/tracking.md, "Between Courses")."""
    table, synthetic, _, clock = rig
    houses = start(service, table, synthetic, clock)
    goblets = dict(enumerate(houses))
    seat = table.bridge.turn_seat()
    service.act({"type": "toast", "seat": seat}, by=Viewer.seat(seat))
    service.sensing.host_input({"input": "reveal"})
    poured = {p: {"wine": 1, "poison": p % 2} for p in range(4)}
    synthetic.scene = render.Scene(4, {}, (), poured)  # poured out, the Goblets held aside
    for _ in range(12):
        steps(table, clock, 1)
        if service.table.state.results:
            break
    assert service.table.state.results, "the Toast was not revealed"
    game = service.table.record.id
    revealed = len(service.store.entries(game))
    tracker = table.bridge.session.tracker
    for _ in range(30):  # the Goblets still aside, until the tracker has them lifted
        steps(table, clock, 1, dt=0.2)
        if all(tracker.location(g) is None for g in houses):
            break
    assert all(tracker.location(g) is None for g in houses)
    for back in range(4):  # set back on their spots one after another
        synthetic.scene = render.Scene(4, {p: goblets[p] for p in range(back + 1)}, (), poured)
        steps(table, clock, 2)
    synthetic.scene = render.Scene(4, goblets, (), {0: poured[0], 1: poured[1]})
    steps(table, clock, 3)
    assert service.table.state.phase == "initial_pour"  # tokens still lying out
    synthetic.scene = render.Scene(4, goblets)  # gathered up
    for _ in range(8):
        steps(table, clock, 1)
        if service.table.state.phase == "play":
            break
    after = [(e.action["type"], e.actor) for e in service.store.entries(game)[revealed:]]
    assert after and after[0] == ("initial_pour", "chance"), after
    assert not {"peek", "rotate", "swap"} & {kind for kind, _ in after}, after
    assert service.table.state.course == 2 and service.table.state.phase == "play"


def test_without_a_calibration_the_host_is_told_and_nothing_crashes(service, rig):
    table, _, _, clock = rig
    service.new_game("goblets", {"players": 4}, play="camera")
    steps(table, clock, 2)
    assert table.loop is None and table.tap.latest is not None  # frames kept for calibrating
    assert service.message(PUBLIC)["camera"] == {
        "fps": 0.0,
        "last_frame": None,
        "errors": 0,
        "status": "not calibrated",
    }
    assert service.message(HOST)["camera"]["status"] == "not calibrated"
    assert service.table.state.phase == "initial_pour"  # nothing read, nothing recorded
    assert table.frame_jpeg()[:2] == b"\xff\xd8"  # drawn (the API shows it between games)


def test_an_outline_only_calibration_needs_the_hosts_consent(service, tmp_path):
    clock = Clock()
    path = tmp_path / "vision-calibration.json"
    synthetic = SyntheticCamera(seed=2, seats=4, noise="realistic", size=SIZE)
    synthetic.scene = render.Scene(4)
    table = CameraTable(service, Defocused(synthetic), calibration_path=path, clock=clock)
    try:
        with pytest.raises(MalformedInput) as error:
            table.calibrate()
        assert error.value.field == "accept_ellipse"
        assert "accept_ellipse" in error.value.detail and "not found" in error.value.detail
        assert not path.exists() and table.calibration is None
        result = table.calibrate(accept_ellipse=True)
        assert result["method"] == "ellipse" and result["markers"] == {}
        assert "straight down" in result["warning"]
        assert json.loads(path.read_text())["method"] == "ellipse"
        assert table.view()["warning"] == result["warning"]
    finally:
        table.stop()
    # A restart loads the stored calibration.
    again = CameraTable(service, synthetic, calibration_path=path, clock=clock)
    try:
        assert again.calibration is not None and again.calibration.method == "ellipse"
    finally:
        again.stop()


def test_a_bad_calibration_file_is_refused_naming_the_field(service, tmp_path):
    path = tmp_path / "vision-calibration.json"
    path.write_text(json.dumps({"seats": 4, "image_size": [640, 480], "homography": [[1, 0]]}))
    synthetic = SyntheticCamera(seed=2, seats=4, noise="none", size=SIZE)
    with pytest.raises(MalformedInput) as error:
        CameraTable(service, synthetic, calibration_path=path)
    assert error.value.field == "calibration.homography"


def test_the_camera_play_is_offered_only_with_a_camera(service):
    state = service.games["goblets"].new_state({"players": 4, "characters": []})
    with pytest.raises(MalformedInput, match="--camera") as error:
        check_play("goblets", "camera", state, frozenset({"readers"}))
    assert error.value.field == "play"
    assert check_play("goblets", "camera", state, frozenset({"camera"})) == "camera"
    winetasters = service.games["goblets"].new_state({"players": 8, "characters": []})
    with pytest.raises(MalformedInput, match="the camera does not read Winetasters"):
        check_play("goblets", "camera", winetasters, frozenset({"camera"}))
    with pytest.raises(MalformedInput, match="--camera"):
        service.new_game("goblets", {"players": 4}, play="camera")


def test_a_camera_game_is_recorded_and_phones_say_only_pass_or_toast(service, rig):
    table, synthetic, _, clock = rig
    start(service, table, synthetic, clock)
    assert service.is_sensed(service.table.record)
    seat = table.bridge.turn_seat()
    with pytest.raises(IllegalAction, match="sensors"):
        rotate = {"type": "rotate", "seat": seat, "direction": "clockwise"}
        service.act(rotate, by=Viewer.seat(seat))
    assert table.bridge.actor == "camera" and table.bridge.session.reveal_apart


def test_camera_settings_are_validated_naming_the_field():
    loaded = config.from_mapping({"camera": {"source": "synthetic", "rate_hz": 2}})
    assert loaded.camera.is_configured and not loaded.is_virtual
    assert loaded.calibration_path == loaded.data_dir / "vision-calibration.json"
    assert loaded.camera.exposure == 0.0
    assert config.from_mapping({"camera": {"exposure": -2}}).camera.exposure == -2.0
    assert config.Config().camera.source is None and config.Config().is_virtual
    for bad, name in (
        ({"source": ""}, "camera.source"),
        ({"rate_hz": 0}, "camera.rate_hz"),
        ({"rate_hz": "fast"}, "camera.rate_hz"),
        ({"calibration": 3}, "camera.calibration"),
        ({"exposure": 8.5}, "camera.exposure"),
        ({"exposure": "darker"}, "camera.exposure"),
        ({"sorce": "auto"}, "camera.sorce"),
    ):
        with pytest.raises(MalformedInput) as error:
            config.from_mapping({"camera": bad})
        assert error.value.field == name


def test_serve_camera_starts_a_camera_game_and_stops_its_thread(tmp_path):
    """``companion serve --camera synthetic``: the camera is opened, a camera game started, the
    thread reads frames (the Host is told to calibrate) and stops when serve stops."""
    import argparse

    from companion.commands import serve

    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    args = parser.parse_args(["serve", "--data", str(tmp_path), "--camera", "synthetic"])
    settings = serve.build_config(args)
    assert settings.camera.source == "synthetic" and not settings.is_virtual
    assert parser.parse_args(["serve", "--camera"]).camera == "auto"
    svc = Service(settings, games=registry.load_all(), rng=random.Random(4))
    table = serve.start_camera(svc, settings)
    try:
        assert svc.camera is table and "camera" in svc.sensed_plays
        assert svc.table.record.play == "camera" and svc.table.record.game == "goblets"
        deadline = time.monotonic() + 10
        while table.tap.latest is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.tap.latest is not None  # the thread reads frames
        assert svc.message(PUBLIC)["camera"]["status"] == "not calibrated"
    finally:
        table.stop()
        svc.close()
    assert not table._thread.is_alive()
