"""The camera's tags: a ring pseudo-UID per House, and a pseudo-UID per token it counts.

While the Goblets are poured out (the Toast's reveal), the camera turns each seat's counted reveal
area into one pseudo-UID per token (:func:`token_uid`, enrolled as a token of that kind in the
camera's own registry, :func:`camera_registry`), so the pour-out's stable-set logic settles a seat
on the camera's counts as it does on a reader's tags.
"""

from __future__ import annotations

from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tokens import POOL, Token
from companion.core.observations import Observation
from vision import rings

MAX_SEATS = 6
"""The camera's canonical table has 2 to 6 seats (``vision/README.md``, "The canonical table")."""
KINDS = tuple(Token)
"""Token kinds in rulebook order ("Wine | Poison | Antidote | Unicorn Antidote | Ogre Poison"):
a pseudo-UID's kind index."""


def token_uid(seat: int, kind: Token | str, index: int) -> str:
    """The pseudo-UID of the ``index``-th token of ``kind`` the camera counts at ``seat``."""
    return f"CB{seat:02X}{KINDS.index(Token(kind)):02X}{index:02X}"


def camera_registry() -> TagRegistry:
    """The camera's tags: each House's ring (``vision.rings.ring_registry``) and, per seat and
    kind, as many token pseudo-UIDs as the pool has tokens of that kind (no seat can show more)."""
    registry = rings.ring_registry()
    for seat in range(MAX_SEATS):
        for kind in KINDS:
            for index in range(POOL[kind]):
                registry.add_token(token_uid(seat, kind, index), kind.value)
    return registry


def with_tokens(obs: Observation, counts: dict[str, int] | None) -> Observation | None:
    """``obs`` with one pseudo-UID per token counted in its seat's reveal area (None: the frame
    was detected without tokens, so it says nothing about the reveal)."""
    if counts is None:
        return None
    uids = set(obs.tags)
    for kind in KINDS:
        n = int(counts.get(kind.value, 0))
        if n > POOL[kind]:
            # More than the pool holds is a misread: this frame says nothing of the seat.
            return None
        uids.update(token_uid(obs.seat, kind, i) for i in range(n))
    return Observation.of(obs.t, obs.seat, uids, seq=obs.seq, node=obs.node)
