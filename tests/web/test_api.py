"""The JSON API through Flask's test client: auth, CSRF, typed errors, seat isolation, SSE."""

from __future__ import annotations

import json

import pytest
import shellgame
from webhelpers import PIN, csrf_of

from companion.web.auth import seat_csrf


def seat_post(client, app, token, body, csrf_token=None):
    secret = app.extensions["cupbearer"].secret
    header = csrf_token if csrf_token is not None else seat_csrf(secret, token)
    return client.post(f"/api/seat/{token}/act", json=body, headers={"X-CSRF-Token": header})


def test_pages_render(client, service):
    token = service.seat_tokens()[0]
    for url in ("/", "/history", "/host", "/courtroom", f"/seat/{token}", "/history/1"):
        reply = client.get(url)
        assert reply.status_code == 200, url
        assert b"<!doctype html>" in reply.data
        assert reply.headers["Referrer-Policy"] == "no-referrer"
    assert client.get("/seat/not-a-token").status_code == 404
    assert token.encode() not in client.get("/").data  # the public page has no seat link


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


def test_host_pin_is_rate_limited(app):
    client = app.test_client()
    token = csrf_of(client)
    for _ in range(5):
        reply = client.post(
            "/api/host/login", json={"pin": "0000"}, headers={"X-CSRF-Token": token}
        )
        assert reply.status_code == 401
    reply = client.post("/api/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert reply.status_code == 429  # locked out, even with the right PIN
    assert "wait" in reply.get_json()["error"]
    assert client.get("/api/host/state").status_code == 401


def test_csrf_is_required_on_every_state_changing_request(app, host, service):
    client, _ = host
    assert client.post("/api/host/undo", json={}).status_code == 403
    assert client.post("/api/host/undo", json={}, headers={"X-CSRF-Token": "x"}).status_code == 403
    reply = client.post("/api/host/login", json={"pin": PIN})
    assert reply.status_code == 403
    assert reply.get_json()["field"] == "X-CSRF-Token"
    seat = service.seat_tokens()[0]
    reply = seat_post(client, app, seat, {"action": {"type": "pass", "seat": 0}}, csrf_token="")
    assert reply.status_code == 403


def test_host_routes_refuse_seats_and_strangers(app, service):
    client = app.test_client()
    token = csrf_of(client)
    for url in ("/api/host/game", "/api/host/act", "/api/host/undo", "/api/host/reader"):
        reply = client.post(url, json={}, headers={"X-CSRF-Token": token})
        assert reply.status_code == 401, url
    assert client.get("/api/host/links").status_code == 401
    assert client.get("/api/stream?viewer=host").status_code == 401


def test_seat_plays_with_typed_errors(app, client, service):
    tokens = service.seat_tokens()
    reply = seat_post(client, app, tokens[1], {"action": {"type": "pass", "seat": 1}})
    assert reply.status_code == 409
    assert reply.get_json()["rule"] == "Each player acts only on their own turn."
    reply = seat_post(client, app, tokens[0], {"action": {"type": "toast", "seat": 0}})
    assert reply.status_code == 409
    assert reply.get_json()["rule"]
    reply = seat_post(client, app, tokens[0], {"action": "pass"})
    assert reply.status_code == 400
    assert reply.get_json()["field"] == "type"
    reply = seat_post(client, app, tokens[0], {"action": {"type": "pass", "seat": 0}})
    assert reply.status_code == 200
    assert reply.get_json()["to_move"] == 1


def test_never_a_500_for_bad_input(app, host, service):
    client, token = host
    seat = service.seat_tokens()[0]
    secret = app.extensions["cupbearer"].secret
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
        "/api/host/game": token,
        "/api/host/act": token,
        "/api/host/reader": token,
        "/api/host/links": token,
        f"/api/seat/{seat}/act": seat_csrf(secret, seat),
    }
    for url, header in urls.items():
        for body in bodies:
            reply = client.post(
                url, data=body, content_type="application/json", headers={"X-CSRF-Token": header}
            )
            assert 400 <= reply.status_code < 500, (url, body[:20], reply.status_code)
            assert "error" in reply.get_json()
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
    assert client.get("/api/stream?viewer=seat&token=nope").status_code == 404
    assert client.get("/api/stream?viewer=god").status_code == 400


def test_seat_token_isolation(app, client, service):
    tokens = service.seat_tokens()
    service.act(
        {"type": "pour", "seat": 0, "cup": 1, "token": shellgame.uid(0, 2)},
        by=service.viewer_for("seat", tokens[0]),
    )
    mine = client.get(f"/api/seat/{tokens[1]}/state").get_json()
    assert mine["viewer"] == {"kind": "seat", "index": 1}
    text = json.dumps(mine)
    assert shellgame.uid(0, 0) not in text  # seat 0's supply
    assert shellgame.uid(0, 2) not in text  # what seat 0 poured
    # Seat 1's token with seat 0's CSRF token (or the reverse) is refused.
    secret = app.extensions["cupbearer"].secret
    reply = seat_post(
        client,
        app,
        tokens[1],
        {"action": {"type": "pass", "seat": 1}},
        csrf_token=seat_csrf(secret, tokens[0]),
    )
    assert reply.status_code == 403
    # A seat token is no Host session.
    assert client.get(f"/api/host/state?token={tokens[0]}").status_code == 401


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
    links = client.get("/api/host/links").get_json()["links"]
    assert [link["seat"] for link in links] == [0, 1, 2]
    assert links[0]["qr"].startswith("<svg") and links[0]["url"].endswith(service.seat_tokens()[0])
    old = service.seat_tokens()[2]
    client.post("/api/host/links", json={"seat": 2}, headers=headers)
    assert service.seat_of(old) is None
    page = client.get("/").data.decode()
    assert service.seat_tokens()[1] in page  # the Host's tablet shows the join codes
    reply = client.post(
        "/api/host/game", json={"game": "shellgame", "options": {"players": 9}}, headers=headers
    )
    assert reply.status_code == 400 and reply.get_json()["field"] == "players"
    reply = client.post(
        "/api/host/game", json={"game": "shellgame", "options": {"players": 2}}, headers=headers
    )
    assert reply.status_code == 200 and reply.get_json()["seats"] == 2
    games = client.get("/api/games").get_json()["games"]
    assert games[1]["outcome"] == {"abandoned": True}
    assert client.get(f"/api/games/{games[1]['id']}/export").status_code == 200


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
        service.act(
            {"type": "pass", "seat": 0}, by=service.viewer_for("seat", service.seat_tokens()[0])
        )
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
    client = app.test_client()
    url = "/api/stream?viewer=" + viewer
    if viewer == "seat":
        url += "&token=" + service.seat_tokens()[2]
    response = client.get(url, buffered=False)
    try:
        chunks = iter(response.response)
        seen = [next(chunks) for _ in range(3)]
        assert any(b": heartbeat" in c for c in seen)
    finally:
        response.close()
