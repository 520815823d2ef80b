"""The Toast: the Toast Phase, Before-Drinking abilities, the reveal, scoring and the end.

"When the Toast is called, the regular turns end and a special "Toast Phase" begins. Starting with
the player to the left of the Toast Caller and proceeding clockwise, each player may perform one
last action. The Toast Caller will be the last one to perform this final action." Then Before
Drinking abilities, the reveal ("each player takes the Goblet in front of them, no matter the
color of its Coaster, and reveals its contents"), scoring with :func:`scoring.score_toast`, the
discarded screens, and the end of the game with its tie-break shoot-out. A rules chapter on the
model: what comes after a part (the reveal after the Toast Phase, the next Course after the
scoring) is the engine's phase table (:mod:`engine`).
"""

from __future__ import annotations

from companion.core.errors import AmbiguousObservation
from companion.core.game import Event, Mode
from companion.core.games.goblets.action_values import ShootoutChoose, ShootoutPour
from companion.core.games.goblets.houses import HOUSE_IDS
from companion.core.games.goblets.model import (
    GobletsModel,
    Phase,
    Stage,
    Step,
    StepKind,
    empty_into,
    move,
)
from companion.core.games.goblets.scoring import score_toast
from companion.core.games.goblets.shootout import Shootout
from companion.core.games.goblets.winetasters import traitor_vp


def call_toast(state: GobletsModel, seat: int) -> list[Event]:
    """ "Call the Toast! The Course ends immediately": the Toast Phase begins."""
    state.toast_caller = seat
    state.stage = Stage.TOAST
    state.turn_number += 1
    caller_place = state.place_index(seat)
    n = len(state.places)
    steps = []
    for offset in range(1, n + 1):
        index = (caller_place + offset) % n
        place = state.places[index]
        if place.winetaster is None:
            single = place.seats[0]
            limit = 1 + state.bonus(single, "extra_toast_action")
            steps.append(Step(single, StepKind.FINAL, index, limit))
        else:
            noble = place.noble
            steps.append(Step(place.winetaster, StepKind.FREE_PEEK, index))
            limit = 1 + state.bonus(noble, "extra_toast_action")
            steps.append(Step(noble, StepKind.FINAL, index, limit, no_peek=True))
    state.steps = steps
    return [{"event": "toast_called", "seat": seat}]


def start_before_drinking(state: GobletsModel) -> None:
    """Before-Drinking abilities from the Toast Caller's left, then the reveal."""
    assert state.toast_caller is not None
    players = state.opts.players
    order = [(state.toast_caller + 1 + i) % players for i in range(players)]
    state.stage = Stage.BEFORE_DRINKING
    state.steps = state.ability_steps(order, "before_drinking")
    caller = state.toast_caller
    state.steps.append(Step(caller, StepKind.REVEAL, state.place_index(caller)))


def correct_contents(state: GobletsModel, sensed: list[dict[str, int]]) -> list[Event]:
    """Sensed play: the Goblets were counted at the reveal; reality wins over the tracked pours.

    A difference moves tokens, so the 52 stay conserved: a Goblet holding fewer than tracked
    gives them back to the common pool; one holding more takes them from the pool, then from
    behind the screens (a pour the readers missed left the engine believing the token still
    behind its pourer's screen; the screens are discarded at the reveal anyway). Deficits are
    settled before surpluses, so a pour tracked into the wrong Goblet moves between the two.
    A surplus nothing can supply is an AmbiguousObservation, and nothing is changed.
    """
    wanted = [{kind: n for kind, n in counts.items() if n} for counts in sensed]
    tracked = [state.contents_at(place) for place in range(len(sensed))]
    surplus: dict[str, int] = {}
    for want, have in zip(wanted, tracked, strict=True):
        for kind in set(want) | set(have):
            surplus[kind] = surplus.get(kind, 0) + want.get(kind, 0) - have.get(kind, 0)
    for kind, n in surplus.items():
        behind = sum(screen.get(kind, 0) for screen in state.screens)
        if n > state.pool.get(kind, 0) + behind:
            place = next(
                p for p, w in enumerate(wanted) if w.get(kind, 0) > tracked[p].get(kind, 0)
            )
            raise AmbiguousObservation(f"the Goblet at place {place} shows tokens not in play")
    for place, (want, have) in enumerate(zip(wanted, tracked, strict=True)):
        goblet = state.goblets[state.goblet_at[place]]
        for kind in sorted(have):
            if have[kind] > want.get(kind, 0):
                move(goblet, state.pool, kind, have[kind] - want.get(kind, 0))
    for place, (want, have) in enumerate(zip(wanted, tracked, strict=True)):
        goblet = state.goblets[state.goblet_at[place]]
        for kind in sorted(want):
            missing = want[kind] - have.get(kind, 0)
            from_pool = min(max(0, missing), state.pool.get(kind, 0))
            if from_pool:
                move(state.pool, goblet, kind, from_pool)
            missing -= from_pool
            for screen in state.screens:
                take = min(max(0, missing), screen.get(kind, 0))
                if take:
                    move(screen, goblet, kind, take)
                    missing -= take
    return [
        {"event": "reveal_corrected", "place": place, "tracked": have, "sensed": want}
        for place, (want, have) in enumerate(zip(wanted, tracked, strict=True))
        if want != have
    ]


