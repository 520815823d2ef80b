"""Raise Your Goblets' door: each action read into a frozen value, each bad shape named (issue 16).

``door.parse`` reads an action's JSON into one of ``action_values``' frozen, slotted dataclasses
with the fields and messages the engine has always given; ``wire()`` gives the same JSON back,
so the journal does not change. Played games of each variant check the round trip on every
action offered or drawn.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from companion.core import registry
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import Mode
from companion.core.games.goblets import HOOK_DECK, door, rules
from companion.core.games.goblets.action_values import (
    Ability,
    DealCharacters,
    DealTargets,
    DealWinetasterCards,
    Decline,
    Defer,
    InitialPour,
    LegacyDraw,
    Pass,
    Peek,
    Pour,
    Reveal,
    Rotate,
    ShootoutChoose,
    ShootoutPour,
    Swap,
    Toast,
)
from companion.core.games.goblets.shootout import Shootout
from tests.goblets.engine_helpers import new, start
from tests.goblets.played import offers

ENF, REC = Mode.ENFORCING, Mode.RECORDING


def hooked():
    """A 4-player game with the hook deck, at its first deal."""
    return new(players=4, characters=HOOK_DECK)


@pytest.mark.parametrize(
    ("action", "mode", "field", "message"),
    [
        ([], ENF, "action", "must be an object, got []"),
        ({"seat": 1}, ENF, "type", "must be a string, got None"),
        ({"type": "dance", "seat": 1}, ENF, "type", None),
        ({"type": "peek"}, ENF, "seat", "must be an integer from 0 to 3, got None"),
        ({"type": "peek", "seat": True}, ENF, "seat", "must be an integer from 0 to 3, got True"),
        ({"type": "pass", "seat": 4}, ENF, "seat", None),
        ({"type": "pour", "seat": None, "place": 0, "token": "wine"}, ENF, "seat", None),
        ({"type": "pour", "seat": 1, "place": 4, "token": "wine"}, ENF, "place", None),
        ({"type": "pour", "seat": 1, "place": False, "token": "wine"}, REC, "place", None),
        ({"type": "pour", "seat": 1, "place": 0, "token": "milk"}, ENF, "token", None),
        ({"type": "rotate", "seat": 1, "direction": "left"}, ENF, "direction", None),
        (
            {"type": "rotate", "seat": 1, "direction": "counterclockwise"},
            ENF,
            "direction",
            "must be clockwise or widdershins, got 'counterclockwise'",
        ),
        ({"type": "swap", "seat": 1}, ENF, "with", None),
        ({"type": "swap", "seat": 1, "with": 2, "from": "0"}, REC, "from", None),
        ({"type": "toast", "seat": 1, "pours": "unseen"}, ENF, "pours", None),
        ({"type": "toast", "seat": 1, "pours": "many"}, REC, "pours", None),
        ({"type": "reveal", "seat": 1, "goblets": [{}] * 4}, ENF, "goblets", None),
        ({"type": "reveal", "seat": 1, "goblets": [{}] * 3}, REC, "goblets", None),
        (
            {"type": "reveal", "seat": 1, "goblets": [{}, {}, {"gold": 1}, {}]},
            REC,
            "goblets[2].gold",
            None,
        ),
    ],
)
def test_each_malformed_player_action_is_refused_naming_its_field(action, mode, field, message):
    state = start(4)
    with pytest.raises(MalformedInput) as error:
        door.parse(state, action, mode)
    assert error.value.field == field
    if message is not None:
        assert error.value.detail == message


@pytest.mark.parametrize(
    ("action", "field", "message"),
    [
        ({"card": "Nobody"}, "card", "no Character card named 'Nobody'"),
        ({"card": "Taster", "place": 4}, "place", "must be a place from 0 to 3"),
        ({"card": "Taster", "place": True}, "place", "must be a place from 0 to 3"),
        (
            {"card": "Juggler", "places": [1, 1]},
            "places",
            "must be two different places, got [1, 1]",
        ),
        ({"card": "Juggler", "places": [1, True]}, "places", None),
        ({"card": "Juggler", "places": (1, 2)}, "places", None),
        ({"card": "Averted Eyes", "places": [0, 1], "swap": 1, "coasters": False}, "swap", None),
        ({"card": "Averted Eyes", "places": [0, 1], "swap": True}, "coasters", None),
        (
            {"card": "Averted Eyes", "places": [0, 1], "swap": False, "coasters": False},
            "swap",
            "Swap and/or exchange the Coasters: one must be true",
        ),
    ],
)
def test_each_malformed_ability_is_refused_naming_its_field(action, field, message):
    state = hooked()
    with pytest.raises(MalformedInput) as error:
        door.parse(state, {"type": "ability", "seat": 0, **action}, ENF)
    assert error.value.field == field
    if message is not None:
        assert error.value.detail == message


@pytest.mark.parametrize(
    ("action", "mode", "field", "message"),
    [
        ({"type": "deal_characters", "characters": "all"}, ENF, "characters", None),
        (
            {"type": "deal_characters", "characters": ["Taster"] * 4},
            ENF,
            "characters",
            "must be distinct cards of the deck",
        ),
        ({"type": "initial_pour", "tokens": ["wine"] * 4}, ENF, "tokens", None),
        ({"type": "initial_pour", "tokens": ["wine", "milk", "wine", "wine"]}, REC, "tokens", None),
        (
            {"type": "initial_pour", "tokens": [1, 2, 3, 4]},
            REC,
            "tokens",
            "must be a list of 4 names, got [1, 2, 3, 4]",
        ),
        ({"type": "deal_targets", "targets": ["de_miceti"] * 4}, ENF, "targets", None),
        ({"type": "deal_winetaster_cards", "cards": [None] * 4}, ENF, "cards[0]", None),
        ({"type": "legacy_draw", "draws": {}}, ENF, "draws", "must be a list, got {}"),
        (
            {"type": "legacy_draw", "draws": [{"seat": 0}]},
            ENF,
            "draws",
            "each draw needs a card name",
        ),
    ],
)
def test_each_malformed_chance_action_is_refused_naming_its_field(action, mode, field, message):
    state = (
        new(players=4, characters=HOOK_DECK)
        if action["type"] != "deal_winetaster_cards"
        else new(players=8)
    )
    with pytest.raises(MalformedInput) as error:
        door.parse(state, action, mode)
    assert error.value.field == field
    if message is not None:
        assert error.value.detail == message


def test_a_recorded_initial_pour_of_other_tokens_passes_the_door_and_the_pool_decides():
    """Sensed play: the Host poured other tokens, reality wins (a warning); tokens the pool
    does not hold are refused with the same message as an enforced wrong pour."""
    state = new(players=4, characters=[])
    odd = {"type": "initial_pour", "tokens": ["wine"] * 4}
    assert door.parse(state, odd, REC) == InitialPour(("wine",) * 4)
    events = state.clone().apply(odd, REC)
    assert [e["event"] for e in events][:2] == ["initial_pour", "rule_warning"]
    ogres = {"type": "initial_pour", "tokens": ["ogre_poison"] * 4}
    with pytest.raises(MalformedInput) as error:
        state.apply(ogres, REC)
    assert (error.value.field, error.value.detail) == ("tokens", door.WRONG_INITIAL_POUR)


def test_a_legacy_draw_seat_that_is_no_whole_number_is_not_a_seat():
    """``True`` is not seat 1: the draw is not the one due (it was taken as seat 1 before)."""
    state = new(players=4)
    draw = door.parse(
        state, {"type": "legacy_draw", "draws": [{"seat": True, "character": "x"}]}, ENF
    )
    assert isinstance(draw, LegacyDraw) and draw.draws[0].seat is None


def test_the_shape_is_checked_before_the_phase():
    """A badly formed action is MalformedInput whatever the phase; a well formed one at the
    wrong time is IllegalAction (the chance actions' too: they were asked the phase first)."""
    state = start(4)
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "deal_targets", "targets": ["nobody"] * 4})
    assert error.value.field == "targets"
    with pytest.raises(IllegalAction):
        state.apply({"type": "deal_targets", "targets": list(state.opts.houses)})
    fresh = new(players=4, characters=[])
    assert fresh.phase == "initial_pour"
    with pytest.raises(MalformedInput) as error:
        fresh.apply({"type": "swap", "seat": 1, "with": 9})
    assert error.value.field == "with"
    with pytest.raises(IllegalAction):
        fresh.apply({"type": "swap", "seat": 1, "with": 2})


