"""Readers and the camera fused (issue 13): a game played "readers" with the camera as a witness.

The readers are simulated snapshots of a table the test sets (a Course first played by noiseless
simulated readers, ``companion.virtual``); the camera is the virtual twin
(``vision.camera.SyntheticCamera``) behind a real :class:`CameraTable`, stepped frame by frame,
detector and all; the service journals to real SQLite. The two sources share the test's clock,
as the links' and the camera's monotonic clocks are one in ``companion serve``.
"""

from __future__ import annotations

import random

import pytest

from companion import config
from companion.core import registry
from companion.core.errors import AmbiguousObservation, IllegalAction
from companion.core.game import HOST, PUBLIC, Viewer
from companion.core.games.goblets.sensed.pour_out import PourOutConfig
from companion.core.observations import Observation
from companion.service import Service
from companion.service.camera import CameraTable
from companion.service.sensing import SensingBridge
from companion.virtual import NOISE, Scenario, SimulatedReaders
from vision import render
from vision.camera import SyntheticCamera

SIZE = (640, 480)
GRACE = 2.0


class Clock:
    """The one clock of both sources (seconds), moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def settings(tmp_path):
    return config.replace(config.Config(), data_dir=str(tmp_path))


def open_service(settings) -> Service:
    service = Service(settings, games=registry.load_all(), rng=random.Random(3))
    service.sense("readers")
    return service


class Rig:
    """A readers game after one played Course, with the camera calibrated beside the readers."""

    def __init__(self, service: Service, tmp_path, seed: int = 4) -> None:
        self.service = service
        service.new_game("goblets", {"players": 4}, play="readers")
        scenario = Scenario.generate(random.Random(seed), 4, specials=0.0)
        self.registry = scenario.registry
        self.bridge = SensingBridge(
            service,
            scenario.registry,
            scenario.initial_layout(),
            pour_out=PourOutConfig(settle=1.0, reads=3),
        )
        self.bridge.start_course()
        for obs in SimulatedReaders(scenario, NOISE["none"], random.Random(seed)).snapshots():
            self.bridge.observe(obs)
        self.bridge.advance(scenario.duration + 3)
        self.clock = Clock()
        self.synthetic = SyntheticCamera(seed=2, seats=4, noise="realistic", size=SIZE)
        self.camera = CameraTable(
            service,
            self.synthetic,
            calibration_path=tmp_path / "vision-calibration.json",
            clock=self.clock,
            grace=GRACE,
        )
        self.synthetic.scene = render.Scene(4)
        assert self.camera.calibrate()["method"] == "markers"
        self.layout = engine_layout(service)
        self.synthetic.scene = render.Scene(4, self.layout)

    def steps(self, n: int, readers: dict[int, str] | None, dt: float = 0.5) -> None:
        """``n`` frames, each with every seat's reader snapshot of ``readers`` (place -> Goblet;
        None: a reader snapshot of the tokens alone is the caller's)."""
        for _ in range(n):
            self.clock.now += dt
            if readers is not None:
                for seat, goblet in readers.items():
                    rings = self.registry.rings_of(goblet)
                    self.bridge.observe(Observation.of(self.clock.now, seat, rings))
            self.camera.step()

    def notices(self, kind: str) -> list[dict]:
        return [n for n in self.service.notices if n["kind"] == kind]

    def close(self) -> None:
        self.camera.stop()


def engine_layout(service) -> dict[int, str]:
    return {p["place"]: p["ring"] for p in service.table.state.view(PUBLIC)["places"]}


def swapped(layout: dict[int, str], a: int, b: int) -> dict[int, str]:
    out = dict(layout)
    out[a], out[b] = out[b], out[a]
    return out


@pytest.fixture
def rig(settings, tmp_path):
    service = open_service(settings)
    rig = Rig(service, tmp_path)
    yield rig
    rig.close()
    service.close()


def test_agreeing_sources_raise_nothing(rig):
    rig.steps(8, rig.layout)
    assert rig.camera.witness is not None and rig.camera.witness.bridge is rig.bridge
    assert rig.camera.witness.tracker.layout() == rig.layout
    assert rig.notices("disagreement") == []
    assert rig.service.message(HOST)["fusion"] == {"layouts": None, "counts": None}
    assert "fusion" not in rig.service.message(PUBLIC)


