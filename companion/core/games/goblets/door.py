"""The engine's door: an action's JSON read once into its frozen value (:mod:`action_values`).

:func:`parse` checks the whole shape of an action -- an object with a known type, each field's
value: a seat of the table, a place, a token kind, a card of the deck, a list of one name per
place -- and raises MalformedInput naming the field (the same fields and messages the rules have
always given, docs/goblets.md). What it returns, the rules' chapters read as typed fields.

The shape comes before the phase: a badly formed action is MalformedInput in any phase, the
chance actions' too, and only a well formed one is then refused for coming at the wrong time.
Three checks depend on more than the table's options, so they stay with the rules: whether a
sensed initial pour of other tokens could have come from the pool (:mod:`setup`), which seats
a Legacy draw is due for (:func:`setup.legacy_draws`), and a shoot-out's Goblets, which exist
only once it started: its actions are read with its Goblets (:func:`parse_shootout`) in the
``shootout`` phase (and after it), and are an unknown type before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.checks import is_whole, whole, within
from companion.core.errors import MalformedInput
from companion.core.game import Mode
from companion.core.games.goblets.action_values import (
    CHANCE,
    DIRECTIONS,
    PLAYER_ACTIONS,
    UNSEEN,
    WRONG_INITIAL_POUR,
    Ability,
    DealCharacters,
    DealTargets,
    DealWinetasterCards,
    Decline,
    Defer,
    Draw,
    GobletsAction,
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
    initial_pour_tokens,
)
from companion.core.games.goblets.model import GobletsModel, Phase
from companion.core.games.goblets.tokens import Token, check_contents, is_kind

TYPES = {kind.TYPE: kind for kind in (*CHANCE, *PLAYER_ACTIONS)}
SHOOTOUT_POUR, SHOOTOUT_CHOOSE = ShootoutPour.TYPE, ShootoutChoose.TYPE


def parse(state: GobletsModel, action: Any, mode: Mode) -> GobletsAction:
    """The action ``action`` (JSON) describes at ``state``'s table in ``mode``; any bad shape
    raises MalformedInput naming the field (module docstring)."""
    if not isinstance(action, Mapping):
        raise MalformedInput(f"must be an object, got {action!r}", field="action")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise MalformedInput(f"must be a string, got {kind!r}", field="type")
    if kind in (c.TYPE for c in CHANCE):
        return _chance(state, action, mode)
    # The shoot-out's Goblets exist once it started: its actions are read with them then (after
    # it too, so a late choice is refused for the game being over, not as an unknown type).
    ended = state.shootout is not None and kind in (SHOOTOUT_POUR, SHOOTOUT_CHOOSE)
    if state.phase == Phase.SHOOTOUT or ended:
        return parse_shootout(action, state.shootout.goblet_ids)
    if kind not in TYPES:
        known = ", ".join(TYPES)
        raise MalformedInput(f"unknown action type {kind!r} (known: {known})", field="type")
    n = len(state.places)
    if kind == "pour" and mode is Mode.RECORDING and action.get("seat") is None:
        seat = None  # a sensed pour whose pouring seat nobody saw
    else:
        seat = _index(action, "seat", state.opts.players)
    if kind == "pour":
        place = _index(action, "place", n)
        if not is_kind(action.get("token")):
            raise MalformedInput(f"unknown token kind {action.get('token')!r}", field="token")
        return Pour(seat, place, str(action["token"]))
    assert seat is not None
    if kind == "rotate":
        if action.get("direction") not in DIRECTIONS:
            raise MalformedInput(
                f"must be clockwise or widdershins, got {action.get('direction')!r}",
                field="direction",
            )
        return Rotate(seat, str(action["direction"]))
    if kind == "swap":
        other = _index(action, "with", n)
        own = None if action.get("from") is None else _index(action, "from", n)
        return Swap(seat, other, own)
    if kind == "toast":
        return Toast(seat, _pours(action.get("pours"), mode))
    if kind == "reveal":
        return Reveal(seat, _sensed(action.get("goblets"), mode, n))
    if kind == "ability":
        return _ability(state, action, seat)
    return {"peek": Peek, "pass": Pass, "decline": Decline, "defer": Defer}[kind](seat)


def _index(action: Mapping[str, Any], key: str, high: int) -> int:
    """``action[key]``, a whole number from 0 to ``high - 1`` (a seat, a place)."""
    return within(action.get(key), key, 0, high - 1)


def _pours(pours: Any, mode: Mode) -> str | None:
    """A Toast's ``pours``: absent, or (recording) ``"unseen"``."""
    # Sensed play that sees no pour (the camera): the caller's screen is unknown to the
    # engine. Only a sensor says so; a player's own Toast is checked on what the engine knows.
    if pours is not None and (mode is Mode.ENFORCING or pours != UNSEEN):
        raise MalformedInput(f"must be absent or {UNSEEN!r} when recording", field="pours")
    return pours


