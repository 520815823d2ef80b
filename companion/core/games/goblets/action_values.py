"""Raise Your Goblets' actions as frozen values: what a player or chance does, one class each.

An action arrives as JSON (``{"type": "pour", "seat": 1, "place": 3, "token": "wine"}``) from a
phone, the sensed table, the journal or a chance draw. The engine's door, :mod:`door`, checks its
whole shape there and returns one of the frozen, slotted dataclasses below, so the rules'
chapters (:mod:`setup`, :mod:`actions`, :mod:`abilities`, :mod:`toast`, :mod:`shootout`) read
typed fields and never a dict. ``wire()`` (:class:`~companion.core.action_values.ActionValue`)
gives the dict back: the journal and the legal-action lists stay exactly the JSON
docs/goblets.md describes. A field that is absent from an action when it is not given (a
recorded Swap's ``from``, a sensed Toast's ``pours``, a sensed reveal's ``goblets``, an
ability's parameters) is ``None`` here and absent from the wire.

The import graph runs one way: the model (:mod:`model`) <- these values <- the door and the
chapters <- the engine (:mod:`engine`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core.action_values import ActionValue
from companion.core.games.goblets.characters import Character

DIRECTIONS = ("clockwise", "widdershins")
"""A Rotate's ``direction`` ("clockwise or widdershins")."""

UNSEEN = "unseen"
"""A recorded Toast's ``"pours"``: the sensors saw no pour, so the caller's Wine is unknown."""

WRONG_INITIAL_POUR = "must be 1 Antidote, 2 Poison and Wine for the rest, one per Goblet"
"""An initial pour that cannot be (enforcing: any other mix; recording: one the pool lacks)."""


def initial_pour_tokens(places: int) -> list[str]:
    """ "1 Antidote and 2 Poison tokens, plus enough Wine tokens" for one token per Goblet."""
    return ["antidote", "poison", "poison"] + ["wine"] * (places - 3)


class GobletsAction(ActionValue):
    """One of Raise Your Goblets' actions; ``OPTIONAL`` fields are left off the wire when None."""

    __slots__ = ()
    OPTIONAL: ClassVar[tuple[str, ...]] = ()
    """Fields that are absent from the JSON when they are not given (None)."""

    def wire(self) -> dict[str, Any]:
        """The action as JSON: its type, then each field given, in order."""
        wired = ActionValue.wire(self)
        for name in self.OPTIONAL:
            if wired[name] is None:
                del wired[name]
        return wired


# -- the players' actions (docs/goblets.md, "Player actions") -----------------------------------


@dataclass(frozen=True, slots=True)
class Pour(GobletsAction):
    """ "Secretly place one of the tokens from behind your screen into any Goblet": ``token``
    into the Goblet at ``place``. ``seat`` is None for a sensed pour whose pourer nobody saw."""

    TYPE: ClassVar[str] = "pour"
    seat: int | None
    place: int
    token: str


@dataclass(frozen=True, slots=True)
class Peek(GobletsAction):
    """ "Look into Your Goblet to see which tokens are in it"."""

    TYPE: ClassVar[str] = "peek"
    seat: int


@dataclass(frozen=True, slots=True)
class Rotate(GobletsAction):
    """ "Move all of the Goblets one place in the same direction, clockwise or widdershins"."""

    TYPE: ClassVar[str] = "rotate"
    seat: int
    direction: str


@dataclass(frozen=True, slots=True)
class Swap(GobletsAction):
    """ "Exchange Your Goblet for that of another player": the one at place ``other`` (JSON
    ``with``); ``own`` (JSON ``from``, recording only) the place the sensors saw it taken from."""

    TYPE: ClassVar[str] = "swap"
    seat: int
    other: int
    own: int | None = None

    def wire(self) -> dict[str, Any]:
        """The Swap as JSON: ``with`` the other place, and ``from`` when the sensors said."""
        wired: dict[str, Any] = {"type": self.TYPE, "seat": self.seat, "with": self.other}
        if self.own is not None:
            wired["from"] = self.own
        return wired


@dataclass(frozen=True, slots=True)
class Toast(GobletsAction):
    """ "Call the Toast!"; ``pours`` is ``"unseen"`` when sensed play saw no pour (recording)."""

    TYPE: ClassVar[str] = "toast"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("pours",)
    seat: int
    pours: str | None = None


@dataclass(frozen=True, slots=True)
class Pass(GobletsAction):
    """ "You can pass without performing an action" (ends the turn or the final action)."""

    TYPE: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class Defer(GobletsAction):
    """A Noble with no Wine left lets the Winetaster play first (no Toast before them)."""

    TYPE: ClassVar[str] = "defer"
    seat: int


