"""The courtroom's actions as frozen values, read once at the engine's door.

An action arrives as JSON (``{"type": "verdict", "verdict": "guilty"}``) from a button, the
journal or a chance draw. :func:`parse` checks its whole shape there -- the outline (an object of
a known type with only its own fields, :func:`~companion.core.game.action_type`) and every
field's value -- and returns one of the frozen, slotted dataclasses below, so the rules
(:mod:`.state`) read typed fields and never a dict. ``wire()``
(:class:`~companion.core.action_values.ActionValue`) gives the dict back: the journal and the
legal-action lists stay exactly the JSON they always were (docs/rules-notes.md, "The Gods Will
Have Blood: the courtroom"). A bound that depends on the game in progress (which cases are being
heard) is the rules' to check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, get_args

from companion.core.action_values import ActionValue
from companion.core.checks import whole
from companion.core.errors import MalformedInput
from companion.core.game import action_type
from companion.core.games.tribunal.cards import BUTTON_MAX, parse_effect
from companion.core.games.tribunal.pool import COLOURS, check_verdict


@dataclass(frozen=True, slots=True)
class Shuffle(ActionValue):
    """Setup's chance: "Randomly set aside 12 and shuffle the remaining 21 red cards with the 3
    blue to form the Accused Deck" (names, the deck's top first)."""

    TYPE: ClassVar[str] = "shuffle"
    set_aside: tuple[str, ...]
    deck: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hear(ActionValue):
    """ "Each turn, read the description provided on the top Accused Card"."""

    TYPE: ClassVar[str] = "hear"


@dataclass(frozen=True, slots=True)
class NameCard(ActionValue):
    """With a stored deck: the card turned up for case ``case`` (0-based) is ``card``."""

    TYPE: ClassVar[str] = "name_card"
    case: int
    card: str


@dataclass(frozen=True, slots=True)
class Verdict(ActionValue):
    """ "You must then decide on your verdict": ``"guilty"`` or ``"not_guilty"``."""

    TYPE: ClassVar[str] = "verdict"
    verdict: str


@dataclass(frozen=True, slots=True)
class Draw(ActionValue):
    """One cube drawn from the Judgment Pool (chance): ``"red"``, ``"white"`` or ``"blue"``."""

    TYPE: ClassVar[str] = "draw"
    cube: str


@dataclass(frozen=True, slots=True)
class Sentence(ActionValue):
    """Two cases heard: the one whose sentence is carried out next ("in any order")."""

    TYPE: ClassVar[str] = "sentence"
    card: str


@dataclass(frozen=True, slots=True)
class Effect(ActionValue):
    """One effect of the sentence carried out: its kind and amount (``n``, 1 when omitted)."""

    TYPE: ClassVar[str] = "effect"
    effect: str
    n: int

    @property
    def printed(self) -> tuple[str, int]:
        """``(effect, n)``, as a card prints it and the sentence records it done."""
        return self.effect, self.n


@dataclass(frozen=True, slots=True)
class Undo(ActionValue):
    """A mis-tapped effect taken back."""

    TYPE: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class EndSentence(ActionValue):
    """ "End of sentence": the effects are carried out (or the game is lost)."""

    TYPE: ClassVar[str] = "end_sentence"


TribunalAction = Shuffle | Hear | NameCard | Verdict | Draw | Sentence | Effect | Undo | EndSentence
"""Any one of the courtroom's actions."""

FIELDS: dict[str, tuple[str, ...]] = {
    kind.TYPE: kind.__slots__ for kind in get_args(TribunalAction)
}
"""Each action type and the fields it may carry (the dataclass's, in order)."""


def _card(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise MalformedInput(f"a card is named by a string, not {value!r}", field=field)
    return value


def parse(action: Any, *, largest: int = BUTTON_MAX) -> TribunalAction:
    """The action ``action`` (JSON) describes; any bad shape raises MalformedInput naming the
    field. ``largest`` is the biggest amount an effect may carry: :data:`.cards.BUTTON_MAX` when
    the player taps the effects, :data:`.cards.DATA_MAX` when the table stored its deck."""
    kind = action_type(action, FIELDS)
    if kind == "shuffle":
        aside, deck = action.get("set_aside"), action.get("deck")
        if not all(
            isinstance(pile, list) and all(isinstance(name, str) for name in pile)
            for pile in (aside, deck)
        ):
            raise MalformedInput(
                "a shuffle has lists of card names set_aside and deck", field="action"
            )
        return Shuffle(tuple(aside), tuple(deck))
    if kind == "name_card":
        case = action.get("case")
        whole(case, "action.case", f"no case {case!r} is being heard", low=0)
        return NameCard(case, _card(action.get("card"), "action.card"))
    if kind == "verdict":
        return Verdict(check_verdict(action.get("verdict"), "action.verdict"))
    if kind == "draw":
        cube = action.get("cube")
        if cube not in COLOURS:
            raise MalformedInput(f"a cube is red, white or blue, not {cube!r}", field="action.cube")
        return Draw(cube)
    if kind == "sentence":
        return Sentence(_card(action.get("card"), "action.card"))
    if kind == "effect":
        given: Mapping[str, Any] = {k: action[k] for k in ("effect", "n") if k in action}
        return Effect(*parse_effect(given, "action", largest=largest))
    return {"hear": Hear, "undo": Undo, "end_sentence": EndSentence}[kind]()
