"""The dashboard: a Flask app factory with thin blueprints over the service.

No game rule lives here: every page, API response and SSE message is built from the service's
per-viewer messages (``state.view(viewer)`` underneath). :func:`create_app` wires the blueprints
(pages, JSON API, SSE), the security hooks (CSRF before every state-changing request, strict
cookies, no Referer) and the typed error handlers (MalformedInput -> 400, IllegalAction -> 409
with the rule's words, a phone holding no seat -> 403, never a 500 for bad input).
"""

from __future__ import annotations

from flask import Flask, request

from companion.config import Config
from companion.service import Service
from companion.web import api, auth, pages, sse
from companion.web.context import Context, ctx
from companion.web.errors import Forbidden, register_errors

__all__ = ["Context", "create_app", "ctx"]


def create_app(service: Service, config: Config | None = None) -> Flask:
    """The dashboard app for ``service``."""
    config = config or service.config
    app = Flask(__name__)
    secret = auth.app_secret(config.data_dir)
    app.secret_key = secret
    app.config.update(
        SESSION_COOKIE_NAME="cupbearer_host",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
    )
    pin = auth.host_pin(config.data_dir, config.host.pin)
    gate = auth.PinGate(pin, max_attempts=config.host.max_attempts, lockout=config.host.lockout)
    sessions = auth.HostSessions(service.store)
    app.extensions["cupbearer"] = Context(service, config, gate, secret, sessions)

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(sse.bp)
    register_errors(app)
    app.before_request(check_csrf)
    app.after_request(security_headers)
    return app


STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
SEAT_API = "/api/seat/"
"""A seat's own requests: their CSRF token is bound to the device secret, not the session."""


def check_csrf() -> None:
    """Refuse a state-changing request without the right ``X-CSRF-Token`` (403)."""
    if request.method not in STATE_CHANGING:
        return
    sent = request.headers.get(auth.CSRF_HEADER)
    if request.path.startswith(SEAT_API):
        device = auth.device_secret()
        expected = auth.seat_csrf(ctx().secret, device) if device else None
    else:
        expected = auth.session_csrf()
    if not auth.same(sent, expected):
        raise Forbidden("missing or wrong CSRF token", field=auth.CSRF_HEADER)


def security_headers(response):
    """Headers on every response: no caching of secrets, no Referer, same-origin everything."""
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    )
    return response
