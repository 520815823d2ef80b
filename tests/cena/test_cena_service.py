"""Cena through the running companion: seats act from their own views, the journal is the truth."""

from __future__ import annotations

import random

import pytest

from companion import config
from companion.core import registry
from companion.core.errors import IllegalAction
from companion.core.game import HOST, PUBLIC, Viewer
from companion.service import Service


@pytest.fixture
def service(tmp_path):
    settings = config.replace(
        config.Config(),
        data_dir=str(tmp_path),
        **{"game.name": "cena", "game.options": {"players": 3}, "virtual.pace": 0.01},
    )
    svc = Service(settings, games=registry.load_all(), rng=random.Random(5))
    yield svc
    svc.close()


def test_a_single_course_played_from_the_seats_views(service):
    service.new_game("cena", {"players": 4, "single_course": True})
    rng = random.Random(1)
    while not service.table.state.is_over():
        seat = service.table.state.to_move()
        view = service.message(Viewer.seat(seat))["view"]
        other = Viewer.seat((seat + 1) % 4)
        with pytest.raises(IllegalAction):
            service.act(rng.choice(view["legal_actions"]), by=other)
        service.act(rng.choice(view["legal_actions"]), by=Viewer.seat(seat))
    public = service.message(PUBLIC)["view"]
    assert public["result"] == service.table.state.outcome()
    assert len(public["result"]["rounds"]) == 1
    assert "hand" not in service.message(HOST)["view"]
