"""History and its replay in a real Chromium (issue 15): at the tablet (1024x768) and a phone
(390x844).

One dashboard server for the module. Games are played to their end through the service as the
people's phones would (names joined on every seat); the replay is then watched in the browser:
played and paused, each step's change marked where it happened, each Toast jumped to with its
verdicts, the last step's outcome with every Course's VP. The History table must fit a phone.
Screenshots go to test-output/.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from webhelpers import PHONE, TABLET, dashboard, join, page_in, watched

from companion.core.game import Viewer

OUT = Path(__file__).resolve().parents[2] / "test-output"
NAMES = ["Anna", "Ben", "Chloe", "Dan"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A service, its app and the dashboard's server for this module (stopped at its end)."""
    with dashboard(tmp_path_factory, "history", threads=8) as served:
        yield served


def played(service, app, game: str, options: dict, seed: int, names=NAMES) -> int:
    """A people's game of ``game`` played to its end from the seats' phones (random legal
    actions, chance drawn by the service); its id."""
    service.new_game(game, options)
    for seat in range(service.table.state.num_seats):
        join(app, seat, names[seat % len(names)])
    rng = random.Random(seed)
    for _ in range(5000):
        state = service.table.state
        if state.is_over():
            return service.table.record.id
        seat = state.to_move()
        if not isinstance(seat, int):  # a cube the Judge draws by hand, at their tap
            seat = state.hand_draw()[0]
        legal = service.message(Viewer.seat(seat))["legal"]  # what the seat's phone offers
        service.act(rng.choice(legal), by=Viewer.seat(seat))
    raise AssertionError("the game did not end")


def go_to(page, index: int) -> None:
    """Move the replay's slider to step ``index`` (as a drag would)."""
    page.locator("#scrub").evaluate(
        "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", index
    )
    page.wait_for_function("i => document.body.dataset.step === String(i)", arg=index)
    text = page.inner_text("main")
    assert not [word for word in ("[object", "undefined", "NaN") if word in text], text


LABELS_APART = """() => {
  const boxes = [...document.querySelectorAll("#drawing .contents-label")]
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = [];
  boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
    if (Math.min(r.right, s.right) > Math.max(r.left, s.left) + 1
      && Math.min(r.bottom, s.bottom) > Math.max(r.top, s.top) + 1) out.push(`${a} / ${b}`);
  }));
  return out;
}"""
"""Every two Goblets' contents labels that overlap on the drawing."""

HEADS_WHOLE = """() => [...document.querySelectorAll('#summary thead th')]
  .filter((t) => t.scrollWidth > t.clientWidth + 1).map((t) => t.textContent)"""
"""The summary table's headers whose words do not fit their column."""


def shot(page, name: str) -> None:
    """The whole page kept as test output, animations finished."""
    page.screenshot(path=str(OUT / name), full_page=True, animations="disabled")


SIDEWAYS = "document.scrollingElement.scrollWidth <= innerWidth"
"""Whether the page fits its screen's width (no sideways scroll)."""
WIDE = """() => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
  .map((e) => e.tagName + "." + e.className + "#" + e.id).slice(0, 8)"""
"""The elements reaching past the screen's right edge (to say why a page scrolls sideways)."""


