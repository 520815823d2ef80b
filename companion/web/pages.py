"""The dashboard's pages: server-rendered HTML with the first snapshot embedded as JSON.

Each page then listens to its viewer's SSE stream (static/live.js). Pages: the Table (public
tablet), a Seat (a player's phone, by its link), the Host (PIN), History (past games and the
replay timeline), the Courtroom (The Gods Will Have Blood) and Cena (the trick-taking table; a Cena
seat's phone gets its own page).
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from companion.core.game import HOST, PUBLIC, Viewer
from companion.web import auth

bp = Blueprint("pages", __name__)


def _ctx():
    from companion.web import ctx

    return ctx()


@bp.get("/")
def table():
    """The public tablet: the drawn table, whose turn, the feed, sensors, the Toast."""
    from companion.web.api import seat_links

    host = auth.is_host()
    return render_template(
        "table.html",
        page="table",
        message=_ctx().service.message(PUBLIC),
        links=seat_links() if host else [],
        host=host,
        csrf=auth.session_csrf(),
    )


@bp.get("/seat/<token>")
def seat(token: str):
    """A player's phone: their screen, Target, Character, peeks and their actions."""
    service = _ctx().service
    index = service.seat_of(token)
    if index is None:
        abort(404, "unknown seat link")
    message = service.message(Viewer.seat(index))
    return render_template(
        "cena_seat.html" if message.get("game") == "cena" else "seat.html",
        page="seat",
        message=message,
        token=token,
        csrf=auth.seat_csrf(_ctx().secret, token),
    )


@bp.get("/host")
def host():
    """The Host's controls (a PIN login first)."""
    service = _ctx().service
    logged_in = auth.is_host()
    return render_template(
        "host.html",
        page="host",
        host=logged_in,
        message=service.message(HOST) if logged_in else None,
        games=sorted(service.games),
        csrf=auth.session_csrf(),
    )


@bp.get("/history")
def history():
    """Past games, newest first."""
    return render_template(
        "history.html", page="history", games=_ctx().service.history(), csrf=auth.session_csrf()
    )


@bp.get("/history/<int:game_id>")
def replay(game_id: int):
    """A game's replay timeline, step by step (only what has been revealed)."""
    timeline = _ctx().service.timeline(game_id)
    return render_template(
        "replay.html", page="history", timeline=timeline, csrf=auth.session_csrf()
    )


@bp.get("/courtroom")
def courtroom():
    """The Gods Will Have Blood: pool, odds, draws, vine, Momentum Box, effects, log."""
    service = _ctx().service
    return render_template(
        "courtroom.html",
        page="courtroom",
        message=service.message(PUBLIC),
        host=auth.is_host(),
        csrf=auth.session_csrf(),
    )


@bp.get("/cena")
def cena():
    """Cena on the tablet: Houses, alliances, the poison, Welcome cards, the trick, the score pad.

    With the Host logged in on this tablet, each House's join code is shown too.
    """
    from companion.web.api import seat_links

    service = _ctx().service
    table = service.table
    show_links = auth.is_host() and table is not None and table.record.game == "cena"
    return render_template(
        "cena.html",
        page="cena",
        message=service.message(PUBLIC),
        links=seat_links() if show_links else [],
        csrf=auth.session_csrf(),
    )
