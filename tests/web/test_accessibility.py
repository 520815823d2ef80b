"""An automated accessibility check of every page (issue 15): axe-core in a real Chromium.

axe-core comes from the npm registry (tests/web/axe/package.json, installed by scripts/test with
``npm ci``), so the check needs no network when it runs; it is injected into every page of a
browser context before the page's own scripts run (an init script is not subject to the pages'
Content-Security-Policy, which allows no inline script). Every page -- the public table, a seat,
the Host (its PIN form and its controls), join, the Character cards, the courtroom and Cena tables
and seats, each game's rules card, History, each game's replay and the error page -- is audited
at the tablet's 1024x768 and a phone's 390x844, in the light and the dark colour scheme (a dim
room), and must have no serious or critical violation. A failure lists each violation's rule,
page and nodes.

One dashboard server for the module; each game is played through the service with seeded random
legal moves so that the seats' pages show actions and the replays show whole games.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from webhelpers import PHONE, TABLET, dashboard, log_in_as_host, page_errors, toward_the_toast

from companion.core.game import PUBLIC, Viewer

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORTS = {"phone": PHONE, "tablet": TABLET}
"""The phone first: it holds the seat to move (its actions drawn)."""
SCHEMES = {"light": None, "dark": ["color-contrast"]}
"""Every rule in the light scheme; in the dark one, the rule a colour scheme can change."""
SERIOUS = ("serious", "critical")
NAMES = ["Anna", "Ben", "Chloe", "Dan"]

AUDIT = """async (only) => {
  // a fading-in element is measured once drawn: finite animations end first
  const finite = document.getAnimations().filter(
    (a) => Number.isFinite(a.effect && a.effect.getComputedTiming().endTime));
  await Promise.all(finite.map((a) => a.finished.catch(() => null)));
  const options = {resultTypes: ['violations']};
  if (only) options.runOnly = only;
  const result = await axe.run(document, options);
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(' '), html: n.html.slice(0, 160),
      summary: (n.failureSummary || '').split('\\n').slice(1, 3).join(' '),
    })),
  }));
}"""
"""Every axe violation on the page with its nodes (the impacts are filtered in Python), once the
page's finite animations have ended."""