def test_a_goblets_replay_plays_marks_each_change_and_jumps_to_each_toast(browser, table):
    base, service, app = table
    OUT.mkdir(exist_ok=True)
    game_id = played(service, app, "goblets", {"players": 4, "hidden_vp": True}, seed=3)
    timeline = service.timeline(game_id)
    frames = timeline["frames"]
    final = frames[-1]["view"]
    assert final["phase"] == "over" and len(final["results"]) == 3
    with watched(browser, TABLET) as page:
        page.goto(f"{base}/history/{game_id}")
        page.wait_for_selector("body[data-step='0'] #drawing .table-svg")
        assert page.inner_text("#replay-title") == f"Game {game_id}: how the poison travelled"
        assert "Anna, Ben, Chloe, Dan" in page.inner_text(".game-title")
        # The drawing and the step's words on the tablet's first screen (nothing to scroll to).
        for selector in ("#drawing svg", "#step", "#play", "#moments"):
            box = page.locator(selector).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 768, selector

        # Play, then pause: the steps advance by themselves, and stop when paused.
        page.click("#play")
        assert page.get_attribute("#play", "aria-pressed") == "true"
        page.wait_for_function("() => Number(document.body.dataset.step) >= 3", timeout=10_000)
        page.click("#play")
        assert page.get_attribute("#play", "aria-pressed") == "false"
        held = page.evaluate("document.body.dataset.step")
        page.wait_for_timeout(2000)
        assert page.evaluate("document.body.dataset.step") == held

        # Each kind of step marks the places it changed, by a word as well as a colour.
        pour = next(i for i, f in enumerate(frames) if f["action"]["type"] == "pour")
        go_to(page, pour)
        changed = page.locator("#drawing .place.changed")
        assert changed.count() == 1
        assert changed.get_attribute("data-place") == str(frames[pour]["action"]["place"])
        assert "poured" in changed.locator(".change-mark").text_content()
        seat = frames[pour]["action"]["seat"]
        assert NAMES[seat] in page.inner_text("#step")  # people by name, not seat numbers
        assert "Changed: poured" in page.inner_text("#change")
        for kind, word in (("swap", "swapped"), ("rotate", "moved")):
            i = next(i for i, f in enumerate(frames) if f["action"]["type"] == kind)
            before, after = frames[i - 1]["view"]["places"], frames[i]["view"]["places"]
            moved = {str(p) for p in range(4) if before[p]["ring"] != after[p]["ring"]}
            go_to(page, i)
            marked = page.locator("#drawing .place.changed")
            assert {m.get_attribute("data-place") for m in marked.all()} == moved and moved
            assert all(word in m.text_content() for m in marked.locator(".change-mark").all())
            if kind == "swap":
                page.screenshot(path=str(OUT / "replay-swap-1024x768.png"), animations="disabled")

        # Jump to each Toast: its Course's verdicts, Goblet by Goblet, in words.
        toasts = [
            (i, e["course"])
            for i, f in enumerate(frames)
            for e in f["events"]
            if e["event"] == "revealed"
        ]
        # Played through a Course, the replay pauses at its Toast, on the verdicts.
        go_to(page, toasts[0][0] - 2)
        page.click("#play")
        page.wait_for_selector("body[data-playing=no]", timeout=10_000)
        assert page.evaluate("document.body.dataset.step") == str(toasts[0][0])
        assert page.is_visible("#outcome .reveal-row")

        moments = page.locator("#moments .moment")
        assert moments.count() == len(toasts) + 1  # and the last step
        for (i, course), button in zip(toasts, moments.all(), strict=False):
            assert button.inner_text() == f"Toast · Course {course}"
            button.click()
            page.wait_for_function("i => document.body.dataset.step === String(i)", arg=i)
            assert button.get_attribute("aria-current") == "step"
            assert page.locator("#drawing .place.changed").count() == 0  # a reveal moves none
            outcome = page.inner_text("#outcome")
            assert f"The Toast, Course {course}" in outcome
            result = frames[i]["view"]["results"][course - 1]
            rows = page.locator("#outcome .reveal-row").all()
            assert len(rows) == 4
            for row, place in zip(rows, result["places"], strict=True):
                verdict = "☠" if place["poisoned"] else "✓"
                assert verdict in row.inner_text()
                assert ("POISONED" if place["poisoned"] else "SURVIVED") in row.inner_text()
            if course < 3:  # hidden VP: a Course's VP stay hidden until the end
                assert "stay hidden" in outcome
        page.screenshot(path=str(OUT / "replay-toast-1024x768.png"), animations="disabled")

        # The last step: the game's end, every Course's VP and the winner.
        moments.last.click()
        page.wait_for_function("n => document.body.dataset.step === String(n)", arg=len(frames) - 1)
        winners = [NAMES[s] for s in final["winners"]]
        assert all(w in page.inner_text("#outcome .summary-winner") for w in winners)
        for seat in range(4):
            row = page.locator(f"#outcome .summary-table tr[data-seat='{seat}']")
            cells = row.locator("td").all_inner_texts()
            per_course = [r["vp"][seat] for r in final["results"]]
            assert [c.split("+")[-1] for c in cells[:3]] == [str(v) for v in per_course]
            assert cells[3] == str(final["vp"][seat])
            assert ("★" in row.inner_text()) == (seat in final["winners"])
        assert page.evaluate(SIDEWAYS)
        assert page.locator("#drawing .contents-label").count() == 4
        assert page.evaluate(LABELS_APART) == []
        shot(page, "replay-end-1024x768.png")

        page.set_viewport_size(PHONE["viewport"])
        page.reload()
        page.wait_for_selector("body[data-step='0'] #drawing .table-svg")
        go_to(page, toasts[0][0])
        assert page.evaluate(SIDEWAYS)
        shot(page, "replay-toast-390x844.png")


