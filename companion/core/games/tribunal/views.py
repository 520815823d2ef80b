"""The courtroom as the page sees it: one view for everyone, with the exact odds.

Nobody sees the deck order or the face-down cards set aside (not the player, not the host): the
rulebook deals them face down ("Randomly set aside 12"). Everything else is public. The odds are
exact fractions (as strings) and floats, for both verdicts, on the bag before the draw ("After
choosing a verdict, you will draw two cubes"); between the two draws only the next cube's chance,
and none once the judgment is drawn (the bag is then short of the drawn cubes, and no verdict is
left to choose). Cases, effects, vine spaces and the log come in words (:mod:`.words`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from companion.core.game import Action
from companion.core.games.tribunal.board import board_json
from companion.core.games.tribunal.model import Phase, TribunalModel
from companion.core.games.tribunal.pool import VERDICTS, matches, pass_probability
from companion.core.games.tribunal.words import effect_kind, effect_line, event_line, vine_spaces

BEFORE_THE_DRAW = (Phase.HEAR, Phase.VERDICT)
"""The phases whose bag is whole: the odds of each verdict are worth reading then."""


def _odds(state: TribunalModel) -> dict[str, Any]:
    pool = state.board.pool
    odds: dict[str, Any] = {}
    if state.phase not in (*BEFORE_THE_DRAW, Phase.DRAW):
        return odds
    for verdict in VERDICTS if state.phase in BEFORE_THE_DRAW else ():
        p = pass_probability(pool, verdict)
        odds[verdict] = {"p_pass": float(p), "exact": str(p)}
    if state.phase == Phase.DRAW and state.verdict is not None and pool.total:
        # Between the two draws: the chance that the second cube saves the chosen verdict.
        favourable = sum(
            pool.count(c) for c in ("red", "white", "blue") if matches(c, state.verdict)
        )
        p = Fraction(favourable, pool.total)
        odds["second_cube_matches"] = {"p": float(p), "exact": str(p)}
    return odds


def _awaiting(state: TribunalModel) -> str | None:
    """``"chance"`` when a shuffle or draw is due, ``"player"`` for a button, None at the end."""
    actor = state.to_move()
    if actor is None:
        return None
    return "player" if isinstance(actor, int) else "chance"


def _titles(state: TribunalModel, cases: list[str]) -> dict[str, str]:
    """How each case of one hearing is named: a stored deck's card by its name; an anonymous
    card by where it lies (its internal number is nobody's name: the physical card is read)."""
    if state.options.stored_deck:
        return {name: name for name in cases}
    if len(cases) == 1:
        return {cases[0]: "the top Accused Card"}
    return {name: f"the Accused of stack {i + 1}" for i, name in enumerate(cases)}


def _lines(state: TribunalModel) -> list[str]:
    """The log as sentences; a card is named as it was at its hearing."""
    titles: dict[str, str] = {}
    lines = []
    for event in state.log:
        if event.get("event") == "heard":
            titles.update(_titles(state, list(event["cases"])))
        lines.append(event_line(event, state.options.vine, lambda c: titles.get(c, c)))
    return lines


def _printed(effects: tuple[tuple[str, int], ...] | list[tuple[str, int]]) -> list[dict[str, Any]]:
    return [{"effect": e, "n": n} for e, n in effects]


def _effect_lines(state: TribunalModel, legal: list[Action]) -> dict[str, str]:
    """Every effect the page may show (printed, done, to tap), as ``"kind n"`` -> its line."""
    shown = [(e, n) for e, n in state.done]
    # A card's back is worded only once it is turned over (as "printed" in :func:`_case`).
    for name in state.cases if state.options.stored_deck and state.is_turned_over() else ():
        card = state.cards[name]
        shown += [*card.guilty, *card.not_guilty]
    shown += [(a["effect"], a["n"]) for a in legal if a["type"] == "effect"]
    return {f"{e} {n}": effect_line(e, n) for e, n in shown}


def _case(state: TribunalModel, name: str) -> dict[str, Any]:
    card = state.cards[name]
    case: dict[str, Any] = {
        "card": name,
        "title": _titles(state, state.cases)[name],
        "sentenced": name in state.sentenced,
    }
    if state.options.stored_deck:
        # An anonymous card's colour is the companion's guess, not the card turned up.
        case["colour"] = card.colour
    # The back is printed with the effects: hidden until the card is turned over ("If Guilty, turn
    # the Accused Card over and carry out the effects noted under the guillotine icon").
    if state.options.stored_deck and state.is_turned_over():
        case["printed"] = {"guilty": _printed(card.guilty), "not_guilty": _printed(card.not_guilty)}
    return case


def build_view(state: TribunalModel, legal: list[Action]) -> dict[str, Any]:
    """The JSON-able view of ``state`` (the same for every viewer); ``legal`` is the player's
    buttons now (the state's rules: the view only shows them)."""
    printed = state.printed()
    pending_effects = None if printed is None else printed[len(state.done) :]
    view: dict[str, Any] = {
        "game": "tribunal",
        "phase": state.phase,
        "awaiting": _awaiting(state),
        "hearing": state.hearings,
        **board_json(state.board, state.options.vine),
        "spaces": vine_spaces(state.options.vine),
        "odds": _odds(state),
        "cases": [_case(state, name) for name in state.cases],
        "verdict": state.verdict,
        "judgment": state.judgment,
        "sentence": {
            "card": state.sentence,
            "done": _printed(state.done),
            "can_undo": bool(state.undo_stack),
        },
        "pending": {
            "effects": None if pending_effects is None else _printed(pending_effects),
            "cases": [c for c in state.cases if c not in state.sentenced and c != state.sentence],
        },
        "lost_pending_confirmation": state.board.doom,
        "stored_deck": state.options.stored_deck,
        "rules": {
            "second_draw": state.options.second_draw,
            "missing_reds": state.options.missing_reds,
        },
        "legal_actions": legal,
        "log": list(state.log),
        "log_lines": _lines(state),
        "effect_lines": _effect_lines(state, legal),
        "effect_kinds": {
            a["effect"]: effect_kind(a["effect"]) for a in legal if a["type"] == "effect"
        },
        "result": state.outcome() or None,
    }
    return view
