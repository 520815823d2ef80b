"""The demo table is an attract mode: it plays only its own games, a person's game switches it off
(across restarts too) until the Host switches it on, and no virtual actor ever acts in a game a
person started. Both demo drivers run as threads against the real service and journal here."""

from __future__ import annotations

import random
import time

import pytest

from companion import config
from companion.core import registry
from companion.core.errors import IllegalAction
from companion.core.game import HOST, PUBLIC, Viewer
from companion.service import Service, VirtualTable
from companion.service.sensed_demo import SensedDemo


@pytest.fixture
def conf(tmp_path):
    return config.replace(
        config.Config(),
        data_dir=str(tmp_path),
        **{"virtual.restart_after": 0.05, "virtual.pace": 0.01},
    )


def actors(service, game_id):
    return [entry.actor for entry in service.store.entries(game_id)]


def wait_until(predicate, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.parametrize("game", ["cena", "tribunal", "goblets"])
def test_the_sensed_demo_never_takes_a_persons_game_back(conf, game):
    service = Service(conf, games=registry.load_all(), rng=random.Random(1))
    demo = SensedDemo(service, speed=300.0, noise="none", rng=random.Random(2)).start()
    try:
        assert wait_until(lambda: service.table is not None and service.table.seq > 10)
        demo_game = service.table.record.id
        assert service.table.record.is_demo and service.demo_on
        service.new_game(game, {"players": 4} if game != "tribunal" else {})
        mine = service.table.record.id
        time.sleep(1.5)  # the demo took the table back within a second before
        assert service.table.record.id == mine and service.table.record.game == game
        assert set(actors(service, mine)) <= {"chance"}  # nobody acted but the deal
        assert not service.demo_on and service.store.game(demo_game).outcome["abandoned"]
    finally:
        demo.stop()


def test_the_engine_demo_never_plays_a_persons_trial(conf):
    service = Service(conf, games=registry.load_all(), rng=random.Random(3))
    driver = VirtualTable(service, pace=0.005, rng=random.Random(4)).start()
    try:
        assert wait_until(lambda: service.table is not None and service.table.seq > 5)
        service.new_game("tribunal", {})
        mine = service.table.record.id
        time.sleep(0.5)
        assert service.table.record.id == mine
        assert set(actors(service, mine)) == {"chance"}  # the shuffle, nothing else
        assert service.message(PUBLIC)["to_move"] == 0  # waiting for the Judge
    finally:
        driver.stop()


def test_a_demo_action_is_refused_in_a_persons_game(conf):
    service = Service(conf, games=registry.load_all(), rng=random.Random(5))
    VirtualTable(service, pace=1.0)
    service.new_game("goblets", {"players": 4})
    seat = service.table.state.to_move()
    before = service.table.seq
    with pytest.raises(IllegalAction, match="person's"):
        service.act({"type": "pass", "seat": seat}, by=HOST, actor="demo")
    with pytest.raises(IllegalAction):
        service.new_game("goblets", {"players": 4}, play="demo")
    assert service.table.seq == before and not service.table.record.is_demo


def test_the_switch_survives_a_restart_and_turns_the_demo_back_on(conf):
    service = Service(conf, games=registry.load_all(), rng=random.Random(6))
    VirtualTable(service, pace=1.0)
    assert service.demo_on  # a table that has played nothing: the demo may play
    service.new_game("cena", {"players": 3}, names=["Anna", "Ben", "Chloe"])
    game = service.table.record.id
    service.close()

    again = Service(conf, games=registry.load_all(), rng=random.Random(7))
    VirtualTable(again, pace=1.0)
    again.resume()
    assert not again.demo_on and again.table.record.id == game  # the people's game, untouched
    assert again.message(PUBLIC)["players"][0]["label"] == "Anna · House 1"
    again.set_demo(True)
    assert again.demo_on and again.table is None
    assert again.store.game(game).outcome["abandoned"]
    again.new_game("cena", {"players": 3}, play="demo")
    assert again.table.record.is_demo
    again.set_demo(False)  # the demo's own game goes with it
    assert again.table is None and not again.demo_on
    again.close()


def test_without_a_demo_driver_there_is_no_switch(conf):
    service = Service(conf, games=registry.load_all(), rng=random.Random(8))
    assert not service.demo_on
    with pytest.raises(IllegalAction, match="no demo"):
        service.set_demo(True)
    assert service.message(HOST)["demo_available"] is False


def test_the_judge_draws_each_cube_by_tapping(conf):
    service = Service(conf, games=registry.load_all(), rng=random.Random(9))
    service.new_game("tribunal", {})
    judge = Viewer.seat(0)
    service.act({"type": "hear"}, by=judge)
    service.act({"type": "verdict", "verdict": "guilty"}, by=judge)
    message = service.message(judge)
    assert message["to_move"] == 0 and message["legal"] == [{"type": "draw"}]
    before = service.table.seq
    time.sleep(0.05)
    assert service.table.seq == before  # the service does not draw for the Judge
    with pytest.raises(IllegalAction, match="the bag"):
        service.act({"type": "draw", "cube": "red"}, by=judge)  # no choosing the cube
    service.act({"type": "draw"}, by=judge)
    entry = service.store.entries(service.table.record.id)[-1]
    assert entry.action["type"] == "draw" and entry.action["cube"] in ("red", "white", "blue")
    assert entry.actor == "chance"
    with pytest.raises(IllegalAction, match="chance"):
        service.undo()  # a draw is final


def test_the_demos_courtroom_draws_by_itself(conf):
    service = Service(conf, games=registry.load_all(), rng=random.Random(10))
    VirtualTable(service, pace=1.0)
    service.new_game("tribunal", {}, play="demo")
    service.act({"type": "hear"}, by=HOST, actor="demo")
    service.act({"type": "verdict", "verdict": "guilty"}, by=HOST, actor="demo")
    assert service.table.live[-1].action["type"] == "draw"  # nobody to tap the bag
