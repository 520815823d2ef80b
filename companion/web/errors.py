"""Typed errors translated at the edge: 400 malformed, 401/403/429 refused, 404, 409 with the rule.

API requests (and SSE) get JSON ``{"error": ..., "field"|"rule": ...}``; page requests get a
short HTML page. An unexpected exception is logged and answered 500 without its details.
"""

from __future__ import annotations

import logging

from flask import jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.core.errors import (
    AmbiguousObservation,
    CupbearerError,
    IllegalAction,
    MalformedInput,
)
from companion.service.seats import NotSeated
from companion.store.journal import NotFound

log = logging.getLogger(__name__)


class HttpError(CupbearerError):
    """A request refused for what it lacks, answered ``status`` with ``{"error", "field"}``.

    401: the Host is not logged in; 429: too many wrong PINs, wait. (Bad input is
    :class:`~companion.core.errors.MalformedInput`, 400; a phone holding no seat is
    :class:`~companion.service.seats.NotSeated`.)
    """

    def __init__(self, status: int, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.detail = message
        self.field = field


class Forbidden(HttpError):
    """403: the request lacks the right credentials (a CSRF token)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(403, message, field=field)


NOT_HOST = "log in as the Host first"


def _reply(status: int, body: dict):
    if request.path.startswith("/api/"):
        return jsonify(body), status
    return render_template("error.html", status=status, body=body), status


def register_errors(app) -> None:
    """Install the handlers on ``app``."""

    @app.errorhandler(MalformedInput)
    def malformed(error: MalformedInput):
        return _reply(400, {"error": error.detail, "field": error.field})

    @app.errorhandler(IllegalAction)
    def illegal(error: IllegalAction):
        return _reply(409, {"error": error.detail, "rule": error.rule})

    @app.errorhandler(AmbiguousObservation)
    def ambiguous(error: AmbiguousObservation):
        return _reply(409, {"error": str(error), "rule": "the Host must resolve the conflict"})

    @app.errorhandler(NotFound)
    def not_found(error: NotFound):
        return _reply(404, {"error": str(error)})

    @app.errorhandler(NotSeated)
    def not_seated(error: NotSeated):
        return _reply(error.status, {"error": error.detail, "rejoin": True})

    @app.errorhandler(HttpError)
    def refused(error: HttpError):
        return _reply(error.status, {"error": error.detail, "field": error.field})

    @app.errorhandler(HTTPException)
    def http(error: HTTPException):
        return _reply(error.code or 500, {"error": error.description})

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        log.exception("unexpected error on %s", request.path)
        return _reply(500, {"error": "internal error"})
