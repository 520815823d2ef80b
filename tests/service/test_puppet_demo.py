"""The default virtual table of ``companion serve``: a legal puppet game, read by simulated readers
through the tracker and the sensed session into the journal. On a fast clock (``virtual.speed``)
it plays whole Courses to the reveal and game after game with no rule warning in the public feed,
and a restart mid-Course takes the same game up where the journal left it."""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import urllib.request

import polling
import pytest
from serve_process import served_port, start_serve

from companion import config
from companion.commands import serve as serve_command
from companion.commands.serve import start_virtual_table
from companion.core import registry
from companion.core.errors import MalformedInput
from companion.core.game import PUBLIC, Mode
from companion.service import Service
from companion.store.journal import JournalStore, live_entries


def settings(tmp_path, **changes):
    return config.replace(
        config.Config(),
        data_dir=str(tmp_path),
        **{"virtual.speed": 300.0, "virtual.restart_after": 0.1, **changes},
    )


def resume(conf) -> Service:
    """What ``companion serve`` does first: the service (its journal's game is resumed by
    ``start_virtual_table``, once the demo has said its games are read by simulated readers)."""
    return Service(conf, rng=random.Random(11))


def serve(conf) -> tuple[Service, object]:
    """What ``companion serve`` does without hardware (minus the web server)."""
    service = resume(conf)
    return service, start_virtual_table(service, conf)


def wait_for(predicate, seconds: float = 60.0) -> None:
    assert polling.wait_for(predicate, seconds, 0.02), "the virtual table did not get there in time"


def replay_enforcing(store: JournalStore, game_id: int):
    """The game's journal replayed with every rule enforced: the puppet game was legal."""
    record = store.game(game_id)
    state = registry.get("goblets").new_state(record.options)
    warnings = []
    for entry in live_entries(store.entries(game_id)):
        assert entry.mode is Mode.RECORDING
        events = state.apply(entry.action, Mode.ENFORCING)
        warnings += [e for e in events if e.get("event") == "rule_warning"]
    return state, warnings


def test_the_default_virtual_table_plays_legal_games_one_after_another(tmp_path):
    conf = settings(tmp_path)
    assert conf.virtual.mode == "sensed" and conf.is_virtual  # the defaults of companion serve
    service, demo = serve(conf)
    public_warnings = []
    try:
        first = service.table.record.id

        def second_game_revealed() -> bool:
            message = service.message(PUBLIC)
            public_warnings.extend(
                e for e in message.get("events", []) if e.get("event") == "rule_warning"
            )
            view = message.get("view") or {}
            return message["game_id"] != first and bool(view.get("results"))

        wait_for(second_game_revealed)
    finally:
        demo.stop()
    assert public_warnings == []
    state, warnings = replay_enforcing(service.store, first)
    assert warnings == [] and state.warnings == []
    assert state.is_over() and len(state.results) == 3
    assert state.outcome() == service.store.game(first).outcome
    kinds = {e.action["type"] for e in service.store.entries(first)}
    assert {"initial_pour", "deal_targets", "pour", "toast", "reveal"} <= kinds
    assert {n["kind"] for n in service.notices} <= {"shootout"}
    assert demo.show.puppet.desyncs == 0
    assert service.message(PUBLIC)["readers"] == {str(s): "virtual" for s in range(4)}
    service.close()


def test_a_restart_mid_course_takes_the_same_game_up(tmp_path):
    conf = settings(tmp_path, **{"virtual.speed": 150.0})
    service, demo = serve(conf)
    try:
        game = service.table.record.id

        def mid_course() -> bool:
            state = service.table.state
            poured = sum(sum(g.values()) for g in state.goblets)
            return state.phase == "play" and state.stage == "turns" and poured >= 8

        wait_for(mid_course)
    finally:
        demo.stop()
    stopped_at = service.table.seq
    course = service.table.state.course
    service.close()

    service = resume(conf)  # the restart: the journal is replayed ...
    demo = start_virtual_table(service, conf)  # ... and the demo takes the Course up
    assert service.table.record.id == game and service.table.seq >= stopped_at
    assert service.table.state.course == course
    try:
        wait_for(lambda: len(service.table.state.results) >= course)
    finally:
        demo.stop()
    assert service.table.record.id == game
    state, warnings = replay_enforcing(service.store, game)
    assert warnings == [] and state.warnings == []
    # Nothing poured twice: the tracker knew the tokens already in the Goblets, so at the reveal
    # its contents were the journal's (else a contents_mismatch notice and a corrected reveal).
    reveals = [e.action for e in service.store.entries(game) if e.action["type"] == "reveal"]
    assert all("goblets" not in action for action in reveals)
    assert [n["kind"] for n in service.notices] == []
    assert demo.show.puppet.desyncs == 0
    service.close()


def test_a_game_the_puppeteer_cannot_play_is_refused_at_start_by_name(tmp_path):
    # Raise Your Memory's Goblets have no Coaster rings to follow (the puppeteer plays every
    # other variant, Winetasters and Characters included).
    conf = settings(tmp_path, **{"game.options": {"players": 5, "raise_your_memory": True}})
    service = resume(conf)
    with pytest.raises(MalformedInput, match="--virtual engine") as error:
        start_virtual_table(service, conf)
    assert error.value.field == "raise_your_memory"
    service.close()


def test_the_noise_of_the_simulated_readers_is_a_serve_option(tmp_path):
    parser = argparse.ArgumentParser()
    serve_command.register(parser.add_subparsers())
    args = parser.parse_args(["serve", "--data", str(tmp_path), "--noise", "heavy"])
    assert serve_command.build_config(args).virtual.noise == "heavy"


def test_kill_9_of_companion_serve_mid_course_then_the_demo_goes_on(tmp_path):
    def start() -> tuple[subprocess.Popen, str]:
        process = start_serve(tmp_path, "--speed", "60")
        return process, f"http://127.0.0.1:{served_port(process)}/api/state?viewer=public"

    def state(url: str) -> dict:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return json.loads(reply.read())

    def stop(process: subprocess.Popen, kill: bool) -> None:
        process.kill() if kill else process.terminate()
        process.wait(timeout=20)
        process.stdout.close()

    def mid_course(url: str) -> bool:
        shown = state(url)
        return shown["view"]["stage"] == "turns" and shown["seq"] >= 12

    process, url = start()
    try:
        wait_for(lambda: mid_course(url))
    finally:
        stop(process, kill=True)  # kill -9, mid-Course
    process, url = start()
    try:
        resumed = state(url)
        course = resumed["view"]["course"]
        assert resumed["seq"] >= 12 and not resumed["over"]
        wait_for(lambda: len(state(url)["view"]["results"]) >= course)  # that Course revealed
        shown = state(url)
    finally:
        stop(process, kill=False)
    assert shown["game_id"] == resumed["game_id"] and shown["view"]["warnings"] == []
    with JournalStore(tmp_path / "journal.sqlite") as store:
        legal, warnings = replay_enforcing(store, shown["game_id"])
    assert warnings == [] and len(legal.results) >= course