@dataclass(frozen=True, slots=True)
class Decline(GobletsAction):
    """A Course-start or Before-Drinking ability not used."""

    TYPE: ClassVar[str] = "decline"
    seat: int


@dataclass(frozen=True, slots=True)
class Ability(GobletsAction):
    """A Character ability used (:mod:`abilities`): the card, and its effect's parameters --
    ``place`` (``peek_any``), ``places`` (``swap_any``), ``places``, ``swap`` and ``coasters``
    (``swap_and_exchange_coasters``); None where the effect takes none."""

    TYPE: ClassVar[str] = "ability"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("place", "places", "swap", "coasters")
    seat: int
    card: Character
    place: int | None = None
    places: tuple[int, int] | None = None
    swap: bool | None = None
    coasters: bool | None = None

    def wire(self) -> dict[str, Any]:
        """The ability as JSON: the card by its name, then the parameters given."""
        wired = GobletsAction.wire(self)
        wired["card"] = self.card.name
        return wired


@dataclass(frozen=True, slots=True)
class Reveal(GobletsAction):
    """ "each player takes the Goblet in front of them [...] and reveals its contents";
    ``goblets`` (recording only) what each place's Goblet was counted to hold."""

    TYPE: ClassVar[str] = "reveal"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("goblets",)
    seat: int
    goblets: tuple[dict[str, int], ...] | None = None


# -- chance (docs/goblets.md, "Chance actions") ------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealCharacters(GobletsAction):
    """The Character cards dealt, one name per seat."""

    TYPE: ClassVar[str] = "deal_characters"
    characters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InitialPour(GobletsAction):
    """ "randomly pour 1 token into each of the Goblets": one token kind per place."""

    TYPE: ClassVar[str] = "initial_pour"
    tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DealWinetasterCards(GobletsAction):
    """A Loyal or Traitor card per Winetaster pair's place (None for a single player's)."""

    TYPE: ClassVar[str] = "deal_winetaster_cards"
    cards: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class DealTargets(GobletsAction):
    """The Target cards as dealt (a House per place), before the own-House swaps."""

    TYPE: ClassVar[str] = "deal_targets"
    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """One Legacy draw: ``seat`` draws ``character``. ``seat`` None: not a whole number (the
    draw is then not one the rules expect, and is refused naming the draws)."""

    seat: int | None
    character: str

    def wire(self) -> dict[str, Any]:
        """The draw as JSON."""
        return {"seat": self.seat, "character": self.character}


@dataclass(frozen=True, slots=True)
class LegacyDraw(GobletsAction):
    """Legacy: each poisoned player holding a card draws a new one, in seat order."""

    TYPE: ClassVar[str] = "legacy_draw"
    draws: tuple[Draw, ...]

    def wire(self) -> dict[str, Any]:
        """The draws as JSON: a list of ``{seat, character}``."""
        return {"type": self.TYPE, "draws": [draw.wire() for draw in self.draws]}


# -- the tie-break shoot-out (:mod:`shootout`) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShootoutPour(GobletsAction):
    """The Host's pour: ``(goblet id, "wine" | "poison")`` for each shoot-out Goblet."""

    TYPE: ClassVar[str] = "shootout_pour"
    goblets: tuple[tuple[str, str], ...]

    @property
    def contents(self) -> dict[str, str]:
        """Goblet id -> the token poured into it."""
        return dict(self.goblets)

    def wire(self) -> dict[str, Any]:
        """The pour as JSON: ``goblets`` an object, goblet id -> token."""
        return {"type": self.TYPE, "goblets": self.contents}


@dataclass(frozen=True, slots=True)
class ShootoutChoose(GobletsAction):
    """A tied player chooses the Goblet ``goblet`` (an id) and reveals it."""

    TYPE: ClassVar[str] = "shootout_choose"
    seat: int
    goblet: str


PLAYER_ACTIONS: tuple[type[GobletsAction], ...] = (
    Pour,
    Peek,
    Rotate,
    Swap,
    Toast,
    Pass,
    Ability,
    Decline,
    Defer,
    Reveal,
)
"""The actions a seat takes, in the order docs/goblets.md lists them."""

CHANCE: tuple[type[GobletsAction], ...] = (
    DealCharacters,
    InitialPour,
    DealWinetasterCards,
    DealTargets,
    LegacyDraw,
)
"""The chance actions of a Course; each is due in the phase of the same name."""

SHOOTOUT: tuple[type[GobletsAction], ...] = (ShootoutPour, ShootoutChoose)
"""The shoot-out's actions (its own chance pour and the tied players' choices)."""

COUNTED: tuple[type[GobletsAction], ...] = (Pour, Peek, Rotate, Swap)
"""The actions that use up one of a turn's actions."""
