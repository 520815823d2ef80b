"""Who may do what on the dashboard: the Host's PIN session, the seats' device secrets, CSRF.

The Host logs in with a PIN (:class:`PinGate` slows guessing per client address, and never locks
the Host out) and gets a signed session cookie (HttpOnly, SameSite=Strict) naming a server-side
session (:class:`HostSessions`): logging out ends it on the server, so a copied cookie stops
working too. Players are not logged in: a phone that claims
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
    """Checks PINs: slows guessing down, and never locks the Host out (thread-safe).

    Per client address, the first ``max_attempts`` wrong PINs in a row are answered at once; after
    that each further try must wait after the previous one, 1 s doubling up to ``lockout`` seconds
    (30 by default). A try within the wait is refused unchecked (429), so nothing is learned
    from it; the next allowed try is checked. So a guesser gets at most one try every ``lockout``
    seconds per device (a 6-digit PIN: about 170 days for half of them), and whoever knows the PIN
    is in on the next allowed try, at most ``lockout`` seconds later, even if someone sharing the
    tablet's address keeps guessing: no lockout to turn against the Host.
    """

    MAX_ADDRESSES = 4096
    """Addresses remembered at once (the oldest forgotten first): the table is bounded."""

    def __init__(
        self, pin: str, *, max_attempts: int, lockout: float, clock=time.monotonic
    ) -> None:
        self._pin = pin.encode("utf-8", "surrogatepass")
        self.max_attempts = max_attempts
        self.lockout = lockout
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, int] = {}
        self._next: dict[str, float] = {}

    def retry_after(self, address: str) -> float:
        """Seconds until ``address`` may try again (0: now)."""
        with self._lock:
            return max(0.0, self._next.get(address, 0.0) - self._clock())

    def check(self, address: str, pin: object) -> bool:
        """True for the right PIN; a wrong one (anything not the PIN) counts towards the wait."""
        with self._lock:
            if self._next.get(address, 0.0) > self._clock():
                return False  # within the wait: not even compared
        given = pin.encode("utf-8", "surrogatepass") if isinstance(pin, str) else b""
        ok = bool(given) and hmac.compare_digest(self._pin, given)
        with self._lock:
            if ok:
                self._failures.pop(address, None)
                self._next.pop(address, None)
                return True
            failures = self._failures.pop(address, 0) + 1
            self._failures[address] = failures  # re-inserted: the newest
            if failures >= self.max_attempts:
                wait = min(self.lockout, 2.0 ** (failures - self.max_attempts))
                self._next[address] = self._clock() + wait
            while len(self._failures) > self.MAX_ADDRESSES:
                oldest = next(iter(self._failures))
                del self._failures[oldest]
                self._next.pop(oldest, None)
            return False


class HostSessions:
    """The Host's sessions, kept on the server: the cookie carries an id, the journal its digest.

    A session ends when the Host logs out (that browser, or every one), after ``idle`` seconds
    unused or ``lasting`` seconds in all; an ended session's cookie, copied or not, opens nothing.
    """

    TOUCH_EVERY = 60.0
    """Seconds between two writes of a session's last use (not a write per request)."""

    def __init__(
        self, store, *, clock=time.time, idle: float = 12 * 3600, lasting: float = 7 * 86400
    ):
        self.store = store
        self.clock = clock
        self.idle = idle
        self.lasting = lasting

    @staticmethod
    def digest(sid: str) -> str:
        """What the journal keeps of a session id."""
        return hashlib.sha256(sid.encode("utf-8", "surrogatepass")).hexdigest()

    def begin(self) -> str:
        """A new session's id (for the cookie)."""
        sid = secrets.token_urlsafe(32)
        self.store.add_host_session(self.digest(sid), t=self.clock())
        return sid

    def is_live(self, sid: object) -> bool:
        """True while ``sid`` names a session that has not ended."""
        if not isinstance(sid, str) or not sid:
            return False
        digest = self.digest(sid)
        times = self.store.host_session(digest)
        now = self.clock()
        if times is None:
            return False
        created, seen = times
        if now - seen > self.idle or now - created > self.lasting:
            self.store.end_host_sessions(digest)
            return False
        if now - seen > self.TOUCH_EVERY:
            self.store.touch_host_session(digest, t=now)
        return True

    def end(self, sid: object = None, *, everywhere: bool = False) -> None:
        """End ``sid``'s session, or every session."""
        if everywhere:
            self.store.end_host_sessions()
        elif isinstance(sid, str) and sid:
            self.store.end_host_sessions(self.digest(sid))


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


def same(a: str | None, b: str | None) -> bool:
    """Constant-time equality of two optional strings (None never matches)."""
    return bool(a) and bool(b) and hmac.compare_digest(str(a).encode(), str(b).encode())
