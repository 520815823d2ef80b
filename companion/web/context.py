"""What every blueprint of the dashboard needs, kept on the Flask app: :class:`Context`."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from companion.config import Config
from companion.service import Service
from companion.web.auth import HostSessions, PinGate


@dataclass
class Context:
    """What the blueprints need: the service, the settings, the PIN gate and the app secret."""

    service: Service
    config: Config
    gate: PinGate
    secret: str
    sessions: HostSessions


def ctx() -> Context:
    """The current app's :class:`Context`."""
    return current_app.extensions["cupbearer"]
