"""The journal's vocabulary: which old fields are upgraded, and which ``goblet`` stays a Goblet.

``goblet`` / ``goblets`` once named places (issue 16); they still name Goblets in a shoot-out
(``"goblet": id``, ``"goblets": {id: kind}``) and in a sensed reveal (``"goblets"``: what each
Goblet holds), so the upgrade decides by the value, and an action in today's names is left as
it is (docs/goblets.md, "Old journals").
"""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInput
from companion.core.games.goblets.vocabulary import refuse_old, upgraded

RENAMED = [
    ({"type": "pour", "seat": 1, "goblet": 2, "token": "wine"}, {"place": 2}),
    ({"type": "peek", "seat": 0, "goblet": 5}, {"place": 5}),
    ({"type": "drink", "seat": 0, "goblet": 3}, {"place": 3}),
    ({"type": "swap", "seat": 0, "goblets": [1, 4]}, {"places": [1, 4]}),
    ({"type": "ability", "seat": 2, "card": "Taster", "goblet": 0}, {"place": 0}),
    (
        {"type": "ability", "seat": 1, "card": "Eyes", "goblets": [0, 2], "swap": True},
        {"places": [0, 2]},
    ),
    ({"type": "initial_pour", "goblets": ["wine"] * 3 + ["poison"] * 2 + ["antidote"]}, {}),
]


@pytest.mark.parametrize(("old", "new_fields"), RENAMED)
def test_an_old_place_field_is_renamed_in_its_place(old, new_fields):
    new = upgraded(old)
    renamed = "goblets" if "goblets" in old else "goblet"
    assert renamed not in new
    if old["type"] == "initial_pour":
        assert new == {"type": "initial_pour", "tokens": old["goblets"]}
    else:
        assert {k: new[k] for k in new_fields} == new_fields
    # Every other field kept, in the order it was written.
    names = {"goblet": "place", "goblets": "places"}
    if old["type"] == "initial_pour":
        names = {"goblets": "tokens"}
    assert list(new) == [names.get(k, k) for k in old]
    assert upgraded(new) is new  # already current: untouched
    with pytest.raises(MalformedInput) as error:
        refuse_old(old)
    assert error.value.field == renamed
    refuse_old(new)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "shootout_choose", "seat": 0, "goblet": "de_miceti"},
        {"type": "shootout_pour", "goblets": {"de_miceti": "wine", "mctoadery": "poison"}},
        {"type": "reveal", "seat": 1, "goblets": [{"wine": 1}, {}, {"poison": 2}, {}]},
        {"type": "initial_pour", "tokens": ["wine", "poison"]},
        {"type": "journal.undo", "seq": 3},
        ["not", "an", "object"],
    ],
)
def test_a_field_that_holds_goblets_is_left_alone(action):
    assert upgraded(action) is action
    if isinstance(action, dict):
        refuse_old(action)
