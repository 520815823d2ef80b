"""The JSON API: everything the pages do (documented in docs/api.md).

Thin: each view parses the request, asks the service, returns its per-viewer message. Host routes
need the Host session; seat routes carry the seat's link token in the path.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request, session, url_for

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import HOST, Mode, Viewer
from companion.web import auth
from companion.web.errors import Forbidden
from companion.web.qr import qr_svg

bp = Blueprint("api", __name__, url_prefix="/api")


def _ctx():
    from companion.web import ctx

    return ctx()


def body() -> dict[str, Any]:
    """The request's JSON object, or MalformedInput."""
    if not request.is_json:
        raise MalformedInput("send application/json", field="Content-Type")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise MalformedInput("the body must be a JSON object", field="body")
    return data


def require_host() -> None:
    """Refuse unless the Host is logged in (401)."""
    if not auth.is_host():
        raise Forbidden("log in as the Host first", status=401)


def seat_viewer(token: str) -> Viewer:
    """The seat whose link is ``token``; an unknown link is 404 (it reveals nothing)."""
    seat = _ctx().service.seat_of(token)
    if seat is None:
        raise Forbidden("unknown seat link", status=404)
    return Viewer.seat(seat)


# -- public -----------------------------------------------------------------------------------


@bp.get("/state")
def public_state():
    """The public (tablet) view."""
    return jsonify(_ctx().service.message(Viewer("public")))


@bp.get("/csrf")
def csrf():
    """This browser's session CSRF token (sets the session cookie)."""
    return jsonify({"csrf": auth.session_csrf()})


@bp.get("/games")
def games():
    """Past and current games, newest first (records only)."""
    service = _ctx().service
    return jsonify({"games": service.history(), "available": sorted(service.games)})


@bp.get("/games/<int:game_id>/export")
def export(game_id: int):
    """A finished game's journal as JSON (refused with 409 while it is in play)."""
    return jsonify(_ctx().service.export(game_id))


@bp.get("/games/<int:game_id>/timeline")
def timeline(game_id: int):
    """The replay frames of everything up to the latest reveal."""
    return jsonify(_ctx().service.timeline(game_id))


# -- seats ------------------------------------------------------------------------------------


@bp.get("/seat/<token>/state")
def seat_state(token: str):
    """What this seat sees (its screen, Target, peeks, legal actions on its turn)."""
    return jsonify(_ctx().service.message(seat_viewer(token)))


@bp.post("/seat/<token>/act")
def seat_act(token: str):
    """Play ``{"action": {...}}`` for this seat (enforcing: 409 with the rule if illegal)."""
    viewer = seat_viewer(token)
    return jsonify(_ctx().service.act(body().get("action"), by=viewer))


# -- host -------------------------------------------------------------------------------------


@bp.post("/host/login")
def login():
    """``{"pin": "..."}`` -> a Host session; rate-limited per address (429 when locked)."""
    gate = _ctx().gate
    address = request.remote_addr or "?"
    wait = gate.retry_after(address)
    if wait > 0:
        raise Forbidden(f"too many wrong PINs: wait {wait:.0f} s", field="pin", status=429)
    pin = body().get("pin")
    if not isinstance(pin, str) or not gate.check(address, pin):
        raise Forbidden("wrong PIN", field="pin", status=401)
    session.clear()
    session["host"] = True
    return jsonify({"host": True, "csrf": auth.session_csrf()})


@bp.post("/host/logout")
def logout():
    """End the Host session."""
    session.clear()
    return jsonify({"host": False, "csrf": auth.session_csrf()})


@bp.get("/host/state")
def host_state():
    """The Host's view (no goblet contents before the reveal, no seat's screen)."""
    require_host()
    return jsonify(_ctx().service.message(HOST))


@bp.post("/host/game")
def new_game():
    """``{"game": name, "options": {...}}``: start a new game (the old one is abandoned)."""
    require_host()
    data = body()
    options = data.get("options")
    return jsonify(_ctx().service.new_game(data.get("game"), {} if options is None else options))


def _mode(data: dict[str, Any]) -> Mode | None:
    value = data.get("mode")
    if value is None:
        return None
    try:
        return Mode(value)
    except ValueError:
        raise MalformedInput("must be 'enforcing' or 'recording'", field="mode") from None


@bp.post("/host/act")
def host_act():
    """``{"action": {...}, "mode": "enforcing"|"recording"}``: enter an event by hand."""
    require_host()
    data = body()
    return jsonify(_ctx().service.act(data.get("action"), by=HOST, mode=_mode(data)))


@bp.post("/host/sensed")
def sensed_input():
    """``{"input": "start_course"|"toast"|"pass"|"reveal"|"fix_layout", ...}`` on a sensed table."""
    require_host()
    service = _ctx().service
    if service.sensing is None:
        raise IllegalAction("this table is not sensed", rule="Sensed inputs need reader nodes.")
    service.sensing.host_input(body())
    return jsonify(service.message(HOST))


@bp.post("/host/undo")
def undo():
    """Undo the last action (journaled; chance draws are final)."""
    require_host()
    return jsonify(_ctx().service.undo())


@bp.post("/host/reader")
def reader():
    """``{"seat": i, "status": "broken"|"online"|...}``: mark a seat's reader."""
    require_host()
    data = body()
    _ctx().service.set_reader(data.get("seat"), data.get("status"), by_host=True)
    return jsonify(_ctx().service.message(HOST))


@bp.get("/host/links")
def links():
    """Every seat's join link and its QR code (SVG): for the Host's screen only."""
    require_host()
    return jsonify({"links": seat_links()})


@bp.post("/host/links")
def new_link():
    """``{"seat": i}``: replace a seat's link (a lost phone)."""
    require_host()
    seat = body().get("seat")
    _ctx().service.new_seat_token(seat)
    return jsonify({"links": seat_links()})


def seat_links() -> list[dict[str, Any]]:
    """``[{"seat", "url", "qr"}]`` for every seat of the current game."""
    out = []
    for seat, token in sorted(_ctx().service.seat_tokens().items()):
        url = url_for("pages.seat", token=token, _external=True)
        out.append({"seat": seat, "url": url, "qr": qr_svg(url)})
    return out