def test_the_shootout_reads_its_own_actions_only_while_it_runs():
    """A shoot-out's pour names its Goblets, which exist only while it runs: before it, its
    actions are an unknown type (as they always were), during it the shoot-out's door names the
    field."""
    state = start(4)
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "shootout_choose", "seat": 1, "goblet": "1"})
    assert error.value.field == "type"
    shootout = Shootout.start([0, 1], last_toast_caller=0, num_seats=4)
    assert door.parse_shootout(
        {"type": "shootout_choose", "seat": 1, "goblet": "2"}, ["1", "2"]
    ) == (ShootoutChoose(1, "2"))
    with pytest.raises(MalformedInput) as error:
        shootout.apply({"type": "shootout_choose", "seat": True, "goblet": "1"})
    assert error.value.field == "action.seat"


def test_a_choice_after_the_shootout_is_refused_for_the_game_being_over():
    """Once the shoot-out is over, a well formed choice is too late (IllegalAction), a badly
    formed one still named by the shoot-out's door."""
    rng = random.Random(12)
    state = registry.get("goblets").new_state({"players": 4, "characters": HOOK_DECK, "host": 2})
    for _ in offers(state, rng):
        pass
    assert state.shootout is not None and state.is_over()
    goblet = state.shootout.goblet_ids[0]
    with pytest.raises(IllegalAction) as late:
        state.apply({"type": "shootout_choose", "seat": 0, "goblet": goblet})
    assert late.value.rule == rules.GAME_OVER
    with pytest.raises(MalformedInput) as error:
        state.apply({"type": "shootout_choose", "seat": 0, "goblet": 7})
    assert error.value.field == "action.goblet"


