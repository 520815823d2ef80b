"""The first evening of a real group, in a real browser, on the default ``companion serve``.

A tablet (1024x768) stands in the middle of the table showing the Table page, the Host logs in on
it in a second tab, and four phones (390x844, touch) are four people. With the demo table moving
(the default run, no hardware), the Host starts Raise Your Goblets for Anna, Ben, Chloe and Dan;
the phones join with the one join code (one as if it scanned the QR code, the others typing the
code) and play the whole game, a Toast each Course, to its end; then a whole trial of The Gods
Will Have Blood, the Judge drawing each cube by tapping the bag; then a whole game of Cena, each
House playing from its phone, one phone lost half-way (the Host frees its seat) and replaced.

The judges are not the code under test: the tablet must show every step (its page reaches the
journal's seq after each tap, without a reload within a game), and each game's exported journal
must hold exactly the actions the phones tapped, in order, each entered by the tapping seat, and
nothing but chance besides: the demo never acts in a people's game. Between the games, an attacker
at the table tries what a guest can: a fifth phone scans the code once the seats are taken, an
old game's phone listens on, a freed phone asks again; none gets anything.

Screenshots go to test-output/ (gitignored).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from serve_process import served_port, start_serve
from webhelpers import PHONE, PIN, TABLET, log_in_as_host

from companion.web.qr import qr_svg

OUT = Path(__file__).resolve().parents[2] / "test-output"
NAMES = ["Anna", "Ben", "Chloe", "Dan"]
STEP = 15_000
"""Milliseconds any one step may take to show (generous: two cores, a browser per person)."""


class Night:
    """The served companion, the tablet's two tabs and the phones, with what was tapped."""

    def __init__(self, browser, base: str) -> None:
        self.browser = browser
        self.base = base
        self.errors: list[str] = []
        self.tablet_context = browser.new_context(**TABLET)
        self.table = self.page(self.tablet_context)
        self.host = self.page(self.tablet_context)
        self.contexts = [self.tablet_context]
        self.phones: dict[int, object] = {}
        self.taps: list[tuple[int, str]] = []

    def page(self, context):
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def phone(self):
        context = self.browser.new_context(**PHONE)
        self.contexts.append(context)
        return self.page(context)

    def state(self) -> dict:
        with urllib.request.urlopen(f"{self.base}/api/state", timeout=10) as reply:
            return json.loads(reply.read())

    def journal(self, game_id: int) -> list[dict]:
        url = f"{self.base}/api/games/{game_id}/export"
        with urllib.request.urlopen(url, timeout=10) as reply:
            return json.loads(reply.read())["record"]["entries"]

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    # -- the Host --------------------------------------------------------------------------

    def log_in(self) -> None:
        log_in_as_host(self.host, self.base)

    def start(self, game: str, seats: int, *, abandon: bool) -> int:
        """The Host fills the form and starts ``game``; returns the new game's id."""
        page = self.host
        # The game in play by the server, not by the page: the Host page may not have had
        # its first state yet, and the demo's id arriving then is no new game.
        before = str(self.state()["game_id"])
        page.wait_for_selector(f"body[data-game='{before}']", state="attached")
        page.select_option("#game-name", game)
        if game == "goblets":
            page.fill("#players-count", str(seats))
            page.dispatch_event("#players-count", "input")
        elif game == "cena":
            page.select_option("#cena-players", str(seats))
        for index, name in enumerate(NAMES[:seats]):
            page.locator(".seat-name").nth(index).fill(name)
        page.click("#start-game")
        if abandon:  # a person's game is in play: the Host is asked first
            page.wait_for_selector("#confirm[open]")
            assert "abandons game" in page.inner_text("#confirm-text")
            page.click("#confirm-yes")
        deadline = time.monotonic() + 20
        while page.evaluate("document.body.dataset.game") == before:
            assert time.monotonic() < deadline, page.inner_text("#error")
            page.wait_for_timeout(50)
        return int(page.evaluate("document.body.dataset.game"))

    # -- the phones ------------------------------------------------------------------------

    def join_all(self, game_id: int, seats: int) -> str:
        """Each person joins with the one join code; returns the code's link."""
        self.table.wait_for_selector(f"body[data-game='{game_id}'] .join-code")
        code = self.table.inner_text(".join-code")
        link = f"{self.base}/join/{code.replace('-', '')}"
        drawn = self.table.locator("#join .qr-code path.qrline").get_attribute("d")
        assert re.search(r'class="qrline"[^>]* d="([^"]+)"', qr_svg(link))[1] == drawn
        for seat in range(seats):
            phone = self.phones.get(seat) or self.phone()
            if seat == 0:
                phone.goto(link)  # the QR code, scanned
            else:
                phone.goto(f"{self.base}/join")  # the code, typed
                phone.fill("#code", code.lower())
                phone.click("button[type=submit]")
            self.claim(phone, seat)
        self.table.wait_for_selector("#join", state="hidden")  # every seat taken
        return link

    def claim(self, phone, seat: int) -> None:
        phone.wait_for_selector(f'.seat-choice[data-seat="{seat}"]')
        phone.fill("#name", NAMES[seat])
        phone.click(f'.seat-choice[data-seat="{seat}"]')
        phone.wait_for_selector("body[data-seq] #you-title")
        title = phone.inner_text("#you-title")
        assert title.startswith(f"You are {NAMES[seat]} · "), title
        assert "cupbearer_seat" not in phone.evaluate("document.cookie")  # HttpOnly
        self.phones[seat] = phone

    def wait_my_turn(self, phone, attribute: str = "myturn") -> None:
        shows = f"() => document.body.dataset.{attribute} === 'yes'"
        assert self.until(phone, shows, None, STEP), "the phone never showed its turn"

    def shown(self, phone, before: int) -> int:
        """Wait until ``phone`` rendered an answer after seq ``before`` and the tablet shows it."""
        deadline = time.monotonic() + STEP / 1000
        answered = "before => Number(document.body.dataset.seq) > before"
        assert self.until(phone, answered, before, STEP), phone.inner_text("#error")
        seq = int(phone.evaluate("document.body.dataset.seq"))
        left = max(1, int((deadline - time.monotonic()) * 1000))
        caught_up = "seq => Number(document.body.dataset.seq) >= seq"
        assert self.until(self.table, caught_up, seq, left), "the tablet did not show the step"
        return seq

    @staticmethod
    def until(page, predicate: str, arg, timeout_ms: int) -> bool:
        """Whether ``predicate(arg)`` came true in ``page`` within ``timeout_ms``.

        The page itself checks every 10 ms (one round trip in all, instead of one per look from
        here); a page that never shows it fails the step as the loops before did.
        """
        try:
            page.wait_for_function(predicate, arg=arg, polling=10, timeout=timeout_ms)
        except PlaywrightTimeout:
            return False
        return True

    def tap(self, seat: int, selector: str) -> str:
        """``seat``'s phone taps the first button matching ``selector``; returns its data-type."""
        phone = self.phones[seat]
        before = int(phone.evaluate("document.body.dataset.seq"))
        button = phone.locator(selector).first
        kind = button.get_attribute("data-type")
        button.click()
        self.shown(phone, before)
        self.taps.append((seat, kind))
        return kind

    def check_journal(self, game_id: int) -> None:
        """The journal holds what the phones tapped, by the seats that tapped it, and chance."""
        entries = self.journal(game_id)
        assert {e.get("actor") for e in entries} <= {"chance"} | {f"seat {s}" for s in range(4)}
        by_people = [
            (int(e["actor"].split()[1]), e["action"]["type"])
            for e in entries
            if e.get("actor") != "chance"
        ]
        tapped = [(seat, kind) for seat, kind in self.taps if kind != "draw"]
        assert by_people == tapped
        draws = sum(kind == "draw" for _, kind in self.taps)
        assert draws == sum(
            e["action"]["type"] == "draw" and e.get("actor") == "chance" for e in entries
        )
        self.taps = []


