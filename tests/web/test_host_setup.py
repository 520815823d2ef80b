"""The Host's setup through the API: the table's own Character cards, and games refused at start
when they cannot be played the chosen way (with the reason), never left at "Dealing…"."""

from __future__ import annotations

import json
import random

import pytest
from webhelpers import join

from companion.core.game import CHANCE
from companion.store.decks import characters_path

DECK = [
    {
        "name": "King Cobra",
        "text": "During the Toast Phase, you may take 2 actions instead of 1.",
        "timing": "toast_phase",
        "effect": "extra_toast_action",
    },
    {
        "name": "Taster",
        "text": "Once per Course, look into any Goblet.",
        "timing": "own_turn",
        "once_per_course": True,
        "effect": "peek_any",
    },
    {"name": "Glutton", "text": "You always score 1 VP more.", "timing": "passive"},
    {"name": "Bard", "text": "Sing a song before drinking.", "timing": "before_drinking"},
    {
        "name": "Cook",
        "text": "Take the Ogre Poison at the start of a Course.",
        "timing": "course_start",
        "effect": "take_token",
        "token": "ogre_poison",
    },
]


def start(host, service, game="goblets", **body):
    client, token = host
    current = service.table.record.id if service.table is not None else None
    return client.post(
        "/api/host/game",
        json={"game": game, "abandon": current, **body},
        headers={"X-CSRF-Token": token},
    )


def put_deck(host, cards):
    client, token = host
    return client.put(
        "/api/host/characters", json={"cards": cards}, headers={"X-CSRF-Token": token}
    )


def every_answer(app, service, phones):
    """What the tablet, the Host and every phone get now, as text."""
    public = app.test_client()
    texts = [public.get(url).data.decode() for url in ("/", "/api/state", "/host")]
    texts += [phone.client.get("/api/seat/state").data.decode() for phone in phones]
    texts += [phone.client.get("/seat").data.decode() for phone in phones]
    return texts


def test_no_placeholder_card_ever_reaches_a_phone(app, host, service):
    # The Host form's default: no Characters (the rulebook prints none; the engine's stand-ins stay
    # in the box), whatever the player count.
    for players in (4, 5, 6, 8):
        reply = start(host, service, options={"players": players})
        assert reply.status_code == 200, reply.get_json()
        assert service.table.record.options["characters"] == []
        assert service.table.state.to_move() is not CHANCE  # dealt: nobody waits at "Dealing…"
        phones = [join(app, seat) for seat in range(players)]
        for text in every_answer(app, service, phones):
            assert "Placeholder" not in text and "Character 14" not in text


def test_the_tables_deck_is_entered_once_kept_and_dealt(app, host, service, settings):
    client, _ = host
    assert client.get("/api/host/characters").get_json() == {"cards": None}
    reply = start(host, service, options={"players": 4, "characters": "table"})
    assert reply.status_code == 400 and reply.get_json()["field"] == "characters"
    assert "not entered its Character cards" in reply.get_json()["error"]
    reply = put_deck(host, DECK)
    assert reply.status_code == 200 and len(reply.get_json()["cards"]) == 5
    stored = json.loads(characters_path(settings.data_dir).read_text())["cards"]
    assert [card["name"] for card in stored] == [card["name"] for card in DECK]
    assert client.get("/api/host/characters").get_json()["cards"] == stored  # kept, reused
    for _ in range(2):  # reused by every game
        reply = start(host, service, options={"players": 4, "characters": "table"})
        assert reply.status_code == 200, reply.get_json()
        state = service.table.state
        assert {card.name for card in state.opts.characters} == {c["name"] for c in DECK}
        phone = join(app, 0, "Anna")
        mine = phone.state()["view"]["you"]["character"]
        assert mine in {c["name"] for c in DECK}
        text = next(c["text"] for c in DECK if c["name"] == mine)
        assert text in json.dumps(phone.state())


