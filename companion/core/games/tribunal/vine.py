"""The vine: one track of spaces shared by the Legitimacy and Reputation markers.

The rulebook names the spaces "W", "L", "R" and "*" and "the bottom space" but prints no drawing,
so the layout is data (docs/rules-notes.md, "The vine"): a tuple of labels from the bottom space
(index 0) up. Both markers move on the same vine because the rulebook's examples show them blocking
each other: "the red pawn (Reputation) must be moved up the vine, but the black pawn prevents this"
and "Because the space below Legitimacy has a pawn, you must move Legitimacy an additional space".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.errors import MalformedInput

LABELS = ("W", "L", "R", "*")
"""The labelled spaces every layout must have exactly once."""

PRESETS: dict[str, tuple[str, ...]] = {
    "default": ("", "", "", "R", "L", "", "W", "", "", "", "*"),
    "long": ("", "", "", "", "R", "L", "", "", "W", "", "", "", "", "*"),
}
"""Named layouts, bottom to top; ``"default"`` is the documented default."""

MIN_SPACES = 5
MAX_SPACES = 40


@dataclass(frozen=True)
class Vine:
    """A validated vine layout: ``labels[0]`` is the bottom space."""

    labels: tuple[str, ...]

    @property
    def top(self) -> int:
        """Index of the top space."""
        return len(self.labels) - 1

    def index(self, label: str) -> int:
        """Index of the space labelled ``label`` (one of :data:`LABELS`)."""
        return self.labels.index(label)

    def label(self, index: int) -> str:
        """The label of space ``index`` (``""`` for an unlabelled space)."""
        return self.labels[index]

    def is_bottom(self, index: int) -> bool:
        """True on the bottom space, where a marker loses the game."""
        return index == 0


def parse_vine(value: Any) -> Vine:
    """The vine for option ``vine``: a preset name or a list of labels; bad input is malformed."""
    if value is None:
        value = "default"
    if isinstance(value, str):
        if value not in PRESETS:
            known = ", ".join(sorted(PRESETS))
            raise MalformedInput(f"unknown vine {value!r} (known: {known})", field="vine")
        return Vine(PRESETS[value])
    if not isinstance(value, Sequence) or not all(isinstance(label, str) for label in value):
        raise MalformedInput("a vine is a preset name or a list of space labels", field="vine")
    labels = tuple(value)
    if not MIN_SPACES <= len(labels) <= MAX_SPACES:
        raise MalformedInput(
            f"a vine has {MIN_SPACES} to {MAX_SPACES} spaces, not {len(labels)}", field="vine"
        )
    for label in labels:
        if label not in (*LABELS, ""):
            raise MalformedInput(
                f"unknown space label {label!r} (use W, L, R, * or '')", field="vine"
            )
    for label in LABELS:
        if labels.count(label) != 1:
            raise MalformedInput(f"the vine needs exactly one {label!r} space", field="vine")
    if labels[0] in ("L", "R"):
        raise MalformedInput("a marker cannot start on the bottom space", field="vine")
    return Vine(labels)


def step_up(position: int, other: int, vine: Vine) -> int:
    """One space up; blocked (no move) by the other marker or the top of the vine.

    Example 1: "the red pawn (Reputation) must be moved up the vine, but the black pawn prevents
    this (Diagram A). Instead, you proceed to the next effect."
    """
    target = position + 1
    if target > vine.top or target == other:
        return position
    return target


def step_down(position: int, other: int) -> int:
    """One space down; onto the other marker it moves one more space (never below the bottom).

    Example 1: "Because the space below Legitimacy has a pawn, you must move Legitimacy an
    additional space (Diagram B)."
    """
    target = position - 1
    if target == other:
        target -= 1
    # The other marker on the bottom space has already lost the game; stay put rather than share.
    return target if target >= 0 else position
