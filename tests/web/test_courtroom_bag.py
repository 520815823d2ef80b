"""The courtroom as a bag worth drawing from (issue 15), in a real Chromium.

A people's trial per test on one dashboard server for the module: the Judge plays from a phone
(390x844, touch) seated through the join page, the tablet (1024x768) shows the table's page. The
cubes are drawn by the server at each tap and journaled as chance; the pages only draw them.
Screenshots go to test-output/.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from webhelpers import PHONE, PIN, TABLET, csrf_of, dashboard, log_in_as_host, take_a_seat, watched

from companion.core.game import PUBLIC
from companion.core.games.tribunal.cards import synthetic_deck

OUT = Path(__file__).resolve().parents[2] / "test-output"
RGB = {"red": "rgb(192, 57, 43)", "white": "rgb(251, 248, 240)", "blue": "rgb(31, 95, 191)"}
"""The cubes' colours as courtroom.css paints them (Elements of the Game: red, white, blue)."""
SHORT_VINE = ["", "R", "L", "W", "", "*"]
"""Legitimacy one step below W, so one "Raise Legitimacy" puts the blue cube in the bag."""


@pytest.fixture(scope="module")
def court(tmp_path_factory):
    """A service, its app and the dashboard's server for this module (stopped at its end)."""
    OUT.mkdir(exist_ok=True)
    with dashboard(tmp_path_factory, "court") as served:
        yield served


def trial(service, **options) -> None:
    service.new_game("tribunal", options)
    assert service.table.record.play == "phones"


def the_court(page, base, host=False) -> None:
    """The tablet shows the courtroom (its Host logged in first if ``host``)."""
    if host:
        log_in_as_host(page, base)
    page.goto(f"{base}/")
    page.wait_for_selector("#court")


def wait_seq(service, *pages) -> None:
    seq = service.message(PUBLIC)["seq"]
    for page in pages:
        page.wait_for_function(
            "s => Number(document.body.dataset.seq) >= s", arg=seq, timeout=10_000
        )


def tap(service, page, selector, *others) -> None:
    """Tap ``selector`` on ``page`` and wait until every page has drawn the new step."""
    before = service.message(PUBLIC)["seq"]
    page.locator(selector).first.click()
    for _ in range(100):
        if service.message(PUBLIC)["seq"] > before:
            break
        page.wait_for_timeout(50)
    wait_seq(service, page, *others)


def draws(service) -> list[tuple[str, str]]:
    """The journal's cube draws of the game at the table: (actor, cube)."""
    entries = service.store.entries(service.table.record.id)
    return [(e.actor, e.action["cube"]) for e in entries if e.action.get("type") == "draw"]


def drawn_cubes(page) -> list[dict]:
    return page.eval_on_selector_all(
        "#drawn .drawn",
        """items => items.map((li) => { const c = li.querySelector('.big-cube');
          const s = getComputedStyle(c);
          return {colour: li.dataset.colour, bg: s.backgroundColor,
                  fresh: li.classList.contains('fresh'), animation: s.animationName,
                  width: c.offsetWidth,
                  word: li.querySelector('.cube-word').textContent}; })""",
    )


