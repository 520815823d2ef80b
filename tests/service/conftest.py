"""Fixtures: a service on a temporary data directory playing the shell game."""

import random

import pytest
import shellgame

from companion import config
from companion.service import Service


@pytest.fixture
def settings(tmp_path):
    return config.replace(
        config.Config(),
        data_dir=str(tmp_path),
        **{"game.name": "shellgame", "game.options": {"players": 3}, "virtual.pace": 0.01},
    )


@pytest.fixture
def service(settings):
    svc = Service(settings, games={"shellgame": shellgame.GAME}, rng=random.Random(5))
    yield svc
    svc.close()
