"""The dashboard's pages: server-rendered HTML with the first snapshot embedded as JSON.

Each page then listens to its viewer's SSE stream (static/live.js). Pages: the Table (the public
tablet: whichever game is at the table, with its join code), Join (a phone claims a seat), the
Seat (a player's phone, by its seat cookie), the Host (PIN; the Character cards form), History
(past games and the replay timeline), the Courtroom and Cena tables by name, and each game's
rules reference card (linked from its table and seat pages).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, request, url_for

from companion.core.game import HOST, PUBLIC
from companion.core.games.goblets.characters import EFFECTS, TIMINGS
from companion.core.games.goblets.houses import house_table
from companion.core.games.goblets.tokens import Token
from companion.service.seats import NotSeated, normal_code
from companion.service.setup import HOST_PLAYS
from companion.web import auth
from companion.web.api import join_link
from companion.web.context import ctx
from companion.web.errors import HttpError
from companion.web.rule_cards import CARDS
from companion.web.viewers import is_viewer, viewer_from

bp = Blueprint("pages", __name__)

TABLE_TEMPLATES = {"cena": "cena.html", "tribunal": "courtroom.html"}
"""The tablet's page of each game (any other: the Raise Your Goblets table)."""
SEAT_TEMPLATES = {"cena": "cena_seat.html", "tribunal": "courtroom.html"}
"""A phone's page of each game (any other: the Raise Your Goblets seat)."""


@bp.app_context_processor
def _houses() -> dict[str, object]:
    """Every page carries the Houses' names, ring colours and patterns (``ring_looks`` in
    base.html) from the one table in Python: static/goblets.js draws from it and holds no copy."""
    return {"ring_looks": house_table()}


def _card_of(game: str | None) -> str | None:
    """The rules card a game's pages link to (no game yet: Raise Your Goblets, the table's)."""
    name = game or "goblets"
    return name if name in CARDS else None


def _table_page(game: str | None, page: str):
    """The tablet's page of ``game`` (its live picture, its join code, the Host's hint)."""
    service = ctx().service
    message = service.message(PUBLIC)
    playing = message.get("game")
    return render_template(
        TABLE_TEMPLATES.get(game or "", "table.html"),
        page=page,
        message=message,
        join=join_link() if playing == game else {"code": None},
        host=is_viewer(request, "host"),
        seat_mode=False,
        rules=_card_of(game),
        csrf=auth.session_csrf(),
    )


@bp.get("/")
def table():
    """The public tablet: the game at the table, drawn and scored live, and its join code."""
    return _table_page(ctx().service.message(PUBLIC).get("game"), "table")


@bp.get("/courtroom")
def courtroom():
    """The Gods Will Have Blood: pool, odds, draws, vine, Momentum Box, effects, log."""
    return _table_page("tribunal", "courtroom")


@bp.get("/cena")
def cena():
    """Cena on the tablet: Houses, alliances, poison, Welcome cards, the trick, the score pad."""
    return _table_page("cena", "cena")


@bp.get("/join")
def join_form():
    """Type the join code shown on the tablet (when the phone cannot scan it)."""
    code = normal_code(request.args.get("code"))
    if code:
        return redirect(url_for("pages.join", code=code))
    return render_template(
        "join.html", page="join", code=None, message=None, csrf=auth.session_csrf()
    )


@bp.get("/join/<code>")
def join(code: str):
    """A phone claims a free seat with the game's join code (already seated: its seat)."""
    service = ctx().service
    if is_viewer(request, "seat"):
        return redirect(url_for("pages.seat"))
    table = service.table
    known = table is not None and table.record.join_code == normal_code(code)
    return render_template(
        "join.html",
        page="join",
        code=normal_code(code) if known else None,
        message=service.message(PUBLIC) if known else None,
        csrf=auth.session_csrf(),
    )


@bp.get("/seat")
def seat():
    """A player's phone: their screen, Target, Character, peeks, hand and their actions."""
    service = ctx().service
    try:
        who = viewer_from(request, "seat")
    except NotSeated:
        return render_template("rejoin.html", page="seat", csrf=auth.session_csrf()), 403
    message = service.seat_message(who.claim)
    return render_template(
        SEAT_TEMPLATES.get(message.get("game") or "", "seat.html"),
        page="seat",
        message=message,
        join={"code": None},
        host=False,
        seat_mode=True,
        rules=_card_of(message.get("game")),
        csrf=auth.seat_csrf(ctx().secret, who.device),
    )


@bp.get("/host")
def host():
    """The Host's controls (a PIN login first)."""
    service = ctx().service
    logged_in = is_viewer(request, "host")
    return render_template(
        "host.html",
        page="host",
        host=logged_in,
        message=service.message(HOST) if logged_in else None,
        games=sorted(service.games),
        plays=HOST_PLAYS,
        sensed_plays=sorted(service.sensed_plays),
        csrf=auth.session_csrf(),
    )


@bp.get("/host/characters")
def characters():
    """The table's own Character cards, entered once and kept (the rulebook prints none)."""
    return render_template(
        "characters.html",
        page="host",
        host=is_viewer(request, "host"),
        vocabulary={
            "timings": list(TIMINGS),
            "effects": {effect: list(timings) for effect, timings in EFFECTS.items()},
            "tokens": [token.value for token in Token],
        },
        csrf=auth.session_csrf(),
    )


@bp.get("/history")
def history():
    """Past games, newest first."""
    return render_template(
        "history.html", page="history", games=ctx().service.history(), csrf=auth.session_csrf()
    )


@bp.get("/history/<int:game_id>")
def replay(game_id: int):
    """A game's replay timeline, step by step (only what has been revealed)."""
    timeline = ctx().service.timeline(game_id)
    return render_template(
        "replay.html", page="history", timeline=timeline, csrf=auth.session_csrf()
    )


TABLE_PAGES = {"tribunal": "pages.courtroom", "cena": "pages.cena"}
"""Each game's tablet page by name (any other game: the Table)."""


@bp.get("/rules/<game>")
def rules(game: str):
    """A game's rules reference card: its turn summary in the rulebook's words (rule_cards.py),
    and the way back to the player's seat or the game's table."""
    card = CARDS.get(game)
    if card is None:
        raise HttpError(404, f"no rules card for {game!r}: one of {', '.join(CARDS)}")
    seated = is_viewer(request, "seat")
    return render_template(
        "rules.html",
        page="seat" if seated else "rules",
        card=card,
        back=url_for("pages.seat") if seated else url_for(TABLE_PAGES.get(game, "pages.table")),
        back_label="Back to your seat" if seated else "Back to the table",
        csrf=auth.session_csrf(),
    )


ICON_SIZES = (192, 512)
"""The manifest's icons, generated into static/ by scripts/web_assets.py (no download)."""


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: add the tablet or a phone to the home screen, open full screen."""
    icons = [
        {
            "src": url_for("static", filename=f"icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for size in ICON_SIZES
        for purpose in ("any", "maskable")  # the Goblet lies inside the maskable safe zone
    ]
    reply = jsonify(
        {
            "name": "Cupbearer",
            "short_name": "Cupbearer",
            "description": "The table's companion for Raise Your Goblets, Cena and the courtroom.",
            "start_url": url_for("pages.table"),
            "scope": "/",
            "display": "fullscreen",
            "orientation": "any",
            "background_color": "#f7f2e7",
            "theme_color": "#7a1f2b",
            "icons": icons,
        }
    )
    reply.mimetype = "application/manifest+json"
    return reply
