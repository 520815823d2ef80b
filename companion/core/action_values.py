"""The base of a game's actions as frozen values: a JSON type and ``wire()``, written once.

A game that reads its actions into frozen, slotted dataclasses at its engine's door (The Gods
Will Have Blood's and Cena's ``actions.parse``) declares each one as a subclass naming its
``TYPE``; :meth:`ActionValue.wire` turns it back into the JSON the journal and the legal-action
lists hold: ``{"type": TYPE, field: value, ...}`` in the fields' order, tuples as lists. Pure.
"""

from __future__ import annotations

from typing import Any, ClassVar


class ActionValue:
    """One action as a frozen value; subclass as ``@dataclass(frozen=True, slots=True)``."""

    __slots__ = ()
    TYPE: ClassVar[str]
    """The action's ``"type"`` in JSON."""

    def wire(self) -> dict[str, Any]:
        """The action as JSON: its type, then each field (a tuple, nested or not, as a list)."""
        wired: dict[str, Any] = {"type": self.TYPE}
        for name in type(self).__slots__:
            wired[name] = _plain(getattr(self, name))
        return wired


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value