def do_reveal(state: GobletsModel) -> list[Event]:
    """Reveal every Goblet, score the Toast, discard the screens (rulebook, The Toast)."""
    opts = state.opts
    ids = list(opts.houses)
    targets = {ids[i]: state.targets[i] for i in range(len(ids))}
    goblets = {ids[i]: state.contents_at(i) for i in range(len(ids))}
    overrides = {}
    for index, place in enumerate(state.places):
        card = state.active_card(place.lead)
        if card is not None and card.override is not None:
            overrides[ids[index]] = card.override
    scores = score_toast(ids, targets, goblets, rules=opts.token_rules, overrides=overrides)
    gained = [0] * opts.players
    places = []
    for index, place in enumerate(state.places):
        score = scores[ids[index]]
        for seat in place.seats:
            if seat == place.winetaster and state.wt_cards[seat] == "traitor":
                gained[seat] = traitor_vp(score.poisoned)
            else:  # the player, the Noble, or a Loyal Winetaster ("the same number of VPs")
                gained[seat] = score.vp
        places.append(
            {
                "place": index,
                "house": ids[index],
                "seats": list(place.seats),
                "ring": state.ring_at(index),
                "contents": goblets[ids[index]],
                "target": targets[ids[index]],
                "poisoned": score.poisoned,
                "survived": score.survived,
                "target_poisoned": score.target_poisoned,
                "most_wine": score.most_wine,
            }
        )
    state.vp = [a + b for a, b in zip(state.vp, gained, strict=True)]
    result = {"course": state.course, "toast_caller": state.toast_caller, "places": places}
    state.results.append({**result, "vp": gained})
    for screen in state.screens:  # "discard any tokens they still have behind their screens"
        empty_into(screen, state.discarded)
    for goblet in state.goblets:
        empty_into(goblet, state.discarded)
    state.steps = []
    state.stage = Stage.SCORED
    events: list[Event] = [{"event": "revealed", **result}]
    if opts.hidden_vp:  # "Keep your VPs hidden behind your screen."
        events.extend(
            {"event": "scored", "course": state.course, "to": seat, "vp": vp}
            for seat, vp in enumerate(gained)
        )
    else:
        events.append({"event": "scored", "course": state.course, "vp": gained})
    poisoned = [p.lead for p, info in zip(state.places, places, strict=True) if info["poisoned"]]
    # Legacy: "If you are poisoned, discard your Character card and draw a new one" (the engine
    # decides whether a draw is due before the next Course).
    state.legacy_pending = [s for s in sorted(poisoned) if state.characters[s] is not None]
    return events


def end_game(state: GobletsModel) -> list[Event]:
    """After the last Course: the winner, a shared tie, or the tie-break shoot-out."""
    assert state.toast_caller is not None
    best = max(state.vp)
    tied = [seat for seat, vp in enumerate(state.vp) if vp == best]
    if len(tied) == 1:
        return finish(state, tied)
    if len(tied) > len(HOUSE_IDS):
        # "take 1 Goblet for each tied player": the box holds "6 Goblets" (Ingredients), so a tie
        # of 7 or more (only with Winetasters) cannot be shot out; the tie stands, shared.
        shared: Event = {"event": "tie_shared", "tied": tied, "goblets": len(HOUSE_IDS)}
        return [shared, *finish(state, tied)]
    # Winetasters too (docs/rules-notes.md, "Winetasters: the tie-break"): VP are each player's
    # own, so the tied players are seats, each taking a Goblet of their own.
    goblets = None if state.opts.raise_your_memory else shootout_goblets(state, len(tied))
    names = [state.seat_name(seat) for seat in range(state.opts.players)]
    state.shootout = Shootout.start(tied, state.toast_caller, state.opts.players, goblets, names)
    state.phase = Phase.SHOOTOUT
    return [{"event": "shootout_started", "tied": tied}]


def shootout_goblets(state: GobletsModel, count: int) -> list[str]:
    """The ``count`` shoot-out Goblets, by Coaster ring: the Houses in play first, then the box's.

    With Winetasters fewer Goblets are in play (one per pair) than there may be tied players; the
    box's other Goblets (rulebook order) make up the rest.
    """
    houses = list(state.opts.houses)
    houses += [house for house in HOUSE_IDS if house not in houses]
    return houses[:count]


def finish(state: GobletsModel, winners: list[int]) -> list[Event]:
    """ "the player with the most Victory Points is the winner!" """
    state.winners = list(winners)
    state.phase = Phase.OVER
    state.steps = []
    return [{"event": "game_over", "vp": list(state.vp), "winners": list(winners)}]


def shootout_apply(
    state: GobletsModel, action: ShootoutPour | ShootoutChoose, mode: Mode
) -> list[Event]:
    """Delegate to the shoot-out; its end ends the game."""
    events = [{"event": e.get("type"), **e} for e in state.shootout.play(action, mode)]
    if state.shootout.is_over():
        events.extend(finish(state, state.shootout.winners()))
    return events
