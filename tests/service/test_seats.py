"""Seats claimed with the game's join code: one device per seat, bound to its game, revoked at once.

Each test plays the part of a phone (or of the attacker holding a stale phone) against the real
service and its SQLite journal: a claim is checked under the service's lock, so nothing of a later
game, nor of a seat the Host freed, reaches the old device.
"""

from __future__ import annotations

import sqlite3

import pytest

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import PUBLIC, Viewer
from companion.service import Closed
from companion.service.seats import NotSeated


def start(service, **kwargs):
    service.new_game("shellgame", {"players": 3}, **kwargs)
    return service.table.record.join_code


def test_a_claim_gives_a_128_bit_secret_whose_digest_alone_is_kept(service, settings):
    code = start(service)
    secret = service.claim_seat(code, 1, "Anna")
    assert len(secret) >= 22  # 16 bytes of token_urlsafe: 128 bits
    assert service.claim_of(secret).seat == 1
    assert service.claim_of(secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None
    raw = (settings.data_dir / "journal.sqlite").read_bytes()
    raw += (settings.data_dir / "journal.sqlite-wal").read_bytes()
    assert secret.encode() not in raw  # the journal file opens no seat
    players = service.message(PUBLIC)["players"]
    assert players[1] == {
        "seat": 1,
        "name": "Anna",
        "seat_name": "Player 2",
        "label": "Anna · Player 2",
        "taken": True,
    }
    assert service.message(PUBLIC)["joinable"] is True


def test_the_code_is_read_as_typed_and_a_wrong_one_says_nothing_of_the_seats(service):
    code = start(service)
    typed = f"{code[:4].lower()}-{code[4:]}"
    assert service.claim_of(service.claim_seat(typed, 0, "Anna")).seat == 0
    for wrong in ("", None, 42, code[::-1], code + "X"):
        with pytest.raises(NotSeated) as refused:
            service.claim_seat(wrong, 1, "Ben")
        assert refused.value.status == 404
    with pytest.raises(NotSeated):
        service.claim_seat("nope", 0, "Ben")  # a taken seat: the same answer as a free one


def test_a_claimed_seat_cannot_be_taken_by_a_second_device(service):
    code = start(service)
    service.claim_seat(code, 2, "Anna")
    with pytest.raises(IllegalAction) as taken:
        service.claim_seat(code, 2, "Mallory")
    assert "Anna · Player 3 is taken" in str(taken.value) and "Host frees" in taken.value.rule
    with pytest.raises(IllegalAction, match="already at the table"):
        service.claim_seat(code, 0, "anna")
    for seat, name, field in (
        (5, "Ben", "seat"),
        (True, "Ben", "seat"),
        (0, "", "name"),
        (0, "x" * 25, "name"),
        (0, "Bo\x00b", "name"),
        (0, ["Ben"], "name"),
    ):
        with pytest.raises(MalformedInput) as bad:
            service.claim_seat(code, seat, name)
        assert bad.value.field == field
    assert [p["taken"] for p in service.message(PUBLIC)["players"]] == [False, False, True]


def test_every_seat_taken_closes_the_join(service):
    code = start(service)
    for seat, name in enumerate(("Anna", "Ben", "Chloe")):
        service.claim_seat(code, seat, name)
    assert service.message(PUBLIC)["joinable"] is False
    with pytest.raises(IllegalAction, match="taken"):
        service.claim_seat(code, 1, "Dan")


def test_freeing_a_seat_revokes_the_device_at_once(service):
    code = start(service)
    lost = service.claim_seat(code, 0, "Anna")
    claim = service.claim_of(lost)
    stream = service.subscribe(Viewer.seat(0), claim)
    assert stream.take(0.1)["you"]["label"] == "Anna · Player 1"
    service.free_seat(0)
    with pytest.raises(Closed) as closed:
        stream.take(0.1)
    assert closed.value.reason == "freed"
    assert service.claim_of(lost) is None
    before = service.table.seq
    with pytest.raises(NotSeated):
        service.act({"type": "pass", "seat": 0}, by=Viewer.seat(0), claim=claim)
    with pytest.raises(NotSeated):
        service.seat_message(claim)
    with pytest.raises(NotSeated):
        service.subscribe(Viewer.seat(0), claim)
    assert service.table.seq == before
    found = service.claim_of(service.claim_seat(code, 0, "Anna"))  # the new phone
    assert found.seat == 0 and found != claim


def test_a_new_game_ends_every_claim_of_the_old_one(service):
    code = start(service)
    secret = service.claim_seat(code, 1, "Ben")
    old = service.claim_of(secret)
    stream = service.subscribe(Viewer.seat(1), old)
    stream.take(0.1)
    public = service.subscribe(PUBLIC)
    public.take(0.1)
    start(service)
    with pytest.raises(Closed) as closed:
        stream.take(0.1)
    assert closed.value.reason == "new_game"
    assert public.take(0.1)["game_id"] == service.table.record.id  # the tablet follows
    assert service.claim_of(secret) is None
    with pytest.raises(NotSeated):
        service.seat_message(old)
    with pytest.raises(NotSeated):
        service.subscribe(Viewer.seat(1), old)
    before = service.table.seq
    # A claim read before the new game and used after it (a request in flight): refused.
    with pytest.raises(NotSeated):
        service.act({"type": "pass", "seat": 1}, by=Viewer.seat(1), claim=old)
    assert service.table.seq == before
    assert not any(p["taken"] for p in service.message(PUBLIC)["players"])


def test_the_hosts_names_label_the_seats_and_a_phone_keeps_them(service):
    code = start(service, names=["Anna", "", "Chloe"])
    players = service.message(PUBLIC)["players"]
    assert [p["label"] for p in players] == ["Anna · Player 1", "Player 2", "Chloe · Player 3"]
    assert not any(p["taken"] for p in players)
    service.claim_seat(code, 1, "Ben")
    assert service.message(PUBLIC)["players"][1]["label"] == "Ben · Player 2"
    with pytest.raises(MalformedInput, match="same name"):
        service.new_game("shellgame", {"players": 3}, names=["Anna", "anna"])
    with pytest.raises(MalformedInput):
        service.new_game("shellgame", {"players": 3}, names="Anna")


def test_refusals_name_the_player_to_act(service):
    start(service, names=["Anna"])
    with pytest.raises(IllegalAction) as refused:
        service.act({"type": "pass", "seat": 1}, by=Viewer.seat(1))
    assert str(refused.value).startswith("Anna · Player 1 is to act")


def test_a_demo_game_and_a_finished_game_take_no_phone(service):
    from companion.service import VirtualTable

    VirtualTable(service, pace=1.0)  # offers the demo
    service.new_game("shellgame", {"players": 2}, play="demo")
    assert service.table.record.join_code is None
    assert service.message(PUBLIC)["joinable"] is False
    with pytest.raises(NotSeated):
        service.claim_seat("ANYTHING", 0, "Anna")
    code = start(service)
    for seat in (0, 1, 2):
        service.act({"type": "pass", "seat": seat}, by=Viewer.seat(seat))
    service.act({"type": "toast", "seat": 0}, by=Viewer.seat(0))
    assert service.table.state.is_over()
    with pytest.raises(NotSeated):
        service.claim_seat(code, 0, "Anna")


def test_a_device_secret_in_two_seats_is_refused_by_the_journal(service):
    code = start(service)
    secret = service.claim_seat(code, 0, "Anna")
    digest = service.table.seats.devices[0]
    with pytest.raises(sqlite3.IntegrityError):
        service.store.set_seat(service.table.record.id, 1, name="X", device=digest, claimed=0.0)
    assert service.claim_of(secret).seat == 0


def test_bad_names_start_nothing_and_keep_the_game_in_play(service):
    start(service)
    game = service.table.record.id
    for names, field in ((["Anna", 7], "names[1]"), (["A"] * 4, "names"), ("Anna", "names")):
        with pytest.raises(MalformedInput) as bad:
            service.new_game("shellgame", {"players": 3}, names=names)
        assert bad.value.field == field
    assert service.table.record.id == game and not service.table.record.is_finished
    assert [record.id for record in service.store.games()] == [game]
