"""Russian Goblette played with the reader nodes through the service: the Host may start it so,
the service's sensed table takes the row's own session, and the journal is the hands' game.

The camera still refuses it, saying why.
"""

from __future__ import annotations

import random

import pytest

from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import Mode
from companion.core.games.goblets.sensed.russian_session import GobletteSession
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation
from companion.service.sensed_demo import ServiceSink
from companion.service.sensing import SensingBridge
from companion.service.setup import check_play
from companion.virtual import NOISE
from companion.virtual.goblette_puppet import GoblettePuppeteer
from companion.virtual.show import Show

OPTIONS = {"variant": "russian_goblette", "players": 2, "vp_to_win": 1}


def test_the_camera_refuses_russian_goblette_and_the_readers_take_it() -> None:
    state = registry.get("goblets").new_state(OPTIONS)
    plays = frozenset({"readers", "camera"})
    assert check_play("goblets", "readers", state, plays) == "readers"
    with pytest.raises(MalformedInput, match="six Goblets in a row") as error:
        check_play("goblets", "camera", state, plays)
    assert error.value.field == "variant"


def test_a_sensed_russian_goblette_game_is_journaled_as_played(sensed) -> None:
    service = sensed
    service.new_game("goblets", OPTIONS, play="readers")
    puppet = GoblettePuppeteer.new_game(random.Random(4), OPTIONS)
    layout = dict(enumerate(puppet.table.layout))
    bridge = SensingBridge(service, puppet.table.registry, layout)
    assert isinstance(bridge.session, GobletteSession)
    game_id = service.table.record.id
    Show(puppet, ServiceSink(service, bridge), NOISE["moderate"], random.Random(4)).play(
        lambda: puppet.is_over and service.table.state.is_over(), limit=2000
    )
    entries = service.store.entries(game_id)
    assert [e.action for e in entries] == puppet.actions
    assert {e.mode for e in entries} == {Mode.RECORDING}
    assert {e.actor for e in entries} <= {"readers", "seat 0", "seat 1", "host"}
    assert service.table.state.winners == puppet.engine.winners
    # The journal replays to the same game.
    replayed = registry.get("goblets").new_state(OPTIONS)
    for entry in entries:
        replayed.apply(entry.action, Mode.RECORDING)
    assert replayed.outcome() == service.table.state.outcome()


def test_the_host_confirms_one_drink_never_the_whole_row(sensed) -> None:
    # "Reveal as read now" takes every seat of the 4-6 player table as read; on the row each spot
    # taken would be one more player's drink, so the Host confirms the one spot drunk.
    service = sensed
    service.new_game("goblets", OPTIONS, play="readers")
    tags = TagRegistry()
    rings = [f"04AA0000000{p}" for p in range(6)]
    for p, uid in enumerate(rings):
        tags.add_ring(uid, f"g{p}")
    bridge = SensingBridge(service, tags, {p: f"g{p}" for p in range(6)})
    spots = [{uid} for uid in rings]
    clock = [0.0]

    def read(seconds: float) -> None:
        end = clock[0] + seconds
        while clock[0] < end:
            clock[0] = round(clock[0] + 0.1, 3)
            for p in range(6):
                bridge.observe(Observation(clock[0], p, frozenset(spots[p])))

    read(1.0)
    bridge.start_course()
    for p, kind in enumerate(["antidote", "poison", "poison", "wine", "wine", "wine"]):
        uid = f"04BB000000000{p}"
        tags.add_token(uid, kind)
        spots[p].add(uid)
        read(0.6)
    bridge.toast(1)
    bridge.end_turn(0)
    bridge.end_turn(1)
    read(0.5)
    assert service.table.state.phase == "drinking"
    journaled = len(service.store.entries(service.table.record.id))
    with pytest.raises(IllegalAction, match="one spot drunk"):
        bridge.confirm_all()
    assert len(service.store.entries(service.table.record.id)) == journaled
    bridge.confirm(4, {"wine": 1})
    entries = service.store.entries(service.table.record.id)
    assert [e.action for e in entries[journaled:]] == [{"type": "drink", "seat": 0, "place": 4}]
