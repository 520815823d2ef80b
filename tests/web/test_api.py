"""The JSON API through Flask's test client: auth, CSRF, typed errors, seat isolation, SSE."""

from __future__ import annotations

import json

import pytest
import shellgame
from webhelpers import PIN, csrf_of, join, join_all


def test_pages_render(app, client, service):
    phone = join(app, 0, "Anna")
    code = service.table.record.join_code
    for url in (
        "/",
        "/history",
        "/host",
        "/courtroom",
        "/cena",
        f"/join/{code}",
        "/join",
        "/history/1",
        "/host/characters",
    ):
        reply = client.get(url)
        assert reply.status_code == 200, url
        assert b"<!doctype html>" in reply.data
        assert reply.headers["Referrer-Policy"] == "no-referrer"
    seat = phone.client.get("/seat")
    assert seat.status_code == 200 and b"<!doctype html>" in seat.data
    assert client.get("/seat").status_code == 403  # no seat cookie: the way to join, no seat
    assert client.get("/seat/anything").status_code == 404
    shown = f"{code[:4]}-{code[4:]}"
    assert shown.encode() in client.get("/").data  # the tablet shows the one join code
    cookie = phone.client.get_cookie("cupbearer_seat")
    assert cookie.http_only and cookie.same_site == "Strict"
    assert cookie.value.encode() not in client.get("/").data


def test_public_state_is_the_public_view(client, service):
    data = client.get("/api/state").get_json()
    assert data["viewer"] == {"kind": "public", "index": None}
    assert data["game"] == "shellgame"
    assert "legal" not in data
    assert "supply" not in data["view"]


