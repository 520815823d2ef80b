"""A real Chromium (Debian's, driven by Playwright) against the app served by waitress.

At tablet (1024x768) and phone (390x844) sizes: the Host logs in on the tablet, the join code
appears, a phone opens the seat's link, plays that seat through a whole virtual Course (the
virtual table plays the other seats) to the Toast's reveal, and both pages update live without a
reload. Screenshots go to test-output/ (gitignored).
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from serve_process import served_port, start_serve
from webhelpers import log_in_as_host

from companion.service import VirtualTable
from companion.web import create_app
from companion.web.qr import qr_svg
from companion.web.server import WebServer

OUT = Path(__file__).resolve().parents[2] / "test-output"
PREFERENCE = [
    '[data-type="toast"]',
    '[data-type="reveal"]',
    '[data-type="pour"][data-token="wine"]',
    '[data-type="pass"]',
    "button.action",
]


@pytest.fixture
def served(service, settings):
    service.new_game("goblets", {"players": 4})
    app = create_app(service, settings)
    server = WebServer(app, host="127.0.0.1", port=0, threads=16).start()
    driver = VirtualTable(service, pace=0.03, rng=random.Random(1))
    try:
        yield f"http://127.0.0.1:{server.port}", service, driver
    finally:
        driver.stop()
        service.hub.close()
        server.stop()


def play_my_turn(phone) -> bool:
    """Click this seat's best button (Toast, reveal, pour Wine, pass); True if clicked."""
    for selector in PREFERENCE:
        button = phone.locator(f"#actions {selector}").first
        if button.count():
            try:
                button.click(timeout=2000)
                return True
            except Exception:  # the list re-rendered under the click: try again next round
                return False
    return False


@pytest.mark.parametrize(("width", "height"), [(1024, 768), (390, 844)])
def test_join_by_qr_and_play_a_course_to_the_reveal(browser, served, width, height):
    base, service, driver = served
    OUT.mkdir(exist_ok=True)
    tag = f"{width}x{height}"
    tablet = browser.new_context(viewport={"width": width, "height": height})
    phone_context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=width < 500, has_touch=width < 500
    )
    errors: list[str] = []
    try:
        table = tablet.new_page()
        table.on("pageerror", lambda error: errors.append(str(error)))
        log_in_as_host(table, base)
        table.goto(base + "/")
        table.wait_for_selector(".qr-code svg")
        table.evaluate("window.__loaded = true")  # gone if the page ever reloads
        link = table.locator("a.seat-link").nth(1).get_attribute("href")
        assert link.startswith(base + "/seat/")
        # The QR code on the tablet encodes exactly that link.
        drawn = table.locator(".qr-code").nth(1).locator("path.qrline").get_attribute("d")
        assert drawn and re.search(r'class="qrline"[^>]* d="([^"]+)"', qr_svg(link))[1] == drawn
        table.screenshot(path=str(OUT / f"table-join-{tag}.png"), full_page=True)

        phone = phone_context.new_page()
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(link)
        phone.wait_for_selector("#you .house")
        assert "Seat 2" in phone.inner_text("#you-title") or "seat 2" in phone.inner_text(
            "#you-title"
        )
        first_seq = int(table.evaluate("document.body.dataset.seq"))
        driver.start()  # the virtual table plays every seat but the one joined from the phone

        deadline = time.monotonic() + 90
        clicks = 0
        while time.monotonic() < deadline:
            if table.locator("#toast .reveal-row").count():
                break
            if phone.evaluate("document.body.dataset.myturn") == "yes":
                clicks += play_my_turn(phone)
                if clicks == 1:
                    phone.screenshot(path=str(OUT / f"seat-turn-{tag}.png"), full_page=True)
            phone.wait_for_timeout(60)
        table.wait_for_selector("#toast .reveal-row", timeout=10_000)
        assert clicks >= 1, "the phone never got a turn"
        assert table.evaluate("window.__loaded") is True  # live updates, no reload
        assert int(table.evaluate("document.body.dataset.seq")) > first_seq
        assert "Course 1" in table.inner_text("#toast")
        assert table.locator("#feed li").count() > 0
        assert table.locator(".table-svg .place").count() == 4
        table.wait_for_timeout(1200)  # let the reveal appear step by step
        table.screenshot(path=str(OUT / f"table-reveal-{tag}.png"), full_page=True)
        phone.screenshot(path=str(OUT / f"seat-after-{tag}.png"), full_page=True)
        results = service.table.state.view(service.viewer_for("public"))["results"]
        assert results and results[0]["course"] == 1

        # History: the replay timeline of the revealed Course, with what each goblet held.
        replay = tablet.new_page()
        replay.on("pageerror", lambda error: errors.append(str(error)))
        replay.goto(f"{base}/history/{service.table.record.id}")
        replay.wait_for_selector(".table-svg")
        replay.click("#next")
        assert "Step 2 of" in replay.inner_text("#step")
        replay.evaluate(
            "const s = document.getElementById('scrub'); s.value = s.max;"
            "s.dispatchEvent(new Event('input'))"
        )
        assert replay.locator(".contents-label").count() >= 3
        replay.screenshot(path=str(OUT / f"replay-{tag}.png"), full_page=True)
        for path in ("/courtroom", "/history", "/host"):
            replay.goto(base + path)
            replay.wait_for_selector("main")
        assert errors == []
    finally:
        tablet.close()
        phone_context.close()


def test_courtroom_on_the_tablet(browser, served):
    base, service, _ = served
    OUT.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        log_in_as_host(page, base)
        page.goto(f"{base}/courtroom")
        page.click("#start")
        page.wait_for_selector("#pool .cube")
        assert "4 red · 3 white" in page.inner_text("#pool")
        assert "Guilty" in page.inner_text("#odds")
        for _ in range(6):  # hear, choose a verdict, the two cubes drawn, the sentence...
            page.locator("#actions button").first.click()
            page.wait_for_timeout(150)
        assert page.locator("#log li").count() > 3
        assert page.locator("#vine .marker").count() == 2
        page.screenshot(path=str(OUT / "courtroom-1024x768.png"), full_page=True)
        assert service.table.record.game == "tribunal"
    finally:
        context.close()
    assert errors == []


def test_companion_serve_shows_a_live_sensed_game(browser, tmp_path):
    """The bar: `companion serve` with no hardware runs the virtual table, Chromium renders it."""
    process = start_serve(tmp_path / "data", "--speed", "20")
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    errors: list[str] = []
    try:
        port = served_port(process)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"http://127.0.0.1:{port}/")
        page.evaluate("window.__loaded = true")
        first = int(page.evaluate("document.body.dataset.seq"))
        for _ in range(300):  # polled from the test (the page's CSP forbids eval'd predicates)
            if int(page.evaluate("document.body.dataset.seq")) > first:
                break
            page.wait_for_timeout(100)
        assert int(page.evaluate("document.body.dataset.seq")) > first
        page.wait_for_selector("#toast .reveal-row", timeout=60_000)
        assert page.evaluate("window.__loaded") is True
        assert page.locator("#feed li").count() > 3
        page.screenshot(path=str(OUT / "serve-sensed-1024x768.png"), full_page=True)
    finally:
        context.close()
        process.terminate()
        process.wait(timeout=20)
        process.stdout.close()
    assert errors == []
