"""Server-Sent Events: ``GET /api/stream?viewer=public|host|seat&token=...``.

Every message is a full snapshot of what that viewer may see (the service builds it through
``state.view(viewer)``), so a client that reconnects simply takes the next snapshot: the first
message of every connection is the current snapshot, ``id:`` is the journal seq and ``retry:``
tells the browser how soon to reconnect. Comments (``: heartbeat``) keep idle connections alive and
let the server notice clients that left. No polling anywhere.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, request

from companion.core.game import HOST, PUBLIC, Viewer
from companion.service import Closed
from companion.web import auth
from companion.web.errors import Forbidden

bp = Blueprint("sse", __name__, url_prefix="/api")

RETRY_MS = 2000


def encode(message: dict) -> str:
    """One SSE frame: ``id:`` the journal seq, ``data:`` the JSON snapshot."""
    data = json.dumps(message, separators=(",", ":"))
    return f"id: {message.get('seq', -1)}\nevent: snapshot\ndata: {data}\n\n"


def _viewer() -> Viewer:
    from companion.web import ctx

    kind = request.args.get("viewer", "public")
    if kind == "public":
        return PUBLIC
    if kind == "host":
        if not auth.is_host():
            raise Forbidden("log in as the Host first", status=401)
        return HOST
    if kind == "seat":
        seat = ctx().service.seat_of(request.args.get("token"))
        if seat is None:
            raise Forbidden("unknown seat link", status=404)
        return Viewer.seat(seat)
    raise Forbidden(f"unknown viewer {kind!r}", field="viewer", status=400)


@bp.get("/stream")
def stream():
    """The live stream of snapshots for one viewer."""
    from companion.web import ctx

    context = ctx()
    viewer = _viewer()
    service = context.service
    heartbeat = context.config.web.heartbeat
    # Subscribe before taking the first snapshot: an update in between is sent again, never lost.
    subscriber = service.hub.subscribe(viewer)

    def frames():
        try:
            yield f"retry: {RETRY_MS}\n: connected\n\n"
            yield encode(service.message(viewer))
            while True:
                try:
                    message = subscriber.take(heartbeat)
                except Closed:
                    return
                yield encode(message) if message is not None else ": heartbeat\n\n"
        finally:
            service.hub.unsubscribe(subscriber)

    return Response(
        frames(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
