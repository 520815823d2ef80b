"""The JSON API: everything the pages do (documented in docs/api.md).

Thin: each view parses the request, asks the service, returns its per-viewer message. Host routes
need the Host session; a seat's routes need the device secret its phone got when it claimed the
seat (a cookie, never a URL).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, session, url_for

from companion.core.checks import whole
from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import HOST, PUBLIC, Mode
from companion.store.decks import load_characters, save_characters
from companion.store.records import GameRecord
from companion.web import auth
from companion.web.context import ctx
from companion.web.errors import HttpError
from companion.web.qr import qr_svg
from companion.web.viewers import viewer_from

bp = Blueprint("api", __name__, url_prefix="/api")

ABANDON_RULE = "Starting anew discards the game in play: the Host confirms it first."
GAME_TITLES = {
    "goblets": "Raise Your Goblets",
    "tribunal": "The Gods Will Have Blood",
    "cena": "Cena",
}


def body() -> dict[str, Any]:
    """The request's JSON object, or MalformedInput."""
    if not request.is_json:
        raise MalformedInput("send application/json", field="Content-Type")
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # nested deeper than the JSON decoder's recursion can follow
        raise MalformedInput("the body is nested too deep", field="body") from None
    if not isinstance(data, dict):
        raise MalformedInput("the body must be a JSON object", field="body")
    return data


def require_host() -> None:
    """Refuse unless the Host is logged in (401)."""
    viewer_from(request, "host")


def persons_game_in_play() -> GameRecord | None:
    """The record of a person's unfinished game at the table (None: no game, a finished one, or
    the demo's, which is nobody's)."""
    table = ctx().service.table
    if table is None or table.record.is_finished or table.record.is_demo:
        return None
    return table.record


def require_confirmation(data: dict[str, Any]) -> None:
    """Refuse (409) to discard a person's unfinished game unless ``abandon`` names it."""
    record = persons_game_in_play()
    if record is None:
        return
    if data.get("abandon") != record.id:
        title = GAME_TITLES.get(record.game, record.game)
        raise IllegalAction(
            f"game {record.id} ({title}) is in progress: confirm to abandon it", rule=ABANDON_RULE
        )


# -- public -----------------------------------------------------------------------------------


@bp.get("/state")
def public_state():
    """The public (tablet) view."""
    return jsonify(ctx().service.message(PUBLIC))


@bp.get("/csrf")
def csrf():
    """This browser's session CSRF token (sets the session cookie)."""
    return jsonify({"csrf": auth.session_csrf()})


@bp.get("/games")
def games():
    """Past and current games, newest first (records only)."""
    service = ctx().service
    return jsonify({"games": service.history(), "available": sorted(service.games)})


@bp.get("/games/<int:game_id>/export")
def export(game_id: int):
    """A finished game's journal as JSON (refused with 409 while it is in play)."""
    return jsonify(ctx().service.export(game_id))


@bp.get("/games/<int:game_id>/timeline")
def timeline(game_id: int):
    """The replay frames of everything up to the latest reveal."""
    return jsonify(ctx().service.timeline(game_id))


# -- joining and seats ------------------------------------------------------------------------


@bp.post("/join")
def join():
    """``{"code", "seat", "name"}``: claim a free seat; the phone gets its device secret."""
    data = body()
    service = ctx().service
    secret = service.claim_seat(data.get("code"), data.get("seat"), data.get("name"))
    mine = service.claim_of(secret)
    assert mine is not None
    message = service.seat_message(mine)
    reply = jsonify(
        {
            "seat": mine.seat,
            "label": message["you"]["label"],
            "url": url_for("pages.seat"),
            "csrf": auth.seat_csrf(ctx().secret, secret),
        }
    )
    reply.set_cookie(
        auth.SEAT_COOKIE,
        secret,
        max_age=auth.SEAT_COOKIE_AGE,
        httponly=True,
        samesite="Strict",
        path="/",
    )
    return reply


