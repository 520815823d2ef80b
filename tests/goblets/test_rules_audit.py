"""The rules audit: a test for each rulebook sentence no other test quoted in full.

Found by ``test_rulebook_coverage.py``. Each docstring quotes the sentence(s) it checks, verbatim;
every test drives the engine through its public interface (``registry``, ``apply``,
``legal_actions``, ``sample_chance``, ``view``).
"""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import PLAIN, act, call_toast, finish_toast, new, passes, setup, start

from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, PUBLIC, Viewer
from companion.core.games.goblets.houses import HOUSE_IDS, HOUSES
from companion.core.games.goblets.russian import new_russian_state
from companion.core.games.goblets.scoring import score_toast
from companion.core.games.goblets.tokens import POOL

SUPPLY = {"wine": 3, "poison": 2, "antidote": 2}


def viewers(state):
    """The public, the host and every seat."""
    return [PUBLIC, HOST, *map(Viewer.seat, range(state.num_seats))]


def play_course(state):
    """Someone toasts, everyone passes their final action, the caller reveals."""
    caller = call_toast(state)
    finish_toast(state)
    return caller


def counts(tokens):
    """A list of token kinds as counts."""
    return {kind: tokens.count(kind) for kind in set(tokens)}


# -- Ingredients and Houses ------------------------------------------------------------------


def test_six_goblets_screens_and_target_cards_for_the_six_houses():
    """Ingredients: "6 Goblets (with 6 Coaster rings in 6 colors)", "6 Player Screens" and "6
    Target cards", one per Otravian Noble House: "House De Miceti", "House McToadery", "House
    Aconitiers", "House Wespendorf", "House Van Visser", "House Arañeros"."""
    assert [f"House {name}" for name in HOUSES.values()] == [
        "House De Miceti",
        "House McToadery",
        "House Aconitiers",
        "House Wespendorf",
        "House Van Visser",
        "House Arañeros",
    ]
    for players in (6, 12):  # the most Goblets: 6 players, or 6 Winetaster pairs
        state = start(players)
        places = state.view(PUBLIC)["places"]
        assert len(places) == 6  # 6 Goblets, 6 screens, 6 Target cards
        assert sorted(p["ring"] for p in places) == sorted(HOUSE_IDS)
        assert sorted(p["target"] for p in places) == sorted(HOUSE_IDS)
    with pytest.raises(MalformedInput) as error:
        new(players=6, houses=[*HOUSE_IDS[:5], "borgia"], **PLAIN)
    assert error.value.field.startswith("houses")


def test_six_winetaster_cards_unused_ones_put_aside_unseen():
    """ "6 Winetaster cards". "Randomly deal 1 Winetaster card to each Winetaster." "Put the
    unused ones aside, if any, without looking at them." """
    full = new(players=12, **PLAIN)
    setup(full, cards=None)
    assert (
        sorted(full.wt_cards[p.winetaster] for p in full.places) == ["loyal"] * 3 + ["traitor"] * 3
    )
    state = new(players=8, **PLAIN)
    state.apply(state.sample_chance(random.Random(0)))  # the initial pour
    assert state.phase == "deal_winetaster_cards"
    for seed in range(20):
        cards = state.sample_chance(random.Random(seed))["cards"]
        assert len([c for c in cards if c]) == 4  # 2 of the 6 cards stay aside
    with pytest.raises(MalformedInput):
        state.apply({"type": "deal_winetaster_cards", "cards": ["traitor"] * 4})  # only 3 exist
    state.apply({"type": "deal_winetaster_cards", "cards": ["loyal", "loyal", "traitor", "loyal"]})
    # Nobody learns which cards were put aside: no view names a card but the Winetaster's own.
    for viewer in viewers(state):
        seen = json.dumps(state.view(viewer)["places"]) + json.dumps(state.view(PUBLIC))
        assert "loyal" not in seen and "traitor" not in seen


