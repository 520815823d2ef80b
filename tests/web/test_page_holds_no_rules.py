"""No rules in the browser (issue 16): the server sends what the pages used to compute.

* A seat's phone on a sensed table is sent only what it may say (Pass, Toast, a Character
  ability; the readers record pours and moves) -- static/seat.js filtered the legal actions itself.
* The Host's view lists the actions the Host may enter by hand (``entries``) -- static/host.js
  built them from templates of its own.
* Every page carries the Houses' names, ring colours and patterns from the one table in Python
  (``houses.RING_LOOKS``, which vision/palette.py reads too) -- static/goblets.js held a copy.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion.core import registry
from companion.core.game import CHANCE, HOST, Mode, Viewer
from companion.core.games.goblets.houses import HOUSE_IDS, HOUSES, RING_LOOKS, house_table
from companion.service import Service
from companion.service.sensing import PHONE_SAYS, SensingBridge
from companion.virtual import NOISE, Scenario, SimulatedReaders
from vision import palette

STATIC = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"


def _to_a_turn(service: Service) -> int:
    """Chance drawn until a seat is to move in the service's (phones) game; that seat."""
    rng = random.Random(4)
    while service.table.state.to_move() is CHANCE:
        service.act(service.table.state.sample_chance(rng), by=HOST)
    seat = service.table.state.to_move()
    assert isinstance(seat, int)
    return seat


@pytest.fixture
def goblets(settings):
    service = Service(settings, games=registry.load_all(), rng=random.Random(5))
    yield service
    service.close()


def test_a_phone_on_a_sensed_table_is_sent_only_what_it_may_say(goblets):
    """The readers record the pours and moves: the seat's message offers Pass, Toast or an
    ability and nothing the sensors see; the same seat on the phones is offered its pours."""
    goblets.sense("readers")
    goblets.new_game("goblets", {"players": 4}, play="readers")
    scenario = Scenario.generate(random.Random(2), 4, specials=0.0)
    bridge = SensingBridge(goblets, scenario.registry, scenario.initial_layout(), reveal="tracked")
    bridge.start_course()
    for observation in SimulatedReaders(scenario, NOISE["none"], random.Random(2)).snapshots():
        bridge.observe(observation)
        if isinstance(goblets.table.state.to_move(), int):
            break
    seat = goblets.table.state.to_move()
    assert isinstance(seat, int), "the hands' initial pour reached a seat's turn"
    engine = {a["type"] for a in goblets.table.state.legal_actions()}
    assert {"pour", "rotate", "swap"} <= engine  # what the page used to filter out itself
    sent = goblets.message(Viewer.seat(seat))["legal"]
    assert sent, "Pass at least"
    assert {a["type"] for a in sent} <= PHONE_SAYS
    assert {"type": "pass", "seat": seat} in sent
    assert sent == [a for a in goblets.table.state.legal_actions() if a["type"] in PHONE_SAYS]


def test_a_phone_on_the_phones_is_sent_every_legal_action(goblets):
    goblets.new_game("goblets", {"players": 4})
    seat = _to_a_turn(goblets)
    sent = goblets.message(Viewer.seat(seat))["legal"]
    assert sent == goblets.table.state.legal_actions()
    assert "pour" in {a["type"] for a in sent}


def test_the_hosts_view_lists_what_the_host_may_enter(goblets):
    """On a turn: exactly what host.js used to build (Pass, both Rotates, Peek, a Swap with each
    other place), each accepted by the engine when entered; never a pour, Toast or ability."""
    goblets.new_game("goblets", {"players": 5})
    seat = _to_a_turn(goblets)
    message = goblets.message(HOST)
    entries = message["view"]["entries"]
    state = goblets.table.state
    place = state.place_index(seat)
    expected = [
        {"type": "pass", "seat": seat},
        {"type": "rotate", "seat": seat, "direction": "clockwise"},
        {"type": "rotate", "seat": seat, "direction": "widdershins"},
        {"type": "peek", "seat": seat},
        *({"type": "swap", "seat": seat, "with": p} for p in range(5) if p != place),
    ]
    key = lambda action: json.dumps(action, sort_keys=True)  # noqa: E731
    assert sorted(entries, key=key) == sorted(expected, key=key)
    for action in entries:
        assert state.entry_refusal(action, HOST, Mode.ENFORCING) is None
        trial = state.clone()
        trial.apply(action, Mode.RECORDING)  # the engine takes each as the Host enters it
    # The public and a seat's view carry no such list: it is the Host's screen's.
    assert "entries" not in goblets.message(Viewer.seat(seat))["view"]


def test_the_hosts_entries_never_name_a_seats_secret():
    """Through whole random games (Characters in play): no entry is a pour, Toast, ability or
    chance -- what only a seat knows (views.HIDDEN_ENTRIES)."""
    from companion.core.games.goblets import HOOK_DECK

    game = registry.load_all()["goblets"]
    rng = random.Random(7)
    seen: set[str] = set()
    for options in ({"players": 4, "characters": HOOK_DECK}, {"players": 8}):
        state = game.new_state(options)
        while not state.is_over():
            if state.to_move() is CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            entries = state.view(HOST)["entries"]
            kinds = {a["type"] for a in entries}
            seen |= kinds
            assert not kinds & {"pour", "toast", "ability", "initial_pour", "shootout_pour"}
            assert all(a in state.legal_actions() for a in entries)
            state.apply(rng.choice(state.legal_actions()))
    assert {"pass", "rotate", "swap", "peek"} <= seen


def test_every_page_carries_the_houses_from_the_one_table(client):
    """The page's JSON is houses.py's table (names, colours, patterns), which the camera's
    palette reads too; goblets.js holds no House name or ring colour of its own."""
    page = client.get("/").get_data(as_text=True)
    found = re.search(r'<script id="houses" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the table page embeds the Houses"
    shown = json.loads(found.group(1))
    assert shown == house_table()
    assert [h["id"] for h in shown] == list(HOUSE_IDS)  # rulebook order: the seats' defaults
    assert [h["name"] for h in shown] == list(HOUSES.values())
    assert [h["pattern"] for h in shown] == list(palette.RING_PATTERNS.values())
    for house, look in RING_LOOKS.items():
        assert palette.RING_COLOURS[house] == tuple(bytes.fromhex(look.colour[1:]))
    script = (STATIC / "goblets.js").read_text()
    for house, name in HOUSES.items():
        assert f'"{name}"' not in script  # as a string literal (a comment's example may stay)
        assert not re.search(rf"\b{house}\s*:", script)  # no table keyed by House id
        assert RING_LOOKS[house].colour not in script.lower()


def test_the_swatches_in_the_stylesheet_are_the_rings_colours():
    """app.css still paints the swatches (no inline styles under the CSP): its colours must be
    the table's, or a swatch would show another ring than the drawing."""
    css = (STATIC / "app.css").read_text()
    painted = dict(re.findall(r"\.sw-(\w+) \{ background: (#[0-9a-f]{6}); \}", css))
    assert painted == {house: look.colour for house, look in RING_LOOKS.items()}
