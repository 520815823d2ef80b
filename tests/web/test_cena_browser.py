"""Cena in a real Chromium (Debian's, driven by Playwright) against the dashboard's server.

The Cena page on a tablet (1024x768) and House 2's phone (390x844, touch): the phone reveals the
poison, picks its three Welcome cards, is refused with the rule's words when it plays in front of
another House in a Private feast, then leads a card in front of its own House; the tablet shows
each step live, without a reload. The other Houses play from their links' API (as their phones
would). Screenshots go to test-output/ (gitignored).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from webhelpers import PHONE, TABLET, log_in_as_host, page_errors, serving

from companion.core.game import Viewer
from companion.core.games.cena import rules

OUT = Path(__file__).resolve().parents[2] / "test-output"
PHONE_SEAT = 1


@pytest.fixture
def served(service, settings):
    service.new_game("cena", {"players": 3, "host": PHONE_SEAT, "private_feast": True})
    with serving(service, settings, threads=8) as (base, _app):
        yield base, service


def seq(page) -> int:
    return int(page.evaluate("document.body.dataset.seq"))


def test_a_card_played_on_the_phone_appears_on_the_tablet_live(browser, served):
    base, service = served
    OUT.mkdir(exist_ok=True)
    tablet_context = browser.new_context(**TABLET)
    phone_context = browser.new_context(**PHONE)
    errors: list[str] = []
    try:
        tablet = tablet_context.new_page()
        page_errors(tablet, errors)
        tablet.goto(f"{base}/cena")
        tablet.wait_for_selector("#cena-table svg .house")
        assert tablet.locator("#cena-table .house").count() == 3
        assert tablet.locator("#cena-table .alliance").count() == 3
        tablet.evaluate("window.__loaded = true")  # gone if the page ever reloads

        phone = phone_context.new_page()
        page_errors(phone, errors)
        phone.goto(f"{base}/join/{service.table.record.join_code}")  # the tablet's code
        phone.fill("#name", "Ben")
        phone.tap(f'.seat-choice[data-seat="{PHONE_SEAT}"]')
        phone.wait_for_selector("#hand button.card")
        assert phone.inner_text("#you-title").startswith("You are Ben · House 2")
        assert phone.locator("#hand button.card").count() == 12  # "deal 12 cards to each player"
        hand = service.table.state.hands[PHONE_SEAT]
        assert sorted(
            phone.eval_on_selector_all("#hand button.card", "b => b.map(x => x.dataset.card)")
        ) == sorted(hand)

        # I. Setup: the Host House reveals the poison from its phone; the tablet shows its text.
        first = seq(tablet)
        phone.tap("#reveal")
        poison = None
        tablet.wait_for_selector("#poison .poison-card")
        poison = service.table.state.view(Viewer("public"))["poison"]
        assert poison["text"] in tablet.inner_text("#poison")
        assert seq(tablet) > first

        # II. Welcome: tap three cards on the phone, place them face up.
        picks = hand[:3]
        for card in picks:
            phone.tap(f'#hand button.card[data-card="{card}"]')
        assert phone.locator("#hand button.card.selected").count() == 3
        phone.screenshot(path=str(OUT / "cena-seat-welcome-390x844.png"), full_page=True)
        # Large touch targets, and nothing wider than the phone.
        heights = phone.eval_on_selector_all(
            "#hand button.card, #welcome-confirm",
            "b => b.map(x => x.getBoundingClientRect().height)",
        )
        assert min(heights) >= 48
        assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390
        phone.tap("#welcome-confirm")
        phone.wait_for_selector("text=Your Welcome cards are chosen")
        for _ in range(2):  # the other Houses choose from their own links
            seat = service.table.state.to_move()
            cards = service.table.state.hands[seat][-3:]
            service.act({"type": "welcome", "cards": cards}, by=Viewer.seat(seat))
        for card in picks:
            tablet.wait_for_selector(f'#welcome li[data-house="{PHONE_SEAT}"] [data-card="{card}"]')

        # III. Feast: the Host House leads. In a Private feast, another House's place is refused.
        phone.wait_for_selector("body[data-myturn=yes][data-phase=feast]")
        card = service.table.state.hands[PHONE_SEAT][-1]
        phone.tap(f'#hand button.card[data-card="{card}"]')
        phone.tap('#places button.house[data-house="0"]')
        phone.wait_for_selector("#error:has-text('only play cards in front of their own House')")
        assert rules.PRIVATE_FEAST in phone.inner_text("#error")
        before = seq(tablet)
        phone.tap(f'#hand button.card[data-card="{card}"]')
        phone.tap(f'#places button.house[data-house="{PHONE_SEAT}"]')
        drawn = f'#cena-table [data-house-card="{PHONE_SEAT}"][data-card="{card}"]'
        tablet.wait_for_selector(drawn, timeout=10_000)
        assert seq(tablet) > before
        assert f"lead {card.split('-')[0]}" in tablet.inner_text("#cena-table")
        assert tablet.evaluate("window.__loaded") is True  # live, no reload
        assert phone.evaluate("document.body.dataset.myturn") == "no"
        assert card not in phone.eval_on_selector_all(
            "#hand button.card", "b => b.map(x => x.dataset.card)"
        )
        tablet.screenshot(path=str(OUT / "cena-table-1024x768.png"), full_page=True)
        phone.screenshot(path=str(OUT / "cena-seat-played-390x844.png"), full_page=True)

        # The trick ends from the other links: the tablet shows the winning alliance.
        for _ in range(2):
            seat = service.table.state.to_move()
            service.act(service.table.state.legal_actions()[0], by=Viewer.seat(seat))
        tablet.wait_for_selector("#cena-table .ally.won")
        assert "won by" in tablet.inner_text("#cena-table")
        assert "won by" in tablet.inner_text("#trick")
        assert tablet.evaluate("window.__loaded") is True
        tablet.set_viewport_size({"width": 390, "height": 844})
        tablet.screenshot(path=str(OUT / "cena-table-390x844.png"), full_page=True)
        assert tablet.evaluate("document.scrollingElement.scrollWidth") <= 390
        assert errors == []
    finally:
        tablet_context.close()
        phone_context.close()


def test_the_host_starts_cena_and_the_tablet_shows_the_score_pad(browser, served):
    """From the Host page's form to the winners: the score pad fills in live, round by round."""
    base, service = served
    OUT.mkdir(exist_ok=True)
    context = browser.new_context(**TABLET)
    errors: list[str] = []
    try:
        page = context.new_page()
        page_errors(page, errors)
        log_in_as_host(page, base)
        page.select_option("#game-name", "cena")
        assert page.is_visible("#cena-options") and not page.is_visible("#goblets-options")
        page.select_option("#cena-players", "4")
        page.select_option("#host-seat", "2")
        page.check("#cena-single")
        page.click("#cena-first")
        page.screenshot(path=str(OUT / "cena-host-1024x768.png"), full_page=True)
        old = service.table.record.id
        page.click("#new-game button[type=submit]")
        page.wait_for_selector("#confirm[open]")  # the shell game at the table is a person's
        page.click("#confirm-yes")
        for _ in range(100):  # the form posts to /api/host/game
            if service.table.record.id != old:
                break
            page.wait_for_timeout(50)
        record = service.table.record
        assert record.id != old and record.game == "cena"
        assert record.options == {
            "players": 4,
            "host": 2,
            "single_course": True,
            "poison_cards": [1, 2, 3],
        }

        page.goto(f"{base}/cena")
        page.wait_for_selector("#cena-table .house")
        assert page.locator(".qr-code svg").count() == 1  # one join code for every House
        page.evaluate("window.__loaded = true")
        rng = random.Random(4)
        while not service.table.state.is_over():
            state = service.table.state
            service.act(rng.choice(state.legal_actions()), by=Viewer.seat(state.to_move()))
        page.wait_for_selector("#winners", timeout=10_000)
        outcome = service.table.state.outcome()
        names = [f"House {h + 1}" for h in outcome["winners"]]
        assert all(name in page.inner_text("#winners") for name in names)
        assert page.locator("#pad tr[data-round]").count() == 1
        totals = page.locator("#pad tr.totals th").all_inner_texts()[1:]
        assert [int(t) for t in totals] == outcome["totals"]
        assert page.evaluate("window.__loaded") is True
        assert page.evaluate("document.body.dataset.over") == "yes"
        # The feast's end on top of the tablet: the winners, each round's points, the totals.
        assert page.is_visible("#summary")
        said = page.inner_text("#summary .summary-winner")
        assert all(name in said for name in names)
        summed = page.locator("#summary .pad tr.totals th").all_inner_texts()[1:]
        assert [int(t) for t in summed] == outcome["totals"]
        assert page.locator("#summary tr[data-round]").count() == 1
        assert "1 round played" in page.inner_text("#summary")
        heads = page.locator("#summary .pad thead th").all_inner_texts()[1:]
        assert [h.startswith("★ ") for h in heads] == [
            h in outcome["winners"] for h in range(4)
        ]  # the winners by a star, not by the cell's colour alone
        page.screenshot(path=str(OUT / "cena-table-over-1024x768.png"), full_page=True)
        assert errors == []
    finally:
        context.close()


