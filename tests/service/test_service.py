"""The service: journal before publish, turn and mode checks, undo, resume, views only."""

from __future__ import annotations

import json
import random

import pytest
import shellgame

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import HOST, PUBLIC, Mode, Viewer
from companion.service import Closed, Service, VirtualTable
from companion.service.driver import step


def test_new_game_draws_and_journals_chance(service):
    message = service.new_game("shellgame", {"players": 3})
    assert message["to_move"] == 0
    entries = service.store.entries(message["game_id"])
    assert [e.action["type"] for e in entries] == ["initial_pour"]
    assert [e.actor for e in entries] == ["chance"]
    assert [p["taken"] for p in message["players"]] == [False, False, False]


def test_bad_game_and_options_are_typed(service):
    with pytest.raises(MalformedInput) as error:
        service.new_game("chess")
    assert error.value.field == "game"
    with pytest.raises(MalformedInput) as error:
        service.new_game("shellgame", {"players": 9})
    assert error.value.field == "players"
    assert service.store.games() == []


def test_seat_acts_only_on_its_turn_and_host_records(service):
    service.new_game("shellgame", {"players": 3})
    with pytest.raises(IllegalAction) as error:
        service.act({"type": "pass", "seat": 1}, by=Viewer.seat(1))
    assert "turn" in error.value.rule
    with pytest.raises(IllegalAction):
        service.act({"type": "pass", "seat": 0}, by=PUBLIC)
    with pytest.raises(MalformedInput):
        service.act("pass", by=Viewer.seat(0))
    message = service.act({"type": "pass", "seat": 0}, by=Viewer.seat(0))
    assert message["to_move"] == 1
    service.act({"type": "rotate", "seat": 1}, by=HOST, mode=Mode.RECORDING)
    entries = service.store.entries(message["game_id"])
    assert [e.mode for e in entries] == [Mode.ENFORCING, Mode.ENFORCING, Mode.RECORDING]
    assert [e.actor for e in entries] == ["chance", "seat 0", "host"]


def test_illegal_action_changes_nothing(service):
    game_id = service.new_game("shellgame", {"players": 3})["game_id"]
    before = json.dumps(service.message(HOST), sort_keys=True)
    with pytest.raises(IllegalAction):
        service.act({"type": "toast", "seat": 0}, by=Viewer.seat(0))
    assert json.dumps(service.message(HOST), sort_keys=True) == before
    assert len(service.store.entries(game_id)) == 1


def test_every_message_is_committed_before_it_is_published(service):
    service.new_game("shellgame", {"players": 3})
    subscriber = service.hub.subscribe(PUBLIC)
    seen = []
    original = service.store.append

    def append(*args, **kwargs):
        entry = original(*args, **kwargs)
        seen.append(("commit", entry.seq))
        return entry

    service.store.append = append
    service.act({"type": "pass", "seat": 0}, by=Viewer.seat(0))
    message = subscriber.take(1.0)
    assert seen == [("commit", message["seq"])]
    assert message["seq"] == service.store.entries(message["game_id"])[-1].seq


def test_undo_is_journaled_and_never_redraws_chance(service):
    game_id = service.new_game("shellgame", {"players": 3})["game_id"]
    with pytest.raises(IllegalAction, match="chance"):
        service.undo()  # only the initial pour so far: final
    service.act({"type": "rotate", "seat": 0}, by=Viewer.seat(0))
    before = service.message(Viewer.seat(1))
    service.act({"type": "pass", "seat": 1}, by=Viewer.seat(1))
    message = service.undo()
    assert message["to_move"] == 1
    assert service.message(Viewer.seat(1))["view"] == before["view"]
    types = [e.action["type"] for e in service.store.entries(game_id)]
    assert types == ["initial_pour", "rotate", "pass", "journal.undo"]


def test_resume_after_restart_replays_the_journal(settings, service):
    service.new_game("shellgame", {"players": 3})
    service.act({"type": "pour", "seat": 0, "cup": 2, "token": shellgame.uid(0, 1)}, by=HOST)
    service.act({"type": "pass", "seat": 1}, by=Viewer.seat(1))
    service.undo()
    code = service.table.record.join_code
    secret = service.claim_seat(code, 1, "Ben")
    views = {v: service.message(v) for v in (PUBLIC, HOST, Viewer.seat(0))}
    service.store.close()
    again = Service(settings, games={"shellgame": shellgame.GAME}, rng=random.Random(99))
    try:
        assert again.resume() is not None
        assert again.claim_of(secret).seat == 1  # the phone keeps its seat across the restart
        assert again.message(PUBLIC)["players"][1]["label"] == "Ben · Player 2"
        for viewer, message in views.items():
            assert again.message(viewer) == message
    finally:
        again.close()


def test_messages_go_through_views_only(service):
    service.new_game("shellgame", {"players": 3})
    service.act({"type": "pour", "seat": 0, "cup": 1, "token": shellgame.uid(0, 0)}, by=HOST)
    secret = [t for cup in service.table.state.cups for t in cup]
    for viewer in (PUBLIC, HOST, Viewer.seat(1), Viewer.seat(2)):
        text = json.dumps(service.message(viewer))
        assert not any(uid in text for uid in secret), viewer
    assert "legal" in service.message(Viewer.seat(1))
    assert "legal" not in service.message(HOST)


def test_export_only_when_over_and_timeline_after_reveal(service):
    game_id = service.new_game("shellgame", {"players": 2})["game_id"]
    with pytest.raises(IllegalAction):
        service.export(game_id)
    assert service.timeline(game_id)["frames"] == []
    for seat in (0, 1):
        service.act({"type": "pass", "seat": seat}, by=Viewer.seat(seat))
    message = service.act({"type": "toast", "seat": 0}, by=Viewer.seat(0))
    assert message["over"]
    assert service.store.game(game_id).is_finished
    exported = service.export(game_id)
    assert len(exported["journal"]["entries"]) == 4
    frames = service.timeline(game_id)["frames"]
    assert [f["action"]["type"] for f in frames] == ["initial_pour", "pass", "pass", "toast"]


def test_readers_health(service):
    service.set_reader(2, "online")
    service.set_reader(2, "broken")
    service.set_reader(2, "online")  # the Host's "broken" mark sticks
    assert service.message(PUBLIC)["readers"] == {"2": "broken"}
    with pytest.raises(MalformedInput):
        service.set_reader(1, "sleepy")


def test_virtual_table_plays_only_its_own_games(service):
    rng = random.Random(3)
    assert step(service, rng) == "off"  # no demo offered yet
    VirtualTable(service, pace=1.0)  # offers the demo (not started: stepped by hand here)
    assert step(service, rng) == "started"
    assert service.table.record.is_demo and service.table.record.join_code is None
    assert step(service, rng) == "played"
    assert service.store.entries(service.table.record.id)[-1].actor == "demo"
    service.new_game("shellgame", {"players": 3})  # a person's game: the demo stays away
    before = service.table.seq
    assert [step(service, rng) for _ in range(5)] == ["off"] * 5
    assert service.table.seq == before and not service.demo_on


def test_virtual_table_thread_plays_whole_games(service):
    driver = VirtualTable(service, pace=0.001, rng=random.Random(4)).start()
    subscriber = service.hub.subscribe(PUBLIC)
    try:
        for _ in range(2000):
            message = subscriber.take(5.0)
            if message and message.get("over"):
                break
        assert message["over"]
        assert "contents" in message["view"]  # revealed at the end
    finally:
        driver.stop()
    service.hub.close()
    with pytest.raises(Closed):
        subscriber.take(0.1)