def test_a_move_only_the_camera_saw_is_settled_by_the_host_and_survives_a_restart(rig, settings):
    rig.steps(4, rig.layout)
    moved = swapped(rig.layout, 1, 3)  # a swap the readers did not see (a stuck reader node)
    rig.synthetic.scene = render.Scene(4, moved)
    rig.steps(3, rig.layout)  # 1.5 s: within the grace, no conflict yet
    assert rig.notices("disagreement") == []
    rig.steps(8, rig.layout)
    [notice] = rig.notices("disagreement")
    assert notice["detail"]["seats"] == [1, 3]
    assert notice["detail"]["readers"] == {str(s): n for s, n in rig.layout.items()}
    assert notice["detail"]["camera"] == {str(s): n for s, n in moved.items()}
    shown = rig.service.message(HOST)["fusion"]["layouts"]
    assert shown["seats"] == [1, 3] and shown["camera"] == notice["detail"]["camera"]
    # Secrecy: the conflict carries layouts only (who stands where, which everyone sees: the
    # readers' is the public view's), never a Goblet's contents; and only the Host gets it.
    assert set(notice["detail"]) == {"seats", "readers", "camera"}
    assert set(shown) == {"seats", "readers", "camera", "since"}
    public = {str(p["place"]): p["ring"] for p in rig.service.table.state.view(PUBLIC)["places"]}
    assert shown["readers"] == public
    seat_message = rig.service.message(Viewer.seat(0))
    assert "fusion" not in seat_message and "notices" not in seat_message
    assert "fusion" not in rig.service.message(PUBLIC)
    assert engine_layout(rig.service) == rig.layout  # nothing recorded meanwhile

    rig.service.sensing.host_input({"input": "settle", "source": "camera"})
    entries = rig.service.store.entries(rig.service.table.record.id)
    assert (entries[-1].action["type"], entries[-1].actor) == ("swap", "host")
    assert engine_layout(rig.service) == moved  # the game goes on with the camera's layout
    assert rig.service.message(HOST)["fusion"]["layouts"] is None
    with pytest.raises(AmbiguousObservation):
        rig.service.sensing.host_input({"input": "settle", "source": "camera"})
    seq = rig.service.table.seq
    rig.steps(8, moved)  # the readers read the table right again
    assert rig.service.table.seq == seq  # no move recorded twice
    assert len(rig.notices("disagreement")) == 1

    # A restart replays the Host's answer from the journal.
    game = rig.service.table.record.id
    rig.close()
    rig.service.close()
    again = open_service(settings)
    try:
        assert again.resume() is not None and again.table.record.id == game
        assert engine_layout(again) == moved
        bridge = SensingBridge(again, rig.registry)
        assert bridge.session.tracker.layout() == moved
    finally:
        again.close()


def test_when_the_readers_are_right_the_camera_is_put_right_and_not_asked_again(
    rig, settings, tmp_path
):
    rig.steps(2, rig.layout)
    misread = swapped(rig.layout, 0, 2)  # the camera sees what is not there (a misread ring)
    rig.synthetic.scene = render.Scene(4, misread)
    rig.steps(10, rig.layout)
    assert len(rig.notices("disagreement")) == 1
    seq = rig.service.table.seq
    rig.service.sensing.host_input({"input": "settle", "source": "readers"})
    assert rig.service.table.seq == seq  # the engine already had the readers' layout
    assert engine_layout(rig.service) == rig.layout
    rig.steps(6, rig.layout)  # the camera goes on misreading the same: asked no more
    assert len(rig.notices("disagreement")) == 1
    assert rig.service.message(HOST)["fusion"]["layouts"] is None

    # Nor after a restart: the ruling is kept with the table (SQLite), not only in memory.
    rig.close()
    rig.service.close()
    again = open_service(settings)
    camera = None
    try:
        again.resume()
        rig.service, rig.bridge = again, SensingBridge(again, rig.registry)
        rig.synthetic = SyntheticCamera(seed=2, seats=4, noise="realistic", size=SIZE)
        rig.synthetic.scene = render.Scene(4, misread)
        camera = rig.camera = CameraTable(
            again,
            rig.synthetic,
            calibration_path=tmp_path / "vision-calibration.json",
            clock=rig.clock,
            grace=GRACE,
        )
        rig.steps(10, rig.layout)
        assert camera.witness is not None and camera.witness.tracker.layout() == misread
        assert rig.notices("disagreement") == []
    finally:
        if camera is not None:
            camera.stop()
        again.close()