def test_the_host_page_offers_a_random_first_host_for_cena(browser, served):
    """Cena's Game Setup: "The player who most recently poisoned someone (or randomly if there is
    no evidence) becomes the Host House": the Host page's Host House list ends with "Random", and
    the engine draws it as a journaled chance action before the deal."""
    base, service = served
    context = browser.new_context(**TABLET)
    errors: list[str] = []
    try:
        page = context.new_page()
        page_errors(page, errors)
        log_in_as_host(page, base)
        page.select_option("#game-name", "cena")
        page.select_option("#cena-players", "5")
        values = page.eval_on_selector_all("#host-seat option", "os => os.map((o) => o.value)")
        assert values == ["0", "1", "2", "3", "4", "random"]
        page.select_option("#host-seat", "random")
        page.select_option("#cena-players", "3")  # the choice survives a change of table size
        assert page.input_value("#host-seat") == "random"
        page.check("#cena-single")
        old = service.table.record.id
        page.click("#new-game button[type=submit]")
        page.wait_for_selector("#confirm[open]")
        page.click("#confirm-yes")
        for _ in range(100):
            if service.table.record.id != old:
                break
            page.wait_for_timeout(50)
        with service.lock:  # new_game holds it until the chance actions and the deal are in
            record = service.table.record
            kinds = [entry.action["type"] for entry in service.table.live]
        assert record.id != old and record.options == {
            "players": 3,
            "host": "random",
            "single_course": True,
        }
        assert kinds[:3] == ["poisons", "first_host", "deal"]
        assert service.table.state.host == service.table.live[1].action["house"]
        page.select_option("#game-name", "goblets")  # the Goblets Host is always a seat
        values = page.eval_on_selector_all("#host-seat option", "os => os.map((o) => o.value)")
        assert "random" not in values
        assert errors == []
    finally:
        context.close()


