"""Fixtures: a service on a temporary data directory playing the shell game; ``sensed``: one
with every game and the readers attached (the sensed-play tests)."""

import random

import pytest
import shellgame

from companion import config
from companion.core import registry
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


@pytest.fixture
def sensed(settings):
    """A service with every game registered whose table senses with the readers."""
    service = Service(settings, games=registry.load_all(), rng=random.Random(3))
    service.sense("readers")
    yield service
    service.close()
