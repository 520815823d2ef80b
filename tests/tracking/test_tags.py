"""The tag registry: JSON round trip, typed errors naming the field, unknown tags are None."""

import pytest

from companion.core.errors import MalformedInput
from companion.core.games.goblets.tags import Ring, TagRegistry, TokenTag
from companion.core.games.goblets.tokens import Token

DATA = {
    "tags": {
        "04A1B2C3D4E5F6": {"kind": "ring", "goblet": "de_miceti"},
        "04a1b2c3d4e5f7": {"kind": "token", "token": "poison"},
        "04:A1:B2:C3:D4:E5:F8": {"kind": "token", "token": "ogre_poison"},
    }
}


def test_round_trip_normalises_uids():
    registry = TagRegistry.from_json(DATA)
    assert registry.to_json() == {
        "tags": {
            "04A1B2C3D4E5F6": {"kind": "ring", "goblet": "de_miceti"},
            "04A1B2C3D4E5F7": {"kind": "token", "token": "poison"},
            "04A1B2C3D4E5F8": {"kind": "token", "token": "ogre_poison"},
        }
    }
    assert TagRegistry.from_json(registry.to_json()).to_json() == registry.to_json()
    assert len(registry) == 3


def test_lookups():
    registry = TagRegistry.from_json(DATA)
    assert registry.lookup("04a1b2c3d4e5f6") == Ring("de_miceti")
    assert registry.lookup("04A1B2C3D4E5F7") == TokenTag(Token.POISON)
    assert registry.ring_goblet("04A1B2C3D4E5F6") == "de_miceti"
    assert registry.token_kind("04A1B2C3D4E5F8") is Token.OGRE_POISON
    assert registry.ring_goblet("04A1B2C3D4E5F7") is None
    assert registry.goblets() == ["de_miceti"]
    assert registry.rings_of("de_miceti") == ["04A1B2C3D4E5F6"]
    assert "04A1B2C3D4E5F6" in registry


@pytest.mark.parametrize("uid", ["0499", "not hex", ""])
def test_unknown_or_unreadable_uid_is_none(uid):
    registry = TagRegistry.from_json(DATA)
    assert registry.lookup(uid) is None
    assert registry.token_kind(uid) is None


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], None),
        ({"tags": []}, "tags"),
        ({"tags": {}, "extra": 1}, "extra"),
        ({"tags": {"XYZ": {"kind": "ring", "goblet": "a"}}}, "tags.XYZ"),
        ({"tags": {"04AA": "ring"}}, "tags.04AA"),
        ({"tags": {"04AA": {"kind": "cup"}}}, "tags.04AA.kind"),
        ({"tags": {"04AA": {"kind": "ring", "goblet": ""}}}, "tags.04AA.goblet"),
        ({"tags": {"04AA": {"kind": "ring", "goblet": 3}}}, "tags.04AA.goblet"),
        ({"tags": {"04AA": {"kind": "token", "token": "beer"}}}, "tags.04AA.token"),
        (
            {"tags": {"04AA": {"kind": "token", "token": "wine", "colour": "red"}}},
            "tags.04AA.colour",
        ),
        (
            {
                "tags": {
                    "04AA": {"kind": "token", "token": "wine"},
                    "04:AA": {"kind": "token", "token": "poison"},
                }
            },
            "tags.04:AA",
        ),
    ],
)
def test_malformed_registry_names_the_field(data, field):
    with pytest.raises(MalformedInput) as caught:
        TagRegistry.from_json(data)
    assert caught.value.field == field


def test_add_same_meaning_twice_is_harmless():
    registry = TagRegistry()
    registry.add_token("04aa", "wine")
    registry.add_token("04AA", "wine")
    assert len(registry) == 1
