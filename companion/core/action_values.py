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
        # Every legal action of every step is wired (a Goblets turn offers about fifteen), so
        # a scalar field is copied without a call: only a tuple needs _plain.
        wired: dict[str, Any] = {"type": self.TYPE}
        for name in self.__slots__:
            value = getattr(self, name)
            wired[name] = _plain(value) if type(value) is tuple else value
        return wired


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value
