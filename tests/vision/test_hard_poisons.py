"""Poisons a lamp's sheen greyed past the colour paths, found by their shape: a disc of a
token's size darker than the table just outside it. Each case below failed the rule-based
reader once (one Poison short); the shadows beside them stay no Poison."""

import pytest
from independent.score import seat_read


@pytest.mark.parametrize(
    ("seed", "level", "seat", "want"),
    [
        # A glossy Poison on white linen standing apart from the Wine tokens, its face greyed
        # to the linen in shadow: the cloth tests call it cloth and only a thin crescent of its
        # rim stands out, too short to vote.
        (62038, "hard", 0, {"wine": 2, "poison": 1}),
        # The same beside a Wine and an Antidote on white linen, its face keeping the linen's
        # chromaticity (no shadow: the cloth just outside its rim is lit all round).
        (62020, "hard", 2, {"wine": 2, "poison": 2, "antidote": 1}),
        # A sheened Poison on grey cloth, lighter than the cloth in shadow but darker than the
        # lit cloth round it.
        (62025, "hard", 2, {"wine": 1, "poison": 1, "antidote": 3}),
        # One touching a Poison and a Wine on grey cloth: the ring outside its rim is judged
        # where no token found lies.
        (60020, "hard", 1, {"wine": 1, "poison": 2}),
        # A realistic frame: a Poison in a clump on grey cloth whose face is half grey token,
        # half cloth-like (the scene was the first development set's only realistic failure).
        (
            61023,
            "realistic",
            0,
            {"poison": 4, "antidote": 2, "unicorn_antidote": 1, "ogre_poison": 1},
        ),
    ],
)
def test_greyed_poisons_are_counted(seed, level, seat, want):
    truth, found = seat_read(seed, level, (640, 480), seat)
    assert {k: n for k, n in truth.tokens[seat].items() if n} == want
    assert seat not in truth.covered
    assert found == truth.tokens[seat]


def test_a_stems_shadow_on_white_linen_is_no_poison():
    # A goblet's stem's shadow across an empty area on white linen ends in a rounded tip as
    # dark as a sheened Poison, but the shadow goes on beyond any disc drawn in it: the cloth
    # outside the disc's rim is not lit all round.
    truth, found = seat_read(62001, "hard", (640, 480), 1)
    assert not any(truth.tokens[1].values())
    assert found == truth.tokens[1]
