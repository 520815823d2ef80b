"""Sensed play never freezes: the readers' worker and the Host share one lock, taken in one order.

Before, a reading being recorded held the sensed session's lock and then waited for the service's
(to journal the action), while the Host's act or undo held the service's and then waited for the
session's (to resync): the whole dashboard hung. The forced interleaving below hangs that code;
the stress test runs Host inputs against a live reader stream for thousands of interleavings. A
watchdog fails both instead of hanging the suite. And a resync keeps what the readers told: an
open conflict, a pending pass, the layout the tracker believes.
"""

from __future__ import annotations

import faulthandler
import random
import sys
import threading

import pytest

from companion import config
from companion.core import registry
from companion.core.errors import CupbearerError
from companion.core.game import HOST, Mode
from companion.core.games.goblets.sensed import SensedSession
from companion.core.observations import Observation
from companion.service import Service
from companion.service.sensing import SensingBridge
from companion.virtual import NOISE, Scenario, SimulatedReaders

WATCHDOG = 60.0
"""Seconds before a hung thread fails the test (each finishes in well under a second here)."""


@pytest.fixture
def table(tmp_path):
    settings = config.replace(config.Config(), data_dir=str(tmp_path))
    service = Service(settings, games=registry.load_all(), rng=random.Random(3))
    service.sense("readers")
    service.new_game("goblets", {"players": 4}, play="readers")
    scenario = Scenario.generate(random.Random(7), 4, specials=0.0)
    bridge = SensingBridge(service, scenario.registry, scenario.initial_layout())
    bridge.start_course()
    yield service, bridge, scenario
    service.close()


def join_all(threads):
    for thread in threads:
        thread.join(WATCHDOG)
    hung = [t.name for t in threads if t.is_alive()]
    if hung:
        faulthandler.dump_traceback(file=sys.stderr)
        pytest.fail(f"deadlock: {hung} still waiting after {WATCHDOG} s")


def test_a_reading_recorded_while_the_host_enters_an_action_does_not_deadlock(table, monkeypatch):
    service, bridge, scenario = table
    readings = list(SimulatedReaders(scenario, NOISE["none"], random.Random(1)).snapshots())
    inside, go = threading.Event(), threading.Event()
    accepted: list[int] = []
    observe = SensedSession.observe

    def slow_observe(session, obs):
        result = observe(session, obs)
        in_play = service.table.state.phase == "play" and bridge.turn_seat() is not None
        if result.applied and in_play and not inside.is_set():
            inside.set()  # read, about to be journaled: the reader holds the session
            go.wait(5.0)
        return result

    monkeypatch.setattr(SensedSession, "observe", slow_observe)

    def readers():
        for obs in readings:
            bridge.observe(obs)
            if inside.is_set() and go.is_set():
                return

    def host():
        inside.wait(5.0)
        threading.Timer(0.2, go.set).start()  # the reader goes on once the Host is in the act
        seat = bridge.turn_seat()
        service.act({"type": "peek", "seat": seat}, by=HOST, mode=Mode.RECORDING)  # a resync
        accepted.append(seat)

    threads = [threading.Thread(target=readers, name="readers"), threading.Thread(target=host)]
    threads[0].start()
    threads[1].start()
    join_all(threads)
    assert inside.is_set() and accepted  # the Host's entry was taken (and resynced)


def test_host_inputs_against_a_reader_stream_never_hang(table):
    service, bridge, scenario = table
    readings = list(SimulatedReaders(scenario, NOISE["moderate"], random.Random(2)).snapshots())
    done = threading.Event()
    rounds = [0]
    errors: list[BaseException] = []

    def readers():
        try:
            for obs in readings:
                bridge.observe(obs)
            bridge.advance(scenario.duration + 5)
        except BaseException as error:
            errors.append(error)
        finally:
            done.set()

    def host():
        rng = random.Random(3)
        while not done.is_set() or rounds[0] < 2000:
            rounds[0] += 1
            choice = rng.randrange(6)
            try:
                if choice == 0:
                    seat = bridge.turn_seat()
                    service.act({"type": "pass", "seat": seat}, by=HOST, mode=Mode.RECORDING)
                elif choice == 1:
                    service.undo()
                elif choice == 2:
                    bridge.host_input({"input": "pass", "seat": rng.randrange(4)})
                elif choice == 3:
                    bridge.fix_layout(dict(bridge.session.table.layout))
                elif choice == 4:
                    service.message(HOST)
                else:
                    service.publish()
            except CupbearerError:
                pass  # refused (not the turn, nothing to undo...): fine, it answered

    threads = [threading.Thread(target=readers, name="readers"), threading.Thread(target=host)]
    for thread in threads:
        thread.start()
    join_all(threads)
    assert errors == [] and rounds[0] >= 2000
    # The journal is still the game: replayed, it is the state the service shows.
    again = Service(service.config, store=service.store, games=service.games)
    again.resume()
    assert again.table.state.view(HOST) == service.table.state.view(HOST)


def test_a_resync_keeps_the_conflict_the_pending_pass_and_the_believed_layout(table):
    service, bridge, scenario = table
    t = 0.0
    for obs in SimulatedReaders(scenario, NOISE["none"], random.Random(4)).snapshots():
        bridge.observe(obs)  # the initial pour, then play
        t = obs.t
        if bridge.session.state.phase == "play" and bridge.turn_seat() is not None:
            break
    tags = scenario.registry.to_json()["tags"]
    rings = {tag["goblet"]: uid for uid, tag in tags.items() if tag["kind"] == "ring"}
    layout = dict(bridge.session.table.layout)
    seen = {place: [rings[name]] for place, name in layout.items()}
    seen[0], seen[1] = [rings[layout[0]], rings[layout[1]]], []  # two Goblets on one reader
    for step in range(1, 29):
        for seat, uids in seen.items():
            bridge.observe(Observation.of(t + step / 2, seat, uids))
    core = bridge.session.table
    assert core.conflict is not None
    believed = dict(core.layout)
    bridge.end_turn(bridge.turn_seat())  # waits: nothing advances during a conflict
    queued = list(core._queue)
    service.act({"type": "peek", "seat": bridge.turn_seat()}, by=HOST, mode=Mode.RECORDING)
    assert core.conflict is not None and dict(core.layout) == believed
    assert core._queue == queued
    assert bridge.session.state.view(HOST) == service.table.state.view(HOST)
