"""Every rule of the Cena rulebook has a test whose docstring quotes it.

``RULES`` holds every rule-bearing sentence of ../shared/rules/cena.txt, verbatim, in the
rulebook's order. A rule is covered when its whitespace-normalised text appears in the docstring
of a test function under ``tests/cena`` (parsed with ``ast``, not imported). Left out: the table of
contents, headings, "1 Score pad" and "3 Rulebooks" (paper, no rule of play).
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

from cena_helpers import at_feast, new, play

from companion.core.game import HOST, PUBLIC, Viewer
from companion.core.games.cena.alliances import alliance_houses, house_alliances
from companion.core.games.cena.cards import MAX_HOUSES
from companion.core.games.cena.poisons import POISONS

HERE = Path(__file__).parent
RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "cena.txt"

RULES = [
    "40 Toast cards",
    "5 Alliance cards",
    "8 Poison cards",
    "5 House tiles",
    "1 Invitation tile",
    "Each Toast card has a suit on the left and a value on the right.",
    "The suits are mead, wine, cider, and beer.",
    "Values run from 1 to 10 in each suit.",
    "Each Poison card shows a name, a number, where it affects (which cards it affects and their "
    "values), a penalty, and the amount subtracted per each card.",
    "Choose a House and place the corresponding tile in front of you with the side without the "
    "seal facing up.",
    "Place one alliance card between each House.",
    "Shuffle the poison cards, draw three, and form a pile.",
    "Return the rest to the box without looking at them.",
    "The player who most recently poisoned someone (or randomly if there is no evidence) becomes "
    "the Host House and receives the invitation tile.",
    "Flip the House tile to the side with the seal to mark it.",
    "the Host House shuffles all the Toast cards and deals them one by one face down to all "
    "Houses.",
    "You may arrange your cards as you wish, but without revealing them.",
    "In a 3 players game, deal 12 cards to each player.",
    "The 4 remaining cards are set aside face down.",
    "At the start of each round, all cards are shuffled again.",
    "The game is played over three rounds.",
    "Each round has four phases",
    "The Host House reveals the top card of the poison pile and places it face up for everyone to "
    "see.",
    "This card indicates the penalty that will be applied at the end of the current round.",
    "Each House chooses three cards from its hand and places them face up in front of itself.",
    "These cards are still considered part of its hand and may be played normally during the "
    "feast.",
    "This phase is repeated until all cards have been played.",
    "The Host House leads the first trick.",
    "The player holding the invitation tile plays one of their cards in front of any House "
    "(including their own) and places the invitation tile on top to mark the lead suit.",
    "In clockwise order, the rest of the Houses play one of their cards in front of any House "
    "(including their own) if that House does not yet have a card in front of it.",
    "If a House has cards of the lead suit, it must play one of them.",
    "If this is not possible, any card may be played.",
    "Always play cards oriented toward you, with the suit on the left and the value on the right.",
    "The trick is not won by a House, but by an alliance between two Houses.",
    "The winning trick is determined by combining the two halves of the cards on both sides of "
    "each alliance card.",
    "The alliance with the highest value in the lead suit wins the trick.",
    "In case of a tie, the alliance that was completed last wins.",
    "If multiple alliances are completed simultaneously, the winning one is the Alliance "
    "furthest, clockwise, from the House that led the trick.",
    "Once everyone has played a card, collect all cards from the trick and place them face down "
    "on top of the winning alliance card.",
    "The House to the left of the winning alliance card receives the invitation tile and leads "
    "the next trick.",
    "The Fish House, to the left of the winning alliance, receives the invitation tile.",
    "Once all cards have been played, each House scores the cards won by its two alliances.",
    "Each card is worth 1 point.",
    "Then apply the penalty from the poison card revealed in this round and subtract the "
    "corresponding points.",
    "The score may be negative (life is tough).",
    "Record the scores on the score pad and remove the current poison card from the game.",
    "If this is not the end of the third round, the House to the left of the current Host House "
    "becomes the Host House for the next round.",
    "Flip the House tiles to indicate this.",
    "Next, start a new round.",
    "After three rounds have been played, the House with the most points wins.",
    "In case of a tie, raise a toast and share the victory!",
    "Private feast — In this variant, players may only play cards in front of their own House.",
    "Single course — If you want a shorter game, you may play only one round.",
    "For your first game, it is recommended to play with poison cards 1, 2, and 3.",
    "The following penalties apply during the scoring phase:",
    "1. Mandragora officinarum — Each card with value 6 subtracts 10 points.",
    "2. Arsenicum — Each beer card subtracts 4 points.",
    "3. Lytta vesicatoria — Each odd-valued mead card subtracts 8 points.",
    "4. Taxus baccata — Each card with value 3 or 8 subtracts 5 points.",
    "5. Atropa belladona — Each wine or cider card with value 7 subtracts 20 points.",
    "6. Aconitum napellus — The alliance that wins the last trick subtracts 25 points.",
    "7. Compostum mercuriale — The alliance with the most cards won scores 0 points.",
    "8. Conium maculatum — Each House calculates the difference between the cards won by its "
    "alliances and subtracts 2 points for each point of difference.",
]


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def docstrings() -> str:
    found = []
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                found.append(normalise(ast.get_docstring(node) or ""))
    return "\n".join(found)


def test_rules_are_verbatim():
    if RULEBOOK.exists():  # the shared rulebook sits beside the checkout
        book = normalise(RULEBOOK.read_text())
        assert [rule for rule in RULES if normalise(rule) not in book] == []
    assert len(RULES) == len(set(RULES)) == 63


def test_every_rule_is_quoted_by_a_test():
    quoted = docstrings()
    assert [rule for rule in RULES if normalise(rule) not in quoted] == []


def test_components():
    """ "5 Alliance cards" "8 Poison cards" "5 House tiles" "1 Invitation tile": so at most five
    Houses, one alliance card each; the invitation tile is with one House at a time."""
    assert MAX_HOUSES == 5 and len(POISONS) == 8
    state = at_feast({"players": 5, "host": 3})
    view = state.view(PUBLIC)
    assert len(view["houses"]) == len(view["alliances"]) == 5
    assert view["invitation"] == 3


def test_poison_card_shows():
    """ "Each Poison card shows a name, a number, where it affects (which cards it affects and
    their values), a penalty, and the amount subtracted per each card.\""""
    for number, poison in POISONS.items():
        assert poison.number == number and poison.name and "points" in poison.text
        assert (poison.affects is None) == (number >= 6)
        assert (poison.per_card > 0) == (number <= 5)


def test_houses_and_alliances_around_the_table():
    """ "Choose a House and place the corresponding tile in front of you with the side without the
    seal facing up." "Place one alliance card between each House.\""""
    for houses in (3, 4, 5):
        for a in range(houses):
            right, left = alliance_houses(a, houses)
            assert left == (right + 1) % houses
            assert a in house_alliances(right, houses) and a in house_alliances(left, houses)


def test_host_house_option():
    """ "The player who most recently poisoned someone (or randomly if there is no evidence)
    becomes the Host House and receives the invitation tile." "Flip the House tile to the side
    with the seal to mark it.\""""
    state = new({"players": 4, "host": 3})
    assert state.view(PUBLIC)["host"] == 3 and state.view(PUBLIC)["invitation"] == 3
    assert state.view(HOST)["host"] == 3


def test_hands_are_never_shown_to_others():
    """ "You may arrange your cards as you wish, but without revealing them.\""""
    state = at_feast()
    assert state.view(Viewer.seat(0))["hand"] == state.hands[0]
    for viewer in (PUBLIC, HOST, Viewer.seat(1)):
        assert state.view(viewer).get("hand") != state.hands[0]


def test_penalty_applied_at_the_end_of_the_round():
    """ "Then apply the penalty from the poison card revealed in this round and subtract the
    corresponding points." "Flip the House tiles to indicate this." "Next, start a new round.\""""
    state = at_feast({"host": 2}, pile=(2, 1, 3))
    rng = random.Random(0)
    while state.phase == "feast":
        action = rng.choice(state.legal_actions())
        play(state, (action["card"], action["house"]))
    scored = state.scores[0]
    assert scored["poison"] == 2 and state.phase == "deal"
    beers = [
        sum(1 for a in house_alliances(h, 3) for c in state.won[a] if c.startswith("beer-"))
        for h in range(3)
    ]
    assert [h["penalty"] for h in scored["houses"]] == [4 * b for b in beers]
    assert state.host == 0 and state.view(PUBLIC)["host"] == 0
    state.apply(state.sample_chance(rng))
    assert state.round == 1 and state.to_move() == 0 and state.pile == [1, 3]
