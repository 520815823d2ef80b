"""Server-Sent Events: ``GET /api/stream?viewer=public|host|seat``.

Every message is a full snapshot of what that viewer may see (the service builds it through
``state.view(viewer)``), so a client that reconnects simply takes the next snapshot: the first
message of every connection is the current snapshot, ``id:`` is the journal seq and ``retry:``
tells the browser how soon to reconnect. Comments (``: heartbeat``) keep idle connections alive and
let the server notice clients that left. No polling anywhere.

A seat's stream is its phone's claim (the seat cookie). When the claim ends, because a new game
started or the Host freed the seat, the stream's last frame is ``event: closed`` with the reason
(``{"reason": "new_game"}``) and nothing of the game: the phone asks its player to join again.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, request

from companion.service import Closed, Subscriber
from companion.web.context import ctx
from companion.web.viewers import viewer_from

bp = Blueprint("sse", __name__, url_prefix="/api")

RETRY_MS = 2000


def encode(message: dict) -> str:
    """One SSE frame: ``id:`` the journal seq, ``data:`` the JSON snapshot."""
    # Keys sorted, as every JSON answer is: the order a dict was filled in (which token went into
    # a Goblet first) must not travel with it.
    data = json.dumps(message, separators=(",", ":"), sort_keys=True)
    return f"id: {message.get('seq', -1)}\nevent: snapshot\ndata: {data}\n\n"


def closing(reason: str) -> str:
    """The last frame of a stream whose claim ended: why, and nothing else."""
    return f"event: closed\ndata: {json.dumps({'reason': reason})}\n\n"


def _subscribe(service) -> Subscriber:
    """The subscriber of the viewer this request names (``?viewer=``; a seat: its phone's live
    claim, the Host: its session, so that logging out ends the stream)."""
    who = viewer_from(request)
    return service.subscribe(who.viewer, who.claim, host_session=who.host_session)


class EventStream:
    """One viewer's stream of frames, to be sent by whichever server serves it.

    Iterated (``for frame in stream``) it blocks its thread between messages, as a WSGI server
    would send it (Flask's test client). The dashboard's own server (:mod:`companion.web.front`)
    finds it in the request's environ under :data:`ENVIRON_KEY` and sends it with
    :meth:`frames_async` instead, so that a live stream holds no worker thread.
    """

    def __init__(self, service, subscriber: Subscriber, heartbeat: float) -> None:
        self.service = service
        self.subscriber = subscriber
        self.heartbeat = heartbeat

    @staticmethod
    def frame(message: dict | None) -> str:
        """A snapshot's frame, or a heartbeat comment for None."""
        return encode(message) if message is not None else ": heartbeat\n\n"

    def __iter__(self):
        yield f"retry: {RETRY_MS}\n: connected\n\n"
        while True:
            try:
                message = self.subscriber.take(self.heartbeat)
            except Closed as closed:
                if closed.reason != "stopping":
                    yield closing(closed.reason)
                return
            yield self.frame(message)

    async def frames_async(self):
        """The same frames, awaited on the event loop."""
        yield f"retry: {RETRY_MS}\n: connected\n\n"
        while True:
            try:
                message = await self.subscriber.take_async(self.heartbeat)
            except Closed as closed:
                if closed.reason != "stopping":
                    yield closing(closed.reason)
                return
            yield self.frame(message)

    def close(self) -> None:
        """The client left or the server is done with it: unsubscribe (idempotent)."""
        self.service.hub.unsubscribe(self.subscriber)


ENVIRON_KEY = "cupbearer.event_stream"
"""Where a stream's :class:`EventStream` waits in the request's WSGI environ for the server."""


@bp.get("/stream")
def stream():
    """The live stream of snapshots for one viewer."""
    context = ctx()
    service = context.service
    # The subscriber holds its first snapshot already, taken under the service's lock with the
    # claim checked: an update after it is the next message, never lost nor another game's.
    events = EventStream(service, _subscribe(service), context.config.web.heartbeat)
    request.environ[ENVIRON_KEY] = events
    return Response(
        events,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