GOBLETS_PREFERENCE = [
    '[data-type="reveal"]',
    '[data-type="shootout_choose"]',
    '[data-type="toast"]',
    '[data-type="pour"][data-token="wine"]',
    '[data-type="pass"]',
    "button.action",
]


def play_goblets(night: Night, game_id: int) -> None:
    """The four phones play the whole game: pour their Wine, then Toast, reveal each Course."""
    for _ in range(400):
        state = night.state()
        assert state["game_id"] == game_id
        if state["over"]:
            break
        seat = state["to_move"]
        assert isinstance(seat, int), state["to_move"]
        phone = night.phones[seat]
        night.wait_my_turn(phone)
        wine = phone.locator('#actions [data-pick="wine"]')
        if wine.count():  # a Pour is two taps: the token kind, then the Goblet
            wine.click()
        for selector in GOBLETS_PREFERENCE:
            if phone.locator(f"#actions {selector}").count():
                night.tap(seat, f"#actions {selector}")
                break
        if len(state["view"]["results"]) == 1 and not getattr(night, "shot", False):
            night.shot = True
            night.table.screenshot(path=str(OUT / "night-goblets-toast-1024x768.png"))
            phone.screenshot(path=str(OUT / "night-goblets-phone-390x844.png"), full_page=True)
    state = night.state()
    assert state["over"] and len(state["view"]["results"]) == 3  # a Toast each Course
    night.table.wait_for_selector("#scores .winner")


