"""The table's moments in a real Chromium (issue 15): the phones at their turn and at the reveal.

One dashboard server for the module (a people's game of Raise Your Goblets started per test on
it). A phone (390x844, touch) holds Chloe's seat in the browser; the other seats play from their
own phones' API (as test clients holding their seat cookies). Screenshots go to test-output/.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest
from webhelpers import (
    PHONE,
    TABLET,
    dashboard,
    join,
    page_errors,
    page_in,
    take_a_seat,
    toward_the_toast,
    watched,
)

from companion.core.game import PUBLIC, Viewer
from companion.web.auth import SEAT_COOKIE

OUT = Path(__file__).resolve().parents[2] / "test-output"
NAMES = ["Anna", "Ben", "Chloe", "Dan", "Eve", "Frederick"]
BROWSER_SEAT = 2
"""Chloe's seat: the second to act in a Course (the first is the Host's left, Ben)."""

RECORDER = """
window.__buzz = [];
window.__chimes = 0;
const vibrate = navigator.vibrate ? navigator.vibrate.bind(navigator) : null;
navigator.vibrate = (pattern) => {
  window.__buzz.push(pattern);
  return vibrate ? vibrate(pattern) : true;
};
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () { window.__chimes += 1; return play.call(this); };
"""
"""Recorded before any page script runs: what the page asked of the vibrator and the speaker."""


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A service, its app and the dashboard's server for this module (stopped at its end)."""
    with dashboard(tmp_path_factory, "moments") as served:
        yield served


def people_game(
    service, app, players: int = 4, browser_seat: int | None = BROWSER_SEAT, **options
) -> dict:
    """A people's game of Raise Your Goblets; every seat but ``browser_seat`` joins from an API
    phone."""
    service.new_game("goblets", {"players": players, **options})
    assert service.table.record.play == "phones"
    return {s: join(app, s, NAMES[s]) for s in range(players) if s != browser_seat}


def seat_phone(browser, base: str, service, errors: list[str]):
    """Chloe's phone in Chromium, seated through the join page (the code the tablet shows), its
    clock Playwright's (flowing as the real one until a test moves it on)."""
    context, page = page_in(browser, PHONE, errors, init_script=RECORDER)
    context.clock.install()
    page.on("pageerror", lambda error: print("pageerror:", error))
    take_a_seat(page, base, service, NAMES[BROWSER_SEAT], BROWSER_SEAT)
    return context, page


def wait_seq(page, service) -> None:
    """Until the page has drawn the journal's latest step."""
    seq = service.message(PUBLIC).get("seq")
    page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=seq, timeout=10_000)


def tap_and_wait(phone, selector: str) -> None:
    """Tap ``selector`` on the phone and wait until the server's answer has been handled."""
    answered = int(phone.evaluate("document.body.dataset.answered || 0"))
    phone.click(selector)
    phone.wait_for_function("n => Number(document.body.dataset.answered) > n", arg=answered)


def play_to_the_toast(service, phones: dict, phone, stop_at_the_call: bool = False) -> None:
    """Play until the first Toast is scored: the API phones pour Wine, then Toast; every seat
    reveals when asked; Chloe (in the browser ``phone``, if any) taps Reveal or Pass.
    ``stop_at_the_call``: stop once the Toast is called instead."""
    for _ in range(60):
        state = service.table.state
        if state.results or (stop_at_the_call and state.toast_caller is not None):
            return
        seat = state.to_move()
        if seat == BROWSER_SEAT and phone is not None:
            phone.wait_for_selector("body[data-myturn=yes]")
            kind = "reveal" if phone.locator('#actions [data-type="reveal"]').count() else "pass"
            tap_and_wait(phone, f'#actions [data-type="{kind}"]')
        else:
            action = toward_the_toast(service.message(Viewer.seat(seat))["legal"])
            assert phones[seat].act(action).status_code == 200
        if phone is not None:
            wait_seq(phone, service)
    raise AssertionError("no Toast within 60 actions")


