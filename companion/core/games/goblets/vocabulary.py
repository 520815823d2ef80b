"""The journal's vocabulary across versions: an old action's field names upgraded, never taken new.

Until issue 16 the engine called a place ``goblet``: a pour's and a peek's ``"goblet": p``,
``peek_any``'s ``"goblet": p``, a Russian Goblette drink's ``"goblet": p``, a Russian Swap's and
the Averted Eyes / Juggler abilities' ``"goblets": [p, q]``, and Russian Goblette's initial pour
``{"type": "initial_pour", "goblets": [kind, ...]}`` where the standard game's lists ``tokens``.
A place is now ``place`` (a pair of places ``places``) and every initial pour lists ``tokens``
(docs/glossary.md); ``goblet`` is left to what names a Goblet (a shoot-out choice's id, the
tracker's ring names).

A Pi's journal holds games written with the old names, and History replays them, so
:func:`upgraded` renames the old fields of an action read from a journal: the journal's read
doors (:func:`companion.core.journal.upgraded_entries`, called by the SQLite store and by
:meth:`~companion.core.journal.Journal.from_json`) ask the game for it. A new action with an old
name is refused (:func:`refuse_old`, MalformedInput naming the old field): the phones' pages are
served by the same Pi, so only a page left open across the upgrade could send one, and taking
it would keep two vocabularies alive at the API forever (docs/goblets.md, "Old journals").

What is renamed is decided by the value as well as the name, because ``goblet`` and ``goblets``
keep their meaning where they hold Goblets: a shoot-out choice's ``"goblet": id`` (a string),
a shoot-out pour's ``"goblets": {id: kind}`` and a sensed reveal's ``"goblets": [contents per
place]`` (dicts, what the Goblets hold) are left alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.checks import is_whole
from companion.core.errors import MalformedInput
from companion.core.game import Action

ONE_PLACE = ("pour", "peek", "drink", "ability")
"""Action types whose old ``"goblet": p`` (an int) is now ``"place": p``."""
TWO_PLACES = ("swap", "ability")
"""Action types whose old ``"goblets": [p, q]`` (two ints) is now ``"places": [p, q]``."""


def _old_fields(action: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (old, new) field names ``action`` still uses, in the order they are renamed."""
    kind = action.get("type")
    old: list[tuple[str, str]] = []
    if kind in ONE_PLACE and is_whole(action.get("goblet")):
        old.append(("goblet", "place"))
    pair = action.get("goblets")
    if kind in TWO_PLACES and isinstance(pair, list) and all(is_whole(p) for p in pair):
        old.append(("goblets", "places"))
    if kind == "initial_pour" and isinstance(pair, list) and all(isinstance(t, str) for t in pair):
        old.append(("goblets", "tokens"))  # Russian Goblette's, by spot: the place's token
    return old


def upgraded(action: Action) -> Action:
    """``action`` as this version names its fields (a copy when a field was renamed; an action
    already in the new vocabulary, or not an object, is returned as it is)."""
    if not isinstance(action, Mapping):
        return action
    old = _old_fields(action)
    if not old:
        return action
    names = {before: after for before, after in old if after not in action}
    # Each field keeps its place in the object: the upgraded action reads as a new one would.
    return {names.get(key, key): value for key, value in action.items()}


def refuse_old(action: Mapping[str, Any]) -> None:
    """MalformedInput naming the field when a new ``action`` uses an old name (module docstring)."""
    for before, after in _old_fields(action):
        raise MalformedInput(
            f"{before!r} is the old name of {after!r} in a {action.get('type')} action, "
            "read only from a journal written before it changed",
            field=before,
        )
