"""Appetizers (Course Setup) and every chance event of a Course, a rules chapter on the model.

Appetizers: "Each player should take the Goblet with the Coaster ring that matches their House and
place it in front of them. Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool
and puts them behind their screen. Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens so
that the total number of tokens is equal to the number of Goblets [...]. Then randomly "pour" 1
token into each of the Goblets." Every random event (Character deal, initial pour, Winetaster
cards, Target deal, Legacy draws) is a chance action, so the journal replays. What comes after a
chance event that ends a part of the Course (the first turns, the next Course) is the engine's
phase table (:mod:`engine`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import Action, Event, Mode
from companion.core.games.goblets import rules
from companion.core.games.goblets.action_values import (
    WRONG_INITIAL_POUR,
    DealCharacters,
    DealTargets,
    DealWinetasterCards,
    Draw,
    GobletsAction,
    InitialPour,
    LegacyDraw,
    initial_pour_tokens,
)
from companion.core.games.goblets.model import (
    GobletsModel,
    Phase,
    Stage,
    empty_into,
    move,
)
from companion.core.games.goblets.tokens import COURSE_SUPPLY
from companion.core.games.goblets.winetasters import layout

# -- Course setup ----------------------------------------------------------------------------


def start_course(state: GobletsModel) -> None:
    """Appetizers up to the initial pour (a chance action)."""
    opts = state.opts
    state.course += 1
    state.places = layout(opts.players, opts.is_winetasters, state.course - 1)
    empty_into(state.discarded, state.pool)  # last Course's tokens go back to the common pool
    if opts.raise_your_memory:
        state.goblet_at = list(range(opts.places))
    else:
        # "Each player should take the Goblet with the Coaster ring that matches their House"
        state.goblet_at = [state.ring_of.index(house) for house in opts.houses]
    for screen in state.screens:
        for kind, count in COURSE_SUPPLY.items():
            move(state.pool, screen, str(kind), count)
    state.targets = [None] * opts.places
    state.wt_cards = [None] * opts.players
    state.used_course = []
    state.toast_caller = None
    state.steps = []
    state.phase = Phase.INITIAL_POUR
    state.stage = Stage.SETUP


def sample_chance(state: GobletsModel, rng: random.Random) -> Action:
    """Draw the outcome of the chance phase due now."""
    opts = state.opts
    drawn: GobletsAction
    if state.phase == Phase.DEAL_CHARACTERS:
        names = rng.sample([card.name for card in opts.characters], opts.players)
        drawn = DealCharacters(tuple(names))
    elif state.phase == Phase.INITIAL_POUR:
        tokens = initial_pour_tokens(opts.places)
        rng.shuffle(tokens)
        drawn = InitialPour(tuple(tokens))
    elif state.phase == Phase.DEAL_WINETASTER_CARDS:
        deck = ["loyal"] * opts.loyal + ["traitor"] * opts.traitor
        pairs = [i for i, place in enumerate(state.places) if place.winetaster is not None]
        cards: list[str | None] = [None] * len(state.places)
        for index, card in zip(pairs, rng.sample(deck, len(pairs)), strict=True):
            cards[index] = card
        drawn = DealWinetasterCards(tuple(cards))
    elif state.phase == Phase.DEAL_TARGETS:
        drawn = DealTargets(tuple(rng.sample(list(opts.houses), opts.places)))
    else:
        draws = legacy_draws(state, lambda seat, deck: rng.choice(deck))
        drawn = LegacyDraw(tuple(Draw(d["seat"], d["character"]) for d in draws))
    return drawn.wire()


def legacy_deck(state: GobletsModel) -> list[str]:
    """Cards the first Legacy draw may give: the undealt deck, or the discards once it is out."""
    held = set(state.characters)
    deck = [
        c.name
        for c in state.opts.characters
        if c.name not in held and c.name not in state.character_discards
    ]
    return deck or [name for name in state.character_discards if name not in held]


def legacy_draws(
    state: GobletsModel, pick: Callable[[int, list[str]], str]
) -> list[dict[str, Any]]:
    """The Legacy draws of the poisoned players, one after the other, ``pick`` choosing each card.

    "If you are poisoned, discard your Character card and draw a new one for the next Course."
    Each poisoned player (seat order) draws from the undealt deck; the moment it is out, the
    discard pile -- the cards discarded so far, this very draw's earlier players' included -- is
    shuffled into a new deck and the draws go on from it (docs/rules-notes.md, "Legacy"). "a new
    one": a player's own card joins the pile after their draw, so nobody draws back the card they
    discard. Nothing left anywhere (every card held): the remaining players keep their cards.

    ``pick(seat, deck)`` returns the card ``seat`` draws, one of ``deck`` (a chance draw, or the
    journaled action being checked). Returns ``[{"seat", "character", "old", "shuffled",
    "discards"}]``: ``shuffled`` says the discard pile became the deck just before this draw, and
    ``discards`` is the pile after it.
    """
    held = set(state.characters)
    discards = list(state.character_discards)
    deck = [c.name for c in state.opts.characters if c.name not in held and c.name not in discards]
    draws: list[dict[str, Any]] = []
    for seat in state.legacy_pending:
        shuffled = not deck and bool(discards)
        if shuffled:
            deck, discards = sorted(discards), []
        if not deck:
            break
        name = pick(seat, list(deck))
        deck.remove(name)
        old = state.characters[seat]
        if old is not None:
            discards.append(old)
        draws.append(
            {
                "seat": seat,
                "character": name,
                "old": old,
                "shuffled": shuffled,
                "discards": list(discards),
            }
        )
    return draws


def apply_chance(state: GobletsModel, action: GobletsAction, mode: Mode) -> list[Event]:
    """Apply a chance outcome (a sensed initial pour may break the rule: see below)."""
    kind = action.TYPE
    if state.phase != kind:
        raise IllegalAction(f"{kind} is not due now (phase {state.phase})", rule=rules.CHANCE)
    opts = state.opts
    if isinstance(action, DealCharacters):
        state.characters = list(action.characters)
        start_course(state)
        return [{"event": "characters_dealt", "characters": list(action.characters)}]
    if isinstance(action, InitialPour):
        tokens = action.tokens
        events: list[Event] = [{"event": "initial_pour", "goblets": len(tokens)}]
        if sorted(tokens) != sorted(initial_pour_tokens(opts.places)):
            needed = {kind: tokens.count(kind) for kind in set(tokens)}
            if not all(state.pool.get(kind, 0) >= n for kind, n in needed.items()):
                raise MalformedInput(WRONG_INITIAL_POUR, field="tokens")
            # Sensed play (the door let only a recording through): the Host poured other
            # tokens. Reality wins; say which rule broke.
            warning = {
                "event": "rule_warning",
                "seat": None,
                "message": "the initial pour was not 1 Antidote, 2 Poison and Wine",
                "rule": rules.INITIAL_POUR,
            }
            state.warnings.append(warning)
            events.append(warning)
        for place, token in enumerate(tokens):
            move(state.pool, state.goblets[state.goblet_at[place]], token)
        state.phase = Phase.DEAL_WINETASTER_CARDS if opts.is_winetasters else Phase.DEAL_TARGETS
        return events
    if isinstance(action, DealWinetasterCards):
        return _deal_winetaster_cards(state, action)
    if isinstance(action, DealTargets):
        return _deal_targets(state, action)
    assert isinstance(action, LegacyDraw)
    return _legacy_draw(state, action)


def _deal_winetaster_cards(state: GobletsModel, action: DealWinetasterCards) -> list[Event]:
    opts, cards = state.opts, action.cards
    state.wt_cards = [None] * opts.players
    for place, card in zip(state.places, cards, strict=True):
        if card is not None:
            state.wt_cards[place.winetaster] = card
    state.phase = Phase.DEAL_TARGETS
    return [{"event": "winetaster_cards_dealt"}]


def _deal_targets(state: GobletsModel, action: DealTargets) -> list[Event]:
    opts = state.opts
    targets = list(action.targets)
    events: list[Event] = []
    host_place = state.place_index(state.host)
    n = len(targets)
    # "Starting with the Host and proceeding clockwise, each player looks at their Target card
    # [...] if your Target card shows your own House, swap your Target card with the player to
    # your left." A swap gives the left neighbour a card that is not theirs; the loop goes round
    # until nobody holds their own House (see docs/rules-notes.md, "Target dealing").
    for _ in range(n):
        swapped = False
        for offset in range(n):
            place = (host_place + offset) % n
            if targets[place] == opts.houses[place]:
                left = (place + 1) % n
                targets[place], targets[left] = targets[left], targets[place]
                events.append({"event": "target_swapped", "place": place, "with": left})
                swapped = True
        if not swapped:
            break
    state.targets = targets
    events.insert(0, {"event": "targets_dealt", "targets": list(targets)})
    # "Starting with the Host and going clockwise, each player that has a Character Ability which
    # can be used "At the beginning of each Course" may choose to use their Abilities now."
    state.phase = Phase.PLAY
    state.stage = Stage.COURSE_START
    order = [(state.host + i) % opts.players for i in range(opts.players)]
    state.steps = state.ability_steps(order, "course_start")
    return events  # with no such ability, the engine starts the turns at once


def _legacy_draw(state: GobletsModel, action: LegacyDraw) -> list[Event]:
    seats = [draw.seat for draw in action.draws]
    given = iter(draw.character for draw in action.draws)
    refused: list[str] = []

    def check(seat: int, deck: list[str]) -> str:
        name = next(given, None)
        if name not in deck:  # too few draws, or a card not in the deck the draw comes from
            refused.append(str(name))
            return deck[0]
        return str(name)

    done = legacy_draws(state, check)
    expected = [d["seat"] for d in done]
    if refused or seats != expected:
        raise MalformedInput(f"must draw one new card for each of seats {expected}", field="draws")
    events: list[Event] = []
    for draw in done:
        if draw["shuffled"]:  # the deck ran out: the discard pile is shuffled into a new deck
            events.append(
                {"event": "character_discards_shuffled", "cards": len(state.character_discards)}
            )
            state.character_discards = []
        state.characters[draw["seat"]] = draw["character"]
        state.character_discards = list(draw["discards"])
        events.append(
            {"event": "character_drawn", "seat": draw["seat"], "character": draw["character"]}
        )
    state.legacy_pending = []
    # The Course was scored: back to it, and the engine goes on to the next Course (or the end).
    state.phase = Phase.PLAY
    return events