# -- Setting the Table -------------------------------------------------------------------------


def test_player_count_chooses_the_game():
    """ "(if you are playing with 2-3 or 7-12 players instead, see "Desserts", page 5)". "Below
    you can find a couple of optional rules for expert players, and different game modes for games
    with less than 4 or more than 6 players." "With less than 4 players, the rules are mostly the
    same as normal, with the following changes" and "With more than 6 players, you will play in
    pairs as a Noble and their Winetaster." "The rules are mostly the same as normal, with the
    following changes" """
    game = registry.get("goblets")
    for players in range(2, 13):
        state = game.new_state({"players": players})
        variant = state.view(PUBLIC)["variant"]
        expected = (
            "russian_goblette" if players < 4 else "standard" if players <= 6 else "winetasters"
        )
        assert variant == expected
        if players >= 4:  # the optional rules are off unless the table asks for them
            assert not state.opts.raise_your_memory and not state.opts.legacy
            # "mostly the same": each screen gets the normal Course supply
            assert all(screen == SUPPLY for screen in state.screens) or state.phase != "play"
            places = state.view(PUBLIC)["places"]
            pairs = [p for p in places if p["winetaster"] is not None]
            assert len(pairs) == (players // 2 if players > 6 else 0)
        else:
            screen = state.view(Viewer.seat(0))["screen"]
            assert {k: v for k, v in screen.items() if v} == SUPPLY
    for players, variant in ((3, "standard"), (7, "standard"), (4, "winetasters")):
        with pytest.raises(MalformedInput) as error:
            game.new_state({"players": players, "variant": variant})
        assert error.value.field == "players"
    for players in (4, 7):
        state = start(players)
        assert all(screen == SUPPLY for screen in state.screens)


def test_goblets_stand_in_a_circle_out_of_sight():
    """ "Place 1 Goblet per player in a circle in the middle of the table." and "The Goblet in
    front of you is "Your Goblet", but all players must keep all Goblets at arms length at all
    times (a.k.a. "The Arm's Length Rule"), so that they can't see what's inside." """
    state = start(5)
    assert state.view(PUBLIC)["places"][4]["ring"] == HOUSE_IDS[4]
    act(state, "rotate", direction="clockwise")  # a circle: the last Goblet comes round to 0
    rings = [p["ring"] for p in state.view(PUBLIC)["places"]]
    assert rings == [HOUSE_IDS[4], *HOUSE_IDS[:4]]
    for viewer in viewers(state):
        assert "contents" not in json.dumps(state.view(viewer))
    # Seat 1 now has the Goblet that stood at place 0 (the Antidote) in front: "Your Goblet".
    events = act(state, "peek", seat=1)
    assert next(e for e in events if e["event"] == "peeked")["contents"] == {"antidote": 1}


def test_target_cards_of_the_houses_in_play_only():
    """ "Check the Target cards: take the ones corresponding to the Houses in play and put them in
    a stack." "Put all of the unused Target cards back in the box." """
    houses = ["araneros", "de_miceti", "van_visser", "mctoadery"]
    state = new(players=4, houses=houses, **PLAIN)
    state.apply(state.sample_chance(random.Random(1)))  # the initial pour
    for seed in range(20):
        dealt = state.sample_chance(random.Random(seed))["targets"]
        assert sorted(dealt) == sorted(houses)
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "deal_targets", "targets": ["wespendorf", *houses[1:]]})
    assert error.value.field == "targets"


def test_every_token_starts_in_the_common_pool():
    """ "Put all of the Wine, Poison, Antidote, Ogre Poison and Unicorn Antidote tokens on the
    table, in a common pool." """
    state = new(players=4)  # with Characters: nothing is dealt yet
    assert state.phase == "deal_characters"
    assert state.pool == {str(kind): n for kind, n in POOL.items()}
    assert state.pool["ogre_poison"] == state.pool["unicorn_antidote"] == 1
    assert sum(state.pool.values()) == 52
    ready = start(4)  # the screens and the initial pour come from the pool
    assert ready.pool == {
        "wine": 21 - 4 * 3 - 1,
        "poison": 15 - 4 * 2 - 2,
        "antidote": 14 - 4 * 2 - 1,
        "unicorn_antidote": 1,
        "ogre_poison": 1,
    }