OVERLAPS = """() => {
  const texts = [...document.querySelectorAll("#cena-table svg text")]
    .filter((t) => t.textContent.trim() && t.getClientRects().length);
  const boxes = texts.map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, r] = boxes[i], [b, s] = boxes[j];
      const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
      const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
      if (w > 1 && h > 1) out.push(`${a} / ${b}`);
    }
  }
  const tiles = [...document.querySelectorAll("#cena-table .house-tile")];
  for (const label of document.querySelectorAll("#cena-table .ally-label")) {
    const r = label.getBoundingClientRect();
    for (const tile of tiles) {
      const s = tile.getBoundingClientRect();
      const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
      const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
      const house = tile.parentNode.dataset.house;
      if (w > 1 && h > 1) out.push(`${label.textContent} / House ${house}'s tile`);
    }
  }
  for (const house of document.querySelectorAll("#cena-table .house")) {
    const tile = house.querySelector(".house-tile").getBoundingClientRect();
    for (const t of house.querySelectorAll(".house-name, .house-sub")) {
      const r = t.getBoundingClientRect();
      if (r.left < tile.left - 1 || r.right > tile.right + 1) out.push(`${t.textContent}: outside`);
    }
  }
  return out;
}"""
"""Every pair of the drawing's labels that overlap on the screen, every "by ..." label over a
House's tile, and every House's words that spill out of its tile ("Me10": a card's suit run into
its value)."""


