"""Russian Goblette played with the reader nodes through the service: the Host may start it so,
the service's sensed table takes the row's own session, and the journal is the hands' game.

The camera still refuses it, saying why.
"""

from __future__ import annotations

import random

import pytest

from companion.core import registry
from companion.core.errors import MalformedInput
from companion.core.game import Mode
from companion.core.sensed.russian_session import GobletteSession
from companion.service import Service
from companion.service.sensed_demo import ServiceSink
from companion.service.sensing import SensedTable
from companion.service.setup import check_play
from companion.virtual import NOISE
from companion.virtual.goblette_puppet import GoblettePuppeteer
from companion.virtual.show import Show

OPTIONS = {"variant": "russian_goblette", "players": 2, "vp_to_win": 1}


@pytest.fixture
def sensed(settings):
    service = Service(settings, games=registry.load_all(), rng=random.Random(3))
    service.sense("readers")
    yield service
    service.close()


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
    bridge = SensedTable(service, puppet.table.registry, layout)
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