def test_host_login_sets_strict_httponly_cookie(app):
    client = app.test_client()
    token = csrf_of(client)
    reply = client.post("/api/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert reply.status_code == 200
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert client.get("/api/host/state").status_code == 200


def test_host_pin_guessing_is_slowed_and_the_host_keeps_a_way_in(app):
    now = [1000.0]
    gate = app.extensions["cupbearer"].gate
    gate._clock = lambda: now[0]  # modelled time: no test waits for real
    client = app.test_client()
    token = csrf_of(client)

    def login(pin):
        return client.post("/api/host/login", json={"pin": pin}, headers={"X-CSRF-Token": token})

    for _ in range(5):
        assert login("0000").status_code == 401
    reply = login(PIN)  # within the wait: refused unchecked, even the right PIN
    assert reply.status_code == 429 and "wait" in reply.get_json()["error"]
    assert client.get("/api/host/state").status_code == 401
    waits = []
    for _ in range(8):  # a guesser at the tablet's address keeps trying: the waits grow, capped
        now[0] += gate.retry_after("127.0.0.1")
        waits.append(gate.retry_after("127.0.0.1"))
        assert login("1111").status_code == 401
        waits.append(gate.retry_after("127.0.0.1"))
    assert max(waits) == gate.lockout and waits[1] < waits[3] < gate.lockout
    now[0] += gate.retry_after("127.0.0.1")  # at most `lockout` seconds later:
    assert login(PIN).status_code == 200  # the Host is in
    assert client.get("/api/host/state").status_code == 200


def test_csrf_is_required_on_every_state_changing_request(app, host, service):
    client, _ = host
    assert client.post("/api/host/undo", json={}).status_code == 403
    assert client.post("/api/host/undo", json={}, headers={"X-CSRF-Token": "x"}).status_code == 403
    reply = client.post("/api/host/login", json={"pin": PIN})
    assert reply.status_code == 403
    assert reply.get_json()["field"] == "X-CSRF-Token"
    phone = join(app, 0)
    assert phone.act({"type": "pass", "seat": 0}, csrf="").status_code == 403
    assert phone.act({"type": "pass", "seat": 0}, csrf=csrf_of(phone.client)).status_code == 403
    assert phone.client.post("/api/join", json={}).status_code == 403


def test_host_routes_refuse_seats_and_strangers(app, service):
    client = app.test_client()
    token = csrf_of(client)
    for url in ("/api/host/game", "/api/host/act", "/api/host/undo", "/api/host/reader"):
        reply = client.post(url, json={}, headers={"X-CSRF-Token": token})
        assert reply.status_code == 401, url
    for url in ("/api/host/join", "/api/host/state", "/api/host/characters"):
        assert client.get(url).status_code == 401, url
    for url in ("/api/host/seats/free", "/api/host/demo"):
        assert client.post(url, json={}, headers={"X-CSRF-Token": token}).status_code == 401
    assert (
        client.put("/api/host/characters", json={}, headers={"X-CSRF-Token": token}).status_code
        == 401
    )
    assert client.get("/api/stream?viewer=host").status_code == 401


def test_seat_plays_with_typed_errors(app, client, service):
    phones = join_all(app)
    reply = phones[1].act({"type": "pass", "seat": 1})
    assert reply.status_code == 409
    assert reply.get_json()["rule"] == "Each player acts only on their own turn."
    assert reply.get_json()["error"] == "Player0 · Player 1 is to act"
    reply = phones[0].act({"type": "toast", "seat": 0})
    assert reply.status_code == 409
    assert reply.get_json()["rule"]
    reply = phones[0].act("pass")
    assert reply.status_code == 400
    assert reply.get_json()["field"] == "type"
    reply = phones[0].act({"type": "pass", "seat": 0})
    assert reply.status_code == 200
    assert reply.get_json()["to_move"] == 1
    assert service.store.entries(service.table.record.id)[-1].actor == "seat 0"


def test_never_a_500_for_bad_input(app, host, service):
    client, token = host
    phone = join(app, 0)
    bodies = [
        b"",
        b"not json",
        b"[]",
        b"null",
        b'{"action": 5}',
        b'{"action": {"type": 7}}',
        b'{"game": 3}',
        b'{"game": "shellgame", "options": []}',
        b"{" * 5000,
    ]
    urls = {
        "/api/host/game": (client, token),
        "/api/host/act": (client, token),
        "/api/host/reader": (client, token),
        "/api/host/seats/free": (client, token),
        "/api/host/demo": (client, token),
        "/api/join": (client, token),
        "/api/seat/act": (phone.client, phone.csrf),
    }
    for url, (sender, header) in urls.items():
        for body in bodies:
            reply = sender.post(
                url, data=body, content_type="application/json", headers={"X-CSRF-Token": header}
            )
            assert 400 <= reply.status_code < 500, (url, body[:20], reply.status_code)
            assert "error" in reply.get_json()
    for body in [*bodies, b'{"cards": [{"name": 5}]}', b'{"cards": []}']:
        reply = client.put(
            "/api/host/characters",
            data=body,
            content_type="application/json",
            headers={"X-CSRF-Token": token},
        )
        assert 400 <= reply.status_code < 500, (body[:20], reply.status_code)
    reply = client.post("/api/host/act", data="x=1", headers={"X-CSRF-Token": token})
    assert reply.status_code == 400
    assert (
        client.post(
            "/api/host/act",
            data=b"x" * 70_000,
            headers={"X-CSRF-Token": token},
            content_type="application/json",
        ).status_code
        == 413
    )
    assert client.get("/api/games/999/timeline").status_code == 404
    assert client.get("/api/stream?viewer=seat").status_code == 403
    assert client.get("/api/stream?viewer=god").status_code == 400


def test_a_phone_sees_only_its_own_seat(app, service):
    phones = join_all(app)
    service.act(
        {"type": "pour", "seat": 0, "cup": 1, "token": shellgame.uid(0, 2)}, by=service_seat(0)
    )
    mine = phones[1].state()
    assert mine["viewer"] == {"kind": "seat", "index": 1}
    assert mine["you"] == {"seat": 1, "label": "Player1 · Player 2"}
    text = json.dumps(mine)
    assert shellgame.uid(0, 0) not in text  # seat 0's supply
    assert shellgame.uid(0, 2) not in text  # what seat 0 poured
    # Seat 1's cookie with seat 0's CSRF token is refused.
    assert phones[1].act({"type": "pass", "seat": 1}, csrf=phones[0].csrf).status_code == 403
    # A seat is no Host session.
    assert phones[0].client.get("/api/host/state").status_code == 401


def service_seat(seat):
    from companion.core.game import Viewer

    return Viewer.seat(seat)


def test_host_controls(app, host, service):
    client, token = host
    headers = {"X-CSRF-Token": token}
    reply = client.post(
        "/api/host/act",
        json={"action": {"type": "pass", "seat": 0}, "mode": "enforcing"},
        headers=headers,
    )
    assert reply.status_code == 200
    assert reply.get_json()["can_undo"]
    reply = client.post("/api/host/undo", json={}, headers=headers)
    assert reply.get_json()["to_move"] == 0
    reply = client.post(
        "/api/host/act", json={"action": {"type": "pass"}, "mode": "sideways"}, headers=headers
    )
    assert reply.status_code == 400 and reply.get_json()["field"] == "mode"
    reply = client.post("/api/host/reader", json={"seat": 2, "status": "broken"}, headers=headers)
    assert reply.get_json()["readers"] == {"2": "broken"}
    join_link = client.get("/api/host/join").get_json()
    code = service.table.record.join_code
    assert join_link["code"] == f"{code[:4]}-{code[4:]}" and join_link["url"].endswith(code)
    assert join_link["qr"].startswith("<svg")
    phone = join(app, 2, "Chloe")
    reply = client.post("/api/host/seats/free", json={"seat": 2}, headers=headers)
    assert reply.status_code == 200 and not reply.get_json()["players"][2]["taken"]
    assert phone.state()["rejoin"] is True  # the freed phone's cookie opens nothing now
    reply = client.post(
        "/api/host/game", json={"game": "shellgame", "options": {"players": 9}}, headers=headers
    )
    assert reply.status_code == 409 and "confirm" in reply.get_json()["error"]
    game = service.table.record.id
    reply = client.post(
        "/api/host/game",
        json={"game": "shellgame", "options": {"players": 9}, "abandon": game},
        headers=headers,
    )
    assert reply.status_code == 400 and reply.get_json()["field"] == "players"
    assert service.table.record.id == game  # bad options: the game in play is untouched
    reply = client.post(
        "/api/host/game",
        json={
            "game": "shellgame",
            "options": {"players": 2},
            "abandon": game,
            "names": ["Anna", "Ben"],
            "play": "phones",
        },
        headers=headers,
    )
    assert reply.status_code == 200 and reply.get_json()["seats"] == 2
    assert [p["label"] for p in reply.get_json()["players"]] == [
        "Anna · Player 1",
        "Ben · Player 2",
    ]
    games = client.get("/api/games").get_json()["games"]
    assert games[1]["outcome"] == {"abandoned": True, "for": "a new game"}
    assert client.get(f"/api/games/{games[1]['id']}/export").status_code == 200
    reply = client.post(
        "/api/host/game",
        json={"game": "shellgame", "play": "readers", "abandon": games[0]["id"]},
        headers=headers,
    )
    assert reply.status_code == 400 and reply.get_json()["field"] == "play"


def read_events(response, count):
    """The first ``count`` SSE messages (data parsed) of a streamed response."""
    buffer, out = "", []
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            frame, buffer = buffer.split("\n\n", 1)
            out.append(frame)
            if sum("data:" in f for f in out) >= count:
                return out
    return out


def test_sse_sends_snapshot_first_then_updates(app, service):
    client = app.test_client()
    response = client.get("/api/stream?viewer=public", buffered=False)
    try:
        assert response.mimetype == "text/event-stream"
        frames = read_events(response, 1)
        assert frames[0].startswith("retry: 2000")
        first = frames[-1]
        assert "id: 0" in first and "event: snapshot" in first
        service.act({"type": "pass", "seat": 0}, by=service_seat(0))
        frames = read_events(response, 1)
        data = json.loads(frames[-1].split("data: ", 1)[1])
        assert data["seq"] == 1 and data["to_move"] == 1
    finally:
        response.close()
    assert service.hub.count() == 0  # the stream unsubscribed when the client left


@pytest.mark.parametrize("viewer", ["public", "seat"])
def test_sse_heartbeat(app, service, viewer, settings):
    app.extensions["cupbearer"].config = type(settings)(
        **{**settings.__dict__, "web": type(settings.web)(heartbeat=0.01)}
    )
    client = join(app, 2).client if viewer == "seat" else app.test_client()
    response = client.get("/api/stream?viewer=" + viewer, buffered=False)
    try:
        chunks = iter(response.response)
        seen = [next(chunks) for _ in range(3)]
        assert any(b": heartbeat" in c for c in seen)
    finally:
        response.close()


def test_logging_out_ends_the_host_session_on_the_server(app, host, service):
    client, token = host
    copy = app.test_client()  # the same cookie, copied to another browser
    copy.set_cookie("cupbearer_host", client.get_cookie("cupbearer_host").value)
    assert copy.get("/api/host/state").status_code == 200
    stream = client.get("/api/stream?viewer=host", buffered=False)
    frames = iter(stream.response)
    next(frames)  # connected
    assert (
        client.post("/api/host/logout", json={}, headers={"X-CSRF-Token": token}).status_code == 200
    )
    rest = b"".join(frames)
    assert b"event: closed" in rest and b"logged_out" in rest  # its open stream ended at once
    stream.close()
    assert copy.get("/api/host/state").status_code == 401  # the copy opens nothing now
    assert copy.get("/api/stream?viewer=host").status_code == 401


def test_the_host_can_end_every_session_and_sessions_expire(app, service):
    from webhelpers import log_in

    first, second = log_in(app), log_in(app)
    token = csrf_of(first)
    reply = first.post(
        "/api/host/logout", json={"everywhere": True}, headers={"X-CSRF-Token": token}
    )
    assert reply.status_code == 200
    assert second.get("/api/host/state").status_code == 401
    sessions = app.extensions["cupbearer"].sessions
    now = [1_000_000.0]
    sessions.clock = lambda: now[0]
    third = log_in(app)
    assert third.get("/api/host/state").status_code == 200
    now[0] += sessions.idle + 1  # unused for longer than the idle time
    assert third.get("/api/host/state").status_code == 401