@bp.get("/seat/state")
def seat_state():
    """What this phone's seat sees (its screen, Target, peeks, legal actions on its turn)."""
    return jsonify(ctx().service.seat_message(viewer_from(request, "seat").claim))


@bp.post("/seat/act")
def seat_act():
    """Play ``{"action": {...}}`` for this phone's seat (enforcing: 409 with the rule)."""
    who = viewer_from(request, "seat")
    action = body().get("action")
    return jsonify(ctx().service.act(action, by=who.viewer, claim=who.claim))


# -- host -------------------------------------------------------------------------------------


@bp.post("/host/login")
def login():
    """``{"pin": "..."}`` -> a Host session; rate-limited per address (429 when locked)."""
    gate = ctx().gate
    address = request.remote_addr or "?"
    wait = gate.retry_after(address)
    if wait > 0:
        raise HttpError(429, f"too many wrong PINs: wait {wait:.0f} s", field="pin")
    if not gate.check(address, body().get("pin")):
        wait = gate.retry_after(address)
        after = f": the next try in {wait:.0f} s" if wait > 0 else ""
        raise HttpError(401, f"wrong PIN{after}", field="pin")
    session.clear()
    session["host"] = ctx().sessions.begin()
    return jsonify({"host": True, "csrf": auth.session_csrf()})


@bp.post("/host/logout")
def logout():
    """End the Host session on the server (``{"everywhere": true}``: every Host session); its
    open streams end at once."""
    data = body() if request.data else {}
    everywhere = data.get("everywhere") is True
    sid = session.get("host")
    if everywhere:
        require_host()
    sessions = ctx().sessions
    sessions.end(sid, everywhere=everywhere)
    service = ctx().service
    ended = None if everywhere else (sessions.digest(sid) if isinstance(sid, str) else "")
    service.hub.close_where(
        lambda s: s.viewer == HOST and (ended is None or s.claim == ended), "logged_out"
    )
    session.clear()
    return jsonify({"host": False, "csrf": auth.session_csrf()})


@bp.get("/host/state")
def host_state():
    """The Host's view (no goblet contents before the reveal, no seat's screen)."""
    require_host()
    return jsonify(ctx().service.message(HOST))


@bp.post("/host/game")
def new_game():
    """``{"game", "play", "options", "names", "abandon"}``: start a new game.

    ``play``: "phones" (default), "readers" or "camera"; ``names``: the players in seat order
    (blank: each phone names itself); ``abandon``: the id of the game in progress, to confirm
    discarding it.
    """
    require_host()
    data = body()
    require_confirmation(data)
    options = data.get("options")
    names = data.get("names")
    play = data.get("play", "phones")
    if play == "demo":
        raise MalformedInput("the demo table starts its own games: switch it on", field="play")
    return jsonify(
        ctx().service.new_game(
            data.get("game"),
            {} if options is None else options,
            play=play,
            names=names,
        )
    )


@bp.post("/host/demo")
def demo():
    """``{"on": true|false, "abandon": id}``: the demo table switch."""
    require_host()
    data = body()
    if data.get("on") is True:
        require_confirmation(data)
    return jsonify(ctx().service.set_demo(data.get("on")))


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
    return jsonify(ctx().service.act(data.get("action"), by=HOST, mode=_mode(data)))


@bp.post("/host/sensed")
def sensed_input():
    """``{"input": "start_course"|"pass"|"reveal"|"confirm"|"fix_layout"|"settle"|"pick", ...}``
    on a sensed table (``SensingBridge.host_input``)."""
    require_host()
    service = ctx().service
    if service.sensing is None:
        raise IllegalAction("this table is not sensed", rule="Sensed inputs need reader nodes.")
    service.sensing.host_input(body())
    return jsonify(service.message(HOST))


@bp.post("/host/undo")
def undo():
    """Undo the last action (journaled; chance draws are final)."""
    require_host()
    return jsonify(ctx().service.undo())


