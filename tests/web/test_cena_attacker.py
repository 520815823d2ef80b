"""The attacker, for Cena: no House's hand card leaves the table before it is played.

During whole games played by the seats' links, every response a stranger (the tablet), the Host
and each seat's link can get (pages, API, the first SSE message of each stream) is searched for
the name of every card still hidden from that viewer: the cards in other Houses' hands that are
not face up as Welcome cards, and the cards set aside. None may appear. Events of earlier rounds
are left out of the search: a card played then is dealt again, hidden, in the next round; so are
the alliances' combined cards (a played card's suit with another played card's value).
"""

from __future__ import annotations

import json
import random
import re

from webhelpers import INITIAL, first_sse_message, join_all, seat_responses

from companion.core.game import HOST, PUBLIC, Mode, Viewer
from companion.core.games.cena import rules


def searchable(text, since):
    """``text`` with each JSON snapshot's events older than seq ``since`` left out."""
    documents = [m.group(1) for m in INITIAL.finditer(text)]
    rest = INITIAL.sub("", text)
    documents += [line[6:] for line in rest.splitlines() if line.startswith("data: ")]
    if rest.lstrip().startswith("{"):
        documents.append(rest)
        rest = ""
    out = [re.sub(r"^data: .*$", "", rest, flags=re.M)]
    for document in documents:
        data = json.loads(document)
        if isinstance(data, dict) and isinstance(data.get("events"), list):
            data["events"] = [e for e in data["events"] if e.get("seq", since) >= since]
        if isinstance(data, dict) and isinstance(data.get("view"), dict):
            combined_cards_left_out(data["view"])
        out.append(json.dumps(data))
    return "\n".join(out)


def combined_cards_left_out(view):
    """Drop each alliance's combined card: one card's suit with another's value, both played.

    It is not a Toast card in anyone's hand, but its name ("mead-10") may be one that is.
    """
    for alliance in (view.get("trick") or {}).get("alliances", []):
        alliance["combined"] = None
    if view.get("last_trick"):
        view["last_trick"]["alliances"] = []


def crawl(app, service, host_client, phones):
    """Every response by viewer: "public" (a stranger), "host", and each seat by its own link."""
    public = app.test_client()
    game_id = service.table.record.id
    got = {"public": [], "host": []}
    for url in (
        "/",
        "/cena",
        "/api/state",
        "/history",
        "/api/games",
        "/host",
        "/courtroom",
        f"/history/{game_id}",
        f"/api/games/{game_id}/timeline",
        f"/api/games/{game_id}/export",
        "/api/host/state",
    ):
        got["public"].append(public.get(url).data.decode())
    got["public"].append(first_sse_message(public, "/api/stream?viewer=public"))
    for url in ("/api/host/state", "/host", "/cena", f"/api/games/{game_id}/timeline"):
        got["host"].append(host_client.get(url).data.decode())
    got["host"].append(first_sse_message(host_client, "/api/stream?viewer=host"))
    for seat, phone in phones.items():
        got[seat] = seat_responses(phone.client)
    return got


def hidden_from(state, viewer):
    """Card names ``viewer`` must not see now (other hands but face-up Welcome cards, set aside)."""
    hidden = set(state.set_aside)
    for house, hand in enumerate(state.hands):
        if viewer == house:
            continue
        faces = set(state.faces[house]) if state.faces is not None else set()
        hidden |= set(hand) - faces
    return hidden


def pattern(names):
    """A regex matching any of ``names`` as a whole card name ("wine-1" is not in "wine-10")."""
    return re.compile(r"(?<![\w-])(" + "|".join(sorted(names)) + r")(?!\d)")