def test_the_judge_draws_each_cube_from_the_bag(browser, court):
    """Two taps, two cubes, each out of the bag in its colour; the odds before the draw only."""
    base, service, _app = court
    trial(service, second_draw="always")
    with watched(browser, PHONE) as phone, watched(browser, TABLET) as table:
        take_a_seat(phone, base, service, "Anna", 0)  # the Judge's phone
        the_court(table, base)
        tap(service, phone, '#actions [data-type="hear"]', table)
        odds = service.message(PUBLIC)["view"]["odds"]
        for page in (phone, table):  # before the verdict: both verdicts' exact odds
            lines = page.locator("#odds .odds-line")
            assert lines.count() == 2
            assert odds["guilty"]["exact"] in lines.nth(0).inner_text()
            assert odds["not_guilty"]["exact"] in lines.nth(1).inner_text()
            assert "4 red · 3 white · 0 blue" in page.inner_text("#pool")
        phone.screenshot(path=str(OUT / "court-verdict-390x844.png"), animations="disabled")

        tap(service, phone, '#actions [data-type="verdict"]', table)  # Guilty
        assert draws(service) == []  # the verdict draws nothing: the Judge's tap does
        bag = phone.locator("#actions button#bag")
        assert "draw the first cube" in bag.inner_text()
        box = bag.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
        assert table.locator("#bag-stage .bag .sack").count() == 1  # the tablet sees the bag
        assert table.locator("#drawn .drawn").count() == 0
        assert table.locator('#odds [data-next="yes"]').count() == 1  # the next cube's chance
        assert table.locator("#odds [data-verdict]").count() == 0

        for n in (1, 2):
            tap(service, phone, "#actions button#bag", table)
            journal = draws(service)
            assert len(journal) == n and all(actor == "chance" for actor, _ in journal)
            for page in (phone, table):
                page.wait_for_function(
                    "n => document.querySelectorAll('#drawn .drawn').length == n", arg=n
                )
                shown = drawn_cubes(page)
                assert [c["colour"] for c in shown] == [cube for _, cube in journal]
                assert [c["bg"] for c in shown] == [RGB[cube] for _, cube in journal]
                assert shown[-1]["fresh"] and shown[-1]["animation"].startswith("out-of-bag")
                assert shown[-1]["word"] == f"{('first', 'second')[n - 1]} cube: {journal[-1][1]}"
                assert shown[-1]["width"] >= 60
            if n == 1:
                assert "draw the second cube" in phone.inner_text("#actions button#bag")
                phone.wait_for_timeout(400)  # mid-flight: the cube on its way out of the bag
                phone.screenshot(path=str(OUT / "court-first-cube-390x844.png"))
                table.screenshot(path=str(OUT / "court-first-cube-1024x768.png"))

        view = service.message(PUBLIC)["view"]
        assert view["phase"] == "sentence" and view["odds"] == {}
        for page in (phone, table):  # the pool is short of the drawn cubes: no odds on it
            assert page.locator("#odds .odds-line").count() == 0
            assert page.locator("#actions button#bag").count() == 0
        phone.screenshot(path=str(OUT / "court-sentence-390x844.png"), animations="disabled")
        table.screenshot(path=str(OUT / "court-sentence-1024x768.png"), animations="disabled")


VINE_ROWS = """() => [...document.querySelectorAll('#vine .space')].map((li) => ({
  index: Number(li.dataset.index), label: li.dataset.label, text: li.innerText,
  bottom: li.classList.contains('bottom'), border: getComputedStyle(li).borderTopStyle,
  blue: li.querySelector('#vine-blue')
    ? getComputedStyle(li.querySelector('#vine-blue')).backgroundColor : null,
  legitimacy: !!li.querySelector('.marker.legitimacy'),
  reputation: !!li.querySelector('.marker.reputation')}))"""


