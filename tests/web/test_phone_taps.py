"""A phone's taps in a real Chromium: a double tap is one action, and a tap on buttons the stream
has drawn is a new one even while the last tap's reply is still on its way.

The Judge of a people's trial plays from a phone (the courtroom: one seat acts many times in a
row). The server's reply to a tap is held back by Playwright's routing, as a slow network or a
busy Pi holds it, while the server itself has acted and its stream has drawn the answer: a
player who taps the next button then must not be ignored. (CI's game night lost a tap so.)
"""

from __future__ import annotations

import pytest
from webhelpers import PHONE, dashboard, take_a_seat, watched

from companion.core.game import PUBLIC

ACT = "**/api/seat/act"


@pytest.fixture(scope="module")
def court(tmp_path_factory):
    """A dashboard's server for this module (stopped at its end)."""
    with dashboard(tmp_path_factory, "taps") as served:
        yield served


def judged(service, phone, base) -> None:
    """A new trial whose Judge's phone has heard the case and given the verdict: the bag is next
    (two cubes to draw, both the Judge's taps)."""
    service.new_game("tribunal", {"second_draw": "always"})
    take_a_seat(phone, base, service, "Anna", 0)
    for kind in ("hear", "verdict"):
        before = service.message(PUBLIC)["seq"]
        phone.locator(f'#actions [data-type="{kind}"]').first.click()
        drawn(phone, before + 1)
    assert phone.locator("#actions button#bag").count() == 1


def drawn(phone, seq: int) -> None:
    """Wait until the phone has drawn step ``seq``."""
    phone.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=seq, timeout=10_000)


def draws(service) -> list[str]:
    """The cubes drawn in the game at the table, from its journal."""
    entries = service.store.entries(service.table.record.id)
    return [e.action["cube"] for e in entries if e.action.get("type") == "draw"]


def test_a_double_tap_on_the_bag_draws_one_cube(browser, court):
    base, service, _app = court
    with watched(browser, PHONE) as phone:
        judged(service, phone, base)
        held = []
        phone.route(ACT, lambda route: held.append(route))  # the tap waits here, unsent
        before = service.message(PUBLIC)["seq"]
        bag = phone.locator("#actions button#bag")
        bag.click()
        bag.click()
        phone.wait_for_timeout(300)  # time for a second request, were one sent
        assert len(held) == 1
        held[0].continue_()
        drawn(phone, before + 1)
        phone.unroute(ACT)
        assert len(draws(service)) == 1
        assert "draw the second cube" in phone.inner_text("#actions button#bag")


def test_a_tap_on_the_step_the_stream_drew_is_sent_before_the_last_reply_comes(browser, court):
    base, service, _app = court
    with watched(browser, PHONE) as phone:
        judged(service, phone, base)
        replies = []

        def hold_the_first_reply(route):
            if replies:  # the second tap: straight through
                route.continue_()
                return
            replies.append((route, route.fetch()))  # the server acts; its reply waits

        phone.route(ACT, hold_the_first_reply)
        before = service.message(PUBLIC)["seq"]
        phone.locator("#actions button#bag").click()
        drawn(phone, before + 1)  # drawn from the stream: the first reply has not come
        # The handler's fetch may return after the stream has drawn the step (a busy machine):
        # Playwright runs the handler only while the test waits in a Playwright call.
        for _ in range(100):
            if replies:
                break
            phone.wait_for_timeout(50)
        assert len(replies) == 1 and len(draws(service)) == 1
        second = phone.locator("#actions button#bag")
        assert "draw the second cube" in second.inner_text()
        second.click()
        drawn(phone, before + 2)
        assert len(draws(service)) == 2
        route, response = replies[0]
        route.fulfill(response=response)  # the late reply is older than what is drawn
        phone.wait_for_function("() => Number(document.body.dataset.answered) >= 2")
        phone.unroute(ACT)
        assert int(phone.evaluate("document.body.dataset.seq")) == service.message(PUBLIC)["seq"]
        assert phone.locator("#drawn .drawn").count() == 2
        assert phone.inner_text("#error").strip() == ""
