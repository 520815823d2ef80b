"""Secrecy as noninterference: the same requests against two hidden states give the same answers.

For every game, variants, both ways of playing (on the phones: enforcing; with the readers:
recording) and several points of a game, each viewer (the public tablet, the Host, every seat)
sends the same scripted requests to two companions whose journals differ only in what that viewer
may not see (tests/web/noninterference.py). Every answer must be the same in both. This is the
main secrecy test; the attacker crawls (tests/web/test_attacker.py) stay as a second line.
"""

from __future__ import annotations

import pytest
from noninterference import (
    answers,
    attribution_twin,
    kinds_of,
    play,
    serve,
    truth_of,
    twin,
)

from companion.core import registry
from companion.core.game import HOST, PUBLIC, Viewer
from companion.core.games.goblets import HOOK_DECK

CASES = [
    ("goblets", {"players": 4, "characters": []}, "phones", 1),
    ("goblets", {"players": 4, "characters": []}, "readers", 2),
    ("goblets", {"players": 5, "characters": HOOK_DECK, "host": 2}, "phones", 3),
    (
        "goblets",
        {"players": 5, "raise_your_memory": True, "legacy": True, "characters": HOOK_DECK},
        "phones",
        4,
    ),
    ("goblets", {"players": 8, "characters": []}, "phones", 5),
    ("goblets", {"players": 8, "characters": []}, "readers", 6),
    (
        "goblets",
        {"players": 6, "hidden_vp": False, "show_pourer": False, "characters": []},
        "phones",
        7,
    ),
    ("goblets", {"players": 3}, "phones", 8),
    ("goblets", {"players": 2}, "phones", 9),
    ("cena", {"players": 3}, "phones", 10),
    ("cena", {"players": 4, "private_feast": True}, "phones", 11),
    ("tribunal", {}, "phones", 12),
]
POINTS = (0.15, 0.45, 0.8)
"""Where in the game the twins are compared (fractions of its length)."""


def first_difference(mine, theirs):
    """Where two answer lists first differ, with some context (for the failure message)."""
    for one, other in zip(mine, theirs, strict=True):
        if one != other:
            pairs = enumerate(zip(one, other, strict=False))
            at = next((i for i, (x, y) in pairs if x != y), min(len(one), len(other)))
            return f"{one[:80]} ... {one[at - 200 : at + 200]!r} != {other[at - 200 : at + 200]!r}"
    return None


def viewers(name, options):
    state = registry.get(name).new_state(options)
    return [PUBLIC, HOST, *(Viewer.seat(s) for s in range(state.num_seats))]


def cut_points(name, options, actions):
    """Points of the game where someone is to act (not a deal), spread over it."""
    state = registry.get(name).new_state(options)
    movable = []
    for index, action in enumerate(actions):
        state.apply(action)
        if not state.is_over() and isinstance(state.to_move(), int):
            movable.append(index + 1)
    # The first point is right after the first deal (the deck order, the hands, the first pour).
    return sorted({movable[0], *(movable[int(p * (len(movable) - 1))] for p in POINTS)})


@pytest.mark.parametrize(("name", "options", "play_", "seed"), CASES)
def test_no_answer_depends_on_what_the_asker_may_not_see(tmp_path, name, options, play_, seed):
    actions = play(name, options, seed)
    compared = swaps = 0
    a, b = serve(tmp_path / "a", play_), serve(tmp_path / "b", play_)
    try:
        for k in cut_points(name, options, actions):
            for viewer in viewers(name, options):
                walked, swapped = twin(name, options, actions, viewer, k, seed)
                if walked is None or not swapped:
                    continue
                a.load(name, options, actions[:k], play_)
                b.load(name, options, walked, play_)
                assert a.service.table.state.view(viewer) == b.service.table.state.view(viewer)
                truth = truth_of(a)  # one table's secret, guessed at both
                for kind in kinds_of(viewer):
                    mine, theirs = answers(a, kind, truth), answers(b, kind, truth)
                    for one, other in zip(mine, theirs, strict=True):
                        assert one == other, f"{viewer} at {k}: {first_difference(mine, theirs)}"
                    compared += len(mine)
                swaps += swapped
    finally:
        a.close()
        b.close()
    assert compared and swaps, "no twin could be built: nothing was compared"


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ({"players": 5, "characters": []}, False),
        ({"players": 8, "characters": []}, False),
        ({"players": 5, "characters": [], "pour_attribution": "after_course"}, True),
    ],
)
def test_who_poured_what_is_told_only_when_the_table_says(tmp_path, options, shown):
    """Two tables whose revealed Courses hold the same Goblets but whose pourers swapped their
    tokens: until the game ends nobody else can tell them apart (in Winetasters that would tell
    who is a Traitor), unless the table chose to show each Course's pours once revealed."""
    for seed in range(40):
        actions = play("goblets", options, seed)
        state = registry.get("goblets").new_state(options)
        k = len(actions)
        for index, action in enumerate(actions):  # to the first point of the second Course
            state.apply(action)
            if state.course == 2 and isinstance(state.to_move(), int):
                k = index + 1
                break
        found = attribution_twin("goblets", options, actions, k)
        if found is not None:
            break
    else:
        raise AssertionError("no pair of pours to exchange was found")
    walked, pourers = found
    others = [s for s in range(state.num_seats) if s not in pourers][:1]
    a, b = serve(tmp_path / "a", "phones"), serve(tmp_path / "b", "phones")
    a.load("goblets", options, actions[:k], "phones")
    b.load("goblets", options, walked, "phones")
    try:
        for kind in ["public", "host", *(f"seat {s}" for s in others)]:
            mine, theirs = answers(a, kind), answers(b, kind)
            differing = [one for one, other in zip(mine, theirs, strict=True) if one != other]
            if shown:
                assert differing and all("/timeline" in d or "/history/" in d for d in differing)
            else:
                assert differing == [], f"{kind}: {first_difference(mine, theirs)}"
    finally:
        a.close()
        b.close()
