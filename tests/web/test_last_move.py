"""The tablet draws the last rotate or swap (issue 15: "the last move drawn as an animation").

In a people's game played on the phones (not the demo), a seat rotates the Goblets and the next
swaps two: in a real Chromium at 1024x768 the table's drawing says the move in words at its
centre ("↻ rotated clockwise", "⇄ swapped": not by motion alone), marks exactly the Goblets that
moved (every one for a rotate, the two swapped for a swap), animates them once, and clears the
mark when the next event is not a move.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from webhelpers import TABLET, dashboard, watched

from companion.core.game import Viewer

OUT = Path(__file__).resolve().parents[2] / "test-output"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with dashboard(tmp_path_factory, "last-move") as served:
        yield served


def _act(service, action: dict) -> dict:
    seat = action["seat"]
    return service.act(action, by=Viewer.seat(seat))


def _moved(page, kind: str) -> list[int]:
    """The places whose Goblet the drawing marks as moved by ``kind``."""
    return page.eval_on_selector_all(
        f".table-svg .place:has(.moved-{kind})", "els => els.map(e => +e.dataset.place)"
    )


def _words_clear_of_cards(page) -> list[str]:
    """The seat cards the last move's words overlap on the page (as drawn, in CSS pixels)."""
    return page.evaluate(
        """() => {
          const words = document.querySelector('.table-svg .last-move').getBoundingClientRect();
          return [...document.querySelectorAll('.table-svg .place')].filter((place) => {
            const card = place.querySelector('.card-box').getBoundingClientRect();
            return card.left < words.right && words.left < card.right
              && card.top < words.bottom && words.top < card.bottom;
          }).map((place) => place.textContent);
        }"""
    )


def test_the_last_rotate_and_swap_are_drawn_said_and_cleared(browser, table):
    base, service, _app = table
    service.new_game("goblets", {"players": 4})
    state = service.table.state
    seat = state.to_move()
    with watched(browser, TABLET) as page:
        page.goto(f"{base}/")
        page.wait_for_selector(".table-svg .place")
        assert page.locator(".table-svg .last-move").count() == 0

        _act(service, {"type": "rotate", "seat": seat, "direction": "clockwise"})
        page.wait_for_selector(".table-svg .last-move[data-kind=rotate]")
        assert page.text_content(".table-svg .last-move") == "↻ rotated clockwise"
        assert sorted(_moved(page, "rotate")) == [0, 1, 2, 3]
        assert page.locator(".table-svg .just-moved").count() == 4  # the pulse, once
        assert _words_clear_of_cards(page) == []  # "rotated clockwise" ran into the top card
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / "last-move-rotate-1024x768.png"))

        # The same seat's second action: a swap of its Goblet with the one across the table.
        state = service.table.state
        seat = state.to_move()
        own = state.place_index(seat)
        other = (own + 2) % 4
        _act(service, {"type": "swap", "seat": seat, "with": other})
        page.wait_for_selector(".table-svg .last-move[data-kind=swap]")
        assert page.text_content(".table-svg .last-move") == "⇄ swapped"
        assert sorted(_moved(page, "swap")) == sorted([own, other])
        assert _moved(page, "rotate") == []
        page.screenshot(path=str(OUT / "last-move-swap-1024x768.png"))
        size = page.eval_on_selector(
            ".table-svg .last-move", "e => e.getBoundingClientRect().height"
        )
        assert size >= 18  # readable across the table

        # The next seat's Pass is no move: the mark goes.
        seat = service.table.state.to_move()
        _act(service, {"type": "pass", "seat": seat})
        page.wait_for_function(
            "() => !document.querySelector('.table-svg .last-move')"
            " && document.querySelectorAll('.table-svg .place').length === 4"
        )
        assert _moved(page, "swap") == []
