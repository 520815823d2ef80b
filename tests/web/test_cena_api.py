"""Cena through the HTTP API: the Host starts the game, each House plays from its own phone.

Each phone opens the tablet's join code, claims its House and reads its seat's CSRF token from its
page, as a browser does; every action goes through ``POST /api/seat/act`` with it, and each House
chooses from the legal actions of its own snapshot.
The final score pad is checked against the tricks the public view showed, trick by trick.
"""

from __future__ import annotations

import random
import re

import pytest
from webhelpers import csrf_of

from companion.core.games.cena import rules

CSRF = re.compile(r'<meta name="csrf" content="([^"]+)">')


class Houses:
    """A phone per House of the current game: each joined with the code, its page's CSRF token."""

    def __init__(self, app, host_client):
        url = host_client.get("/api/host/join").get_json()["url"]
        code = url.rsplit("/", 1)[1]
        seats = len(host_client.get("/api/host/state").get_json()["players"])
        self.phones, self.csrf = {}, {}
        for seat in range(seats):
            phone = app.test_client()
            page = phone.get(f"/join/{code}").data.decode()
            reply = phone.post(
                "/api/join",
                json={"code": code, "seat": seat, "name": f"Guest {seat + 1}"},
                headers={"X-CSRF-Token": CSRF.search(page)[1]},
            )
            assert reply.status_code == 200, reply.get_json()
            page = phone.get("/seat")
            assert page.status_code == 200
            assert b"cena_seat.js" in page.data  # a Cena seat gets the Cena phone page
            self.phones[seat] = phone
            self.csrf[seat] = CSRF.search(page.data.decode())[1]

    def state(self, seat):
        """The seat's snapshot."""
        return self.phones[seat].get("/api/seat/state").get_json()

    def act(self, seat, action):
        """POST one action for ``seat``; returns the response."""
        return self.phones[seat].post(
            "/api/seat/act", json={"action": action}, headers={"X-CSRF-Token": self.csrf[seat]}
        )


def start(host, options):
    """The Host starts a Cena game from the API (as the Host page's form does), abandoning the
    game at the table (confirmed)."""
    client, token = host
    current = client.get("/api/host/state").get_json()["game_id"]
    reply = client.post(
        "/api/host/game",
        json={"game": "cena", "options": options, "abandon": current},
        headers={"X-CSRF-Token": token},
    )
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def play_game(app, host, options, seed):
    """Play a whole game by the seats' links; returns (final public state, won cards per round)."""
    start(host, options)
    houses = Houses(app, host[0])
    public = app.test_client()
    rng = random.Random(seed)
    won_by_round: list[list[int]] = []  # cards per alliance, from the public events
    current = [0] * options["players"]
    seen = set()
    for _ in range(1000):
        snapshot = public.get("/api/state").get_json()
        for event in snapshot["events"]:
            key = (event["seq"], event["event"])
            if key in seen:
                continue
            seen.add(key)
            if event["event"] == "trick_won":
                current[event["alliance"]] += len(event["cards"])
            elif event["event"] == "round_scored":
                won_by_round.append(current)
                current = [0] * options["players"]
        if snapshot["over"]:
            return snapshot, won_by_round
        seat = snapshot["to_move"]
        assert isinstance(seat, int)
        mine = houses.state(seat)
        assert mine["legal"] == mine["view"]["legal_actions"]
        action = rng.choice(mine["legal"])
        reply = houses.act(seat, action)
        assert reply.status_code == 200, reply.get_json()
    raise AssertionError("the game did not end")


def check_score_pad(final, won_by_round, players):
    view = final["view"]
    assert len(view["scores"]) == len(won_by_round)
    for score, won in zip(view["scores"], won_by_round, strict=True):
        for h, house in enumerate(score["houses"]):
            # "each House scores the cards won by its two alliances. Each card is worth 1 point."
            assert house["cards"] == won[(h - 1) % players] + won[h]
            assert house["points"] == house["cards"] - house["penalty"]
    totals = [sum(s["houses"][h]["points"] for s in view["scores"]) for h in range(players)]
    assert view["totals"] == totals == final["outcome"]["totals"]
    best = max(totals)
    assert final["outcome"]["winners"] == [h for h in range(players) if totals[h] == best]
    assert view["result"]["winners"] == final["outcome"]["winners"]


def test_a_whole_three_round_game_through_the_api(app, host):
    final, won = play_game(app, host, {"players": 3, "host": 1}, seed=5)
    assert final["over"] and final["to_move"] is None
    assert len(final["view"]["scores"]) == 3  # "The game is played over three rounds."
    assert [len(s) for s in final["outcome"]["rounds"]] == [3, 3, 3]
    check_score_pad(final, won, 3)
    # Each round, every one of the 36 cards dealt counts for the two Houses of its alliance.
    assert all(sum(s["cards"] for s in r["houses"]) == 72 for r in final["view"]["scores"])
    events = [e["event"] for e in final["events"]]
    assert "game_over" in events and "round_scored" in events


