"""The hooks that run Character abilities: which card may act when, and what each effect does.

"Character abilities override the rules!" A card (see :mod:`characters`) with an *active* effect
is used with ``{"type": "ability", "seat": s, "card": name, ...}`` at its timing: during its
owner's regular turn (``own_turn``, free: it is not one of the two actions), during its owner's
final action (``toast_phase``), or in its own step at the beginning of the Course or before
drinking. Passive effects (``extra_action``, ``extra_toast_action``) change the number of actions
in :mod:`turns` and :mod:`toast`; ``scoring_override`` changes the owner's scoring in
:func:`toast.do_reveal`. A rules chapter on the model: the engine (:mod:`engine`) asks it.

Effects that take parameters:

- ``peek_any``: ``"place": p`` -- look into the Goblet at place ``p`` (only the owner sees it).
- ``swap_any``: ``"places": [p, q]`` -- Swap the Goblets at places ``p`` and ``q``.
- ``swap_and_exchange_coasters``: ``"places": [p, q], "swap": bool, "coasters": bool`` --
  everyone averts their eyes; the owner Swaps the two Goblets and/or exchanges their Coasters.
- ``take_token`` (no parameters): the card's ``token`` goes from the pool behind the screen.
"""

from __future__ import annotations

from itertools import combinations

from companion.core.game import Event
from companion.core.games.goblets import rules
from companion.core.games.goblets.action_values import Ability
from companion.core.games.goblets.characters import Character
from companion.core.games.goblets.model import GobletsModel, Step, StepKind, move

TIMING_OF_STEP = {StepKind.TURN: "own_turn", StepKind.FINAL: "toast_phase"}
NO_RINGS = "At the beginning of the game, remove the Coaster rings from the Goblets."


def usable_card(state: GobletsModel, seat: int) -> tuple[int, Character | None]:
    """The card ``seat`` may use and who holds it: its own face-up card or, for a Winetaster,
    the Noble's ("If allowed to by their Noble, the Winetaster can use the ability on their
    Noble's Character card"; the permission is the table's business)."""
    place = state.place_of(seat)
    holder = place.noble if place.winetaster == seat else seat
    return holder, state.active_card(holder)


def _timing(step: Step) -> str | None:
    return step.timing if step.kind == StepKind.ABILITY else TIMING_OF_STEP.get(step.kind)


def violation(state: GobletsModel, action: Ability, step: Step) -> tuple[str, str] | None:
    """The rule an ``ability`` action breaks now, or None."""
    seat = step.seat
    holder, card = usable_card(state, seat)
    if card is None or card.name != action.card.name:
        return f"{state.seat_name(seat)} does not hold {action.card.name} face up", rules.OWN_CARD
    if not card.is_active:
        return f"{card.name} is not used with an action", rules.OVERRIDE
    if card.timing != _timing(step):
        if step.kind == StepKind.FINAL:
            return f"{card.name} cannot be used in the Toast Phase", rules.NO_ABILITY_IN_TOAST_PHASE
        return f"{card.name} is used at {card.timing}, not now", rules.OVERRIDE
    if card.once_per_course and [holder, card.name] in state.used_course:
        return f"{card.name} was already used this Course", rules.ONCE_PER_COURSE
    if card.name in state.used_step:
        return f"{card.name} was already used this turn", rules.ONCE_PER_COURSE
    if card.effect == "take_token" and not state.pool.get(card.token or "", 0):
        return f"the common pool has no {card.token} token left", rules.OVERRIDE
    if action.coasters and state.opts.raise_your_memory:
        return "there are no Coaster rings in Raise Your Memory", NO_RINGS
    return None


def legal(state: GobletsModel, step: Step) -> list[Ability]:
    """Every way the current step's seat may use its card now."""
    seat = step.seat
    card = usable_card(state, seat)[1]
    if card is None or not card.is_active:
        return []
    n = len(state.places)
    if card.effect == "peek_any":
        candidates = [Ability(seat, card, place=p) for p in range(n)]
    elif card.effect == "swap_any":
        candidates = [Ability(seat, card, places=pq) for pq in combinations(range(n), 2)]
    elif card.effect == "take_token":
        candidates = [Ability(seat, card)]
    else:
        modes = (
            [(True, False)]
            if state.opts.raise_your_memory
            else [
                (True, False),
                (False, True),
                (True, True),
            ]
        )
        candidates = [
            Ability(seat, card, places=pq, swap=swap, coasters=coasters)
            for pq in combinations(range(n), 2)
            for swap, coasters in modes
        ]
    if candidates and violation(state, candidates[0], step) is not None:
        return []
    return candidates


def perform(state: GobletsModel, action: Ability, seat: int | None) -> list[Event]:
    """Do the card's effect and mark it used (this step, and this Course if once per Course)."""
    assert seat is not None
    card = action.card
    state.used_step.append(card.name)
    if card.once_per_course:
        state.used_course.append([usable_card(state, seat)[0], card.name])
    public: Event = {"event": "ability", "seat": seat, "card": card.name}
    if card.effect == "peek_any":
        assert action.place is not None
        return [public, *state.record_peek(seat, action.place)]
    if card.effect == "take_token":
        assert card.token is not None
        screen = state.screens[state.place_index(seat)]
        if not state.pool.get(card.token, 0):
            return [public]  # recorded out of its rules: nothing left to take
        move(state.pool, screen, card.token)
        return [{**public, "token": card.token}]
    assert action.places is not None
    p, q = action.places
    if card.effect == "swap_any" or action.swap:
        state.goblet_at[p], state.goblet_at[q] = state.goblet_at[q], state.goblet_at[p]
    if card.effect == "swap_any":
        return [{**public, "places": [p, q]}]
    if action.coasters:
        gp, gq = state.goblet_at[p], state.goblet_at[q]
        state.ring_of[gp], state.ring_of[gq] = state.ring_of[gq], state.ring_of[gp]
    # Everyone averted their eyes: the table sees only where the rings stand now.
    private = {
        "event": "ability_used",
        "to": seat,
        "card": card.name,
        "places": [p, q],
        "swap": action.swap,
        "coasters": action.coasters,
    }
    return [{**public, "averted": True}, private]
