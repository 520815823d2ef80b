"""Frozen, timestamped observations: what one reader saw at one seat at one moment.

Readers report snapshots, not deltas (DESIGN.md, sensing facts): each observation carries the full
set of tag UIDs the seat's reader sees now, so every message is idempotent, a lost one costs
nothing, and a restart resyncs from the latest. ``t`` is seconds on the receiver's clock (handed
in; the core reads no clock), ``seq`` is the node's per-seat sequence number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.checks import is_number, whole
from companion.core.errors import MalformedInput


def normalize_uid(uid: str) -> str:
    """A UID as upper-case hex with no separators (``"04:a1:b2"`` -> ``"04A1B2"``)."""
    text = str(uid).replace(":", "").replace(" ", "").replace("-", "").upper()
    if not text or len(text) % 2 or any(c not in "0123456789ABCDEF" for c in text):
        raise MalformedInput(f"not a hex UID: {uid!r}", field="tags")
    return text


@dataclass(frozen=True)
class Observation:
    """The full set of tags one seat's reader sees at time ``t``."""

    t: float
    seat: int
    tags: frozenset[str]
    seq: int | None = None
    node: str | None = None

    @staticmethod
    def of(t: float, seat: int, tags: Iterable[str], **extra: Any) -> Observation:
        """Build an observation, normalising UIDs."""
        return Observation(
            t=float(t), seat=int(seat), tags=frozenset(map(normalize_uid, tags)), **extra
        )

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Observation:
        """Parse ``{"t": s, "seat": i, "tags": [uid, ...]}`` (plus optional seq, node)."""
        if not isinstance(data, Mapping):
            raise MalformedInput("an observation must be a JSON object")
        for key in ("t", "seat", "tags"):
            if key not in data:
                raise MalformedInput("missing", field=key)
        t, seat, tags = data["t"], data["seat"], data["tags"]
        if not is_number(t):
            raise MalformedInput(f"must be a number of seconds, got {t!r}", field="t")
        whole(seat, "seat", f"must be a seat index >= 0, got {seat!r}", low=0)
        if not isinstance(tags, list) or not all(isinstance(u, str) for u in tags):
            raise MalformedInput("must be a list of UID strings", field="tags")
        seq = data.get("seq")
        if seq is not None:
            whole(seq, "seq", f"must be an integer, got {seq!r}")
        node = data.get("node")
        return Observation.of(t, seat, tags, seq=seq, node=None if node is None else str(node))

    def to_json(self) -> dict[str, Any]:
        """The observation as JSON-able data (tags sorted, so equal snapshots encode equally)."""
        data: dict[str, Any] = {"t": self.t, "seat": self.seat, "tags": sorted(self.tags)}
        if self.seq is not None:
            data["seq"] = self.seq
        if self.node is not None:
            data["node"] = self.node
        return data