def test_parsed_actions_are_frozen_slotted_values():
    state = start(4)
    values = [
        door.parse(state, {"type": "pour", "seat": 1, "place": 2, "token": "wine"}, ENF),
        door.parse(state, {"type": "swap", "seat": 1, "with": 2, "from": 1}, REC),
        door.parse(state, {"type": "reveal", "seat": 1, "goblets": [{}] * 4}, REC),
        door.parse(
            hooked(), {"type": "ability", "seat": 0, "card": "Juggler", "places": [0, 2]}, ENF
        ),
        door.parse(state, {"type": "legacy_draw", "draws": [{"seat": 1, "character": "x"}]}, ENF),
        door.parse_shootout(
            {"type": "shootout_pour", "goblets": {"1": "wine", "2": "poison"}}, ["1", "2"]
        ),
    ]
    assert values[0] == Pour(1, 2, "wine")
    unseen = {"type": "pour", "seat": None, "place": 0, "token": "wine"}
    assert door.parse(state, unseen, REC) == Pour(None, 0, "wine")
    assert Pour(None, 0, "wine").wire() == unseen
    assert values[1] == Swap(1, 2, 1) and values[1].wire() == {
        "type": "swap",
        "seat": 1,
        "with": 2,
        "from": 1,
    }
    assert values[3].places == (0, 2) and values[3].card.name == "Juggler"
    for value in values:
        assert not hasattr(value, "__dict__")
        name = type(value).__slots__[0]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)


PLAYED = [
    ({"players": 4, "characters": HOOK_DECK, "host": 2}, (0, 12)),
    ({"players": 5, "raise_your_memory": True, "legacy": True, "characters": HOOK_DECK}, (0, 3)),
    ({"players": 6, "legacy": True, "characters": HOOK_DECK, "token_rules": "plain"}, (0,)),
    ({"players": 9, "legacy": True, "courses": 2, "characters": HOOK_DECK}, (0, 3)),
]
"""Standard with Characters, Raise Your Memory, Legacy, Winetasters; the seeds were chosen so
that each ends in a shoot-out at least once (and the Legacy ones draw)."""


def _round_trips(state, action, seen):
    value = door.parse(state, action, ENF)
    seen.add(type(value))
    assert value.wire() == action
    assert door.parse(state, action, REC) == value
    again = json.loads(json.dumps(value.wire()))
    assert again == action and door.parse(state, again, ENF) == value


@pytest.mark.parametrize(
    ("options", "seeds"), PLAYED, ids=["characters", "memory", "legacy", "winetasters"]
)
def test_every_action_offered_or_drawn_in_played_games_round_trips(options, seeds):
    """parse(a).wire() == a for every action offered or drawn in whole seeded games, also
    after a JSON round trip (the journal's format is the wire's)."""
    seen: set[type] = set()
    for seed in seeds:
        rng = random.Random(seed)
        state = registry.get("goblets").new_state(options)
        for offered in offers(state, rng):
            for action in offered:
                _round_trips(state, action, seen)
    expected = {DealCharacters, InitialPour, DealTargets, Pour, Peek, Rotate, Swap, Toast, Pass}
    expected |= {Ability, Decline, Reveal, ShootoutPour, ShootoutChoose}
    if options["players"] > 6:
        expected |= {DealWinetasterCards, Defer}
    if options["players"] in (5, 6):
        expected.add(LegacyDraw)
    assert expected <= seen


def test_the_wire_is_todays_json_to_the_key_order():
    """The journal stores what the phones send back and what chance drew: the same text as
    before issue 16, keys in the same order (docs/goblets.md)."""
    state = start(4)
    texts = {json.dumps(action) for action in state.legal_actions()}
    for text in (
        '{"type": "pour", "seat": 1, "place": 3, "token": "wine"}',
        '{"type": "peek", "seat": 1}',
        '{"type": "rotate", "seat": 1, "direction": "widdershins"}',
        '{"type": "swap", "seat": 1, "with": 0}',
        '{"type": "pass", "seat": 1}',
    ):
        assert text in texts
    hooks = hooked()
    draw = hooks.sample_chance(random.Random(1))
    assert list(draw) == ["type", "characters"]
    juggler = Ability(0, hooks.opts.characters[3], places=(0, 2)).wire()
    assert json.dumps(juggler) == (
        '{"type": "ability", "seat": 0, "card": "Juggler", "places": [0, 2]}'
    )
    eyes = Ability(0, hooks.opts.characters[1], places=(1, 2), swap=True, coasters=False)
    assert list(eyes.wire()) == ["type", "seat", "card", "places", "swap", "coasters"]
    assert Toast(1).wire() == {"type": "toast", "seat": 1}
    assert Reveal(1).wire() == {"type": "reveal", "seat": 1}
    assert Swap(1, 2).wire() == {"type": "swap", "seat": 1, "with": 2}