def test_rings_only_keep_track_of_the_goblets():
    """ "The colored rings are just a way to help you keep track of each single goblet during the
    game." -- the same game played without rings (Raise Your Memory) scores exactly the same."""
    rng = random.Random(5)
    ringed = new(players=5, **PLAIN)
    journal = []
    while ringed.phase != "shootout" and not ringed.is_over():
        action = (
            ringed.sample_chance(rng)
            if ringed.to_move() is CHANCE
            else rng.choice(ringed.legal_actions())
        )
        ringed.apply(action)
        journal.append(action)
    bare = new(players=5, raise_your_memory=True, **PLAIN)
    for action in journal:
        bare.apply(action)
    assert bare.vp == ringed.vp

    def outcome(state):
        return [
            [(p["contents"], p["poisoned"], p["most_wine"]) for p in r["places"]]
            for r in state.results
        ]

    assert outcome(bare) == outcome(ringed) and len(ringed.results) == 3


# -- Appetizers --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "goblets"), [(4, 4), (5, 5), (6, 6), (7, 4), (12, 6)])
def test_initial_pour_depends_on_the_number_of_goblets(players, goblets):
    """ "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens so that the total number of
    tokens is equal to the number of Goblets (so, if you're playing with 5 Goblets, you need 1
    Antidote, 2 Poison, and 2 Wine tokens)." "You start each Course with 3 Wine, 2 Poison and 2
    Antidote tokens." "Depending on the number of Goblets, take these tokens, and randomly and
    secretly pour them into the Goblets." """
    state = new(players=players, **PLAIN)
    for course in (1, 2):
        assert state.phase == "initial_pour" and state.course == course
        assert all(screen == SUPPLY for screen in state.screens)
        action = state.sample_chance(random.Random(course))
        expected = {"antidote": 1, "poison": 2, "wine": goblets - 3}
        assert counts(action["tokens"]) == expected
        if goblets == 5:
            assert expected == {"antidote": 1, "poison": 2, "wine": 2}
        events = state.apply(action)
        assert events == [{"event": "initial_pour", "goblets": goblets}]  # secretly: no kinds
        assert [sum(g.values()) for g in state.goblets] == [1] * goblets
        for viewer in viewers(state):  # past Courses' results aside, no contents are shown
            assert "contents" not in json.dumps({**state.view(viewer), "results": None})
        setup(state)
        play_course(state)


def test_target_is_the_player_to_poison_this_course():
    """ "This will be their Target for the round, i.e. the player they want to poison." -- the
    Target card scores "1 VP | if your Target has been poisoned", and a new Target is dealt each
    Course."""
    state = start(4)  # place i targets House i+1; Poison stands at places 1 and 2
    play_course(state)
    places = state.results[0]["places"]
    by_house = {p["house"]: p for p in places}
    for place in places:
        assert place["target_poisoned"] == by_house[place["target"]]["poisoned"]
    assert [p["target_poisoned"] for p in places] == [True, True, False, False]
    assert state.phase == "initial_pour"
    state.apply(state.sample_chance(random.Random(0)))
    assert state.phase == "deal_targets" and state.targets == [None] * 4