def play_trial(night: Night, game_id: int, rng: random.Random) -> None:
    """The Judge plays the whole trial from the phone, tapping the bag for every cube."""
    judge = night.phones[0]
    for _ in range(500):
        state = night.state()
        assert state["game_id"] == game_id
        if state["over"]:
            break
        night.wait_my_turn(judge)
        kinds = judge.eval_on_selector_all(
            "#actions button.action", "buttons => buttons.map(b => b.dataset.type)"
        )
        choices = [i for i, k in enumerate(kinds) if k in ("draw", "hear", "sentence")]
        if not choices and "end_sentence" in kinds:
            # Carry out a printed effect now and then (tapped from the card), else end it.
            effects = [i for i, k in enumerate(kinds) if k == "effect"]
            done = kinds.index("end_sentence")
            choices = [rng.choice(effects)] if effects and rng.random() < 0.4 else [done]
        if not choices:
            choices = [i for i, k in enumerate(kinds) if k != "undo"]  # the verdict
        index = rng.choice(choices)
        if kinds[index] == "draw" and not getattr(night, "bag", False):
            night.bag = True
            for page in (judge, night.table):
                assert "NaN" not in page.inner_text("main")
            judge.screenshot(path=str(OUT / "night-courtroom-bag-390x844.png"), full_page=True)
        night.tap(0, f"#actions button.action >> nth={index}")
    assert night.state()["over"]
    night.table.wait_for_selector("body[data-over=yes]")


def play_cena(night: Night, game_id: int, lost_seat: int) -> None:
    """Each House plays from its phone; half-way, one phone is lost and replaced."""
    replaced = False
    for _ in range(2000):
        state = night.state()
        assert state["game_id"] == game_id
        if state["over"]:
            break
        if not replaced and state["view"].get("round", 1) == 2:
            replace_lost_phone(night, lost_seat)
            replaced = True
            continue
        seat = state["to_move"]
        phone = night.phones[seat]
        night.wait_my_turn(phone)
        phase = state["view"]["phase"]
        before = int(phone.evaluate("document.body.dataset.seq"))
        if phase == "reveal":
            phone.tap("#reveal")
            kind = "reveal_poison"
        elif phase == "welcome":
            for index in range(3):
                phone.locator("#hand button.card").nth(index).tap()
            phone.tap("#welcome-confirm")
            kind = "welcome"
        else:
            phone.locator("#hand button.card:not(.off):not([disabled])").first.tap()
            phone.locator("#places button.house:not(.off)").first.tap()
            kind = "play"
        night.shown(phone, before)
        night.taps.append((seat, kind))
    state = night.state()
    assert state["over"] and len(state["view"]["scores"]) == 3  # three rounds
    assert replaced
    night.table.wait_for_selector("body[data-over=yes]")


def replace_lost_phone(night: Night, seat: int) -> None:
    """Dan's phone is lost: the Host frees his seat, the old phone gets nothing more, and Dan
    joins again from another phone with the code on the tablet."""
    lost = night.phones[seat]
    host = night.host
    host.locator(f'#players li[data-seat="{seat}"] button').click()
    host.wait_for_selector("#confirm[open]")
    host.click("#confirm-yes")
    lost.wait_for_selector("body[data-rejoin=freed]", timeout=STEP)
    for url in ("/api/seat/state", "/api/stream?viewer=seat", "/seat"):
        assert lost.context.request.get(night.base + url).status == 403, url
    reply = lost.context.request.post(
        night.base + "/api/seat/act", data={"action": {"type": "reveal_poison"}}
    )
    assert reply.status == 403  # no CSRF token it could know, and no seat
    code = night.table.inner_text(".join-code")
    night.phones[seat] = night.phone()
    night.phones[seat].goto(f"{night.base}/join?code={code}")
    night.claim(night.phones[seat], seat)
    assert lost.context.request.get(night.base + "/api/seat/state").status == 403


def replay_the_game(night: Night, game_id: int) -> None:
    """After the game, History replays it step by step, with what each Goblet held."""
    replay = night.page(night.tablet_context)
    replay.goto(f"{night.base}/history/{game_id}")
    replay.wait_for_selector(".table-svg")
    replay.click("#next")
    assert "Step 2 of" in replay.inner_text("#step")
    replay.evaluate(
        "const s = document.getElementById('scrub'); s.value = s.max;"
        "s.dispatchEvent(new Event('input'))"
    )
    assert replay.locator(".contents-label").count() >= 3
    replay.goto(f"{night.base}/history")
    assert all(name in replay.inner_text("main") for name in NAMES)  # people, not seats
    replay.close()


