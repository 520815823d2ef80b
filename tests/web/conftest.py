"""Web fixtures: a service on a temporary data directory and its Flask app."""

import random
import sys
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

import shellgame
from webhelpers import PIN, csrf_of

from companion import config
from companion.core import registry
from companion.service import Service
from companion.web import create_app


@pytest.fixture
def settings(tmp_path):
    return config.replace(
        config.Config(),
        data_dir=str(tmp_path),
        **{"host.pin": PIN, "game.name": "shellgame", "game.options": {"players": 3}},
    )


@pytest.fixture
def service(settings):
    games = {**registry.load_all(), "shellgame": shellgame.GAME}
    svc = Service(settings, games=games, rng=random.Random(11))
    svc.new_game("shellgame", {"players": 3})
    yield svc
    svc.close()


@pytest.fixture
def app(service, settings):
    app = create_app(service, settings)
    app.testing = True
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def host(app):
    """A test client logged in as the Host, and its CSRF token."""
    client = app.test_client()
    token = csrf_of(client)
    reply = client.post("/api/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert reply.status_code == 200
    return client, reply.get_json()["csrf"]


CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright (one per test module)."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()
