"""Typed domain errors, translated to messages and HTTP codes only at the edges.

Three different failures never share a type (DESIGN.md principle 9): input that cannot be read at
all (:class:`MalformedInput`), an action the rules forbid (:class:`IllegalAction`, which names the
rule it breaks), and an observation the tracker cannot explain (:class:`AmbiguousObservation`).
"""

from __future__ import annotations


class CupbearerError(Exception):
    """Base of every error the companion raises on purpose."""


class MalformedInput(CupbearerError, ValueError):
    """Input that cannot be understood: bad JSON, a missing field, a wrong type.

    ``field`` names the offending field (dotted path) when there is one.
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.detail = message


class IllegalAction(CupbearerError):
    """An action the rules forbid; ``rule`` quotes or names the rulebook sentence it breaks.

    The state that refused the action is left exactly as it was.
    """

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(f"{message} (rule: {rule})")
        self.rule = rule
        self.detail = message


class AmbiguousObservation(CupbearerError):
    """Sensor data that cannot be explained without guessing; the host must resolve it."""
