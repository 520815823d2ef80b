"""Who may do what on the dashboard: the Host's PIN session, the seats' device secrets, CSRF.

The Host logs in with a PIN (rate-limited per client address: after ``max_attempts`` failures in a
row, logins from that address are refused for ``lockout`` seconds, doubling each time) and gets a
signed session cookie (HttpOnly, SameSite=Strict). Players are not logged in: a phone that claims
a seat with the game's join code gets a device secret in its own cookie (:data:`SEAT_COOKIE`,
HttpOnly, SameSite=Strict), separate from the Host's session; a seat never opens Host pages, and a
Host session never acts as a seat. No secret is ever in a URL.

CSRF: every state-changing request carries ``X-CSRF-Token``. For the Host (and a phone joining) it
must equal the token bound to the session (made on the first page or ``GET /api/csrf``); for a
seat it must equal an HMAC of the device secret with the app's secret (embedded in the seat page).
Both are checked in a ``before_request`` hook, before any view runs.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from pathlib import Path

from flask import request, session

CSRF_HEADER = "X-CSRF-Token"
SEAT_COOKIE = "cupbearer_seat"
"""The cookie holding a phone's device secret (the seat it claimed)."""
SEAT_COOKIE_AGE = 7 * 24 * 3600
"""Seconds a phone keeps its seat's cookie (a game night, and the game resumed days later)."""


def _secret_file(path: Path, make: callable) -> str:
    """Read ``path``, or create it (mode 0600) with ``make()``; keeps sessions across restarts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        value = make()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(value + "\n")
        return value


def app_secret(data_dir: Path) -> str:
    """The signing key of session cookies, kept in the data directory."""
    return _secret_file(Path(data_dir) / "secret_key", lambda: secrets.token_hex(32))


def host_pin(data_dir: Path, configured: str | None) -> str:
    """The configured PIN, or a random 6-digit one made once and kept in the data directory."""
    if configured:
        return configured
    return _secret_file(Path(data_dir) / "host_pin", lambda: f"{secrets.randbelow(10**6):06d}")


class PinGate:
    """Checks PINs with per-address rate limiting (thread-safe)."""

    def __init__(
        self, pin: str, *, max_attempts: int, lockout: float, clock=time.monotonic
    ) -> None:
        self._pin = pin
        self.max_attempts = max_attempts
        self.lockout = lockout
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, int] = {}
        self._locked_until: dict[str, float] = {}
        self._lockouts: dict[str, int] = {}

    def retry_after(self, address: str) -> float:
        """Seconds until ``address`` may try again (0: now)."""
        with self._lock:
            return max(0.0, self._locked_until.get(address, 0.0) - self._clock())

    def check(self, address: str, pin: str) -> bool:
        """True for the right PIN; a wrong one counts towards the lockout."""
        if self.retry_after(address) > 0:
            return False
        ok = hmac.compare_digest(self._pin.encode(), str(pin).encode())
        with self._lock:
            if ok:
                self._failures.pop(address, None)
                self._lockouts.pop(address, None)
                return True
            failures = self._failures.get(address, 0) + 1
            self._failures[address] = failures
            if failures >= self.max_attempts:
                count = self._lockouts.get(address, 0)
                self._lockouts[address] = count + 1
                self._locked_until[address] = self._clock() + self.lockout * 2 ** min(count, 6)
                self._failures[address] = 0
            return False


def session_csrf() -> str:
    """The CSRF token bound to this browser's session (made on first use)."""
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def seat_csrf(secret: str, device_secret: str) -> str:
    """The CSRF token of a seat: an HMAC of its device secret with the app secret."""
    data = b"seat:" + device_secret.encode("utf-8", "surrogatepass")
    return hmac.new(secret.encode(), data, hashlib.sha256).hexdigest()


def device_secret() -> str | None:
    """The device secret this request's seat cookie carries (None: no seat cookie)."""
    return request.cookies.get(SEAT_COOKIE) or None


def is_host() -> bool:
    """True when this request carries a logged-in Host session."""
    return bool(session.get("host"))


def same(a: str | None, b: str | None) -> bool:
    """Constant-time equality of two optional strings (None never matches)."""
    return bool(a) and bool(b) and hmac.compare_digest(str(a).encode(), str(b).encode())
