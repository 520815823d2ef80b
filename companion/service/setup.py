"""Starting a game at this table: how it is played, and the options the Host's form sends.

The Host chooses how each game is played (``play``):

- ``"phones"``: by hand on the phones. Every player taps their own actions and the engine refuses
  an illegal one with the rule's words (:attr:`Mode.ENFORCING`); the service draws every chance
  outcome (deals, the initial pour) but the ones a player draws by hand (the courtroom's cubes).
- ``"readers"``: the reader nodes read the table (:attr:`Mode.RECORDING`: the table cannot be
  refused, a broken rule is warned about); the hands pour the initial tokens. Raise Your Goblets
  only, and only what the sensed session reads (:func:`check_sensable`).
- ``"camera"``: the overhead camera reads the table (``companion serve --camera``,
  :mod:`companion.service.camera`): recording mode as with the readers, the same reach
  (:func:`check_sensable`); the camera sees the Goblets' rings and the tokens poured out at the
  reveal, not the pours.

``"demo"`` is the demo table's own: a person never starts a demo game.

One option is the table's, not the engine's: Raise Your Goblets' ``characters`` is ``"none"`` (the
default), ``"table"`` (the deck the table entered once, kept in the data directory) or a list of
cards. The rulebook does not print the 21 cards, so the engine's stand-in deck (two cards known
from the rulebook's examples and nineteen placeholders) is never dealt at a real table.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.game import GameState
from companion.core.games.goblets.options import check_variant
from companion.core.games.goblets.russian import RussianState
from companion.core.games.goblets.state import GobletsState
from companion.store.decks import load_characters

HOST_PLAYS: dict[str, tuple[str, ...]] = {
    "goblets": ("phones", "readers", "camera"),
    "tribunal": ("phones",),
    "cena": ("phones",),
}
"""How the Host may have each game played (a game not listed: on the phones only)."""
READERS = "the reader nodes do"
"""Who reads the table in :func:`check_sensable`'s messages: the readers (the default)."""
PLAY_NAMES = {
    "phones": "on the phones",
    "readers": "with the reader nodes",
    "camera": "with the overhead camera",
}


def prepare_options(game: str, options: Mapping[str, Any], data_dir: str | Path) -> dict:
    """The engine options of ``game`` from the Host's ``options`` (the table's Character deck)."""
    if not isinstance(options, Mapping):
        raise MalformedInput("must be an object", field="options")
    prepared = dict(options)
    if game != "goblets":
        return prepared
    _, variant = check_variant(prepared)
    choice = prepared.pop("characters", "none")
    if variant == "russian_goblette":
        if choice not in ("none", []):
            raise MalformedInput(
                "Russian Goblette is played without Character cards", field="characters"
            )
        return prepared  # "Play without Character cards and Goblet rings."
    if choice == "none":
        prepared["characters"] = []
    elif choice == "table":
        deck = load_characters(data_dir)
        if deck is None:
            raise MalformedInput(
                "this table has not entered its Character cards yet (Host page, Character "
                "cards): play without Characters, or enter them first",
                field="characters",
            )
        prepared["characters"] = deck
    elif isinstance(choice, list):
        prepared["characters"] = choice  # a deck given whole (the engine validates it)
    else:
        raise MalformedInput(
            f"{choice!r}: choose 'none', 'table' or a list of cards", field="characters"
        )
    return prepared


def check_play(game: str, play: Any, state: GameState, sensed_plays: frozenset[str]) -> str:
    """``play`` if ``game`` (its first ``state``) can be played so at this table, else the reason.

    ``sensed_plays``: the ways this table can sense a game (``"readers"`` with reader nodes,
    ``"camera"`` with the overhead camera).
    """
    allowed = HOST_PLAYS.get(game, ("phones",))
    if play not in allowed:
        ways = ", ".join(f"{p!r} ({PLAY_NAMES[p]})" for p in allowed)
        raise MalformedInput(f"{play!r}: this game is played {ways}", field="play")
    if play == "camera":
        if "camera" not in sensed_plays:
            raise MalformedInput(
                "no overhead camera is configured (companion serve --camera SRC or [camera] "
                "source): play on the phones",
                field="play",
            )
        check_sensable(state, "the camera does")
    if play == "readers":
        if "readers" not in sensed_plays:
            raise MalformedInput(
                "no reader nodes are connected (companion serve --mqtt URL or --serial PORT): "
                "play on the phones",
                field="play",
            )
        check_sensable(state)
    return play


def check_sensable(state: GameState, sensor: str = READERS) -> GameState:
    """``state`` if the sensors can play it (the sensed session's reach), else the reason
    (``sensor``: who cannot read it, with its verb).

    The sensed session reads the 4-12 player game, Winetasters' pairs on the readers (a pair's
    Goblet on one reader spot: ``core/games/goblets/sensed/pairs.py``) and Russian Goblette on the
    readers (six spots in a row: ``core/games/goblets/sensed/russian.py``), Character abilities
    included (tapped on the owner's phone, their effects then read:
    ``core/games/goblets/sensed/abilities.py``); the camera reads none of Winetasters, Russian
    Goblette and Characters yet (docs/tracking.md).
    """
    if isinstance(state, RussianState):
        if sensor != READERS:
            # The camera's reveal areas are one per seat of a circle; the row's drinks are read
            # on the readers only (docs/tracking.md, "Russian Goblette").
            raise MalformedInput(
                f"{sensor} not read Russian Goblette's six Goblets in a row: play it with the "
                "readers or the phones",
                field="variant",
            )
        return state
    if not isinstance(state, GobletsState):
        raise MalformedInput(f"{sensor} read only Raise Your Goblets", field="game")
    if state.opts.is_winetasters and sensor != READERS:
        # Played and measured on the readers only (docs/tracking.md, "Winetasters").
        raise MalformedInput(
            f"{sensor} not read Winetasters' pairs yet: play it with the readers or the phones",
            field="players",
        )
    if state.opts.characters and sensor != READERS:
        # The readers read an ability's physical effect after its owner's tap (phone); the
        # camera's game has not been played with them (docs/tracking.md, "Character abilities").
        raise MalformedInput(
            f"{sensor} not read Character abilities: play with the readers or on the phones",
            field="characters",
        )
    return state
