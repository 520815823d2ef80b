"""The courtroom through the Host's API, and mDNS being optional."""

from __future__ import annotations

import builtins

from companion.web import mdns


def test_courtroom_plays_through_the_host_api(app, host, service):
    client, token = host
    headers = {"X-CSRF-Token": token}
    reply = client.post(
        "/api/host/game",
        json={"game": "tribunal", "options": {}, "abandon": service.table.record.id},
        headers=headers,
    )
    assert reply.status_code == 200
    view = reply.get_json()["view"]
    assert view["pool"] == {"red": 4, "white": 3, "blue": 0}
    assert 0 < view["odds"]["guilty"]["p_pass"] < 1
    for _ in range(4):  # hear, verdict, then the cubes: the Host taps the bag for each
        state = client.get("/api/host/state").get_json()
        legal = [state["draw"]] if "draw" in state else state["view"]["legal_actions"]
        if not legal:
            break
        reply = client.post(
            "/api/host/act", json={"action": legal[0], "mode": "enforcing"}, headers=headers
        )
        assert reply.status_code == 200, reply.get_json()
    view = client.get("/api/state").get_json()["view"]
    assert len(view["log"]) > 3
    assert view["drawn"] or view["judgment"]
    page = client.get("/courtroom")
    assert page.status_code == 200 and b'data-host="yes"' in page.data
    reply = client.post("/api/host/act", json={"action": {"type": "hear"}}, headers=headers)
    assert reply.status_code in (200, 409)
    if reply.status_code == 409:
        assert reply.get_json()["rule"]


def test_mdns_failure_is_not_fatal(monkeypatch):
    real_import = builtins.__import__

    def no_zeroconf(name, *args, **kwargs):
        if name == "zeroconf":
            raise ImportError("no zeroconf here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_zeroconf)
    advertiser = mdns.Advertiser("cupbearer-test", 8080)
    assert advertiser.start() is False
    advertiser.close()
    assert mdns.local_address().count(".") == 3
