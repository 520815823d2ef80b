"""The eight Poison cards: printed text, and each penalty on a hand-made round.

The example round (3 Houses): alliance 0 (Houses 0-1) won six cards, alliance 1 (Houses 1-2)
four, alliance 2 (Houses 2-0) none. House 0 scores alliances 2 and 0 (6 cards), House 1
alliances 0 and 1 (10), House 2 alliances 1 and 2 (4).
"""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInput
from companion.core.games.cena.cards import parse_card
from companion.core.games.cena.poisons import POISONS, deductions, most_cards, parse_poison
from companion.core.games.cena.scoring import round_scores, winners

WON = [
    ["mead-6", "wine-6", "beer-2", "mead-3", "wine-7", "cider-7"],
    ["beer-6", "beer-8", "mead-1", "beer-7"],
    [],
]


def cards(won):
    return [[parse_card(name, "won") for name in alliance] for alliance in won]


def points(number, won=WON, last_trick=1):
    scores = round_scores(cards(won), [POISONS[number]], last_trick)
    return [house["points"] for house in scores]


def test_cards_won_by_two_alliances():
    """ "Once all cards have been played, each House scores the cards won by its two alliances."
    "Each card is worth 1 point.\""""
    scores = round_scores(cards(WON), [], None)
    assert [s["cards"] for s in scores] == [6, 10, 4]
    assert [s["points"] for s in scores] == [6, 10, 4]


def test_printed_text():
    """ "The following penalties apply during the scoring phase:" (verbatim, names as printed)."""
    printed = {
        1: ("Mandragora officinarum", "Each card with value 6 subtracts 10 points."),
        2: ("Arsenicum", "Each beer card subtracts 4 points."),
        3: ("Lytta vesicatoria", "Each odd-valued mead card subtracts 8 points."),
        4: ("Taxus baccata", "Each card with value 3 or 8 subtracts 5 points."),
        5: ("Atropa belladona", "Each wine or cider card with value 7 subtracts 20 points."),
        6: ("Aconitum napellus", "The alliance that wins the last trick subtracts 25 points."),
        7: ("Compostum mercuriale", "The alliance with the most cards won scores 0 points."),
        8: (
            "Conium maculatum",
            "Each House calculates the difference between the cards won by its alliances and "
            "subtracts 2 points for each point of difference.",
        ),
    }
    assert {n: (p.name, p.text) for n, p in POISONS.items()} == printed
    assert POISONS[3].to_json() == {"number": 3, "name": "Lytta vesicatoria", "text": printed[3][1]}


def test_mandragora():
    """ "1. Mandragora officinarum — Each card with value 6 subtracts 10 points.\""""
    # sixes: alliance 0 has two, alliance 1 one.
    assert points(1) == [6 - 20, 10 - 30, 4 - 10]


def test_arsenicum():
    """ "2. Arsenicum — Each beer card subtracts 4 points.\""""
    assert points(2) == [6 - 4, 10 - 16, 4 - 12]


def test_lytta():
    """ "3. Lytta vesicatoria — Each odd-valued mead card subtracts 8 points.\""""
    # mead-3 and mead-1 are odd; mead-6 is not.
    assert points(3) == [6 - 8, 10 - 16, 4 - 8]


def test_taxus():
    """ "4. Taxus baccata — Each card with value 3 or 8 subtracts 5 points.\""""
    assert points(4) == [6 - 5, 10 - 10, 4 - 5]


def test_atropa():
    """ "5. Atropa belladona — Each wine or cider card with value 7 subtracts 20 points.\""""
    # wine-7 and cider-7 count; beer-7 does not.
    assert points(5) == [6 - 40, 10 - 40, 4]


def test_aconitum():
    """ "6. Aconitum napellus — The alliance that wins the last trick subtracts 25 points.\""""
    # Alliance 1 won the last trick: both its Houses (1 and 2) lose 25.
    assert points(6, last_trick=1) == [6, 10 - 25, 4 - 25]
    assert points(6, last_trick=2) == [6 - 25, 10, 4 - 25]


def test_compostum():
    """ "7. Compostum mercuriale — The alliance with the most cards won scores 0 points.\""""
    # Alliance 0 has the most (6): its cards count for nothing, for Houses 0 and 1.
    assert points(7) == [0, 4, 4]


def test_compostum_tie_zeroes_every_tied_alliance():
    """ "The alliance with the most cards won scores 0 points.": a tie zeroes each tied alliance."""
    tied = [["wine-1", "wine-2"], ["wine-3", "wine-4"], ["wine-5"]]
    assert most_cards(cards(tied)) == [0, 1]
    assert points(7, won=tied) == [1, 0, 1]
    assert most_cards(cards([[], [], []])) == []


def test_conium():
    """ "8. Conium maculatum — Each House calculates the difference between the cards won by its
    alliances and subtracts 2 points for each point of difference.\""""
    # House 0: |0 - 6| = 6; House 1: |6 - 4| = 2; House 2: |4 - 0| = 4.
    assert points(8) == [6 - 12, 10 - 4, 4 - 8]


def test_score_may_be_negative():
    """ "The score may be negative (life is tough).\""""
    assert min(points(5)) < 0


def test_several_poisons_add_up():
    """A scoring aid: several poisons add their deductions."""
    scores = round_scores(cards(WON), [POISONS[1], POISONS[2]], None)
    assert [s["penalty"] for s in scores] == [20 + 4, 30 + 16, 10 + 12]


def test_deductions_never_negative_and_per_house():
    for number, poison in POISONS.items():
        lost = deductions(poison, cards(WON), 0)
        assert len(lost) == 3 and min(lost) >= 0, number


def test_five_houses_alliances():
    """ "each House scores the cards won by its two alliances": House h has alliances h-1 and h."""
    won = [["wine-1"], ["wine-2", "wine-3"], [], ["beer-4"], ["mead-5", "mead-6", "mead-7"]]
    scores = round_scores(cards(won), [POISONS[8]], None)
    assert [s["cards"] for s in scores] == [3 + 1, 1 + 2, 2 + 0, 0 + 1, 1 + 3]
    assert [s["penalty"] for s in scores] == [4, 2, 4, 2, 4]


def test_most_points_wins_ties_share():
    """ "After three rounds have been played, the House with the most points wins." "In case of a
    tie, raise a toast and share the victory!\""""
    assert winners([3, 9, -2]) == [1]
    assert winners([9, 9, -2]) == [0, 1]


@pytest.mark.parametrize("bad", [0, 9, "1", True, None])
def test_bad_poison_number(bad):
    with pytest.raises(MalformedInput) as error:
        parse_poison(bad, "poison")
    assert error.value.field == "poison"