def test_the_history_table_fits_a_phone(browser, table):
    base, service, app = table
    long = ["Maximiliana-Theodora", "Bartholomew", "Chloe", "Dan"]
    played(service, app, "goblets", {"players": 4}, seed=5, names=long)
    errors: list[str] = []
    for size, name in ((PHONE, "390x844"), (TABLET, "1024x768")):
        context, page = page_in(browser, size, errors)
        try:
            page.goto(f"{base}/history")
            page.wait_for_selector("table.games tr[data-game]")
            assert page.evaluate(SIDEWAYS), page.evaluate("document.scrollingElement.scrollWidth")
            width = size["viewport"]["width"]
            for link in page.locator("table.games a.button").all():
                box = link.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] >= 44
            assert "Maximiliana-Theodora" in page.inner_text("table.games")
            page.screenshot(path=str(OUT / f"history-{name}.png"), full_page=True)
        finally:
            context.close()
    assert errors == []


def test_a_courtroom_replay_is_drawn_as_the_trial(browser, table):
    base, service, app = table
    game_id = played(service, app, "tribunal", {}, seed=7, names=["Judith"])
    frames = service.timeline(game_id)["frames"]
    final = frames[-1]["view"]
    with watched(browser, TABLET) as page:
        page.goto(f"{base}/history/{game_id}")
        page.wait_for_selector("body[data-step='0'] #drawing .vine")
        assert page.inner_text("#replay-title") == f"Game {game_id}: the trial, hearing by hearing"
        assert page.locator("pre.json").count() == 0  # no raw data dump
        assert "Goblet" not in page.inner_text("main")

        # Each step in the view's own sentences; a marker the step moved is marked on the vine.
        for i, frame in enumerate(frames[1:], start=1):
            before, after = frames[i - 1]["view"]["vine"], frame["view"]["vine"]
            moved = [m for m in ("legitimacy", "reputation") if before[m] != after[m]]
            if not moved:
                continue
            go_to(page, i)
            new = frame["view"]["log_lines"][len(frames[i - 1]["view"]["log_lines"]) :]
            assert page.inner_text("#step") == f"Step {i + 1} of {len(frames)}: {' '.join(new)}"
            marker = page.locator(f"#drawing .marker.changed[data-marker='{moved[0]}']")
            word = "▲ up" if after[moved[0]] > before[moved[0]] else "▼ down"
            assert word in marker.inner_text()
            space = marker.locator("xpath=ancestor::li[contains(@class, 'space')]")
            assert space.get_attribute("data-index") == str(after[moved[0]])
            assert moved[0].capitalize() in page.inner_text("#change")
            break
        else:
            raise AssertionError("no step moved a marker")
        page.screenshot(path=str(OUT / "replay-court-1024x768.png"), animations="disabled")

        judgments = [
            i for i, f in enumerate(frames) if any(e["event"] == "judgment" for e in f["events"])
        ]
        moments = page.locator("#moments .moment")
        assert moments.count() == len(judgments) + 1
        moments.first.click()
        page.wait_for_function("i => document.body.dataset.step === String(i)", arg=judgments[0])
        assert "Judgment:" in page.inner_text("#drawing")
        cubes = frames[judgments[0]]["view"]["drawn"]
        assert f"first cube: {cubes[0]}" in page.inner_text("#drawing")
        assert page.locator("#drawing .drawn-cubes .cube").count() == len(cubes)
        assert "[object" not in page.inner_text("main")
        moments.last.click()
        page.wait_for_function("n => document.body.dataset.step === String(n)", arg=len(frames) - 1)
        ending = "Won" if final["result"]["won"] else "Lost"
        assert page.inner_text("#outcome .summary-winner").startswith(("✓ ", "✖ "))
        assert ending in page.inner_text("#outcome .summary-winner")
        page.set_viewport_size(PHONE["viewport"])
        assert page.evaluate(SIDEWAYS)
        shot(page, "replay-court-390x844.png")


