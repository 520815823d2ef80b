"""A real Chromium (Debian's, driven by Playwright) against the app on the dashboard's server.

The courtroom played by the Host on the tablet, and the default ``companion serve``'s demo table
moving on the Table page (the whole evening of a group is tests/web/test_game_night.py).
Screenshots go to test-output/ (gitignored).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from serve_process import served_port, start_serve
from webhelpers import PHONE, TABLET, log_in_as_host, page_errors, serving

OUT = Path(__file__).resolve().parents[2] / "test-output"


@pytest.fixture
def served(service, settings):
    service.new_game("goblets", {"players": 4})
    with serving(service, settings) as (base, _app):
        yield base, service


def test_courtroom_on_the_tablet(browser, served):
    base, service = served
    OUT.mkdir(exist_ok=True)
    context = browser.new_context(**TABLET)
    errors: list[str] = []
    try:
        page = context.new_page()
        page_errors(page, errors)
        log_in_as_host(page, base)
        page.goto(f"{base}/courtroom")
        page.click("#start")
        page.wait_for_selector("#confirm[open]")  # a person's game is at the table: asked first
        page.click("#confirm-yes")
        page.wait_for_selector("#pool .cube")
        assert "4 red · 3 white" in page.inner_text("#pool")
        assert "Guilty" in page.inner_text("#odds")
        for _ in range(6):  # hear, a verdict, the Host taps the bag for each cube, the sentence
            page.locator("#actions button").first.click()
            page.wait_for_timeout(150)
        assert any(
            e.actor == "chance" and e.action["type"] == "draw"
            for e in service.store.entries(service.table.record.id)
        )
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
    context = browser.new_context(**TABLET)
    errors: list[str] = []
    try:
        port = served_port(process)
        page = context.new_page()
        page_errors(page, errors)
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


def test_the_host_enters_the_tables_characters_and_a_phone_reads_its_own(browser, served):
    """The Character cards form: typed once, kept, offered on the Host page, dealt to a game; the
    phone shows its own card's text. Then the Host taps an event by hand for the player to act."""
    base, service = served
    context = browser.new_context(**TABLET)
    phone_context = browser.new_context(**PHONE)
    errors: list[str] = []
    try:
        page = context.new_page()
        page_errors(page, errors)
        log_in_as_host(page, base)
        page.goto(f"{base}/host/characters")
        page.wait_for_selector(".card-row")
        cards = [(f"Noble {n}", f"The text of card {n}.") for n in range(1, 5)]
        for index, (name, text) in enumerate(cards):
            if index:
                page.click("#add-card")
            row = page.locator(".card-row").nth(index)
            row.locator(".c-name").fill(name)
            row.locator(".c-text").fill(text)
        page.click("#save")
        page.wait_for_selector("#saved:has-text('Saved: 4 cards')")
        page.screenshot(path=str(OUT / "host-characters-1024x768.png"), full_page=True)

        page.goto(f"{base}/host")
        page.wait_for_selector("#characters-table:not([disabled])", state="attached")
        assert "(4)" in page.inner_text("#characters-table")
        page.select_option("#characters", "table")
        for index, name in enumerate(["Anna", "Ben", "Chloe", "Dan"]):
            page.locator(".seat-name").nth(index).fill(name)
        page.click("#start-game")
        page.wait_for_selector("#confirm[open]")  # the shell game at the table is a person's
        page.click("#confirm-yes")
        page.wait_for_selector("#players li:has-text('Anna · De Miceti')")
        record = service.table.record
        assert record.game == "goblets" and len(record.options["characters"]) == 4

        phone = phone_context.new_page()
        page_errors(phone, errors)
        phone.goto(f"{base}/join/{record.join_code}")
        phone.tap('.seat-choice[data-seat="1"]')  # the Host named this seat: Ben
        phone.wait_for_selector("#you-title:has-text('You are Ben · McToadery')")
        mine = service.table.state.characters[1]
        assert mine in phone.inner_text("#you")
        assert dict(cards)[mine] in phone.inner_text("#you")

        # An event by hand, as a button, for the player to act (Anna, the Host's left).
        mover = service.table.state.to_move()
        before = len(service.store.entries(record.id))
        page.locator("#suggest button[data-type=pass]").click()
        for _ in range(200):  # polled from the test: the page's CSP allows no eval'd predicate
            if len(service.store.entries(record.id)) > before:
                break
            page.wait_for_timeout(25)
        entries = service.store.entries(record.id)
        assert len(entries) == before + 1 and entries[-1].actor == "host"
        assert entries[-1].action == {"type": "pass", "seat": mover}
        assert errors == []
    finally:
        context.close()
        phone_context.close()


def test_the_host_fixes_a_conflict_by_tapping_two_places(browser, served):
    """A read table the tracker cannot explain (two Goblets on one reader, none on the next): the
    Host sees the conflict, taps the two places whose Goblets were exchanged and fixes it."""
    from companion.core.observations import Observation
    from companion.service.sensing import SensingBridge
    from companion.virtual import Scenario

    base, service = served
    service.sense("readers")
    service.new_game("goblets", {"players": 4}, play="readers")
    scenario = Scenario.generate(random.Random(3), 4, specials=0.0)
    tags = scenario.registry.to_json()["tags"]
    rings = {tag["goblet"]: uid for uid, tag in tags.items() if tag["kind"] == "ring"}
    bridge = SensingBridge(service, scenario.registry, scenario.initial_layout())
    bridge.start_course()
    context = browser.new_context(**TABLET)
    try:
        page = context.new_page()
        log_in_as_host(page, base)
        seen = {0: ["de_miceti", "mctoadery"], 1: [], 2: ["aconitiers"], 3: ["wespendorf"]}
        for step in range(1, 29):
            for seat, goblets in seen.items():
                bridge.observe(Observation.of(step / 2, seat, [rings[g] for g in goblets]))
        page.wait_for_selector("#notices li.notice-conflict")
        assert page.is_visible("#sensed-panel")
        page.click('#layout-fix button[data-place="0"]')
        page.click('#layout-fix button[data-place="1"]')
        assert "McToadery's Goblet" in page.inner_text('#layout-fix button[data-place="0"]')
        page.click("#fix-layout")
        page.wait_for_selector("#notices li:nth-child(2)")
        layout = dict(bridge.session.table.layout)
        assert layout[0] == "mctoadery" and layout[1] == "de_miceti"
        page.screenshot(path=str(OUT / "host-fix-layout-1024x768.png"), full_page=True)
    finally:
        context.close()