def test_the_vine_is_labelled_the_blue_cube_waits_on_w_and_comes_out_blue(browser, court):
    base, service, app = court
    trial(service, vine=SHORT_VINE)
    with watched(browser, PHONE) as phone, watched(browser, TABLET) as table:
        take_a_seat(phone, base, service, "Anna", 0)  # the Judge's phone
        the_court(table, base)
        rows = table.evaluate(VINE_ROWS)
        assert [r["index"] for r in rows] == [5, 4, 3, 2, 1, 0]  # the top space first
        by = {r["index"]: r for r in rows}
        assert by[5]["label"] == "*" and "★" in by[5]["text"] and "win" in by[5]["text"]
        assert by[3]["label"] == "W" and by[3]["blue"] == RGB["blue"]  # the blue cube on W
        assert by[2]["legitimacy"] and "Legitimacy" in by[2]["text"]
        assert by[1]["reputation"] and "Reputation" in by[1]["text"]
        assert by[0]["bottom"] and "loses" in by[0]["text"] and by[0]["border"] == "dashed"
        assert [r["index"] for r in rows if r["bottom"]] == [0]
        assert all(str(r["index"] + 1) in r["text"] for r in rows)  # every space numbered

        tap(service, phone, '#actions [data-type="hear"]', table)
        for page in (phone, table):
            text = page.inner_text("#case")
            assert "The top Accused Card" in text and "accused-" not in text
        tap(service, phone, '#actions [data-type="verdict"]', table)
        while phone.locator("#actions button#bag").count():
            tap(service, phone, "#actions button#bag", table)
        # Anonymous cards: the player taps the lines printed on the card, worded as printed.
        raise_legitimacy = phone.locator(
            '[data-effect="legitimacy_up"] button[aria-label="Raise Legitimacy 1 space"]'
        )
        assert raise_legitimacy.count() == 1, phone.inner_html("#actions")
        buttons = phone.eval_on_selector_all("#actions button", "bs => bs.map(b => b.innerText)")
        assert not [b for b in buttons if "_" in b or "+" in b], buttons
        tap(service, phone, '[data-effect="legitimacy_up"] button >> nth=0', table)
        assert service.message(PUBLIC)["view"]["blue_cube"] == "pool"
        rows = {r["index"]: r for r in table.evaluate(VINE_ROWS)}
        assert rows[3]["legitimacy"] and rows[3]["blue"] is None  # into the bag
        assert "1 blue" in table.inner_text("#pool")
        assert table.locator("#pool .cube-blue").count() == 1
        table.screenshot(
            path=str(OUT / "court-vine-1024x768.png"), animations="disabled", full_page=True
        )
        tap(service, phone, '#actions [data-type="end_sentence"]', table)

        tap(service, phone, '#actions [data-type="hear"]', table)
        tap(service, phone, '#actions [data-type="verdict"]', table)
        # The table drew the blue cube from its own bag: the Host enters it.
        host = app.test_client()
        token = csrf_of(host)
        token = host.post(
            "/api/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": token}
        ).get_json()["csrf"]
        reply = host.post(
            "/api/host/act",
            json={"action": {"type": "draw", "cube": "blue"}},
            headers={"X-CSRF-Token": token},
        )
        assert reply.status_code == 200, reply.get_json()
        wait_seq(service, phone, table)
        for page in (phone, table):
            shown = drawn_cubes(page)
            assert shown[0]["colour"] == "blue" and shown[0]["bg"] == RGB["blue"]
            assert shown[0]["word"] == "first cube: blue"
        table.screenshot(path=str(OUT / "court-blue-cube-1024x768.png"), animations="disabled")


