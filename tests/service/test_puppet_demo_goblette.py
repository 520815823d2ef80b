"""The default virtual table plays Russian Goblette (``game.options`` players 2): the Goblette
puppeteer on six spots in a row, read by simulated readers through the service's sensed table
into the journal; a legal game, no rule warning, and a restart mid-Course takes it up."""

from __future__ import annotations

import random

import polling

from companion import config
from companion.commands.serve import start_virtual_table
from companion.core import registry
from companion.core.game import Mode
from companion.core.games.goblets.russian import RussianState
from companion.service import Service
from companion.store.journal import live_entries
from companion.virtual.goblette_puppet import GoblettePuppeteer

OPTIONS = {"players": 2, "vp_to_win": 1}


def settings(tmp_path, **changes):
    return config.replace(
        config.Config(),
        data_dir=str(tmp_path),
        **{
            "virtual.speed": 400.0,
            "virtual.restart_after": 0.1,
            "game.options": OPTIONS,
            **changes,
        },
    )


def wait_for(predicate, seconds: float = 60.0) -> None:
    assert polling.wait_for(predicate, seconds, 0.02), "the virtual table did not get there in time"


def replay_enforcing(service: Service, game_id: int) -> list:
    """The journal replayed with every rule enforced (refused if any action were illegal)."""
    state = registry.get("goblets").new_state(service.store.game(game_id).options)
    events = []
    for entry in live_entries(service.store.entries(game_id)):
        assert entry.mode is Mode.RECORDING
        events += state.apply(entry.action, Mode.ENFORCING)
    assert state.is_over()
    return events


def test_the_virtual_table_plays_russian_goblette_legally(tmp_path):
    service = Service(settings(tmp_path), rng=random.Random(5))
    demo = start_virtual_table(service, settings(tmp_path))
    try:
        first = service.table.record.id
        assert isinstance(service.table.state, RussianState)  # 2 players: Russian Goblette
        wait_for(lambda: service.table.record.id != first)
    finally:
        demo.stop()
    events = replay_enforcing(service, first)
    assert [e for e in events if e.get("event") == "rule_warning"] == []
    kinds = {e.action["type"] for e in service.store.entries(first)}
    assert {"initial_pour", "pour", "toast", "drink"} <= kinds
    assert isinstance(demo.show.puppet, GoblettePuppeteer) and demo.show.puppet.desyncs == 0
    assert [n["kind"] for n in service.notices] == []
    service.close()


def test_a_restart_mid_course_takes_the_row_up(tmp_path):
    conf = settings(tmp_path)
    service = Service(conf, rng=random.Random(6))
    demo = start_virtual_table(service, conf)
    try:
        game = service.table.record.id

        def mid_course() -> bool:
            state = service.table.state
            return state.phase == "turns" and sum(sum(g.values()) for g in state.goblets) >= 9

        wait_for(mid_course)
    finally:
        demo.stop()
    service.close()
    service = Service(conf, rng=random.Random(7))  # the restart: the journal is replayed ...
    demo = start_virtual_table(service, conf)  # ... and the row is set out as it says
    try:
        wait_for(lambda: service.table.record.id != game)
    finally:
        demo.stop()
    events = replay_enforcing(service, game)
    assert [e for e in events if e.get("event") == "rule_warning"] == []
    assert [n["kind"] for n in service.notices] == []
    service.close()
