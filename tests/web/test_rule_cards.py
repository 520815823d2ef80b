"""The rules reference cards (issue 15): each game's turn summary in its rulebook's words.

Every line on a card must be found, verbatim, in the game's rulebook (../shared/rules/); the
card is served at /rules/<game> (an unknown game: 404 with the games named); and in a real
Chromium it is reached from the game's table page (1024x768) and a seat's phone (390x844) by
the header's Rules link, reads at 18 px or more with no sideways scroll and 44 px tap targets on
the phone, and leads back to the seat. One dashboard server for the browser tests of the module.
Screenshots of each card on the phone go to test-output/.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from webhelpers import PHONE, TABLET, dashboard, page_errors

from companion.core import registry
from companion.web.rule_cards import CARDS, Term

RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"
OUT = Path(__file__).resolve().parents[2] / "test-output"
TABLE_PAGES = {"goblets": "/", "tribunal": "/courtroom", "cena": "/cena"}
TITLES = {
    "goblets": "Raise Your Goblets",
    "tribunal": "The Gods Will Have Blood",
    "cena": "Cena",
}
OPTIONS = {"goblets": {"players": 4}, "tribunal": {}, "cena": {"players": 3}}


def normalise(text: str) -> str:
    """One space for every run of whitespace (the rulebooks wrap their lines)."""
    return re.sub(r"\s+", " ", text).strip()


def test_every_line_on_a_card_is_the_rulebooks():
    """Each quote (heading, name, rule) is in the game's rulebook word for word."""
    assert set(CARDS) == set(registry.load_all())  # a card for every game the table plays
    for game, card in CARDS.items():
        book = RULES / card.rulebook
        # The shared rulebooks sit beside a developer's checkout, not in the repository (as
        # tests/cena/test_cena_rulebook.py): a clean CI clone checks the cards' shape only.
        if book.exists():
            text = normalise(book.read_text())
            missing = [quote for quote in card.quotes() if normalise(quote) not in text]
            assert missing == [], (game, missing)
        assert card.quotes(), game
        assert card.title == TITLES[game]
        assert sum(isinstance(line, Term) for s in card.sections for line in s.lines) >= 2


def test_the_goblets_card_lists_every_action_of_a_turn():
    """The turn's six actions, named as the rulebook names them, on the Goblets card."""
    names = [
        line.name
        for section in CARDS["goblets"].sections
        for line in section.lines
        if isinstance(line, Term)
    ]
    assert {"Pour", "Peek", "Rotate", "Swap", "Toast", "Pass"} <= set(names)


def test_the_card_is_served_and_an_unknown_game_is_a_404(client):
    for game, card in CARDS.items():
        reply = client.get(f"/rules/{game}")
        assert reply.status_code == 200
        page = html.unescape(reply.data.decode())
        for quote in card.quotes():
            assert quote in page, (game, quote)
        assert 'href="/"' in page  # not seated: back to the table
    reply = client.get("/rules/chess")
    assert reply.status_code == 404
    assert "no rules card for 'chess'" in html.unescape(reply.data.decode())


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A service, its app and the dashboard's server for this module (stopped at its end)."""
    OUT.mkdir(exist_ok=True)
    with dashboard(tmp_path_factory, "rules") as served:
        yield served


MEASURE = """() => {
  const card = document.getElementById('rules-card');
  const small = [], targets = [];
  const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 18) small.push(`${size}px: ${node.textContent.trim().slice(0, 40)}`);
  }
  for (const t of card.querySelectorAll('a, summary')) {
    const r = t.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) targets.push(`${t.textContent.trim()} ${r.height}px`);
  }
  return {small, targets, sideways: document.documentElement.scrollWidth > innerWidth};
}"""
"""On the card: text under 18 px, tap targets under 44 px, and whether the page scrolls sideways."""


@pytest.mark.parametrize("game", list(CARDS))
def test_the_card_is_reached_from_the_table_and_the_seat(browser, table, game):
    """The table's and the phone's Rules link open the game's card; it reads on the phone."""
    base, service, _app = table
    service.new_game(game, OPTIONS[game])
    errors: list[str] = []
    tablet = browser.new_context(**TABLET)
    phone = browser.new_context(**PHONE)
    try:
        page = page_errors(tablet.new_page(), errors)
        page.goto(f"{base}{TABLE_PAGES[game]}")
        page.click("#rules-link")
        page.wait_for_url(f"**/rules/{game}")
        assert page.inner_text("#rules-card h1") == TITLES[game]
        assert page.evaluate(MEASURE)["sideways"] is False

        hand = page_errors(phone.new_page(), errors)
        hand.goto(f"{base}/join/{service.table.record.join_code}")
        hand.fill("#name", "Anna")
        hand.click('.seat-choice[data-seat="0"]')
        hand.wait_for_url("**/seat")
        hand.wait_for_selector("body[data-seq]")
        hand.click("#rules-link")
        hand.wait_for_url(f"**/rules/{game}")
        assert hand.inner_text("#rules-card h1") == TITLES[game]
        first = CARDS[game].sections[0]
        assert hand.get_by_role("heading", name=first.heading).is_visible()
        for details in hand.locator("details").all():  # the folded sections open on a tap
            details.locator("summary").click()
            assert details.get_attribute("open") is not None
        measured = hand.evaluate(MEASURE)
        assert measured == {"small": [], "targets": [], "sideways": False}, measured
        hand.screenshot(path=str(OUT / f"rules-{game}-390x844.png"), full_page=True)
        hand.click("#rules-back")
        hand.wait_for_url("**/seat")
        hand.wait_for_selector("body[data-seq]")
    finally:
        tablet.close()
        phone.close()
    assert errors == []