def outside_viewport(page) -> list[str]:
    """Every action button not wholly on the first screen (the page not scrolled)."""
    return page.evaluate(
        """() => {
          window.scrollTo(0, 0);
          const w = innerWidth, h = innerHeight;
          return [...document.querySelectorAll('#actions button, #turn-banner')]
            .filter((b) => { const r = b.getBoundingClientRect();
              return r.top < 0 || r.left < 0 || r.bottom > h || r.right > w || r.height < 44; })
            .map((b) => b.textContent + ' ' + JSON.stringify(b.getBoundingClientRect()));
        }"""
    )


def test_the_phone_tells_its_turn_groups_its_actions_and_shows_its_own_outcome(browser, table):
    base, service, app = table
    OUT.mkdir(exist_ok=True)
    phones = people_game(service, app)
    errors: list[str] = []
    context, phone = seat_phone(browser, base, service, errors)
    try:
        state = service.table.state
        assert state.to_move() == 1  # Ben, the Host's left, acts first; Chloe next
        assert phone.is_hidden("#turn-banner")

        # The turn comes: Ben passes on his phone, Chloe's phone says so at once.
        came = time.time() * 1000
        assert phones[1].act({"type": "pass", "seat": 1}).status_code == 200
        phone.wait_for_selector("#turn-banner:visible", timeout=5_000)
        shown = float(phone.evaluate("document.body.dataset.turnShownAt"))
        assert shown - came < 1000, f"the banner took {shown - came:.0f} ms"
        assert "Your turn!" in phone.inner_text("#turn-banner")
        assert "action 1 of 2" in phone.inner_text("#turn-banner")
        assert phone.evaluate("window.__buzz.length") == 1
        assert phone.evaluate("window.__chimes") == 1  # sound is on until muted

        # The actions first, grouped, on one screen: a Pour is a token kind, then a Goblet.
        assert phone.locator('#actions [data-type="pour"]').count() == 0
        assert outside_viewport(phone) == []
        phone.click('#actions [data-pick="poison"]')
        goblets = phone.locator('#actions [data-type="pour"][data-token="poison"]')
        assert goblets.count() == 4
        assert outside_viewport(phone) == []
        phone.screenshot(path=str(OUT / "moments-phone-turn-390x844.png"), animations="disabled")
        before = len(service.store.entries(service.table.record.id))
        tap_and_wait(phone, '#actions [data-type="pour"][data-token="poison"] >> nth=0')
        entry = service.store.entries(service.table.record.id)[before]
        assert entry.actor == f"seat {BROWSER_SEAT}"
        assert entry.action == {"type": "pour", "seat": 2, "place": 0, "token": "poison"}
        assert "action 2 of 2" in phone.inner_text("#turn-banner")

        # Muted, the next turn buzzes without a chime. Chloe's Pass is answered only after the
        # stream has brought her next turn: the late answer must not draw the past over it.
        phone.click("#sound")
        assert "off" in phone.inner_text("#sound")
        held = []
        phone.route("**/api/seat/act", lambda route: held.append((route, route.fetch())))
        phone.click('#actions [data-type="pass"]')
        while not held:
            phone.wait_for_timeout(20)
        phone.wait_for_selector("#turn-banner", state="hidden")
        for seat in (3, 0, 1):
            assert phones[seat].act({"type": "pass", "seat": seat}).status_code == 200
        phone.wait_for_selector("#turn-banner:visible", timeout=5_000)
        assert phone.evaluate("window.__buzz.length") == 2
        assert phone.evaluate("window.__chimes") == 1
        answered = int(phone.evaluate("document.body.dataset.answered"))
        route, reply = held[0]
        route.fulfill(response=reply)
        phone.wait_for_function("n => Number(document.body.dataset.answered) > n", arg=answered)
        phone.unroute("**/api/seat/act")
        assert phone.evaluate("document.body.dataset.myturn") == "yes"
        assert phone.is_visible("#turn-banner")

        # The others pour their Wine and call the Toast; Chloe's phone shows her own outcome only,
        # once the tablet's reveal has come to her Goblet (test_the_phone_tells_its_outcome_...;
        # here the phone's clock is moved past the whole reveal).
        play_to_the_toast(service, phones, phone)
        result = service.table.state.results[-1]
        mine = result["places"][service.table.state.place_index(BROWSER_SEAT)]
        phone.wait_for_selector("#outcome:visible", timeout=5_000)
        phone.clock.fast_forward(10_000)
        phone.wait_for_selector("body[data-outcome=poisoned], body[data-outcome=survived]")
        text = phone.inner_text("#outcome")
        verdict = "you were poisoned" if mine["poisoned"] else "you survived"
        assert f"Course 1: {verdict}" in text
        assert f"+{result['vp'][BROWSER_SEAT]} VP" in text
        houses = ("De Miceti", "McToadery", "Aconitiers", "Wespendorf")
        assert not [h for h in houses if h in text]  # nobody else's Goblet on this phone
        phone.screenshot(path=str(OUT / "moments-phone-outcome-390x844.png"), animations="disabled")
        assert phone.evaluate(LOW_CONTRAST) == []
        phone.emulate_media(color_scheme="dark")  # a dim room
        assert phone.evaluate(LOW_CONTRAST) == []
        phone.screenshot(path=str(OUT / "moments-phone-outcome-dark-390x844.png"))
    finally:
        context.close()
    assert errors == []