def _sensed(sensed: Any, mode: Mode, n: int) -> tuple[dict[str, int], ...] | None:
    """A reveal's ``goblets``: absent, or (recording) what each place's Goblet holds."""
    if sensed is None:
        return None
    # What the Goblets hold is read from them at the reveal (the sensors, or the Host's count
    # of the revealed tokens): never told to the engine in play by hand, and never compared
    # with the contents, so the answer cannot tell a right guess from a wrong one.
    if mode is Mode.ENFORCING:
        raise MalformedInput(
            "a reveal says no contents: the Goblets are read when they are revealed",
            field="goblets",
        )
    if not isinstance(sensed, list) or len(sensed) != n:
        raise MalformedInput(f"must be a list of {n} goblet contents", field="goblets")
    for index, contents in enumerate(sensed):
        check_contents(contents, f"goblets[{index}]")
    return tuple(dict(contents) for contents in sensed)


def _pair(action: Mapping[str, Any], high: int) -> tuple[int, int]:
    pair = action.get("places")
    if (
        not isinstance(pair, list)
        or len(pair) != 2
        or any(not is_whole(p) or not 0 <= p < high for p in pair)
        or pair[0] == pair[1]
    ):
        raise MalformedInput(f"must be two different places, got {pair!r}", field="places")
    return pair[0], pair[1]


def _ability(state: GobletsModel, action: Mapping[str, Any], seat: int) -> Ability:
    """An ``ability``: a card of the deck and its effect's parameters (:mod:`abilities`)."""
    name = action.get("card")
    card = next((c for c in state.opts.characters if c.name == name), None)
    if card is None:
        raise MalformedInput(f"no Character card named {name!r}", field="card")
    n = len(state.places)
    if card.effect == "peek_any":
        place = whole(
            action.get("place"), "place", f"must be a place from 0 to {n - 1}", low=0, high=n - 1
        )
        return Ability(seat, card, place=place)
    if card.effect == "swap_any":
        return Ability(seat, card, places=_pair(action, n))
    if card.effect != "swap_and_exchange_coasters":
        return Ability(seat, card)
    places = _pair(action, n)
    for key in ("swap", "coasters"):
        if not isinstance(action.get(key), bool):
            raise MalformedInput(f"must be true or false, got {action.get(key)!r}", field=key)
    if not action["swap"] and not action["coasters"]:
        raise MalformedInput("Swap and/or exchange the Coasters: one must be true", field="swap")
    return Ability(seat, card, places=places, swap=action["swap"], coasters=action["coasters"])


# -- chance ------------------------------------------------------------------------------------


def _names(action: Mapping[str, Any], key: str, length: int) -> tuple[Any, ...]:
    """``action[key]`` as a list of ``length`` strings (or nulls), else MalformedInput."""
    value = action.get(key)
    if (
        not isinstance(value, list)
        or len(value) != length
        or not all(item is None or isinstance(item, str) for item in value)
    ):
        raise MalformedInput(f"must be a list of {length} names, got {value!r}", field=key)
    return tuple(value)


