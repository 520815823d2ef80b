"""The courtroom in words: printed effects as lines, the vine's spaces, the log as sentences.

The rulebook prints no card, but it says what the effects do ("add two red cubes from the Momentum
Box to the Judgment Pool", "the red pawn (Reputation) must be moved up the vine", "remove a white
cube from the Judgment Pool"), so a printed line here is worded as the rulebook words it. The log
is the game's events said as a judge would read them back (no raw data). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.core.games.tribunal.pool import GUILTY
from companion.core.games.tribunal.vine import Vine

VERDICT_WORDS = {"guilty": "Guilty", "not_guilty": "Not Guilty"}
MARKER_WORDS = {"legitimacy": "Legitimacy", "reputation": "Reputation"}

SPACE_MEANING = {
    "W": "the blue cube's space",
    "L": "Legitimacy starts here",
    "R": "Reputation starts here",
    "*": "maximum Reputation: end here to win",
}
"""What each labelled space is for (Setup and "How the Game is Won")."""


def _spaces(n: int) -> str:
    return f"{n} space" if n == 1 else f"{n} spaces"


def effect_line(effect: str, n: int) -> str:
    """One printed effect as the card's line, e.g. ``"Add 2 Momentum"``."""
    if effect == "momentum":
        return f"Add {n} Momentum"
    if effect == "add_white":
        return "Add a white cube to the Judgment Pool"
    if effect == "remove_white":
        return "Remove a white cube from the Judgment Pool"
    marker, direction = effect.split("_")
    verb = "Raise" if direction == "up" else "Lower"
    return f"{verb} {MARKER_WORDS[marker]} {_spaces(n)}"


def effect_kind(effect: str) -> str:
    """The effect without its amount, as a line begins (``"Raise Reputation"``)."""
    if effect in ("add_white", "remove_white", "momentum"):
        return effect_line(effect, 1).replace(" 1 ", " ")
    marker, direction = effect.split("_")
    return f"{'Raise' if direction == 'up' else 'Lower'} {MARKER_WORDS[marker]}"


def space_name(vine: Vine, index: int) -> str:
    """A vine space as the page labels it: ``"W"``, ``"the bottom space"``, ``"space 3"``."""
    if vine.is_bottom(index):
        return "the bottom space"
    label = vine.label(index)
    return f"space {label}" if label else f"space {index + 1}"


def vine_spaces(vine: Vine) -> list[dict[str, Any]]:
    """Every space, bottom first: its number, label and what it is for (the bottom loses)."""
    spaces = []
    for index, label in enumerate(vine.labels):
        meaning = SPACE_MEANING.get(label, "")
        if vine.is_bottom(index):
            meaning = "the bottom space: a marker here loses"
        spaces.append(
            {
                "index": index,
                "number": index + 1,
                "label": label,
                "meaning": meaning,
                "bottom": vine.is_bottom(index),
            }
        )
    return spaces


def _cubes(pool: Mapping[str, int]) -> str:
    parts = [f"{pool.get(c, 0)} {c}" for c in ("red", "white", "blue") if pool.get(c, 0)]
    return ", ".join(parts) if parts else "no cubes"


def event_line(event: Mapping[str, Any], vine: Vine, title: Callable[[str], str]) -> str:
    """One logged event as a sentence; ``title`` names a card the way the page shows it."""
    said = _said(event, vine, title)
    return said[:1].upper() + said[1:]


def _said(event: Mapping[str, Any], vine: Vine, title: Callable[[str], str]) -> str:
    kind = event.get("event")
    if kind == "shuffled":
        return (
            f"The Accused Deck is shuffled: {event['deck']} cards to hear, "
            f"{event['set_aside']} set aside face down."
        )
    if kind == "heard":
        cases = " and ".join(title(c) for c in event["cases"])
        return f"Hearing {event['hearing']}: {cases}."
    if kind == "named":
        return f"The card turned up is {title(event['card'])}."
    if kind == "verdict":
        return f"Your verdict: {VERDICT_WORDS[event['verdict']]}."
    if kind == "drawn":
        order = "first" if event["draw"] == 1 else "second"
        return f"The {order} cube drawn is {event['cube']}."
    if kind == "judgment":
        said = VERDICT_WORDS[event["verdict"]]
        how = "your verdict passes" if event["passed"] else "the drawn verdict stands"
        return f"Judgment: {said} ({how})."
    if kind == "sentence":
        icon = "the guillotine" if event["verdict"] == GUILTY else "the not-guilty icon"
        return f"{title(event['card'])}: the effects under {icon} are carried out."
    if kind == "effect":
        return f"{effect_line(event['effect'], event['n'])}."
    if kind == "moved":
        marker = MARKER_WORDS[event["marker"]]
        where = space_name(vine, event["to"])
        jump = " (one more space: the other marker was below)" if event.get("jumped") else ""
        return f"{marker} moves to {where}{jump}."
    if kind == "blocked":
        return f"{MARKER_WORDS[event['marker']]} cannot move (blocked), so it stays."
    if kind == "blue_to_pool":
        return "Legitimacy reaches W: the blue cube goes into the Judgment Pool."
    if kind == "momentum":
        return f"A red cube goes from the Momentum Box to the Judgment Pool ({event['box']} left)."
    if kind == "momentum_box_empty":
        return "The Momentum Box is empty: Legitimacy is lowered instead."
    if kind == "deck_split":
        stacks = " and ".join(str(s) for s in event["stacks"])
        return f"The deck is split ({stacks} cards): two cases at a time from now on."
    if kind == "white_added":
        return f"A white cube is added to the Judgment Pool ({event['white']} white)."
    if kind == "no_white_to_add":
        return "No white cube is left to add."
    if kind == "white_removed":
        return f"A white cube is removed from the Judgment Pool ({event['white']} white)."
    if kind == "lost":
        # The moment of the loss, which a mis-tap's undo can still take back; the game's end
        # ("game_over", confirmed by "end of sentence") says the reason, so it is not said twice.
        return "The game will be lost when the sentence ends (unless the effect is undone)."
    if kind == "undo":
        return f"Undone: {effect_line(event['effect'], event['n'])}."
    if kind == "sentence_done":
        return f"{title(event['card'])}: the sentence is done."
    if kind == "cubes_returned":
        to_box = event["to_box"]
        boxed = f"{to_box} red to the Momentum Box, " if to_box else ""
        return f"The drawn cubes go back: {boxed}the bag holds {_cubes(event['pool'])}."
    if kind == "game_over":
        return ("Won: " if event["won"] else "Lost: ") + f"{event['reason']}."
    return str(kind).replace("_", " ").capitalize() + "."