def test_a_cena_replay_is_drawn_as_the_feast(browser, table):
    base, service, app = table
    game_id = played(service, app, "cena", {"players": 3}, seed=9)
    frames = service.timeline(game_id)["frames"]
    final = frames[-1]["view"]
    with watched(browser, TABLET) as page:
        page.goto(f"{base}/history/{game_id}")
        page.wait_for_selector("body[data-step='0'] #drawing")
        assert page.inner_text("#replay-title") == f"Game {game_id}: the feast, trick by trick"
        assert page.locator("pre.json").count() == 0

        # A card played: the spot in front of the House it was played before, marked.
        play = next(i for i, f in enumerate(frames) if f["action"]["type"] == "play")
        go_to(page, play)
        event = next(e for e in frames[play]["events"] if e["event"] == "played")
        spot = page.locator(f"#drawing [data-house-card='{event['before']}'].changed")
        assert spot.count() == 1 and spot.get_attribute("data-card") == event["card"]
        mark = page.locator("#drawing .change-mark").first
        assert "▼ played" in mark.text_content()
        box, card = mark.bounding_box(), spot.locator("rect").first.bounding_box()  # just above it
        assert abs(box["x"] + box["width"] / 2 - (card["x"] + card["width"] / 2)) < 2
        assert card["y"] - 40 < box["y"] + box["height"] <= card["y"] + 2
        assert "played" in page.inner_text("#step") and "Anna" in page.inner_text("#step")

        # A trick won: its alliance marked, and "1 trick" said in the singular.
        won = next(
            i for i, f in enumerate(frames) if any(e["event"] == "trick_won" for e in f["events"])
        )
        go_to(page, won)
        alliance = next(e for e in frames[won]["events"] if e["event"] == "trick_won")["alliance"]
        assert page.locator(f"#drawing .alliance[data-alliance='{alliance}'].changed").count() == 1
        drawing = page.locator("#drawing svg").text_content()
        assert "1 trick" in drawing and "1 tricks" not in drawing
        page.screenshot(path=str(OUT / "replay-cena-1024x768.png"), animations="disabled")

        rounds = [
            i
            for i, f in enumerate(frames)
            if any(e["event"] == "round_scored" for e in f["events"])
        ]
        moments = page.locator("#moments .moment")
        assert moments.count() == len(rounds) + 1
        moments.first.click()
        page.wait_for_function("i => document.body.dataset.step === String(i)", arg=rounds[0])
        assert page.locator("#outcome .pad tr[data-round]").count() == 1
        moments.last.click()
        page.wait_for_function("n => document.body.dataset.step === String(n)", arg=len(frames) - 1)
        winners = page.inner_text("#outcome #winners")
        assert all(NAMES[h] in winners for h in final["result"]["winners"])
        totals = page.locator("#outcome .pad tr.totals th").all_inner_texts()[1:]
        assert [int(t) for t in totals] == final["totals"]
        page.set_viewport_size(PHONE["viewport"])
        assert page.evaluate(SIDEWAYS)
        shot(page, "replay-cena-390x844.png")


SUMMARY_SIZES = """() => {
  const out = [];
  const summary = document.getElementById("summary");
  const walker = document.createTreeWalker(summary, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || !node.parentElement.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
    out.push({text: node.textContent.trim().slice(0, 40), size});
  }
  return out;
}"""
"""Every visible text of the end-of-game summary, with its rendered font size in px."""


