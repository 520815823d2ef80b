"""Who a request speaks for: the one place the web layer turns credentials into a viewer.

The public tablet needs nothing; the Host, a live session (the signed cookie naming a server-side
session, :class:`~companion.web.auth.HostSessions`); a seat, its phone's device secret holding a
live claim of the game at the table (:mod:`companion.service.seats`). A Host session never makes
a seat, nor a seat cookie the Host: each request names the viewer it wants, and gets it or a
refusal (401 for the Host, 403 "join again" for a seat).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Request, session

from companion.core.errors import MalformedInput
from companion.core.game import HOST, PUBLIC, Viewer
from companion.service.seats import NOT_SEATED, Claim, NotSeated
from companion.web import auth
from companion.web.context import ctx
from companion.web.errors import NOT_HOST, HttpError

KINDS = ("public", "host", "seat")
"""The viewers a request may ask to be (``?viewer=`` on the stream)."""


@dataclass(frozen=True)
class Who:
    """The viewer a request speaks for, with what proves it.

    ``claim`` and ``device`` (its device secret): a seat's; ``host_session``: the digest of the
    Host's session (a stream carries it, so that logging out ends the stream).
    """

    viewer: Viewer
    claim: Claim | None = None
    device: str | None = None
    host_session: str | None = None


def viewer_from(request: Request, kind: str | None = None) -> Who:
    """The viewer ``request`` speaks for as ``kind`` ("public", "host" or "seat"; default: its
    ``?viewer=`` argument, else public).

    Refused: the Host without a live session (401), a seat whose phone holds no live claim
    (:class:`NotSeated`, 403), an unknown kind (400 naming ``viewer``).
    """
    if kind is None:
        kind = request.args.get("viewer", "public")
    if kind == "public":
        return Who(PUBLIC)
    if kind == "host":
        sessions = ctx().sessions
        sid = session.get("host")
        if not sessions.is_live(sid):  # logged out, idle too long, or never logged in
            raise HttpError(401, NOT_HOST)
        return Who(HOST, host_session=sessions.digest(sid))
    if kind == "seat":
        device = request.cookies.get(auth.SEAT_COOKIE) or None
        mine = ctx().service.claim_of(device)
        if mine is None:
            raise NotSeated(NOT_SEATED)
        return Who(Viewer.seat(mine.seat), mine, device)
    raise MalformedInput(f"unknown viewer {kind!r}", field="viewer")


def is_viewer(request: Request, kind: str) -> bool:
    """True when ``request`` may speak for ``kind`` now (a page that shows either way)."""
    try:
        viewer_from(request, kind)
    except (HttpError, NotSeated):
        return False
    return True