def test_targets_looked_at_from_the_host_clockwise_and_shown_face_up():
    """ "Starting with the Host and proceeding clockwise, each player looks at their Target card,
    then places it face up in front of their screen so that it is easily visible to all
    players." """
    houses = list(HOUSE_IDS[:4])
    state = new(players=4, host=2, **PLAIN)
    state.apply({"type": "initial_pour", "tokens": ["antidote", "poison", "poison", "wine"]})
    # Places 2 and 0 hold their own House: the Host (2) looks first, then 3, 0, 1.
    dealt = [houses[0], houses[3], houses[2], houses[1]]
    events = state.apply({"type": "deal_targets", "targets": dealt})
    swaps = [(e["place"], e["with"]) for e in events if e["event"] == "target_swapped"]
    assert swaps == [(2, 3), (0, 1)]  # the Host's own card goes first
    assert state.targets == [houses[3], houses[0], houses[1], houses[2]]
    assert all(state.targets[i] != houses[i] for i in range(4))
    for viewer in viewers(state):
        assert [p["target"] for p in state.view(viewer)["places"]] == state.targets


# -- Main Course -------------------------------------------------------------------------------


def test_rounds_of_turns_until_a_toast():
    """ "Each of the 3 Courses is made up of several rounds of actions, performed by the players
    in turn." "A Course ends when one of the players Calls a Toast." "Starting with the player to
    the Host's left, each player in turn may perform up to two actions from the following
    list" """
    state = start(4, host=2)
    order = []
    for _ in range(12):  # three rounds of passes: the Course goes on
        order.append(state.to_move())
        act(state, "pass")
    assert order == [3, 0, 1, 2] * 3
    assert state.course == 1 and state.stage == "turns"
    kinds = {a["type"] for a in state.legal_actions()}
    assert kinds == {"pour", "peek", "rotate", "swap", "pass"}
    caller = call_toast(state)
    assert state.stage == "toast" and state.course == 1
    finish_toast(state)
    assert state.course == 2 and state.host == caller


def test_rotate_clockwise_or_widdershins():
    """ "Move all of the Goblets one place in the same direction, clockwise or widdershins
    (that's to say, left or right)." """
    state = start(4)
    seat = state.to_move()
    rotations = [a for a in state.legal_actions() if a["type"] == "rotate"]
    assert sorted(a["direction"] for a in rotations) == ["clockwise", "widdershins"]

    def rings():
        return [p["ring"] for p in state.view(PUBLIC)["places"]]

    before = rings()
    act(state, "rotate", direction="clockwise")
    assert rings() == [before[-1], *before[:-1]]
    act(state, "rotate", direction="widdershins")
    assert rings() == before
    with pytest.raises(MalformedInput) as error:
        act(state, "rotate", direction="up")
    assert error.value.field == "direction"
    assert state.to_move() != seat  # two actions taken, the next player's turn


def test_toast_ends_the_regular_turns_at_once():
    """ "Call the Toast!" "The Course ends immediately: proceed to The Toast (see next page)."
    "When the Toast is called, the regular turns end and a special "Toast Phase" begins." """
    state = start(4)
    caller = call_toast(state)
    assert state.stage == "toast"
    kinds = [step.kind for step in state.steps]
    assert kinds == ["final"] * 4  # no regular turn is left, not even the caller's 2nd action
    assert state.steps[-1].seat == caller
    assert all(a["type"] != "toast" for a in state.legal_actions())
    passes(state, 4)
    assert [step.kind for step in state.steps] == ["reveal"]


def test_before_drinking_after_every_final_action():
    """ "Once the final actions have been performed, starting with the player to the left of the
    Toast Caller and going clockwise, each player that has a Character Ability which can be used
    "Before Drinking" (i.e., before revealing the contents of Your Goblet) may use their
    Abilities." """
    jugglers = [
        {"name": f"Juggler {i}", "timing": "before_drinking", "effect": "swap_any"}
        for i in range(4)
    ]
    state = setup(new(players=4, characters=jugglers))
    caller = call_toast(state)
    left = (caller + 1) % 4
    for offset in range(4):  # the final actions first, with no ability asked
        assert state.steps[0].kind == "final"
        assert state.to_move() == (left + offset) % 4
        assert all(a["type"] != "ability" for a in state.legal_actions())
        act(state, "pass")
    order = []
    while state.steps[0].kind == "ability":
        order.append(state.to_move())
        assert not state.results  # before revealing
        act(state, "decline")
    assert order == [(left + i) % 4 for i in range(4)]
    assert state.steps[0].kind == "reveal"