@pytest.mark.parametrize(
    ("cards", "field"),
    [
        ([{"name": "A", "timing": "sometimes"}], "cards[0].timing"),
        ([{"name": "A"}, {"name": "A"}], "cards[1].name"),
        ([{"name": "A", "effect": "take_token"}], "cards[0].timing"),
        (
            [{"name": "A", "timing": "own_turn", "effect": "take_token", "token": "gold"}],
            "cards[0].token",
        ),
        ([{"name": ""}], "cards[0].name"),
        ([], "cards"),
        ("twenty-one", "cards"),
        ([{"name": "A", "colour": "red"}], "cards[0].colour"),
    ],
)
def test_a_bad_deck_is_refused_naming_the_card_and_nothing_is_kept(host, settings, cards, field):
    reply = put_deck(host, cards)
    assert reply.status_code == 400 and reply.get_json()["field"] == field
    assert not characters_path(settings.data_dir).exists()


def test_a_deck_too_small_for_the_table_is_refused_at_start(app, host, service):
    assert put_deck(host, DECK[:3]).status_code == 200
    game = service.table.record.id
    reply = start(host, service, options={"players": 4, "characters": "table"})
    assert reply.status_code == 400 and reply.get_json()["field"] == "characters"
    assert "at least 4 cards" in reply.get_json()["error"]
    assert service.table.record.id == game  # the game in play stays


def test_russian_goblette_is_played_without_characters(app, host, service):
    reply = start(host, service, options={"players": 3, "characters": "none"})
    assert reply.status_code == 200 and service.table.state.num_seats == 3
    reply = start(host, service, options={"players": 2, "characters": "table"})
    assert reply.status_code == 400 and "without Character cards" in reply.get_json()["error"]


def test_a_game_the_chosen_way_cannot_play_is_refused_with_the_reason(app, host, service):
    game = service.table.record.id
    for play, options, field, words in (
        ("readers", {"players": 4}, "play", "no reader nodes are connected"),
        ("camera", {"players": 4}, "play", "no overhead camera is configured"),
        ("hands", {"players": 4}, "play", "'phones'"),
    ):
        reply = start(host, service, play=play, options=options)
        assert reply.status_code == 400, (play, reply.get_json())
        assert reply.get_json()["field"] == field and words in reply.get_json()["error"]
    reply = start(host, service, game="cena", play="readers", options={"players": 3})
    assert reply.status_code == 400 and reply.get_json()["field"] == "play"
    assert service.table.record.id == game
    service.sense("readers")  # reader nodes attached
    # The readers play Winetasters' pairs and Character abilities (docs/tracking.md).
    for options in ({"players": 8}, {"players": 4, "characters": DECK[:4]}):
        reply = start(host, service, play="readers", options=options)
        assert reply.status_code == 200, (options, reply.get_json())
        assert service.table.record.play == "readers"
    reply = start(host, service, play="readers", options={"players": 5})
    assert reply.status_code == 200 and service.table.record.play == "readers"
    assert service.table.state.to_move() is CHANCE  # the hands pour the initial tokens


def test_every_variant_and_player_count_starts_and_plays_on_the_phones(app, host, service):
    """2-12 players, Characters on and off: started from the API, played by the phones' own
    legal actions to the end (no virtual actor), every entry by a seat or chance."""
    assert put_deck(host, [*DECK, *({"name": f"Card {i}"} for i in range(20))]).status_code == 200
    rng = random.Random(12)
    for players in range(2, 13):
        characters = "table" if players >= 4 and players % 2 == 0 else "none"
        reply = start(host, service, options={"players": players, "characters": characters})
        assert reply.status_code == 200, (players, reply.get_json())
        phones = {seat: join(app, seat, f"P{seat}") for seat in range(players)}
        for _ in range(5000):
            if service.table.state.is_over():
                break
            seat = service.table.state.to_move()
            legal = phones[seat].state()["legal"]
            reply = phones[seat].act(rng.choice(legal))
            assert reply.status_code == 200, (players, reply.get_json())
        assert service.table.state.is_over(), players
        actors = {e.actor for e in service.store.entries(service.table.record.id)}
        assert actors <= {"chance", *(f"seat {s}" for s in range(players))}