@bp.post("/host/reader")
def reader():
    """``{"seat": i, "status": "broken"|"online"|...}``: mark a seat's reader."""
    require_host()
    data = body()
    ctx().service.set_reader(data.get("seat"), data.get("status"), by_host=True)
    return jsonify(ctx().service.message(HOST))


@bp.get("/host/join")
def join_code():
    """The game's join code, its link and its QR code (SVG): also on the tablet's Table page."""
    require_host()
    return jsonify(join_link())


@bp.post("/host/seats/free")
def free_seat():
    """``{"seat": i}``: free a seat (a lost phone); the device holding it loses it at once."""
    require_host()
    return jsonify(ctx().service.free_seat(body().get("seat")))


@bp.get("/host/characters")
def characters():
    """The table's own Character cards (``{"cards": null}`` when none are entered)."""
    require_host()
    return jsonify({"cards": load_characters(ctx().config.data_dir)})


@bp.put("/host/characters")
def save_deck():
    """``{"cards": [...]}``: keep the table's Character cards (validated, each error named)."""
    require_host()
    cards = save_characters(ctx().config.data_dir, body().get("cards"))
    return jsonify({"cards": cards})


def camera():
    """The overhead camera (409 when none is attached)."""
    attached = ctx().service.camera
    if attached is None:
        raise IllegalAction(
            "no overhead camera is attached",
            rule="The camera is configured with companion serve --camera or [camera] source.",
        )
    return attached


@bp.get("/host/camera")
def camera_view():
    """The camera's calibration as the Host's panel shows it, and its health."""
    require_host()
    attached = camera()
    return jsonify({**attached.view(), "health": attached.health()})


@bp.post("/host/camera/calibrate")
def camera_calibrate():
    """``{"accept_ellipse": bool, "seats": n}``: calibrate from a frame of the empty table.

    From the four markers; without them, 400 naming ``accept_ellipse`` unless it is true (then
    from the table's outline, stored with a warning). Returns the markers and seats found; while
    a person's game is in play its warning says nothing that depends on the table's contents
    (``FRAME_RULE``).
    """
    require_host()
    data = body()
    accept = data.get("accept_ellipse", False)
    if not isinstance(accept, bool):
        raise MalformedInput("must be true or false", field="accept_ellipse")
    seats = data.get("seats")
    if seats is not None:
        whole(seats, "seats", "must be a number of seats (2-6)")
    in_play = persons_game_in_play() is not None
    return jsonify(camera().calibrate(accept_ellipse=accept, seats=seats, in_play=in_play))


FRAME_RULE = (
    "The Arm's Length Rule: players keep the Goblets at arm's length so that they can't see "
    "what's inside. From above, the camera sees into every Goblet, behind every screen and "
    "every token poured; the Host is a player, so its frames are shown only while no game of "
    "yours is in play (before it starts, or once it has ended)."
)


@bp.get("/host/camera/frame.jpg")
def camera_frame():
    """The latest frame, the markers and seats drawn on it: Host only, and only while no
    person's game is in play (``FRAME_RULE``; the demo's table is nobody's secret)."""
    require_host()
    attached = camera()
    if persons_game_in_play() is not None:
        raise IllegalAction(
            "a game is in play: the camera's frame would show its secrets", rule=FRAME_RULE
        )
    image = attached.frame_jpeg()
    if image is None:
        raise IllegalAction("the camera has given no frame yet", rule="Wait for the camera.")
    return Response(image, mimetype="image/jpeg")


def join_link() -> dict[str, Any]:
    """``{"code", "url", "qr"}`` of the current game's join code (all None: nobody joins)."""
    table = ctx().service.table
    code = None if table is None or table.record.is_finished else table.record.join_code
    if code is None:
        return {"code": None, "url": None, "qr": None}
    url = url_for("pages.join", code=code, _external=True)
    return {"code": f"{code[:4]}-{code[4:]}", "url": url, "qr": qr_svg(url)}