# -- The Toast ---------------------------------------------------------------------------------


def test_most_wine_bonus_survived_or_not_and_never_on_a_tie():
    """ "1 VP | if you have the most Wine tokens in Your Goblet (no matter if you survived or not;
    if there's a tie, no one receives this bonus VP)" """
    seats = ["a", "b", "c", "d"]
    targets = {"a": "b", "b": "c", "c": "d", "d": "a"}
    goblets = {"a": {"wine": 4, "poison": 1}, "b": {"wine": 2}, "c": {"wine": 3}, "d": {}}
    scores = score_toast(seats, targets, goblets)
    assert scores["a"].poisoned and scores["a"].most_wine
    assert [scores[s].most_wine for s in seats] == [True, False, False, False]
    assert scores["a"].vp == 1  # poisoned, Target survived: only the Most Wine VP
    tied = score_toast(seats, targets, {**goblets, "c": {"wine": 4}})
    assert not any(score.most_wine for score in tied.values())
    assert tied["a"].vp == 0 and tied["c"].vp == 1  # c survived, its Target d survived


def test_the_course_ends_and_the_next_repeats_the_appetizers():
    """ "After the points have been awarded, the current Course ends." and "start the next Course
    by repeating the steps described in Appetizers, page 3." """
    state = start(4)
    act(state, "rotate", direction="clockwise")  # the Goblets leave their Houses
    caller = play_course(state)
    assert state.results and state.results[0]["course"] == 1
    assert state.course == 2 and state.phase == "initial_pour"
    assert all(screen == SUPPLY for screen in state.screens)  # 3 Wine, 2 Poison, 2 Antidote
    assert not any(state.goblets)
    assert [state.ring_at(i) for i in range(4)] == list(HOUSE_IDS[:4])  # back to their Houses
    assert state.host == caller and state.targets == [None] * 4
    setup(state)
    assert state.to_move() == (caller + 1) % 4  # the new Host's left


# -- Russian Goblette --------------------------------------------------------------------------


def russian(players=2, host=1, pour=("wine", "wine", "wine", "poison", "poison", "antidote")):
    """A Russian Goblette game after the initial pour (row positions 0-5)."""
    state = new_russian_state({"players": players, "host": host})
    state.apply({"type": "initial_pour", "tokens": list(pour)})
    return state


def test_russian_six_goblets_in_a_row_out_of_sight():
    """ "Place all 6 Goblets in a row, in the middle of the table, at Arm's Length from all
    players." """
    for players in (2, 3):
        state = russian(players)
        for viewer in viewers(state):
            goblets = state.view(viewer)["goblets"]
            assert [g["place"] for g in goblets] == list(range(6))
            assert all(g["revealed"] is None for g in goblets)  # nobody sees inside
    # A row, not a circle: nothing moves all the Goblets round; a Swap may pick the two ends.
    swaps = [a["places"] for a in state.legal_actions() if a["type"] == "swap"]
    assert [0, 5] in swaps and len(swaps) == 15


def test_russian_actions_like_normal_but_rotate_and_swap():
    """ "All actions work like in a normal game, except for ROTATE (you can't Rotate in a 2-3
    player game) and SWAP (when you Swap, you can swap the position of any two Goblets: no player
    has "Their Goblet")." """
    state = russian()
    assert {a["type"] for a in state.legal_actions()} == {"pour", "peek", "swap", "pass"}
    with pytest.raises(IllegalAction):
        state.apply({"type": "rotate", "seat": 0, "direction": "clockwise"})
    state.apply({"type": "swap", "seat": 0, "places": [3, 5]})  # neither is "Their Goblet"
    state.apply({"type": "peek", "seat": 1, "place": 3})
    assert state.view(Viewer.seat(1))["peeks"][-1]["contents"] == {"antidote": 1}
    state.apply({"type": "pour", "seat": 0, "token": "poison", "place": 0})  # like normal
    assert state.view(Viewer.seat(0))["screen"]["poison"] == 1