def attacker_scans_the_full_table(night: Night, link: str) -> None:
    """A fifth phone opens the join code after every seat is taken: no seat, no cookie."""
    guest = night.phone()
    guest.goto(link)
    guest.wait_for_selector(".seat-choice")
    assert guest.locator(".seat-choice:not([disabled])").count() == 0
    csrf = guest.locator("meta[name=csrf]").get_attribute("content")
    code = link.rsplit("/", 1)[1]
    for seat in range(4):
        reply = guest.context.request.post(
            night.base + "/api/join",
            data={"code": code, "seat": seat, "name": "Mallory"},
            headers={"X-CSRF-Token": csrf},
        )
        assert reply.status == 409 and "taken" in reply.json()["error"]
    assert not [c for c in guest.context.cookies() if c["name"] == "cupbearer_seat"]
    assert guest.context.request.get(night.base + "/api/seat/state").status == 403


def old_phones_hear_nothing_of_the_new_game(night: Night, old_game: int, phones: dict) -> None:
    """When the next game starts, every phone of the old one is asked to join again, and its
    seat cookie opens nothing of the new game."""
    for phone in phones.values():
        phone.wait_for_selector("body[data-rejoin=new_game]", timeout=STEP)
        assert phone.evaluate("document.body.dataset.game") == str(old_game)
        assert "Scan the join code" in phone.inner_text("#rejoin")
        for url in ("/api/seat/state", "/api/stream?viewer=seat"):
            assert phone.context.request.get(night.base + url).status == 403


@pytest.mark.timeout(420)
def test_a_game_night_from_the_tablet_and_four_phones(browser, tmp_path):
    OUT.mkdir(exist_ok=True)
    data = tmp_path / "data"
    data.mkdir()
    (data / "host_pin").write_text(PIN + "\n")
    process = start_serve(data, "--speed", "20", stderr=subprocess.DEVNULL)
    night = None
    try:
        base = f"http://127.0.0.1:{served_port(process)}"
        night = Night(browser, base)
        night.table.goto(base + "/")
        # The default run: the demo table moves before anyone starts a game.
        first = night.state()
        assert first["play"] == "demo"
        night.table.wait_for_selector("#demo-banner:not([hidden])")
        demo_game = first["game_id"]
        night.log_in()

        mistake = night.start("goblets", 5, abandon=False)  # the demo's game needs no asking
        assert night.state()["play"] == "phones" and not night.state()["demo"]
        goblets = night.start("goblets", 4, abandon=True)  # five was a mistake: asked first
        night.table.wait_for_selector("#demo-banner[hidden]", state="attached")
        link = night.join_all(goblets, 4)
        night.table.evaluate("window.__loaded = true")  # gone if the page reloads mid-game
        attacker_scans_the_full_table(night, link)
        night.table.screenshot(path=str(OUT / "night-goblets-joined-1024x768.png"))
        play_goblets(night, goblets)
        assert night.table.evaluate("window.__loaded") is True
        night.check_journal(goblets)
        replay_the_game(night, goblets)

        old_phones = dict(night.phones)
        trial = night.start("tribunal", 1, abandon=False)  # the finished game needs no asking
        old_phones_hear_nothing_of_the_new_game(night, goblets, old_phones)
        night.table.wait_for_selector("#court")  # the tablet follows the table to the courtroom
        night.phones = {}
        night.join_all(trial, 1)
        play_trial(night, trial, random.Random(7))
        night.check_journal(trial)
        night.table.screenshot(path=str(OUT / "night-courtroom-1024x768.png"), full_page=True)

        old_phones = {0: night.phones[0]}
        cena = night.start("cena", 4, abandon=False)
        old_phones_hear_nothing_of_the_new_game(night, trial, old_phones)
        night.table.wait_for_selector("#cena-table svg .house")
        night.phones = {}
        night.join_all(cena, 4)
        night.table.evaluate("window.__loaded = true")
        play_cena(night, cena, lost_seat=3)
        assert night.table.evaluate("window.__loaded") is True
        night.check_journal(cena)
        night.table.screenshot(path=str(OUT / "night-cena-1024x768.png"), full_page=True)
        night.phones[1].screenshot(path=str(OUT / "night-cena-phone-390x844.png"), full_page=True)

        # The demo never came back: its one game was abandoned for the people's first.
        with urllib.request.urlopen(f"{base}/api/games", timeout=10) as reply:
            games = json.loads(reply.read())["games"]
        assert [g["id"] for g in games] == [cena, trial, goblets, mistake, demo_game]
        assert [g["play"] for g in games] == ["phones"] * 4 + ["demo"]
        assert games[-1]["outcome"]["abandoned"] and games[-2]["outcome"]["abandoned"]
        assert night.journal(mistake) == [] or {e["actor"] for e in night.journal(mistake)} == {
            "chance"
        }
        assert all(g["finished"] for g in games)
        assert night.errors == []
    finally:
        if night is not None:
            night.close()
        process.terminate()
        process.wait(timeout=20)
        process.stdout.close()