def test_the_tablet_sums_up_the_game_when_it_ends(browser, table):
    """At the game's end the tablet shows each player's VP Course by Course, the totals and who
    won (hidden VP shown now that the game is over), readable at arm's length."""
    base, service, app = table
    service.new_game("goblets", {"players": 4, "hidden_vp": True})
    for seat in range(4):
        join(app, seat, NAMES[seat])
    with watched(browser, TABLET) as page:
        page.goto(f"{base}/")
        page.wait_for_selector("#drawing .table-svg")
        assert page.is_hidden("#summary")
        rng = random.Random(3)
        while not service.table.state.is_over():
            state = service.table.state
            service.act(rng.choice(state.legal_actions()), by=Viewer.seat(state.to_move()))
        page.wait_for_selector("body[data-summary=shown]", timeout=10_000)
        page.keyboard.press("Escape")  # the last Toast's reveal closed: the table behind it
        view = service.message(Viewer("public"))["view"]
        said = page.inner_text("#summary .summary-winner")
        assert ("wins the feast" if len(view["winners"]) == 1 else "share the victory") in said
        assert all(NAMES[s] in said for s in view["winners"])
        heads = page.locator("#summary .summary-table thead tr").all_inner_texts()
        assert [h.split() for h in heads] == [["Player", "Course", "Total"], ["1", "2", "3"]]
        assert page.evaluate(HEADS_WHOLE) == []  # every header's words fit their column whole
        for seat in range(4):
            row = page.locator(f"#summary .summary-table tr[data-seat='{seat}']")
            head = row.locator("th").inner_text()
            assert NAMES[seat] in head and ("★" in head) == (seat in view["winners"])
            cells = row.locator("td").all_inner_texts()
            assert [int(c.split("+")[1]) for c in cells[:3]] == [
                r["vp"][seat] for r in view["results"]
            ]
            assert int(cells[3]) == view["vp"][seat]
            for cell, result in zip(cells[:3], view["results"], strict=True):
                place = next(p for p in result["places"] if seat in p["seats"])
                assert cell.startswith("☠" if place["poisoned"] else "✓")
        sizes = page.evaluate(SUMMARY_SIZES)
        assert len(sizes) > 20 and [s for s in sizes if s["size"] < 18] == []
        page.screenshot(path=str(OUT / "summary-tablet-1024x768.png"), animations="disabled")
        page.set_viewport_size(PHONE["viewport"])
        assert page.evaluate(SIDEWAYS), page.evaluate(WIDE)
        page.screenshot(path=str(OUT / "summary-tablet-390x844.png"), animations="disabled")
        page.click("#summary a.button")
        page.wait_for_selector("#replay-title")
        assert page.url.endswith(f"/history/{service.table.record.id}")


def test_a_live_games_replay_names_no_poured_token(browser, table):
    """While the game goes on, its replay runs to the latest Toast and each pour is shown as the
    server redacted it: who poured into which Goblet, never what (the tokens stay unseen)."""
    base, service, app = table
    service.new_game("goblets", {"players": 4})
    for seat in range(4):
        join(app, seat, NAMES[seat])
    rng = random.Random(4)

    def in_course_two(state) -> bool:
        return bool(state.results) and state.course == 2 and isinstance(state.to_move(), int)

    while not in_course_two(service.table.state):
        state = service.table.state
        service.act(rng.choice(state.legal_actions()), by=Viewer.seat(state.to_move()))
    assert not service.table.state.is_over()
    game_id = service.table.record.id
    frames = service.timeline(game_id)["frames"]
    pours = [i for i, f in enumerate(frames) if f["action"]["type"] == "pour"]
    assert pours and all("token" not in frames[i]["action"] for i in pours)
    with watched(browser, PHONE) as page:
        page.goto(f"{base}/history/{game_id}")
        page.wait_for_selector("body[data-step='0'] #drawing .table-svg")
        go_to(page, pours[-1])
        said = page.inner_text("#step")
        assert "poured a token into the Goblet at" in said, said
        step = page.locator("#step").bounding_box()
        drawing = page.locator("#drawing").bounding_box()
        assert step["y"] + step["height"] <= drawing["y"]  # on a phone: the words, then the drawing
        for word in ("poured Wine", "poured Poison", "poured an Antidote"):
            assert word not in page.inner_text("main")
        assert page.locator("#moments .moment").first.inner_text() == "Toast · Course 1"
        assert page.evaluate(SIDEWAYS)
        shot(page, "replay-live-390x844.png")