def described(violation: dict, shown: int = 4) -> str:
    """A violation's rule, impact and help, and its first ``shown`` nodes (target, HTML, why)."""
    nodes = violation["nodes"]
    lines = [f"      {n['target']}: {n['html']}  -- {n['summary']}" for n in nodes[:shown]]
    if len(nodes) > shown:
        lines.append(f"      ... and {len(nodes) - shown} more")
    return f"{violation['id']} ({violation['impact']}): {violation['help']}\n" + "\n".join(lines)


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe.min.js as npm installed it (scripts/test: ``npm ci`` in tests/web/axe)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` in tests/web/axe (scripts/test does)")
    return AXE.read_text()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A service, its app and the dashboard's server for this module (stopped at its end)."""
    with dashboard(tmp_path_factory, "axe") as served:
        yield served


class Auditor:
    """Browser contexts (one per viewport) with axe injected into every document; collects the
    serious and critical violations of each page audited.

    Each context keeps one tab that goes from page to page, as a tablet's or a phone's browser
    does: every ``goto`` is a new document (axe injected again, the page's scripts and streams
    started afresh), and a new tab would cost half a second of Chromium's time for nothing.
    """

    def __init__(self, browser, axe_source: str, base: str) -> None:
        self.base = base
        self.found: list[str] = []
        self.errors: list[str] = []
        self.audited: list[str] = []
        self.contexts = {}
        self.tabs = {}
        for size, options in VIEWPORTS.items():
            context = browser.new_context(**options)
            context.add_init_script(axe_source)
            self.contexts[size] = context
            self.tabs[size] = page_errors(context.new_page(), self.errors)

    def pages(self):
        """Every context's tab, by viewport."""
        yield from self.tabs.items()

    def audit(self, page, size: str, label: str) -> None:
        """Run axe on the page as it is drawn now, in the light and the dark scheme (the same
        page, its media switched: no second load; in the dark only the colour contrast), and
        keep its serious violations."""
        page.wait_for_load_state("load")
        if page.locator("#initial").count():
            page.wait_for_selector("body[data-seq]")  # the live page has drawn its snapshot
        for scheme, only in SCHEMES.items():
            page.emulate_media(color_scheme=scheme)
            where = f"{label} at {size} ({scheme})"
            self.audited.append(where)
            for violation in page.evaluate(AUDIT, only):
                if violation["impact"] in SERIOUS:
                    self.found.append(f"{where}: {described(violation)}")
        page.emulate_media(color_scheme="light")

    def visit(self, path: str, label: str) -> None:
        """Load ``path`` in every context and audit it."""
        for size, page in self.pages():
            page.goto(f"{self.base}{path}")
            self.audit(page, size, label)
            self.rest(page)

    @staticmethod
    def rest(page) -> None:
        """Leave the audited page (its stream closed) while the test plays on without it."""
        page.goto("about:blank")

    def check(self) -> None:
        """No serious or critical violation on any page audited, and no script error."""
        assert self.audited
        assert not self.found, "axe found serious or critical violations:\n" + "\n".join(self.found)
        assert not self.errors, self.errors

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


@pytest.fixture
def auditor(browser, axe_source, table):
    auditor = Auditor(browser, axe_source, table[0])
    yield auditor
    auditor.close()


def play(service, rng: random.Random, steps: int | None) -> None:
    """Seeded random legal moves by whoever is to move (``steps`` of them, or to the end)."""
    for _ in range(steps if steps is not None else 5000):
        public = service.message(PUBLIC)
        if public["over"]:
            return
        seat = public["to_move"]
        assert isinstance(seat, int), public["to_move"]
        legal = service.message(Viewer.seat(seat))["legal"]
        service.act(rng.choice(legal), by=Viewer.seat(seat))
    assert steps is not None, "the game did not end"


def seat_pages(auditor: Auditor, service, label: str, seat_page: str) -> None:
    """Every context's phone joins a seat through the join page (audited), then its seat page
    (audited): the seat to move first, so its actions are drawn."""
    code = service.table.record.join_code
    first = service.message(PUBLIC)["to_move"]
    players = service.message(PUBLIC)["players"]
    seats = [first] + [p["seat"] for p in players if p["seat"] != first]
    for (size, page), seat in zip(auditor.pages(), seats, strict=False):
        page.goto(f"{auditor.base}/join/{code}")
        page.wait_for_selector(".seat-choice")
        auditor.audit(page, size, f"{label} join")
        page.fill("#name", NAMES[seat % len(NAMES)])
        page.click(f'.seat-choice[data-seat="{seat}"]')
        page.wait_for_url("**/seat")
        page.wait_for_selector(seat_page)
        auditor.audit(page, size, f"{label} seat {seat}")
        auditor.rest(page)


def test_raise_your_goblets_pages(auditor, table):
    """The public table, join, a seat at its turn, the Host (PIN form, controls), Characters."""
    base, service, _app = table
    service.new_game("goblets", {"players": 4})
    play(service, random.Random(1), 3)
    auditor.visit("/", "Goblets table")
    auditor.visit("/rules/goblets", "Goblets rules card")
    auditor.visit("/join", "join form")
    auditor.visit("/join/NOPE-NOPE", "join with a wrong code")
    seat_pages(auditor, service, "Goblets", "body[data-seq] #you-title")
    auditor.visit("/host", "Host PIN form")
    auditor.visit("/host/characters", "Characters (not logged in)")
    for size, page in auditor.pages():
        log_in_as_host(page, base)
        auditor.audit(page, size, "Host controls")
        page.goto(f"{base}/host/characters")
        auditor.audit(page, size, "Characters")
        auditor.rest(page)
    auditor.check()


def play_to_the_toast(service) -> None:
    """Play until the first Toast is scored (the Wine poured, then the Toast called)."""
    for _ in range(200):
        if service.table.state.results:
            return
        seat = service.message(PUBLIC)["to_move"]
        action = toward_the_toast(service.message(Viewer.seat(seat))["legal"])
        service.act(action, by=Viewer.seat(seat))
    raise AssertionError("no Toast within 200 actions")


def test_the_toast_reveal_on_the_tablet_and_the_phone(auditor, table):
    """The Toast's moment: the tablet's full-screen reveal and the phone's own outcome."""
    base, service, _app = table
    service.new_game("goblets", {"players": 4})
    code = service.table.record.join_code
    pages = dict(auditor.pages())
    phone, tablet = pages["phone"], pages["tablet"]
    phone.goto(f"{base}/join/{code}")
    phone.fill("#name", "Anna")
    phone.click('.seat-choice[data-seat="0"]')
    phone.wait_for_url("**/seat")
    tablet.goto(f"{base}/")
    tablet.wait_for_selector("body[data-seq]")
    play_to_the_toast(service)
    tablet.wait_for_selector(
        "body[data-reveal=done] #reveal-moment .vp-list, body[data-reveal=done] #reveal-moment .vp"
    )
    phone.wait_for_selector("#outcome:not([hidden])")
    auditor.audit(tablet, "tablet", "the Toast's reveal")
    auditor.audit(phone, "phone", "a seat's outcome at the reveal")
    auditor.check()


def test_the_courtroom_pages(auditor, table):
    """The Gods Will Have Blood: the courtroom's table and a seat's page."""
    _base, service, _app = table
    service.new_game("tribunal", {})
    play(service, random.Random(2), 2)
    auditor.visit("/courtroom", "courtroom table")
    auditor.visit("/rules/tribunal", "courtroom rules card")
    seat_pages(auditor, service, "courtroom", "body[data-seq]")
    auditor.check()


def test_the_cena_pages(auditor, table):
    """Cena: the tablet's table and a House's phone."""
    _base, service, _app = table
    service.new_game("cena", {"players": 3})
    play(service, random.Random(3), 4)
    auditor.visit("/cena", "Cena table")
    auditor.visit("/rules/cena", "Cena rules card")
    seat_pages(auditor, service, "Cena", "body[data-seq]")
    auditor.check()


def test_history_replays_and_the_error_page(auditor, table):
    """Each game's end on the table, History, each game's replay (played to its end) and the
    error page."""
    _base, service, _app = table
    ids = {}
    for game, options, seed in (
        ("goblets", {"players": 3}, 4),
        ("tribunal", {}, 5),
        ("cena", {"players": 3}, 6),
    ):
        service.new_game(game, options)
        ids[game] = service.table.record.id
        play(service, random.Random(seed), None)
        auditor.visit("/", f"the table at the end of {game}")  # the end-of-game summary
    auditor.visit("/history", "History")
    for game, game_id in ids.items():
        auditor.visit(f"/history/{game_id}", f"{game} replay")
    auditor.visit("/history/999999", "error page (404)")
    auditor.check()
