"""Independent copies of a game state's plain data, fast enough to take before every action.

Every engine applies an action to a clone and keeps it only when the action was legal, so a
refused action can never leave half its changes behind. A clone therefore runs once per action
(and many times per action in the conformance suite's resampling), and ``copy.deepcopy`` spends
most of its time on bookkeeping plain data does not need: a state is dicts, lists, numbers,
strings, Enums and frozen dataclasses. :func:`copied` copies exactly that, shares what is
immutable, and falls back to ``copy.deepcopy`` for anything else, so no field is ever missed.
"""

from __future__ import annotations

import copy
import dataclasses
from enum import Enum
from typing import Any, TypeVar

T = TypeVar("T")

_SHARED: set[type] = {str, int, float, bool, type(None), tuple, frozenset}
"""Types whose values a copy may share: immutable (an Enum or frozen dataclass type joins on
first sight, so the common case is one set lookup)."""


def copied(value: Any) -> Any:
    """A copy of ``value`` sharing nothing mutable: plain lists and dicts recursively, immutable
    values as they are, anything else (a Counter, the shoot-out's own state) deep-copied."""
    kind = type(value)
    if kind is list:
        return [copied(item) for item in value]
    if kind is dict:
        return {key: copied(item) for key, item in value.items()}
    if kind in _SHARED:
        return value
    if isinstance(value, Enum) or (
        dataclasses.is_dataclass(value) and kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
    ):
        _SHARED.add(kind)
        return value
    return copy.deepcopy(value)


def clone_of(obj: T) -> T:
    """An independent copy of ``obj``: every attribute (declared or not) :func:`copied`, so a
    field added later is copied too."""
    new = object.__new__(type(obj))
    new.__dict__.update({key: copied(value) for key, value in vars(obj).items()})
    return new