def test_private_feast_single_course_five_houses(app, host):
    options = {
        "players": 5,
        "private_feast": True,
        "single_course": True,
        "poison_cards": [1, 2, 3],
    }
    final, won = play_game(app, host, options, seed=9)
    assert len(final["view"]["scores"]) == 1
    assert final["view"]["scores"][0]["poison"] in (1, 2, 3)
    check_score_pad(final, won, 5)


def test_illegal_plays_are_refused_with_the_rules_words(app, host):
    start(host, {"players": 4, "single_course": True})
    houses = Houses(app, host[0])
    public = app.test_client()
    first = public.get("/api/state").get_json()
    hostseat = first["view"]["host"]
    assert first["view"]["phase"] == "reveal" and first["to_move"] == hostseat
    other = (hostseat + 1) % 4
    reply = houses.act(other, {"type": "reveal_poison"})
    assert reply.status_code == 409
    assert reply.get_json()["rule"] == "Each player acts only on their own turn."
    # People and Houses by their names, counted from 1 as the tablet shows them.
    assert reply.get_json()["error"] == f"Guest {hostseat + 1} · House {hostseat + 1} is to act"
    assert houses.act(hostseat, {"type": "reveal_poison"}).status_code == 200
    poison = public.get("/api/state").get_json()["view"]["poison"]
    assert poison["text"] and poison["name"]
    # Welcome: three different cards from one's own hand.
    seat = hostseat
    hand = houses.state(seat)["view"]["hand"]
    reply = houses.act(seat, {"type": "welcome", "cards": hand[:2]})
    assert reply.status_code == 409 and reply.get_json()["rule"] == rules.WELCOME
    reply = houses.act(seat, {"type": "welcome", "cards": ["wine-11", hand[0], hand[1]]})
    assert reply.status_code == 400 and reply.get_json()["field"] == "action.cards[0]"
    for _ in range(4):
        seat = public.get("/api/state").get_json()["to_move"]
        hand = houses.state(seat)["view"]["hand"]
        assert houses.act(seat, {"type": "welcome", "cards": hand[:3]}).status_code == 200
    view = public.get("/api/state").get_json()["view"]
    assert view["phase"] == "feast" and all(len(h["welcome"]) == 3 for h in view["houses"])
    # The leader leads; the next House, holding the lead suit, may not play another suit.
    leader = view["invitation"]
    state = houses.state(leader)
    assert houses.act(leader, state["legal"][0]).status_code == 200
    lead = public.get("/api/state").get_json()["view"]["trick"]["lead_suit"]
    nxt = (leader + 1) % 4
    hand = houses.state(nxt)["view"]["hand"]
    following = [c for c in hand if c.startswith(lead + "-")]
    others = [c for c in hand if not c.startswith(lead + "-")]
    free = leader if state["legal"][0]["house"] != leader else nxt
    assert following and others  # this seeded deal lets the next House break the rule
    reply = houses.act(nxt, {"type": "play", "card": others[0], "house": free})
    assert reply.status_code == 409
    assert reply.get_json()["rule"] == rules.FOLLOW_SUIT
    taken = state["legal"][0]["house"]
    reply = houses.act(nxt, {"type": "play", "card": hand[0], "house": taken})
    assert reply.status_code == 409 and "already has a card" in reply.get_json()["error"]
    stranger = next(c for c in ("mead-1", "wine-1", "beer-1", "cider-1") if c not in hand)
    reply = houses.act(nxt, {"type": "play", "card": stranger, "house": free})
    printed = f"{stranger.split('-')[0].capitalize()} 1"  # "Mead 1", as the card is printed
    assert reply.status_code == 409
    assert reply.get_json()["error"] == f"House {nxt + 1} does not hold {printed}"
    reply = houses.act(nxt, {"type": "play", "card": hand[0], "house": 9})
    assert reply.status_code == 400 and reply.get_json()["field"] == "action.house"


@pytest.mark.parametrize(
    ("options", "field"),
    [({"players": 6}, "players"), ({"poison_cards": [1, 2]}, "poison_cards"), ({"x": 1}, "x")],
)
def test_bad_cena_options_name_the_field(app, host, service, options, field):
    client, token = host
    reply = client.post(
        "/api/host/game",
        json={"game": "cena", "options": options, "abandon": service.table.record.id},
        headers={"X-CSRF-Token": token},
    )
    assert reply.status_code == 400
    assert field in reply.get_json()["field"]


def test_cena_pages_render(app, host):
    start(host, {"players": 3})
    client, _ = host
    page = client.get("/cena").data.decode()
    assert "cena_table.js" in page and 'aria-current="page">Table' in page
    code = client.get("/api/host/join").get_json()["code"]
    for tablet in (client, app.test_client()):  # one join code, the same for everyone
        for url in ("/", "/cena"):
            shown = tablet.get(url).data.decode()
            assert shown.count('class="join-code"') == 1 and code in shown
            assert "cena_table.js" in shown
    assert code not in client.get("/courtroom").data.decode()  # not a courtroom game
    host_page = client.get("/host").data.decode()
    assert 'id="cena-options"' in host_page and csrf_of(client)