def test_a_covered_camera_is_no_disagreement(rig):
    rig.steps(4, rig.layout)
    moved = swapped(rig.layout, 1, 2)
    # The readers see the swap while a hand hides two of the camera's rings (no ring at seats 1
    # and 2 in any frame): the camera compares nothing, and no conflict is raised.
    rig.synthetic.scene = render.Scene(4, {0: rig.layout[0], 3: rig.layout[3]})
    rig.steps(12, moved)
    assert engine_layout(rig.service) == moved  # recorded from the readers
    assert rig.notices("disagreement") == []


def test_the_reveal_waits_for_the_host_where_the_two_counts_differ(rig):
    rig.steps(4, rig.layout)
    bridge, service = rig.bridge, rig.service
    with pytest.raises(IllegalAction):
        service.sensing.host_input({"input": "pick", "place": 0, "source": "camera"})
    seat = bridge.turn_seat()
    service.act({"type": "toast", "seat": seat}, by=Viewer.seat(seat))
    service.sensing.host_input({"input": "reveal"})

    tokens: dict[str, list[str]] = {}
    for uid, tag in rig.registry.to_json()["tags"].items():
        if tag["kind"] == "token":
            tokens.setdefault(tag["token"], []).append(uid)
    poured = {0: {"wine": 2, "poison": 1}, 1: {"antidote": 1}, 2: {"wine": 1}, 3: {}}
    on_readers = {**poured, 1: {"antidote": 1, "wine": 1}}  # a Wine the camera does not see
    taken: dict[int, set[str]] = {}
    used = {kind: 0 for kind in tokens}
    for place, counts in on_readers.items():
        taken[place] = set()
        for kind, n in counts.items():
            taken[place].update(tokens[kind][used[kind] : used[kind] + n])
            used[kind] += n
    rig.synthetic.scene = render.Scene(4, rig.layout, (), poured)
    for _ in range(12):  # the Goblets set aside, their tokens flat on the readers
        rig.clock.now += 0.25
        for place, uids in taken.items():
            bridge.observe(Observation.of(rig.clock.now, place, uids))
        rig.camera.step()

    statuses = [s["status"] for s in service.message(PUBLIC)["pour_out"]]
    assert statuses == ["settled", "differs", "settled", "settled"]
    assert service.table.state.phase == "play"  # not revealed: seat 1 waits for the Host
    counts = service.message(HOST)["fusion"]["counts"]
    assert counts == [{"place": 1, "readers": {"antidote": 1, "wine": 1}, "camera": poured[1]}]
    assert "fusion" not in service.message(PUBLIC)
    assert [n["place"] for n in rig.notices("count_differs")] == [1]
    service.sensing.host_input({"input": "confirm_all"})  # never takes a differing seat as read
    assert service.table.state.phase == "play"

    service.sensing.host_input({"input": "pick", "place": 1, "source": "camera"})
    result = service.table.state.view(PUBLIC)["results"][0]
    assert [p["contents"] for p in result["places"]] == [poured[p] for p in range(4)]
    assert service.message(HOST)["fusion"]["counts"] is None  # shown only while pouring out


def test_the_grace_is_a_setting_serve_hands_to_the_camera(tmp_path):
    from companion.commands import serve
    from companion.core.errors import MalformedInput

    with pytest.raises(MalformedInput) as error:
        config.from_mapping({"sensing": {"fusion_grace": 0}})
    assert error.value.field == "sensing.fusion_grace"
    settings = config.from_mapping(
        {
            "data_dir": str(tmp_path),
            "camera": {"source": "synthetic"},
            "sensing": {"fusion_grace": 1.5},
        }
    )
    service = Service(settings, games=registry.load_all(), rng=random.Random(4))
    table = serve.start_camera(service, settings)
    try:
        assert table.fusion.grace == 1.5
    finally:
        table.stop()
        service.close()