def test_the_sentence_is_the_cards_printed_lines_and_the_log_reads(browser, court):
    base, service, _app = court
    trial(service, deck=synthetic_deck(random.Random(4)))
    with watched(browser, PHONE) as phone, watched(browser, TABLET) as table:
        take_a_seat(phone, base, service, "Anna", 0)  # the Judge's phone
        the_court(table, base)
        for _ in range(30):  # until a sentence with printed effects is being carried out
            view = service.message(PUBLIC)["view"]
            if view["phase"] == "sentence" and view["pending"]["effects"]:
                break
            if view["phase"] == "sentence":
                tap(service, phone, '#actions [data-type="end_sentence"]', table)
            elif phone.locator("#actions button#bag").count():
                tap(service, phone, "#actions button#bag", table)
            elif view["phase"] == "choose":
                tap(service, phone, '#actions [data-type="sentence"]', table)
            else:
                kind = "hear" if view["phase"] == "hear" else "verdict"
                tap(service, phone, f'#actions [data-type="{kind}"]', table)
        view = service.message(PUBLIC)["view"]
        card = view["sentence"]["card"]
        assert card in phone.inner_text("#case") and card in table.inner_text("#case")
        printed = view["pending"]["effects"]
        lines = [view["effect_lines"][f"{e['effect']} {e['n']}"] for e in printed]
        for page in (phone, table):
            items = page.eval_on_selector_all(
                "#printed li", "lis => lis.map(li => [li.className, li.innerText])"
            )
            assert [text.lstrip("▶ ") for _, text in items] == lines
            assert items[0][0] == "next"
        assert re.fullmatch(r"(Add|Raise|Lower|Remove) .+", lines[0])
        assert phone.inner_text('#actions [data-type="effect"]') == f"Carry out: {lines[0]}"
        tap(service, phone, '#actions [data-type="effect"]', table)
        first = table.locator("#printed li").first
        assert first.get_attribute("class") == "done" and first.inner_text() == f"✓ {lines[0]}"

        log = table.eval_on_selector_all("#log li", "lis => lis.map(li => li.innerText)")
        assert len(log) > 5
        assert not [line for line in log if re.search(r"[{}\[\]_\"]|: \d+ ·", line)], log
        assert any(line.startswith("Judgment: ") for line in log)
        assert any(line.startswith(lines[0]) for line in log)
        table.screenshot(path=str(OUT / "court-printed-1024x768.png"), animations="disabled")
        phone.screenshot(path=str(OUT / "court-printed-390x844.png"), animations="disabled")


SIZES = """() => {
  const texts = [], buttons = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim()) continue;
    if (el.closest("script, style, title, dialog:not([open])")) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) { const m = el.getScreenCTM(); size *= Math.hypot(m.a, m.b); }
    texts.push({text: node.textContent.trim().slice(0, 40), size});
  }
  for (const b of document.querySelectorAll("button, a, select, input")) {
    const r = b.getBoundingClientRect();
    if (!r.width || b.closest("dialog:not([open])")) continue;
    buttons.push({text: (b.innerText || b.getAttribute("aria-label") || b.tagName).slice(0, 40),
                  w: r.width, h: r.height});
  }
  return {texts, buttons, sideways: document.documentElement.scrollWidth > innerWidth};
}"""
"""Every visible text node's drawn size in px, every tappable thing's box, and sideways scroll."""


def measure(page, name):
    measured = page.evaluate(SIZES)
    assert not measured["sideways"], name
    small_buttons = [b for b in measured["buttons"] if b["w"] < 44 or b["h"] < 44]
    assert small_buttons == [], (name, small_buttons)
    return measured["texts"]


def test_tap_targets_and_text_at_arms_length(browser, court):
    """The Host plays a trial on the tablet: no text under 18 px, every tap target 44 px or more,
    at each moment (verdict, draw, the anonymous card's lines, the log); the phone's targets too."""
    base, service, _app = court
    trial(service)
    with watched(browser, TABLET) as table, watched(browser, PHONE) as phone:
        the_court(table, base, host=True)
        take_a_seat(phone, base, service, "Anna", 0)  # the Judge's phone
        seen = set()
        for _ in range(40):
            view = service.message(PUBLIC)["view"]
            phase = view["phase"]
            if phase not in seen:
                seen.add(phase)
                texts = measure(table, phase)
                assert len(texts) > 15
                small = [t for t in texts if t["size"] < 18]
                assert small == [], (phase, small)
                measure(phone, phase)
                table.screenshot(
                    path=str(OUT / f"court-host-{phase}-1024x768.png"), animations="disabled"
                )
            if {"hear", "verdict", "draw", "sentence"} <= seen and view["hearing"] >= 2:
                break
            if phase == "sentence":
                tap(service, table, '#actions [data-type="end_sentence"]', phone)
            else:
                tap(service, table, "#actions button.action", phone)
        assert {"hear", "verdict", "draw", "sentence"} <= seen
