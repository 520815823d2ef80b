"""The replay timeline through the service: what a live game's replay shows, and when the rest.

"How the poison travelled" (who poured what) is shown once the game is over, or, if the table
chose it, once each Course is revealed; until then a replay frame of a pour says who poured
into which Goblet, never the token, and the Winetaster cards stay hidden until the end.
"""

from __future__ import annotations

import random

import pytest

from companion import config
from companion.core import registry
from companion.core.game import CHANCE, Viewer
from companion.service import Service
from companion.service.history import timeline


@pytest.fixture
def service(tmp_path):
    settings = config.replace(config.Config(), data_dir=str(tmp_path))
    svc = Service(settings, games=registry.load_all(), rng=random.Random(4))
    yield svc
    svc.close()


def play_until(service, done, seed=5):
    rng = random.Random(seed)
    for _ in range(5000):
        state = service.table.state
        if done(state):
            return
        seat = state.to_move()
        assert seat is not CHANCE
        service.act(rng.choice(state.legal_actions()), by=Viewer.seat(seat))
    raise AssertionError("never got there")


def pours(timeline):
    return [f["action"] for f in timeline["frames"] if f["action"]["type"] == "pour"]


@pytest.mark.parametrize("players", [5, 8])
def test_a_live_replay_hides_every_pours_token_until_the_game_ends(service, players):
    service.new_game("goblets", {"players": players})
    game = service.table.record.id
    assert service.timeline(game)["frames"] == []  # nothing revealed yet
    play_until(service, lambda state: state.course == 2)
    frames = service.timeline(game)["frames"]
    assert frames and frames[-1]["action"]["type"] == "reveal"
    assert pours({"frames": frames}) and all("token" not in p for p in pours({"frames": frames}))
    assert all("seat" in p and "place" in p for p in pours({"frames": frames}))
    cards = [f["action"] for f in frames if f["action"]["type"] == "deal_winetaster_cards"]
    assert all(set(c) == {"type"} for c in cards) and (players < 7 or cards)
    play_until(service, lambda state: state.is_over())
    finished = service.timeline(game)
    assert finished["finished"] and all("token" in p for p in pours(finished))
    assert len(finished["frames"]) == len(service.export(game)["journal"]["entries"])


def test_the_table_may_show_each_courses_pours_once_revealed(service):
    service.new_game("goblets", {"players": 5, "pour_attribution": "after_course"})
    game = service.table.record.id
    play_until(service, lambda state: state.course == 2)
    shown = pours(service.timeline(game))
    assert shown and all("token" in p for p in shown)


def test_the_replay_is_kept_until_the_journal_grows_or_an_undo_is_journaled(service):
    """The History page and its JSON ask for the same replay: kept, but never stale."""
    service.new_game("goblets", {"players": 4})
    play_until(service, lambda state: bool(state.results))  # Course 1 revealed: frames to show
    game = service.table.record.id

    def fresh():
        return timeline(service.store, service.games, game)  # replayed now, no memo

    first = service.timeline(game)
    assert first["frames"] and first == fresh()
    assert service.timeline(game)["frames"] is first["frames"]  # the same replay, not redone
    play_until(service, lambda state: state.course == 2 and len(state.legal_actions()) > 1)
    seat = service.table.state.to_move()
    service.act(service.table.state.legal_actions()[0], by=Viewer.seat(seat))
    grown = service.timeline(game)
    assert grown["frames"] is not first["frames"] and grown == fresh()
    service.undo()
    undone = service.timeline(game)
    assert undone["frames"] is not grown["frames"] and undone == fresh()
