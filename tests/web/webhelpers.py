"""Helpers shared by the web tests (a module of its own: ``conftest`` names are ambiguous).

The browser tests' one harness: :func:`dashboard` (a service, its app and the dashboard's real
server for a module, all three stopped at its end), :func:`serving` (the server alone, for a
service a test already has) and :func:`page_in` (a Chromium page at a phone's or the tablet's
size whose script errors are collected; :func:`watched`: one for a block, which must end with
none).
"""

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from companion import config
from companion.core import registry
from companion.service import Service
from companion.web import create_app
from companion.web.server import WebServer

PIN = "2468"
TABLET = {"viewport": {"width": 1024, "height": 768}}
"""A Playwright browser context of the tablet in the middle of the table."""
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
"""A Playwright browser context of a player's phone."""


def csrf_of(client):
    """This test client's session CSRF token."""
    return client.get("/api/csrf").get_json()["csrf"]


INITIAL = re.compile(
    r'<script id="(?:initial|timeline)" type="application/json">(.*?)</script>', re.S
)
"""A page's embedded JSON snapshot (the initial state or a timeline)."""


def first_sse_message(client, url):
    """The first snapshot a stream sends (then the connection is closed)."""
    response = client.get(url, buffered=False)
    try:
        buffer = ""
        for chunk in response.response:
            buffer += chunk.decode()
            if "data: " in buffer and buffer.endswith("\n\n"):
                return buffer
    finally:
        response.close()
    return buffer


class Phone:
    """A phone that joined a seat through ``POST /api/join``: a test client holding the seat's
    cookie, and the seat's CSRF token as the join reply gave it."""

    def __init__(self, client, seat, csrf):
        self.client = client
        self.seat = seat
        self.csrf = csrf

    def act(self, action, csrf=None):
        """``POST /api/seat/act`` (with this seat's CSRF token unless another is given)."""
        token = self.csrf if csrf is None else csrf
        return self.client.post(
            "/api/seat/act", json={"action": action}, headers={"X-CSRF-Token": token}
        )

    def state(self):
        """``GET /api/seat/state`` as JSON."""
        return self.client.get("/api/seat/state").get_json()


def join(app, seat, name=None, code=None):
    """A new phone (test client) that claims ``seat`` with the game's join code."""
    service = app.extensions["cupbearer"].service
    client = app.test_client()
    code = service.table.record.join_code if code is None else code
    reply = client.post(
        "/api/join",
        json={"code": code, "seat": seat, "name": name or f"Player{seat}"},
        headers={"X-CSRF-Token": csrf_of(client)},
    )
    assert reply.status_code == 200, reply.get_json()
    return Phone(client, seat, reply.get_json()["csrf"])


def join_all(app):
    """A phone for every seat of the game at the table, by seat."""
    service = app.extensions["cupbearer"].service
    return {seat: join(app, seat) for seat in range(service.table.state.num_seats)}


def seat_responses(client):
    """What a phone gets of its seat: its page, its state and its stream's first message."""
    return [
        client.get("/seat").data.decode(),
        client.get("/api/seat/state").data.decode(),
        first_sse_message(client, "/api/stream?viewer=seat"),
    ]


TOWARD_THE_TOAST = ("reveal", "toast", "pour", "pass")
"""The Toast soon: reveal when asked, Toast once the Wine is gone, pour Wine while it lasts."""


def toward_the_toast(legal: list[dict]) -> dict:
    """Of a seat's ``legal`` actions, the one that brings the Toast soonest
    (:data:`TOWARD_THE_TOAST`; the only pour taken is a Wine's)."""
    wine = [a for a in legal if a["type"] == "pour" and a["token"] == "wine"]
    return next(
        a
        for kind in TOWARD_THE_TOAST
        for a in (wine if kind == "pour" else legal)
        if a["type"] == kind
    )


def log_in(app):
    """A test client logged in as the Host through the API."""
    client = app.test_client()
    reply = client.post(
        "/api/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf_of(client)}
    )
    assert reply.status_code == 200
    return client


def take_a_seat(page, base, service, name: str, seat: int) -> None:
    """Seat a Chromium page through the join page at the code the tablet shows (``name`` typed,
    ``seat`` chosen), until the seat's page has drawn its first step."""
    page.goto(f"{base}/join/{service.table.record.join_code}")
    page.fill("#name", name)
    page.click(f'.seat-choice[data-seat="{seat}"]')
    page.wait_for_selector("body[data-seq] #you-title")


HOST_PAGE_READY = "body[data-seq] #undo"


def log_in_as_host(page, base):
    """Log a Chromium page in as the Host through the Host page's PIN form, until host.js has
    run on the reloaded page (its first render marks the body): the buttons are parsed before
    the script at the end of the page, and a choice made before then has no listener to see it
    (CI once picked Cena in that gap and its options stayed hidden)."""
    page.goto(f"{base}/host")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector(HOST_PAGE_READY, state="attached")


class Dashboard(NamedTuple):
    """A served dashboard: its base URL, its service and the service's Flask app."""

    base: str
    service: Service
    app: object


@contextmanager
def serving(service, settings, threads: int = 16) -> Iterator[tuple[str, object]]:
    """The dashboard's real server (``WebServer``) for ``service`` on a free loopback port: its
    base URL and app. At the end its streams are closed and it is stopped (the service is the
    caller's)."""
    app = create_app(service, settings)
    server = WebServer(app, host="127.0.0.1", port=0, threads=threads).start()
    try:
        yield f"http://127.0.0.1:{server.port}", app
    finally:
        service.hub.close()  # the open streams first: a server waits for its threads
        server.stop()


@contextmanager
def dashboard(tmp_path_factory, name: str, threads: int = 16, seed: int = 15, **settings):
    """A :class:`Dashboard` on a fresh data directory named ``name`` (every game registered, the
    Host's PIN set, ``settings`` as dotted config keys), served until the block ends; then the
    server and the service are stopped."""
    conf = config.replace(
        config.Config(),
        data_dir=str(tmp_path_factory.mktemp(name)),
        **{"host.pin": PIN, **settings},
    )
    service = Service(conf, games=registry.load_all(), rng=random.Random(seed))
    try:
        with serving(service, conf, threads=threads) as (base, app):
            yield Dashboard(base, service, app)
    finally:
        service.close()


def page_errors(page, errors: list[str]):
    """Collect every uncaught script error of ``page`` into ``errors`` (a test asserts it stays
    empty); the page."""
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


@contextmanager
def watched(browser, size: dict, init_script: str | None = None):
    """A page as :func:`page_in` makes it, for the block; then its context is closed and the
    page must have had no script error (checked only when the block itself passed)."""
    errors: list[str] = []
    context, page = page_in(browser, size, errors, init_script)
    try:
        yield page
    finally:
        context.close()
    assert errors == [], errors


def page_in(browser, size: dict, errors: list[str], init_script: str | None = None):
    """A new browser context of ``size`` (:data:`PHONE` or :data:`TABLET`; ``init_script`` run
    before any page script) and a page in it whose script errors go to ``errors``: (context,
    page). The caller closes the context."""
    context = browser.new_context(**size)
    try:
        if init_script is not None:
            context.add_init_script(init_script)
        return context, page_errors(context.new_page(), errors)
    except BaseException:
        context.close()
        raise
