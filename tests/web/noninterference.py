"""Noninterference at the HTTP level: two tables that differ only where a viewer cannot see.

A game is played at random (pure engine, seeded). For a viewer V and a cut point k, the *twin*
journal replaces, since the last action that revealed anything, every action by one V could not
tell apart (the game's own ``hidden_alternatives``: other contents of the Goblets, another
token poured, other hands, another deck order), as the conformance suite does with views. Both
journals are written to their own SQLite files and served by their own companion (same PIN, same
clock, same join code, the same phones joining). Then the same scripted requests, every route and
every stream, including invalid actions and guesses, are sent to both as V would send them, and
every answer V gets must be the same in both, byte for byte once the per-server tokens (CSRF
tokens, the session secret's cookies) are set aside. Whatever differs is something V learned
about what V may not know.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from jinja2 import BytecodeCache
from webhelpers import INITIAL, PIN, csrf_of, first_sse_message

from companion import config
from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Mode, Viewer
from companion.service import Service
from companion.store.journal import JournalStore
from companion.web import create_app


class _Compiled(BytecodeCache):
    """Compiled templates shared by every companion the harness serves (each Flask app would
    compile them again: most of the harness's time)."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.codes:
            bucket.bytecode_from_string(self.codes[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


COMPILED = _Compiled()
CODE = "NONINTER"
CLOCK = 1_000_000.0
CSRF = re.compile(r'(<meta name="csrf" content=")[^"]+(")|("csrf": ?")[^"]+(")')


def play(name: str, options: dict, seed: int, limit: int = 4000) -> list[dict]:
    """A random legal game's actions (chance drawn from the seed), to its end or ``limit``."""
    rng = random.Random(seed)
    state = registry.get(name).new_state(options)
    actions = []
    for _ in range(limit):
        if state.is_over():
            break
        action = (
            state.sample_chance(rng)
            if state.to_move() is CHANCE
            else rng.choice(state.legal_actions())
        )
        state.apply(action)
        actions.append(action)
    return actions


def twin(name: str, options: dict, actions: list[dict], viewer: Viewer, k: int, seed: int):
    """The twin of ``actions[:k]`` for ``viewer`` (None if the twin cannot be walked to ``k``),
    and how many actions were substituted."""
    game = registry.get(name)
    state = game.new_state(options)
    start = 0
    for index, action in enumerate(actions[:k]):
        if state.reveals_hidden(action):
            start = index + 1  # from here on the viewer has seen what was hidden
        state.apply(action)
    rng = random.Random(seed)
    original = game.new_state(options)
    for action in actions[:start]:
        original.apply(action)
    resampled = original.clone()
    walked = list(actions[:start])
    swaps = 0
    for action in actions[start:k]:
        candidates = resampled.hidden_alternatives(action, viewer)
        rng.shuffle(candidates)
        for candidate in [*candidates, action]:
            trial = resampled.clone()
            try:
                trial.apply(candidate)
            except (IllegalAction, MalformedInput):
                continue
            swaps += candidate != action
            walked.append(candidate)
            resampled = trial
            break
        else:
            return None, 0
    return walked, swaps


@dataclass
class Table:
    """One served companion, with a client per viewer; :meth:`load` sets a journal out on it.

    A companion serves one twin after another (a new game each time, with the same history in
    both twins): a Flask app is made once, not per comparison.
    """

    service: Service
    app: Any
    clients: dict[str, Any] = field(default_factory=dict)

    def load(self, name: str, options: dict, actions: list[dict], play_: str) -> None:
        """The journal of a new people's game ``actions`` (played ``play_``), resumed as if the
        companion had restarted, and a phone joined on every seat."""
        mode = Mode.RECORDING if play_ == "readers" else Mode.ENFORCING
        store = self.service.store
        record = store.create_game(name, options, t=CLOCK, play=play_, join_code=CODE)
        for action in actions:
            store.append(record.id, action, t=CLOCK, mode=mode, actor="chance")
        self.service.hub.close_where(lambda s: True, "new_game")
        self.service.resume()
        for seat in range(self.service.table.state.num_seats):
            phone = self.app.test_client()
            reply = phone.post(
                "/api/join",
                json={"code": CODE, "seat": seat, "name": f"Guest{seat}"},
                headers={"X-CSRF-Token": csrf_of(phone)},
            )
            assert reply.status_code == 200, reply.get_json()
            self.clients[f"seat {seat}"] = phone

    def close(self) -> None:
        self.service.close()


def serve(directory: Path, play_: str) -> Table:
    """A companion on ``directory`` (reader nodes attached for ``play_ == "readers"``), the Host
    logged in."""
    directory.mkdir(parents=True, exist_ok=True)
    store = JournalStore(directory / "journal.sqlite")
    settings = config.replace(config.Config(), data_dir=str(directory), **{"host.pin": PIN})
    service = Service(
        settings, store=store, games=registry.load_all(), rng=random.Random(0), clock=lambda: CLOCK
    )
    if play_ == "readers":
        service.sense("readers")
    app = create_app(service, settings)
    app.testing = True
    app.jinja_env.bytecode_cache = COMPILED
    table = Table(service, app)
    table.clients["public"] = app.test_client()
    host = app.test_client()
    reply = host.post("/api/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf_of(host)})
    assert reply.status_code == 200
    table.clients["host"] = host
    return table


def normal(text: str) -> str:
    """An answer with the per-server tokens set aside (CSRF tokens differ by server secret)."""
    return CSRF.sub(lambda m: (m[1] or m[3]) + "CSRF" + (m[2] or m[4]), text)


def csrf_in(client) -> str:
    """The CSRF token the client's pages carry (a seat's own, for a phone)."""
    page = client.get("/seat").data.decode()
    found = re.search(r'<meta name="csrf" content="([^"]+)">', page)
    return found[1] if found else csrf_of(client)


def requests_for(kind: str, table: Table, truth: list | None = None) -> list[tuple]:
    """The scripted requests ``kind`` ("public", "host", "seat N") sends: (method, url, body)."""
    game_id = table.service.table.record.id
    gets = [
        "/",
        "/api/state",
        "/host",
        "/history",
        f"/history/{game_id}",
        "/api/games",
        f"/api/games/{game_id}/timeline",
        f"/api/games/{game_id}/export",
        "/courtroom",
        "/cena",
        f"/join/{CODE}",
        "/seat",
        "/api/seat/state",
        "/api/host/state",
        "/api/host/join",
        "/api/stream?viewer=public",
    ]
    out: list[tuple] = [("GET", url, None) for url in gets]
    if kind == "host":
        out.append(("GET", "/api/stream?viewer=host", None))
        for action in probes(table, truth):
            for mode in ("enforcing", "recording"):
                out.append(("POST", "/api/host/act", {"action": action, "mode": mode}))
    elif kind.startswith("seat"):
        out.append(("GET", "/api/stream?viewer=seat", None))
        for action in probes(table, truth):
            out.append(("POST", "/api/seat/act", {"action": action}))
    return out


def probes(table: Table, truth: list | None = None) -> list[dict]:
    """Actions a curious player sends: guesses of what is hidden, and what the mover may do.

    Built from the public view (what any asker knows), plus ``truth``: what one twin's Goblets
    really hold, sent as a guess to both (a guess that is right at one table and wrong at the
    other must get the same answer at both).
    """
    state = table.service.table.state
    view = state.view(PUBLIC)
    mover = state.to_move()
    seat = mover if isinstance(mover, int) else 0
    out: list[dict] = [{"type": "no-such-action"}]
    game = table.service.table.record.game
    if game == "goblets":
        places = len(view.get("places") or view.get("goblets") or [])
        kinds = ["wine", "poison", "antidote"]
        guesses = [[guess] * places for guess in ({"wine": 1}, {"poison": 1}, {})]
        for guess in ([truth] if truth else []) + guesses:
            out.append({"type": "reveal", "seat": seat, "goblets": guess})
        out.append({"type": "reveal", "seat": seat})
        for kind in kinds:
            out.append({"type": "pour", "seat": seat, "place": 0, "token": kind})
        out += [{"type": "peek", "seat": seat}, {"type": "toast", "seat": seat}]
        out.append({"type": "pass", "seat": seat})
    elif game == "cena":
        from companion.core.games.cena.cards import DECK

        for card in islice(DECK, 0, 40, 3):
            out.append({"type": "play", "card": card.name, "house": seat})
        out.append({"type": "welcome", "cards": [c.name for c in DECK[:3]]})
    elif game == "tribunal":
        out += [{"type": "hear"}, {"type": "verdict", "verdict": "guilty"}, {"type": "draw"}]
    return out


def truth_of(table: Table) -> list | None:
    """What the Goblets at each place really hold at ``table`` (None: not a Goblets table)."""
    state = table.service.table.state
    if not hasattr(state, "contents_at"):
        return None
    return [state.contents_at(place) for place in range(len(state.places))]


def answers(table: Table, kind: str, truth: list | None = None) -> list[str]:
    """Every answer ``kind`` gets to its scripted requests, normalised, in order."""
    client = table.clients[kind]
    token = csrf_in(client) if kind.startswith("seat") else csrf_of(client)
    got = []
    for method, url, body in requests_for(kind, table, truth):
        if url.startswith("/api/stream"):
            text = first_sse_message(client, url)
            got.append(f"{url} {normal(text)}")
            continue
        reveals = method == "POST" and table.service.table.state.reveals_hidden(body["action"])
        if method == "GET":
            reply = client.get(url)
        else:
            reply = client.post(url, json=body, headers={"X-CSRF-Token": token})
        asked = f"{method} {url} {json.dumps(body, sort_keys=True)} -> {reply.status_code}"
        if reveals and reply.status_code == 200:
            got.append(asked)  # a Peek or a reveal taken: it shows the asker what it may know
            break
        got.append(f"{asked} {normal(reply.data.decode())}")
    return got


def kinds_of(viewer: Viewer) -> list[str]:
    """The clients that ask as ``viewer`` (the public view is also what a stranger gets)."""
    if viewer == PUBLIC:
        return ["public"]
    if viewer == HOST:
        return ["host"]
    return [f"seat {viewer.index}"]


def documents(text: str) -> list:
    """The JSON documents in an answer (for readable failure messages)."""
    found = [m.group(1) for m in INITIAL.finditer(text)]
    found += [line[6:] for line in text.splitlines() if line.startswith("data: ")]
    return found


def attribution_twin(name: str, options: dict, actions: list[dict], k: int):
    """A twin of ``actions[:k]`` in which two seats' pours into the same Goblet in a Course that
    has been revealed exchange their tokens: the revealed contents are the same, only who
    poured what differs (None if no such pair keeps every later action legal).

    Returns (twin actions, the two seats).
    """
    game = registry.get(name)
    state = game.new_state(options)
    pours = []  # (index, seat, goblet id, token, course) of each pour
    reveal = None
    for index, action in enumerate(actions[:k]):
        if action.get("type") == "pour":
            goblet = state.goblet_at[action["place"]]
            pours.append((index, action["seat"], goblet, action["token"], state.course))
        if action.get("type") == "reveal":
            reveal = state.course
        state.apply(action)
    if reveal is None:
        return None
    candidates = [
        (a, b)
        for a in pours
        for b in pours
        if a[0] < b[0] and a[4] == b[4] <= reveal and a[2] == b[2] and a[1] != b[1] and a[3] != b[3]
    ]
    for a, b in candidates:
        walked = [dict(action) for action in actions[:k]]
        walked[a[0]]["token"], walked[b[0]]["token"] = b[3], a[3]
        trial = game.new_state(options)
        try:
            for action in walked:
                trial.apply(action)
        except (IllegalAction, MalformedInput):
            continue
        return walked, (a[1], b[1])
    return None
