"""What each viewer is sent: the one way out of the service (DESIGN.md principle 3).

Every message is a full snapshot built from ``state.view(viewer)`` and
``state.visible_events(feed, viewer)``: the service adds only what the table's furniture says
(whose move it is, the seats' names, the readers' and the camera's health, the Host's notices and
undo) and decides no secret itself (docs/security.md).
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.config import Config
from companion.core.game import CHANCE, HOST, Mode, Viewer
from companion.service.hub import Message
from companion.service.journaled import Table
from companion.store.journal import GameRecord

FEED_SHOWN = 40
"""Events of the feed a message carries (the newest the viewer may see)."""


class Sources(Protocol):
    """What a message is built from (the :class:`~companion.service.table.Service`)."""

    config: Config
    table: Table | None
    sensing: Any
    camera: Any
    readers: dict[int, str]
    notices: list[dict[str, Any]]
    demo_on: bool
    demo_available: bool

    def mode_of(self, record: GameRecord) -> Mode:
        """How ``record``'s game is played (recorded or enforced)."""
        ...


def message(service: Sources, viewer: Viewer) -> Message:
    """Everything ``viewer`` may see now at ``service``'s table (call under its lock)."""
    table = service.table
    data: Message = {
        "viewer": {"kind": viewer.kind, "index": viewer.index},
        "virtual": service.config.is_virtual,
        "demo": service.demo_on,
        "sensed": service.sensing is not None,
        "readers": {str(k): v for k, v in sorted(service.readers.items())},
    }
    if service.camera is not None:
        # Health only (frame rate, age, errors, status): no image and no counts.
        data["camera"] = service.camera.health()
    pouring = None if service.sensing is None else service.sensing.pour_out_view()
    if pouring is not None:
        # The Goblets are being poured out in front of everyone (the reveal has begun): each
        # place's progress and how many tokens lie there, never their kinds.
        data["pour_out"] = pouring
    if table is None:
        data.update({"seq": -1, "game": None, "game_id": None, "play": None})
        if viewer == HOST:
            data["demo_available"] = service.demo_available
        return data
    state = table.state
    mover = state.to_move()
    seats = table.seats
    assert seats is not None
    data.update(
        {
            "seq": table.seq,
            "at": table.entries[-1].t if table.entries else table.record.created,
            "game": table.record.game,
            "game_id": table.record.id,
            "play": table.record.play,
            "seats": state.num_seats,
            "players": seats.players(),
            "joinable": seats.is_open() and not table.record.is_finished,
            "over": state.is_over(),
            "to_move": "chance" if mover is CHANCE else mover,
            "view": state.view(viewer),
            "events": state.visible_events(table.feed, viewer)[-FEED_SHOWN:],
        }
    )
    drawn = state.hand_draw() if mover is CHANCE else None
    if drawn is not None and not table.record.is_demo:
        data["to_move"] = drawn[0]  # the player draws: it is their move
    if state.is_over():
        data["outcome"] = state.outcome()
    if viewer.is_seat:
        data["you"] = {"seat": viewer.index, "label": seats.label(viewer.index)}
        if data["to_move"] == viewer.index:
            legal = [{"type": drawn[1]}] if drawn is not None else state.legal_actions()
            if service.sensing is not None:
                # On a read table the sensors record pours and moves: the phone offers only
                # what they cannot see (service/sensing.py PHONE_SAYS).
                legal = service.sensing.phone_actions(legal)
            data["legal"] = legal
    if viewer == HOST:
        data["demo_available"] = service.demo_available
        data["can_undo"] = table.can_undo
        data["mode"] = service.mode_of(table.record).value
        data["notices"] = list(service.notices)
        fusion = getattr(service.sensing, "fusion_view", None)
        if fusion is not None and (shown := fusion()) is not None:
            data["fusion"] = shown  # readers and camera: what they disagree on
        if drawn is not None:
            data["draw"] = {"type": drawn[1]}
    data["revealed_through"] = table.reveal_seq
    return data