def test_russian_drinking_until_every_goblet_is_chosen():
    """ "The next player then chooses a Goblet, and so on, until there is only one survivor (who
    wins the round), or until all of the Goblets have been chosen." """
    state = russian()  # Host 1: seat 0 starts; Poison at 3 and 4, Antidote at 5
    for action in (
        {"type": "pour", "seat": 0, "token": "wine", "place": 1},
        {"type": "pour", "seat": 1, "token": "antidote", "place": 3},
        {"type": "pour", "seat": 0, "token": "wine", "place": 1},
        {"type": "pour", "seat": 1, "token": "antidote", "place": 4},
        {"type": "pour", "seat": 0, "token": "wine", "place": 1},
        {"type": "pass", "seat": 1},
        {"type": "toast", "seat": 0},
        {"type": "pass", "seat": 1},
        {"type": "pass", "seat": 0},
    ):
        state.apply(action)
    assert state.phase == "drinking" and state.to_move() == 1
    drinkers = []
    for goblet in (1, 0, 3, 2, 4, 5):  # every Goblet is safe now: nobody is eliminated
        assert state.phase == "drinking"
        drinkers.append(state.to_move())
        events = state.apply({"type": "drink", "seat": state.to_move(), "place": goblet})
    assert drinkers == [1, 0, 1, 0, 1, 0]
    over = next(e for e in events if e["event"] == "course_over")
    assert over["survivors"] == [0, 1]
    assert over["wine"] == [2, 4] and over["winners"] == [1]  # most Wine kept wins
    assert state.course == 2 and state.vp == [0, 1]


# -- Winetasters -------------------------------------------------------------------------------


def test_pairs_take_their_turn_together_the_extra_player_two_actions():
    """ "Each pair takes their turn together." "If the Noble decides not to, the pair plays as
    normal (the Winetaster first, then the Noble)." and "The "extra" player, if any, gets to
    perform 2 actions, as usual." """
    state = start(7)  # places (0, 1), (2, 3), (4, 5) and the extra player 6; Host 0
    order = []
    for _ in range(10):
        step = state.steps[0]
        order.append((state.to_move(), step.kind, step.limit))
        if step.kind == "toast_option":
            assert state.legal_actions() == [{"type": "defer", "seat": state.to_move()}]
            act(state, "defer")
        else:
            act(state, "rotate", direction="clockwise")
    assert order == [
        (3, "toast_option", 1),
        (2, "turn", 1),
        (3, "turn", 1),
        (5, "toast_option", 1),
        (4, "turn", 1),
        (5, "turn", 1),
        (6, "turn", 2),
        (6, "turn", 2),
        (1, "toast_option", 1),
        (0, "turn", 1),
    ]


def test_extra_player_one_final_action_no_free_peek():
    """ "The "extra" player, if any, still gets to perform 1 final action only, since they don't
    have the risk of having a Traitor on their team." """
    state = start(7)
    caller = call_toast(state)
    steps = {(s.seat, s.kind): s.limit for s in state.steps}
    assert steps[(6, "final")] == 1 and (6, "free_peek") not in steps
    assert any(kind == "free_peek" for _, kind in steps)
    while state.to_move() != 6:
        act(state, "pass")
    act(state, "peek")
    assert caller != 6
    assert all(s.seat != 6 for s in state.steps)  # one final action, and it is done