TENS = """() => {
  const svg = document.querySelector("#cena-table svg");
  const out = [];
  for (const suit of Cena.SUITS) {
    const card = Cena.svgCard(`${suit}-10`, 340, 340);
    svg.append(card);
    const [s, v] = [...card.querySelectorAll("text")].map((t) => t.getBoundingClientRect());
    if (s.right > v.left - 2) out.push(`${suit}: its suit runs into its 10 (${s.right} ${v.left})`);
    card.remove();
  }
  return out;
}"""
"""Each suit's 10 drawn as the table draws a card, at the drawing's size on this screen: a
clear gap (2 px) between the suit's letters and the value."""


def test_the_phone_shows_the_trick_above_the_hand_and_no_label_overlaps(browser, served):
    """A House's phone (390x844): the trick first, then the hand; the drawing's labels apart at
    the phone's size; "1 trick" for one trick."""
    base, service = served
    OUT.mkdir(exist_ok=True)
    context = browser.new_context(**PHONE)
    errors: list[str] = []
    try:
        phone = context.new_page()
        page_errors(phone, errors)
        phone.goto(f"{base}/join/{service.table.record.join_code}")
        phone.fill("#name", "Maximiliana")
        phone.tap(f'.seat-choice[data-seat="{PHONE_SEAT}"]')
        phone.wait_for_selector("#hand button.card")
        # Every House plays its first legal actions from its link until one trick is won and a
        # card of the next lies on the table.
        while not service.table.state.view(Viewer("public")).get("last_trick") or not any(
            (service.table.state.view(Viewer("public"))["trick"] or {}).get("table") or []
        ):
            state = service.table.state
            service.act(state.legal_actions()[0], by=Viewer.seat(state.to_move()))
        phone.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=seq_of(service))
        trick = phone.locator("#trick").bounding_box()
        hand = phone.locator("#hand").bounding_box()
        assert trick["y"] < hand["y"]  # the trick above the hand
        assert phone.evaluate(OVERLAPS) == []
        assert phone.evaluate(TENS) == []
        drawn = phone.locator("#cena-table svg").text_content()
        assert "1 trick" in drawn and "1 tricks" not in drawn
        assert "1 tricks" not in phone.inner_text("main")
        assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390
        phone.screenshot(path=str(OUT / "cena-seat-trick-390x844.png"), full_page=True)
        tablet = context.browser.new_context(**TABLET).new_page()
        try:
            tablet.goto(f"{base}/cena")
            tablet.wait_for_selector("#cena-table svg .house")
            assert tablet.evaluate(OVERLAPS) == []
            assert "1 tricks" not in tablet.inner_text("main")
        finally:
            tablet.context.close()
        assert errors == []
    finally:
        context.close()


def seq_of(service) -> int:
    """The journal's latest step as the public stream numbers it."""
    return service.message(Viewer("public"))["seq"]


def test_a_card_played_for_another_house_says_by_whom_clear_of_the_tiles(
    browser, service, settings
):
    """Without the Private feast a House plays in front of another: the tablet says by whom, and
    the words never run into a House's tile (under the card of the House at the bottom right
    they ran into that House's own tile)."""
    service.new_game("cena", {"players": 3, "host": 0})
    with serving(service, settings, threads=4) as (base, _app):
        context = browser.new_context(**TABLET)
        try:
            tablet = context.new_page()
            tablet.goto(f"{base}/cena")
            tablet.wait_for_selector("#cena-table svg .house")
            labelled = set()
            for _ in range(60):  # the welcome, then a few tricks' plays
                state = service.table.state
                if len(labelled) == 3 or state.is_over():
                    break
                service.act(state.legal_actions()[-1], by=Viewer.seat(state.to_move()))
                tablet.wait_for_function(
                    "s => Number(document.body.dataset.seq) >= s", arg=seq_of(service)
                )
                # The Houses whose card says by whom it was played (the label follows it).
                houses = tablet.eval_on_selector_all(
                    "#cena-table .ally-label",
                    "ls => ls.map((l) => l.previousSibling.dataset.houseCard)",
                )
                if houses:
                    labelled |= set(houses)
                    assert tablet.evaluate(OVERLAPS) == []
            assert labelled, "no card was played in front of another House"
        finally:
            context.close()
