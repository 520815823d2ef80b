"""The tag registry: which physical thing each RFID tag UID is stuck on.

Every tag is either the Coaster ring of one Goblet ("Each player also receives the Coaster ring of
the same color as their House and attaches it to the base of the Goblet in front of them") or one
token of a kind from the rulebook's Ingredients (wine, poison, antidote, unicorn_antidote,
ogre_poison). The JSON form, shared with ``companion track --registry`` and ``companion enroll``::

    {"tags": {UID: {"kind": "ring", "goblet": NAME} | {"kind": "token", "token": KIND}}}

A UID the registry does not know is not an error: :meth:`TagRegistry.lookup` returns ``None`` and
the tracker reports it as an ``unknown_tag`` event (issue 3: "An unknown tag is reported, never
fatal").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.errors import MalformedInput
from companion.core.games.goblets.tokens import Token
from companion.core.observations import normalize_uid


@dataclass(frozen=True)
class Ring:
    """A Coaster ring: the tag on the base of the Goblet named ``goblet``."""

    goblet: str

    def to_json(self) -> dict[str, str]:
        """``{"kind": "ring", "goblet": NAME}``."""
        return {"kind": "ring", "goblet": self.goblet}


@dataclass(frozen=True)
class TokenTag:
    """A token of kind ``token`` (a :class:`Token` value)."""

    token: Token

    def to_json(self) -> dict[str, str]:
        """``{"kind": "token", "token": KIND}``."""
        return {"kind": "token", "token": self.token.value}


Tag = Ring | TokenTag


class TagRegistry:
    """UID -> :class:`Ring` or :class:`TokenTag`; UIDs are normalised (upper-case hex)."""

    def __init__(self, tags: Mapping[str, Tag] | None = None) -> None:
        self._tags: dict[str, Tag] = {}
        for uid, tag in (tags or {}).items():
            self.add(uid, tag)

    def add(self, uid: str, tag: Tag) -> None:
        """Register ``uid``; registering one UID twice with different meanings is MalformedInput."""
        key = normalize_uid(uid)
        if not isinstance(tag, Ring | TokenTag):
            raise MalformedInput(f"not a ring or a token: {tag!r}", field=f"tags.{uid}")
        if key in self._tags and self._tags[key] != tag:
            raise MalformedInput("registered twice with different meanings", field=f"tags.{uid}")
        self._tags[key] = tag

    def add_ring(self, uid: str, goblet: str) -> None:
        """Register the Coaster ring of ``goblet``."""
        self.add(uid, Ring(check_name(goblet, f"tags.{uid}.goblet")))

    def add_token(self, uid: str, token: str) -> None:
        """Register a token of kind ``token``."""
        self.add(uid, TokenTag(check_token(token, f"tags.{uid}.token")))

    def lookup(self, uid: str) -> Tag | None:
        """What ``uid`` is stuck on, or ``None`` for a tag nobody enrolled."""
        try:
            return self._tags.get(normalize_uid(uid))
        except MalformedInput:
            return None

    def ring_goblet(self, uid: str) -> str | None:
        """The Goblet whose Coaster ring carries ``uid``, else ``None``."""
        tag = self.lookup(uid)
        return tag.goblet if isinstance(tag, Ring) else None

    def token_kind(self, uid: str) -> Token | None:
        """The kind of the token carrying ``uid``, else ``None``."""
        tag = self.lookup(uid)
        return tag.token if isinstance(tag, TokenTag) else None

    def goblets(self) -> list[str]:
        """The names of the Goblets that have a registered Coaster ring, sorted."""
        return sorted({t.goblet for t in self._tags.values() if isinstance(t, Ring)})

    def rings_of(self, goblet: str) -> list[str]:
        """The ring UIDs of ``goblet`` (usually one), sorted."""
        return sorted(u for u, t in self._tags.items() if t == Ring(goblet))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TagRegistry) and self._tags == other._tags

    __hash__ = None  # type: ignore[assignment]

    def __len__(self) -> int:
        return len(self._tags)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._tags))

    def __contains__(self, uid: object) -> bool:
        return isinstance(uid, str) and self.lookup(uid) is not None

    @staticmethod
    def from_json(data: Any) -> TagRegistry:
        """Parse ``{"tags": {UID: {...}}}``; bad data raises MalformedInput naming the field."""
        if not isinstance(data, Mapping):
            raise MalformedInput("a registry must be a JSON object with a 'tags' object")
        unknown = sorted(set(data) - {"tags"})
        if unknown:
            raise MalformedInput("unknown key", field=unknown[0])
        tags = data.get("tags")
        if not isinstance(tags, Mapping):
            raise MalformedInput("must be an object of UID -> tag", field="tags")
        registry = TagRegistry()
        for uid, entry in tags.items():
            field = f"tags.{uid}"
            normalize_uid_field(uid, field)
            if not isinstance(entry, Mapping):
                raise MalformedInput(f"must be an object, got {entry!r}", field=field)
            kind = entry.get("kind")
            if kind == "ring":
                check_keys(entry, {"kind", "goblet"}, field)
                registry.add_ring(uid, entry.get("goblet"))
            elif kind == "token":
                check_keys(entry, {"kind", "token"}, field)
                registry.add_token(uid, entry.get("token"))
            else:
                raise MalformedInput(
                    f"must be 'ring' or 'token', got {kind!r}", field=f"{field}.kind"
                )
        return registry

    def to_json(self) -> dict[str, Any]:
        """The registry as ``{"tags": {UID: {...}}}`` (UIDs sorted)."""
        return {"tags": {uid: self._tags[uid].to_json() for uid in sorted(self._tags)}}


def normalize_uid_field(uid: Any, field: str) -> str:
    """``uid`` normalised, or MalformedInput naming ``field``."""
    if not isinstance(uid, str):
        raise MalformedInput(f"a UID must be a string, got {uid!r}", field=field)
    try:
        return normalize_uid(uid)
    except MalformedInput:
        raise MalformedInput(f"not a hex UID: {uid!r}", field=field) from None


def check_keys(entry: Mapping[str, Any], allowed: set[str], field: str) -> None:
    """MalformedInput naming the first key of ``entry`` not in ``allowed``."""
    for key in sorted(set(entry) - allowed):
        raise MalformedInput("unknown key", field=f"{field}.{key}")


def check_name(name: Any, field: str) -> str:
    """A Goblet name: a non-empty string."""
    if not isinstance(name, str) or not name.strip():
        raise MalformedInput(f"must be a non-empty goblet name, got {name!r}", field=field)
    return name


def check_token(kind: Any, field: str) -> Token:
    """A token kind from the rulebook, or MalformedInput listing the known kinds."""
    try:
        return Token(kind)
    except ValueError:
        known = ", ".join(t.value for t in Token)
        raise MalformedInput(f"unknown token kind {kind!r} (known: {known})", field=field) from None