def test_loyal_helps_the_noble_survive_traitor_poisons_them():
    """ "If they are Loyal, they will have to help their Noble Survive." "If they are a Traitor,
    they will have to try to poison their own Noble." "During the scoring phase, a Loyal
    Winetaster will get the same number of VPs as their Noble." """
    # Poison stands at places 1 and 2; the Noble's card-holders per place:
    state = setup(new(players=8, **PLAIN), cards=["loyal", "traitor", "loyal", "traitor"])
    play_course(state)
    result = state.results[0]
    gained = result["vp"]
    poisoned = [p["poisoned"] for p in result["places"]]
    assert poisoned == [False, True, True, False]
    for place, card in zip(result["places"], ["loyal", "traitor", "loyal", "traitor"], strict=True):
        taster, noble = place["seats"]
        if card == "loyal":
            assert gained[taster] == gained[noble]
        else:
            assert gained[taster] == (3 if place["poisoned"] else 0)
    assert gained[0] == gained[1] >= 1  # the Loyal one's Noble survived: so did their VP
    assert gained[2] == 3  # the Traitor's Noble was poisoned


def test_character_cards_flip_with_the_roles():
    """ "Flip your Character cards face up or down, accordingly." """
    state = setup(new(players=8))
    assert [c["face_up"] for c in state.view(PUBLIC)["characters"]] == [False, True] * 4
    play_course(state)
    setup(state)
    assert state.course == 2
    faces = [c["face_up"] for c in state.view(PUBLIC)["characters"]]
    assert faces == [True, False] * 4  # last Course's Nobles are now Winetasters
    assert state.active_card(1) is None and state.active_card(2) is not None


def test_the_extra_player_moves_and_the_appetizers_are_modified():
    """ "With an odd number of players, the "extra" player will play as the Noble with the player
    to their right, while the player to their left will be the new "extra" player." "Start a new
    Course by following the modified Appetizers procedure." """
    state = start(7)
    assert state.places[-1].seats == (6,)
    play_course(state)
    phases = []
    while state.to_move() is CHANCE:
        phases.append(state.phase)
        state.apply(state.sample_chance(random.Random(len(phases))))
    assert phases == ["initial_pour", "deal_winetaster_cards", "deal_targets"]
    pair = next(p for p in state.places if p.noble == 6)
    assert pair.winetaster == 5  # the player to their right
    assert state.places[-1].seats == (0,)  # the player to their left is the new extra
    tasters = [p.winetaster for p in state.places if p.winetaster is not None]
    assert all(state.wt_cards[seat] in ("loyal", "traitor") for seat in tasters)
    assert all(screen == SUPPLY for screen in state.screens)


def test_winetasters_keep_their_vp_in_the_open():
    """ "You don't need to keep your VPs behind the screen." "Each player has to make sure to keep
    their own VPs in front of themselves." """
    state = start(8)
    assert state.opts.hidden_vp is False
    call_toast(state)
    events = finish_toast(state)
    scored = [e for e in events if e["event"] == "scored"]
    assert len(scored) == 1 and "to" not in scored[0]  # public, one VP per seat
    assert scored[0]["vp"] == state.results[0]["vp"]
    for viewer in viewers(state):
        assert state.view(viewer)["vp"] == state.vp


# -- Legacy ------------------------------------------------------------------------------------


@pytest.mark.parametrize("courses", [1, 3])
def test_legacy_draws_only_when_a_next_course_follows(courses):
    """Legacy: "If you are poisoned, discard your Character card and draw a new one for the next
    Course." -- after the last Course there is no next Course, so nobody draws (engine bug found
    by this audit: a Legacy draw was asked for after the last Course)."""
    state = setup(new(players=4, legacy=True, courses=courses))
    for course in range(1, courses + 1):
        before = list(state.characters)
        play_course(state)
        poisoned = [p["seats"][0] for p in state.results[-1]["places"] if p["poisoned"]]
        assert poisoned
        if course < courses:
            assert state.phase == "legacy_draw"
            state.apply(state.sample_chance(random.Random(course)))
            setup(state)
        else:
            assert state.phase in ("over", "shootout") and state.legacy_pending == []
            assert state.characters == before
