"""companion.core.copies: the clone every engine takes before an action shares nothing mutable."""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from enum import StrEnum

from companion.core.copies import clone_of, copied


class Phase(StrEnum):
    TURNS = "turns"


@dataclass(frozen=True)
class Frozen:
    n: int


@dataclass
class Loose:
    items: list[int] = field(default_factory=list)


def test_nested_plain_data_is_copied_and_immutables_are_shared():
    frozen, loose = Frozen(1), Loose([1])
    value = {"a": [1, [2, {"b": [3]}]], "phase": Phase.TURNS, "f": frozen, "l": loose, "t": (1,)}
    copy = copied(value)
    assert copy == value
    copy["a"][1][1]["b"].append(4)
    copy["l"].items.append(2)
    assert value["a"][1][1]["b"] == [3] and loose.items == [1]  # nothing mutable shared
    assert copy["phase"] is Phase.TURNS and copy["f"] is frozen and copy["t"] is value["t"]


def test_subclasses_of_list_and_dict_keep_their_type():
    counts = collections.Counter(red=2)
    default = collections.defaultdict(list, {"x": [1]})
    copy = copied({"c": counts, "d": default})
    assert type(copy["c"]) is collections.Counter and copy["c"] == counts
    copy["d"]["x"].append(2)
    copy["d"]["new"].append(1)  # still a defaultdict
    assert default == {"x": [1]}


def test_a_clone_copies_every_attribute_even_one_added_later():
    class State:
        def __init__(self) -> None:
            self.vp = [0, 0]

    state = State()
    state.added_later = {"seen": [1]}
    clone = clone_of(state)
    assert type(clone) is State
    clone.vp[0] = 5
    clone.added_later["seen"].append(2)
    assert state.vp == [0, 0] and state.added_later == {"seen": [1]}