def _chance(state: GobletsModel, action: Mapping[str, Any], mode: Mode) -> GobletsAction:
    kind, opts = action["type"], state.opts
    if kind == "deal_characters":
        names = _names(action, "characters", opts.players)
        known = [card.name for card in opts.characters]
        if sorted(names, key=str) != sorted(set(names), key=str) or any(
            n not in known for n in names
        ):
            raise MalformedInput("must be distinct cards of the deck", field="characters")
        return DealCharacters(names)
    if kind == "initial_pour":
        tokens = _names(action, "tokens", opts.places)
        # Sensed play may record another mix (the Host poured other tokens): whether the pool
        # held them is the rules' to say (setup.apply_chance); they must be tokens all the same.
        if sorted(map(str, tokens)) != sorted(initial_pour_tokens(opts.places)) and (
            mode is not Mode.RECORDING or not all(is_kind(token) for token in tokens)
        ):
            raise MalformedInput(WRONG_INITIAL_POUR, field="tokens")
        return InitialPour(tokens)
    if kind == "deal_winetaster_cards":
        return _winetaster_cards(state, action)
    if kind == "deal_targets":
        dealt = _names(action, "targets", opts.places)
        if sorted(map(str, dealt)) != sorted(opts.houses):
            raise MalformedInput(
                "must deal each Target card of the Houses in play", field="targets"
            )
        return DealTargets(dealt)
    draws = action.get("draws")
    if not isinstance(draws, list):
        raise MalformedInput(f"must be a list, got {draws!r}", field="draws")
    seats = [d.get("seat") if isinstance(d, Mapping) else None for d in draws]
    names = [d.get("character") if isinstance(d, Mapping) else None for d in draws]
    if not all(isinstance(name, str) for name in names):
        raise MalformedInput("each draw needs a card name", field="draws")
    return LegacyDraw(
        tuple(Draw(s if is_whole(s) else None, n) for s, n in zip(seats, names, strict=True))
    )


def _winetaster_cards(state: GobletsModel, action: Mapping[str, Any]) -> DealWinetasterCards:
    """A Loyal or Traitor card per pair of this Course's layout, no more than the deck holds."""
    cards = _names(action, "cards", len(state.places))
    for index, (place, card) in enumerate(zip(state.places, cards, strict=True)):
        wanted = place.winetaster is not None
        if (card in ("loyal", "traitor")) != wanted or (not wanted and card is not None):
            raise MalformedInput(
                "a Loyal or Traitor card per pair, null else", field=f"cards[{index}]"
            )
    opts = state.opts
    if cards.count("loyal") > opts.loyal or cards.count("traitor") > opts.traitor:
        raise MalformedInput("more cards than the Winetaster deck holds", field="cards")
    return DealWinetasterCards(cards)


# -- the shoot-out -----------------------------------------------------------------------------


def parse_shootout(action: Any, goblet_ids: list[str]) -> ShootoutPour | ShootoutChoose:
    """A shoot-out action among the Goblets ``goblet_ids``; a bad shape is MalformedInput."""
    if not isinstance(action, Mapping):
        raise MalformedInput("an action must be an object", field="action")
    kind = action.get("type")
    if kind == SHOOTOUT_POUR:
        goblets = action.get("goblets")
        if not isinstance(goblets, Mapping):
            raise MalformedInput("must map each goblet id to a token", field="action.goblets")
        if set(goblets) != set(goblet_ids):
            raise MalformedInput(
                f"must name exactly the goblets {goblet_ids}", field="action.goblets"
            )
        for g, token in goblets.items():
            if token not in (Token.WINE.value, Token.POISON.value):
                raise MalformedInput(f"{token!r} is not 'wine' or 'poison'", field=f"goblets.{g}")
        return ShootoutPour(tuple((str(g), str(token)) for g, token in goblets.items()))
    if kind == SHOOTOUT_CHOOSE:
        seat, goblet = action.get("seat"), action.get("goblet")
        if not is_whole(seat):
            raise MalformedInput("must be a seat number", field="action.seat")
        if not isinstance(goblet, str):
            raise MalformedInput("must be a goblet id", field="action.goblet")
        return ShootoutChoose(seat, goblet)
    raise MalformedInput(f"unknown shoot-out action type {kind!r}", field="action.type")
