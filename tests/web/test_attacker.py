"""The attacker: crawl every public endpoint, the Host's, and every seat's from its own phone,
during whole simulated games, and search every byte for a goblet's contents before the reveal.
None may appear (DESIGN.md principle 3: secrets leave only through views)."""

from __future__ import annotations

import json
import random

import shellgame
from webhelpers import INITIAL, first_sse_message, join_all, seat_responses

from companion.core.game import CHANCE, Viewer
from companion.core.games.goblets.tokens import Token

KINDS = {token.value for token in Token}


def crawl(app, service, host_client, phones):
    """Every response a stranger, the Host and each seat (from its own phone) can get."""
    public = app.test_client()
    game_id = service.table.record.id
    got = {"public": [], "host": []}
    for url in (
        "/",
        "/api/state",
        "/history",
        "/api/games",
        "/courtroom",
        "/host",
        f"/history/{game_id}",
        f"/api/games/{game_id}/timeline",
        f"/api/games/{game_id}/export",
        "/api/host/state",
        "/api/host/join",
        "/seat",
        "/api/seat/state",
        f"/join/{service.table.record.join_code}",
    ):
        got["public"].append(public.get(url).data.decode())
    got["public"].append(first_sse_message(public, "/api/stream?viewer=public"))
    got["public"].append(first_sse_message(public, "/api/stream?viewer=host"))
    for url in ("/api/host/state", "/host", "/api/state", f"/api/games/{game_id}/timeline"):
        got["host"].append(host_client.get(url).data.decode())
    got["host"].append(first_sse_message(host_client, "/api/stream?viewer=host"))
    got["public"].append(first_sse_message(public, "/api/stream?viewer=seat"))
    for seat, phone in phones.items():
        got[seat] = seat_responses(phone.client)  # what this seat's phone sees
    return got


def documents(text):
    """The JSON documents inside a response: the body, embedded snapshots, SSE data lines."""
    found = [m.group(1) for m in INITIAL.finditer(text)]
    found += [line[6:] for line in text.splitlines() if line.startswith("data: ")]
    if text.lstrip().startswith("{"):
        found.append(text)
    return [json.loads(doc) for doc in found]


def contents_dicts(node, path=()):
    """Every {kind: count} mapping in ``node`` with its path (a goblet's or a screen's contents)."""
    if isinstance(node, dict):
        if node and set(node) <= KINDS and all(isinstance(v, int) for v in node.values()):
            yield path, {k: v for k, v in node.items() if v}
        for key, value in node.items():
            yield from contents_dicts(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from contents_dicts(value, (*path, index))


def allowed(document, path, viewer):
    """Revealed results and a seat's own screen, peeks and private events are no leak."""
    if "results" in path or "options" in path or "pool" in path:
        return True
    node = document
    for key in path:  # an earlier Course's reveal, shown again (e.g. on the timeline)
        if isinstance(node, dict) and node.get("event") == "revealed":
            return True
        node = node[key]
    if not isinstance(viewer, int):
        return False
    if path[:2] == ("view", "you"):
        return True
    return path[0] == "events" and document["events"][path[1]].get("to") == viewer


def test_goblets_full_game_leaks_nothing(app, service, host):
    host_client, _ = host  # logged in (asserted by the fixture)
    service.new_game("goblets", {"players": 5, "hidden_vp": True})
    phones = join_all(app)
    rng = random.Random(2024)
    crawls = reveals = 0
    for step in range(2000):
        state = service.table.state
        if state.is_over():
            break
        mover = state.to_move()
        assert mover is not CHANCE  # the service draws chance itself
        legal = state.legal_actions()
        action = rng.choice(legal)
        if step % 10 == 0 or action["type"] in ("reveal", "toast"):
            secrets = [
                {k: v for k, v in goblet.items() if v}
                for goblet in state.goblets
                if any(goblet.values())
            ]
            screens = [{k: v for k, v in s.items() if v} for s in state.screens]
            for viewer, texts in crawl(app, service, host_client, phones).items():
                for text in texts:
                    for document in documents(text):
                        for path, found in contents_dicts(document):
                            if allowed(document, path, viewer):
                                continue
                            assert found not in secrets, (viewer, path, found)
                            assert found not in screens, (viewer, path, found)
                        for event in (
                            document.get("events", []) if isinstance(document, dict) else []
                        ):
                            assert event.get("to") in (None, viewer), (viewer, event)
            crawls += 1
        reveals += action["type"] == "reveal"
        service.act(action, by=Viewer.seat(mover))
    assert service.table.state.is_over()
    assert reveals == 3 and crawls >= 20
    # After the game everything may be seen: the export and the timeline now hold the contents.
    game_id = service.table.record.id
    exported = app.test_client().get(f"/api/games/{game_id}/export").get_json()
    assert len(exported["journal"]["entries"]) > 100


def test_shellgame_token_uids_never_leak_before_the_reveal(app, service, host):
    host_client, _ = host
    phones = join_all(app)
    rng = random.Random(7)
    for step in range(60):
        state = service.table.state
        legal = [a for a in state.legal_actions() if a["type"] != "toast"]
        service.act(rng.choice(legal), by=Viewer.seat(state.to_move()))
        if step % 6:
            continue
        in_cups = {uid for cup in service.table.state.cups for uid in cup}
        for viewer, texts in crawl(app, service, host_client, phones).items():
            for text in texts:
                leaked = [uid for uid in in_cups if uid in text]
                assert not leaked, (viewer, leaked)
    state = service.table.state
    service.act({"type": "toast", "seat": state.to_move()}, by=Viewer.seat(state.to_move()))
    text = app.test_client().get("/api/state").data.decode()
    assert all(uid in text for cup in service.table.state.cups for uid in cup)  # now revealed
    assert shellgame.uid(9, 0) in text


def test_sensed_game_never_shows_a_tag_uid(app, service, host):
    """On a sensed table the raw tag UIDs are the secret contents: no byte of any page shows one."""
    from companion.service.sensing import SensingBridge
    from companion.virtual import NOISE, Scenario, SimulatedReaders

    host_client, _ = host
    service.sense("readers")
    service.new_game("goblets", {"players": 4}, play="readers")
    phones = join_all(app)
    scenario = Scenario.generate(random.Random(12), 4, specials=0.0)
    uids = [uid for uid, _ in scenario.registry.to_json()["tags"].items()]
    assert len(uids) > 50
    bridge = SensingBridge(service, scenario.registry, scenario.initial_layout())
    bridge.start_course()
    readings = list(SimulatedReaders(scenario, NOISE["moderate"], random.Random(1)).snapshots())
    step = max(1, len(readings) // 6)
    crawls = 0
    for index, observation in enumerate(readings):
        bridge.observe(observation)
        if index % step == 0 or index == len(readings) - 1:
            for viewer, texts in crawl(app, service, host_client, phones).items():
                for text in texts:
                    leaked = [uid for uid in uids if uid in text.upper()]
                    assert not leaked, (viewer, leaked[:3])
            crawls += 1
    assert crawls >= 6
    assert any(e.action["type"] == "pour" for e in service.store.entries(service.table.record.id))
