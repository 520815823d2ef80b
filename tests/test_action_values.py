"""companion.core.action_values: a frozen action's wire() is the JSON it stands for."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

from companion.core.action_values import ActionValue
from companion.core.copies import copied


@dataclass(frozen=True, slots=True)
class Deal(ActionValue):
    TYPE: ClassVar[str] = "deal"
    hands: tuple[tuple[str, ...], ...]
    set_aside: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reveal(ActionValue):
    TYPE: ClassVar[str] = "reveal"


def test_wire_gives_the_type_then_each_field_in_order_tuples_as_lists():
    wired = Deal((("a", "b"), ()), ("c",)).wire()
    assert wired == {"type": "deal", "hands": [["a", "b"], []], "set_aside": ["c"]}
    assert json.dumps(wired) == '{"type": "deal", "hands": [["a", "b"], []], "set_aside": ["c"]}'
    assert Reveal().wire() == {"type": "reveal"}


def test_a_clone_shares_a_frozen_action():
    deal = Deal((("a",),), ())
    assert copied({"last": deal})["last"] is deal