TEXT_SIZES = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest("script, style, title")) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {  // drawn in the drawing's units: scaled to the screen
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    out.push({text: node.textContent.trim().slice(0, 40), size, cls: el.getAttribute("class"),
      drawn: el instanceof SVGElement});
  }
  return out;
}"""
"""Every visible text node of the page, with the size it is drawn at on the screen in px."""

CLIPPED = """() => {
  const out = [];
  const svg = document.querySelector("#drawing svg").getBoundingClientRect();
  for (const card of document.querySelectorAll("#drawing .seat-card")) {
    const box = card.querySelector(".card-box").getBoundingClientRect();
    for (const text of card.querySelectorAll("text")) {
      const r = text.getBoundingClientRect();
      const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1
        && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
      if (!inside(r, box) || !inside(r, svg)) out.push(text.textContent);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth) out.push("the page scrolls sideways");
  return out;
}"""
"""Every name on the drawing not wholly inside its place's card and the drawing."""

OVERLAPS = """() => {
  const out = [];
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const places = [...document.querySelectorAll("#drawing .place")].map((p) => ({
    name: p.querySelector(".seat-label").textContent,
    box: p.querySelector(".card-box").getBoundingClientRect(),
    goblet: p.querySelector(".spot").getBoundingClientRect(),
    texts: [...p.querySelectorAll("text")].map((t) => [t.textContent, t.getBoundingClientRect()]),
  }));
  for (const a of places) {
    for (const b of places.filter((p) => p !== a)) {
      if (meets(a.box, b.box)) out.push(`${a.name} on ${b.name}`);
      if (meets(a.goblet, b.box)) out.push(`${a.name}'s Goblet on ${b.name}`);
    }
    for (const [text, r] of a.texts) {
      if (meets(a.goblet, r)) out.push(`${a.name}'s Goblet on ${text}`);
    }
  }
  return out;
}"""
"""On the drawing, every place's card over another's, and every Goblet over another card or
over its own card's words."""


def test_the_tablet_reads_at_arms_length(browser, table):
    base, service, app = table
    phones = people_game(service, app, browser_seat=None)
    with watched(browser, TABLET) as page:
        page.goto(f"{base}/")
        page.wait_for_selector("#drawing .place.moving")
        wait_seq(page, service)
        assert page.inner_text("#headline") == "Ben (McToadery) — their turn, action 1 of 2"

        sizes = page.evaluate(TEXT_SIZES)
        assert len(sizes) > 20
        small = [s for s in sizes if s["size"] < 18]
        assert small == [], small
        labels = [s for s in sizes if s["cls"] == "seat-label"]
        assert len(labels) == 4 and min(s["size"] for s in labels) >= 24, labels
        assert page.evaluate(CLIPPED) == []

        # The active seat by a word and a shape, not by colour alone.
        moving = page.locator("#drawing .place.moving")
        assert moving.count() == 1 and moving.get_attribute("data-place") == "1"
        assert "TO ACT" in moving.text_content()
        dashes = moving.locator(".card-box").evaluate("b => getComputedStyle(b).strokeDasharray")
        assert dashes not in ("", "none")
        assert page.locator("#drawing .to-act").count() == 1

        assert (
            phones[1].act({"type": "pour", "seat": 1, "place": 2, "token": "wine"}).status_code
            == 200
        )
        wait_seq(page, service)
        assert page.inner_text("#headline") == "Ben (McToadery) — their turn, action 2 of 2"
        page.screenshot(path=str(OUT / "moments-tablet-1024x768.png"), animations="disabled")

    # Ben's phone: its drawing at 16 px and more, no name clipped, nothing drawn over a card,
    # with four places and with six (the most around one table).
    for players in (4, 6):
        if players == 6:
            phones = people_game(service, app, players=6, browser_seat=None)
        with watched(browser, PHONE) as phone:
            cookie = phones[1].client.get_cookie(SEAT_COOKIE)
            phone.context.add_cookies([{"name": SEAT_COOKIE, "value": cookie.value, "url": base}])
            phone.goto(f"{base}/seat")
            phone.wait_for_selector("#drawing .place.moving.mine")
            drawn = [s for s in phone.evaluate(TEXT_SIZES) if s["drawn"]]
            assert {s["text"] for s in drawn} >= {"▶ TO ACT", "McToadery", "YOU · Ben"}, drawn
            assert len(drawn) == players * 3 + 1
            assert [s for s in drawn if s["size"] < 16] == [], drawn
            assert phone.evaluate(CLIPPED) == []
            assert phone.evaluate(OVERLAPS) == []
            shot = OUT / f"moments-phone-drawing-{players}-390x844.png"
            phone.locator("#drawing").screenshot(path=str(shot), animations="disabled")


LOW_CONTRAST = """() => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r, g, b, a};
  };
  const channel = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const lum = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0.5) return c;
    }
    return {r: 255, g: 255, b: 255};
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el instanceof SVGElement) continue;
    if (el.closest("script, style")) continue;
    if (!el.getClientRects().length || el.closest("button:disabled")) continue;
    const style = getComputedStyle(el);
    const a = lum(parse(style.color)), b = lum(behind(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const large = size >= 24 || (size >= 18.66 && bold);
    const text = node.textContent.trim().slice(0, 30);
    if (ratio < (large ? 3 : 4.5)) out.push(`${text}: ${ratio.toFixed(2)}`);
  }
  return out;
}"""
"""Every visible text of the page (outside the drawing) under WCAG AA contrast on its background."""


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG file's width and height, from its IHDR chunk (after checking the signature)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_table_installs_stays_awake_goes_dark_and_never_says_it_by_colour_alone(browser, table):
    base, service, app = table
    phones = people_game(service, app, browser_seat=None)
    with urllib.request.urlopen(f"{base}/manifest.webmanifest", timeout=10) as reply:
        assert reply.headers["Content-Type"].startswith("application/manifest+json")
        manifest = json.loads(reply.read())
    assert manifest["display"] == "fullscreen" and manifest["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        with urllib.request.urlopen(base + icon["src"], timeout=10) as reply:
            width, height = png_size(reply.read())
        assert f"{width}x{height}" == icon["sizes"] and icon["type"] == "image/png"

    errors: list[str] = []
    contexts = []
    try:
        for scheme in ("light", "dark"):
            context = browser.new_context(**TABLET, color_scheme=scheme)
            contexts.append(context)
            page = page_errors(context.new_page(), errors)
            page.goto(f"{base}/")
            page.wait_for_selector("#drawing .place.moving")
            assert page.evaluate(LOW_CONTRAST) == [], scheme
            if scheme == "light":
                cdp = context.new_cdp_session(page)
                found = cdp.send("Page.getAppManifest")
                assert found["url"].endswith("/manifest.webmanifest") and found["errors"] == []
                page.wait_for_function("() => document.body.dataset.wakelock")
                assert page.evaluate("document.body.dataset.wakelock") == "held"
        dark = page
        background = dark.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(20, 17, 14)"  # the dim room's paper, not the day's

        # The Toast: each Goblet's verdict in a word and a shape, not in red and green alone.
        play_to_the_toast(service, phones, None)
        dark.wait_for_selector("#toast .reveal-row")
        places = len(service.table.state.results[-1]["places"])
        dark.wait_for_function(
            "n => document.querySelectorAll('#toast .reveal-row').length === n", arg=places
        )
        for row, place in zip(
            dark.locator("#toast .reveal-row").all(),
            service.table.state.results[-1]["places"],
            strict=True,
        ):
            text = row.inner_text()
            assert (
                ("☠" in text and "POISONED" in text)
                if place["poisoned"]
                else ("✓" in text and "SURVIVED" in text)
            ), text
        assert dark.evaluate(LOW_CONTRAST) == []
        dark.screenshot(path=str(OUT / "moments-tablet-dark-toast-1024x768.png"))
    finally:
        for context in contexts:
            context.close()
    assert errors == []


STAMPS = """
window.__goblets = {};
window.__outcome = null;
new MutationObserver(() => {
  const now = Date.now();
  for (const goblet of document.querySelectorAll("#reveal-moment .reveal-goblet")) {
    if (!(goblet.dataset.place in window.__goblets)) window.__goblets[goblet.dataset.place] = now;
  }
  const outcome = document.getElementById("outcome");
  if (outcome && !outcome.hidden && !window.__outcome
      && /you survived|you were poisoned/.test(outcome.innerText)) {
    window.__outcome = {at: now, text: outcome.innerText,
      rest: document.body.innerText.replace(outcome.innerText, "")};
  }
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""
"""Stamped by the page's clock as the page changes: when the tablet first showed each place's
Goblet, and when the phone first told its verdict, with its text then and the rest of its page.
(Each page's clock is Playwright's, installed at the same real time and flowing as it does, so
the two pages' stamps are on one time line until a test moves a clock on.)"""

VERDICTS = ("poisoned", "survived", "scored")
"""Words that would tell a verdict or a score (lower case)."""


def test_the_toast_is_revealed_goblet_by_goblet_from_the_callers_left(browser, table):
    """ "Starting with the player to the left of the Toast Caller and proceeding clockwise": the
    tablet shows the reveal full screen, one Goblet at a time in that order, then the VP; a phone
    tells its player's own outcome when the tablet shows their Goblet, never before it (the
    table's moment spoiled) and within about a second of it; until then it says the Toast is
    being revealed on the table, and then it quotes no one else's outcome."""
    base, service, app = table
    phones = people_game(service, app, browser_seat=None, hidden_vp=False)
    with (
        watched(browser, TABLET, init_script=STAMPS) as page,
        watched(browser, PHONE, init_script=STAMPS) as phone,
    ):
        page.clock.install()
        phone.clock.install()
        page.goto(f"{base}/")
        page.wait_for_selector("#drawing .place.moving")
        play_to_the_toast(service, phones, None, stop_at_the_call=True)
        wait_seq(page, service)
        assert page.inner_text("#toast").startswith("The Toast! Called by ")  # said at once
        assert page.inner_text("#headline").startswith("The Toast is called! ")

        # The phone of the place revealed second opens its seat's page (its cookie, as it joined).
        state = service.table.state
        caller = state.place_index(state.toast_caller)
        order = [(caller + k) % 4 for k in range(1, 5)]
        mine = order[1]
        seat = state.places[mine].seats[0]
        cookie = phones[seat].client.get_cookie(SEAT_COOKIE)
        phone.context.add_cookies([{"name": SEAT_COOKIE, "value": cookie.value, "url": base}])
        phone.goto(f"{base}/seat")
        phone.wait_for_selector("body[data-seq] #you-title")
        for online in (page, phone):  # both online: the Toast's message reaches both as it is sent
            online.wait_for_selector("#live-status.ok")
        assert phone.is_hidden("#outcome")

        play_to_the_toast(service, phones, None)
        result = service.table.state.results[-1]
        page.wait_for_selector("#reveal-moment .reveal-goblet")
        assert page.locator("#reveal-moment .reveal-goblet").count() == 1  # one at a time
        box = page.locator("#reveal-moment").bounding_box()
        assert (box["width"], box["height"]) == (1024, 768)  # the whole screen

        phone.wait_for_selector("#outcome:visible", timeout=5_000)
        waiting = phone.inner_text("#outcome")
        if phone.evaluate("window.__outcome") is None:  # (a loaded machine may be past it)
            assert "being revealed on the table" in waiting, waiting
            early = phone.inner_text("body").lower()
            assert [w for w in VERDICTS if w in early] == [], early
            phone.screenshot(
                path=str(OUT / "moments-phone-waiting-390x844.png"), animations="disabled"
            )
        phone.wait_for_function("() => window.__outcome", timeout=10_000)
        page.wait_for_function("p => window.__goblets[p]", arg=mine, timeout=10_000)
        told = phone.evaluate("window.__outcome")
        at = page.evaluate("window.__goblets")[str(mine)]
        # Never before the tablet shows that Goblet (the two pages' messages may arrive some ms
        # apart; telling it at once would be a whole second early) and within about a second.
        assert told["at"] >= at - 500, f"told {at - told['at']} ms before the tablet showed it"
        assert told["at"] <= at + 1000, f"told {told['at'] - at} ms after the tablet showed it"
        # Its own outcome only: its Goblet's verdict and VP, no other House or player, and
        # nothing else on the page tells a verdict or a score yet.
        verdict = "you were poisoned" if result["places"][mine]["poisoned"] else "you survived"
        assert f"Course 1: {verdict}" in told["text"], told["text"]
        assert f"+{result['vp'][seat]} VP" in told["text"], told["text"]
        others = ["De Miceti", "McToadery", "Aconitiers", "Wespendorf", *NAMES]
        assert [w for w in others if w in told["text"]] == [], told["text"]
        assert [w for w in VERDICTS if w in told["rest"].lower()] == [], told["rest"]
        phone.screenshot(path=str(OUT / "moments-phone-told-390x844.png"), animations="disabled")

        page.clock.fast_forward(10_000)  # the rest of the reveal, in the tablet's modelled time
        page.wait_for_selector("body[data-reveal=done]", timeout=10_000)
        goblets = page.locator("#reveal-moment .reveal-goblet")
        shown = [int(g.get_attribute("data-place")) for g in goblets.all()]
        assert shown == order
        for g, place in zip(goblets.all(), order, strict=True):
            verdict = "☠ POISONED" if result["places"][place]["poisoned"] else "✓ SURVIVED"
            assert verdict in g.inner_text()
        vp = page.inner_text("#reveal-moment .vp-list")
        for seat in range(4):
            assert f"{NAMES[seat]} · " in vp and f"+{result['vp'][seat]} VP" in vp
        assert "Standings" in page.inner_text("#reveal-moment")
        assert [s for s in page.evaluate(TEXT_SIZES) if s["size"] < 18] == []
        assert page.evaluate(LOW_CONTRAST) == []
        page.screenshot(path=str(OUT / "moments-tablet-reveal-1024x768.png"), animations="disabled")
        page.click("#reveal-moment button")
        assert page.is_hidden("#reveal-moment")