def test_no_hand_card_leaks_before_it_is_played(app, service, host):
    host_client, _ = host
    service.new_game("cena", {"players": 3})
    phones = join_all(app)
    csrf = {s: csrf_of_seat(phone.client) for s, phone in phones.items()}
    rng = random.Random(77)
    crawls = checked = 0
    round_start = 0
    for step in range(500):
        state = service.table.state
        if state.is_over():
            break
        dealt = [e["seq"] for e in service.table.feed if e["event"] == "dealt"]
        round_start = dealt[-1] if dealt else 0
        if step % 4 == 0 or state.phase in ("reveal", "welcome") or state.plays_in_trick == 2:
            crawls += 1
            for viewer, texts in crawl(app, service, host_client, phones).items():
                hidden = hidden_from(state, viewer)
                assert hidden, "something is always hidden before the last trick"
                found = pattern(hidden)
                for text in texts:
                    seen = searchable(text, round_start)
                    match = found.search(seen)
                    assert match is None, (viewer, seen[max(0, match.start() - 400) : match.end()])
                if isinstance(viewer, int) and state.hands[viewer]:
                    # The control: the same search finds a House's hand in its own responses.
                    own = pattern(set(state.hands[viewer]))
                    assert all(own.search(searchable(text, round_start)) for text in texts)
                checked += len(texts)
        mover = state.to_move()
        action = rng.choice(state.legal_actions())
        reply = phones[mover].act(action, csrf=csrf[mover])
        assert reply.status_code == 200, reply.get_json()
    assert service.table.state.is_over()
    assert len(service.table.state.scores) == 3 and crawls > 40 and checked > 1000
    # Once the game is over, its journal may be exported: then everything is known.
    export = app.test_client().get(f"/api/games/{service.table.record.id}/export")
    assert export.status_code == 200 and '"deal"' in export.data.decode()


def csrf_of_seat(client):
    """The seat's CSRF token, read from its phone page as the browser gets it."""
    page = client.get("/seat").data.decode()
    return re.search(r'<meta name="csrf" content="([^"]+)">', page)[1]


def test_a_recorded_revoke_is_told_only_to_its_house(app, service, host):
    """A follow-suit warning says the House still holds the lead suit: only that House sees it.
    The Host cannot enter a House's play at all."""
    host_client, host_csrf = host
    service.new_game("cena", {"players": 4, "single_course": True})
    rng = random.Random(3)
    for _ in range(200):
        state = service.table.state
        mover = state.to_move()
        if state.phase == "feast" and state.lead_suit is not None:
            hand = state.hands[mover]
            follow = [c for c in hand if c.startswith(state.lead_suit + "-")]
            other = [c for c in hand if not c.startswith(state.lead_suit + "-")]
            if follow and other:
                break
        service.act(rng.choice(state.legal_actions()), by=Viewer.seat(mover))
    else:
        raise AssertionError("no House could revoke")
    house = state.open_houses(mover)[0]
    action = {"type": "play", "card": other[0], "house": house}
    # The Host may not enter a House's play by hand: its refusal ("does not hold", "must follow
    # suit") would tell what the hand holds, so it is refused before any of that is looked at.
    before = service.table.seq
    reply = host_client.post(
        "/api/host/act",
        json={"action": action, "mode": Mode.RECORDING.value},
        headers={"X-CSRF-Token": host_csrf},
    )
    assert reply.status_code == 409 and "plays them from its phone" in reply.get_json()["error"]
    assert service.table.seq == before
    # A play read by sensors (recorded as it happened) is the way a revoke reaches the journal.
    service.act(action, by=HOST, mode=Mode.RECORDING, actor="readers")

    def warnings(message):
        return [e for e in message["events"] if e["event"] == "rule_warning"]

    assert warnings(service.message(Viewer.seat(mover)))[0]["rule"] == rules.FOLLOW_SUIT
    for viewer in (PUBLIC, HOST, *(Viewer.seat(s) for s in range(4) if s != mover)):
        message = service.message(viewer)
        assert warnings(message) == []
        assert any(e["event"] == "played" and e["card"] == other[0] for e in message["events"])
    assert warnings(app.test_client().get("/api/state").get_json()) == []
    assert warnings(host_client.get("/api/host/state").get_json()) == []  # the Host's own view
