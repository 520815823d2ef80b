"""Every route, every malformed input: a precise 4xx, never a 500 (non-negotiable 4).

Bodies nested ten thousand deep, huge, of the wrong type, not UTF-8, lone surrogates; path
parameters past 2**63; and for each game, every field of real actions replaced by a value of
every wrong kind, sent by a seat's phone and by the Host in both modes. The server must answer
each with a status under 500, and the journal must still replay to the state it shows.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from webhelpers import PIN, csrf_of, join_all

from companion.core.game import CHANCE, HOST

WRONG = [None, [], {}, "x" * 5000, 2**70, -(2**70), -1, 1.5, True, "\ud800", [[[]]], {"a": {}}]
"""A value of every wrong kind for a field."""
BODIES = [
    b"",
    b"\xff\xfe\x00",
    b'{"pin": "\xff"}',
    b"[" * 10_000 + b"]" * 10_000,
    b'{"a":' * 5000 + b"1" + b"}" * 5000,
    json.dumps({"action": {"type": "pour", "token": [["poison"]]}}).encode(),
    b'{"action": {"type": "\\ud800"}}',
    b'{"pin": "\\ud800"}',
    b'{"game": {"a": 1}, "options": "x"}',
    b'{"seat": 99999999999999999999999, "code": [], "name": {}}',
    b'{"on": "yes", "abandon": "x"}',
    b'{"cards": [' + b'{"name": "a"},' * 2000 + b'{"name": "b"}]}',
    b"1e999999",
    b'"just a string"',
    b'{"action": NaN}',
]
IDS = ["0", "-1", "9223372036854775808", "99999999999999999999999999", "abc", "1e3"]


def route_urls(app):
    """Every route of the app with its methods, path parameters filled in every odd way."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
        parts = [a for a in rule.arguments]
        if not parts:
            yield rule.rule, methods
            continue
        for value in IDS:
            url = rule.rule
            for part in parts:
                url = url.replace(f"<int:{part}>", value).replace(f"<{part}>", value)
            yield url, methods


@pytest.fixture
def clients(app, host, service):
    service.new_game("goblets", {"players": 4})
    return {"public": (app.test_client(), None), "host": host, "phones": join_all(app)}


def test_no_route_answers_500_to_malformed_input(app, clients):
    host_client, host_csrf = clients["host"]
    public, _ = clients["public"]
    phone = clients["phones"][0]
    senders = [(public, csrf_of(public)), (host_client, host_csrf), (phone.client, phone.csrf)]
    checked = 0
    for (url, methods), (client, token) in itertools.product(route_urls(app), senders):
        for method in methods:
            if method == "GET":
                for query in ("", "?viewer=seat", "?viewer=%ff%fe", "?code=\x00", "?viewer=host"):
                    reply = client.open(url + query, method="GET", buffered=False)
                    try:  # a live stream is not read to its end: its first frame will do
                        assert reply.status_code < 500, (url + query, reply.status_code)
                        next(iter(reply.response), b"")
                    finally:
                        reply.close()
                    checked += 1
                continue
            for body in BODIES:
                reply = client.open(
                    url,
                    method=method,
                    data=body,
                    content_type="application/json",
                    headers={"X-CSRF-Token": token},
                )
                assert reply.status_code < 500, (method, url, body[:40], reply.status_code)
                checked += 1
    assert checked > 500


def mutations(action):
    """``action`` with each field replaced by each wrong value (the type field too)."""
    for key in action:
        for value in WRONG:
            yield {**action, key: value}
    for value in WRONG[:4]:
        yield {**action, "extra": value}


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("goblets", {"players": 5, "characters": "none"}),
        ("goblets", {"players": 8}),
        ("goblets", {"players": 3}),
        ("cena", {"players": 3}),
        ("tribunal", {}),
    ],
)
def test_every_field_of_every_action_of_the_wrong_kind_is_a_4xx(app, host, service, game, options):
    host_client, host_csrf = host
    current = service.table.record.id
    reply = host_client.post(
        "/api/host/game",
        json={"game": game, "options": options, "abandon": current},
        headers={"X-CSRF-Token": host_csrf},
    )
    assert reply.status_code == 200, reply.get_json()
    phones = join_all(app)
    rng = random.Random(5)
    sent = 0
    for _ in range(12):  # at several points of the game
        state = service.table.state
        if state.is_over():
            break
        mover = state.to_move()
        if mover is CHANCE:
            break
        legal = state.legal_actions() or [{"type": "draw"}]
        for action in rng.sample(legal, min(3, len(legal))):
            for bad in mutations(action):
                seat = mover if isinstance(mover, int) else 0
                for reply in (
                    phones[seat].client.post(
                        "/api/seat/act",
                        data=_dumps({"action": bad}),
                        content_type="application/json",
                        headers={"X-CSRF-Token": phones[seat].csrf},
                    ),
                    *(
                        host_client.post(
                            "/api/host/act",
                            data=_dumps({"action": bad, "mode": mode}),
                            content_type="application/json",
                            headers={"X-CSRF-Token": host_csrf},
                        )
                        for mode in ("enforcing", "recording")
                    ),
                ):
                    assert reply.status_code < 500, (bad, reply.status_code)
                    sent += 1
        legal = service.table.state.legal_actions()
        if legal:  # the game goes on by a real move
            phones[service.table.state.to_move()].act(rng.choice(legal))
    assert sent > 100
    again = type(service)(service.config, store=service.store, games=service.games)
    again.resume()
    assert again.table.state.view(HOST) == service.table.state.view(HOST)


def _dumps(data) -> bytes:
    """JSON with lone surrogates kept (as a hostile client may send them)."""
    return json.dumps(data, ensure_ascii=True).encode()


def test_a_lone_surrogate_pin_is_a_wrong_pin_and_counts(app):
    client = app.test_client()
    token = csrf_of(client)
    for _ in range(5):
        reply = client.post(
            "/api/host/login",
            data=b'{"pin": "\\ud800"}',
            content_type="application/json",
            headers={"X-CSRF-Token": token},
        )
        assert reply.status_code == 401
    gate = app.extensions["cupbearer"].gate
    assert gate.retry_after("127.0.0.1") > 0  # the five surrogates were counted as failed tries
    reply = client.post("/api/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert reply.status_code == 429
