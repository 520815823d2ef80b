"""The one whole-number check: an ``int`` that is not a ``bool``.

JSON's ``true`` arrives in Python as ``True``, and ``True`` is an ``int`` (``True == 1``), so a
seat, a count or an id read from a request, a journal or a wire record is a whole number only
when it is an ``int`` and not a ``bool``. Every door of the companion asks this module rather
than writing the two ``isinstance`` calls again (issue 16). Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import MalformedInput


def is_whole(value: Any) -> bool:
    """True for an ``int`` that is not a ``bool`` (``True`` is not the number 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """True for an ``int`` or a ``float`` that is not a ``bool``: a time or a rate."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def whole(
    value: Any, field: str, message: str, *, low: int | None = None, high: int | None = None
) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (both inclusive, each optional),
    else :class:`MalformedInput` with ``message`` naming ``field``.

    The caller words the message (it says what the number is: "a seat from 0 to 3"), so a refusal
    reads as it always has wherever this check replaced one written out by hand.
    """
    if (
        not is_whole(value)
        or (low is not None and value < low)
        or (high is not None and high < value)
    ):
        raise MalformedInput(message, field=field)
    return value


def within(value: Any, field: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (inclusive), else
    MalformedInput naming ``field``: "must be an integer from LOW to HIGH, got VALUE", the
    wording of every door that asks for a number in a range and says nothing more of it."""
    message = f"must be an integer from {low} to {high}, got {value!r}"
    return whole(value, field, message, low=low, high=high)
