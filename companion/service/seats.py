"""Who sits where: a game's join code, the seats people claimed from their phones, their names.

Each game a person starts has one join code, shown on the tablet (a QR code and a short code to
type). A phone that opens it claims a free seat with a player name and gets a device secret: 128
bits from :func:`secrets.token_urlsafe`, kept by the phone in an HttpOnly cookie. The journal keeps
only its SHA-256 digest, so the database file opens no seat. A claimed seat is taken: no second
device can claim it until the Host frees it (a lost phone), which revokes the old device at once.
A new game has a new code and new seats, so every phone claims again.

A claim is bound to its game: :class:`Claim` carries the game id, and the service checks that a
claim is still live (same game, same device holding the seat) under its lock before anything is
shown to or done for it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.checks import whole
from companion.core.errors import CupbearerError, IllegalAction, MalformedInput
from companion.store.journal import GameRecord, JournalStore

DEVICE_BYTES = 16
"""128 bits of ``secrets.token_urlsafe`` per claimed seat."""
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join code letters: no 0/O, 1/I/L to misread when typed from the tablet."""
CODE_LENGTH = 8
NAME_LENGTH = 24
"""The longest player name (it has to fit beside a House on a phone)."""
TAKEN_RULE = "One phone per seat: the Host frees the seat of a lost phone."
NAME_RULE = "Each player at the table goes by a name of their own."
NOT_SEATED = "this phone holds no seat of the game at the table: scan the join code on the tablet"


class NotSeated(CupbearerError):
    """The request holds no live seat: no device secret, an old game's, or a freed seat's.

    ``status``: 403 (this device holds no seat of the game at the table) or 404 (no game takes
    this join code). Both say the same whatever the seat: nothing about the seats is told.
    """

    def __init__(self, message: str, *, status: int = 403) -> None:
        super().__init__(message)
        self.detail = message
        self.status = status


@dataclass(frozen=True)
class Claim:
    """A device holding a seat of a game (``device``: the digest of its secret)."""

    game_id: int
    seat: int
    device: str


def new_join_code() -> str:
    """A fresh join code (8 letters of 31: about 40 bits, typed from the tablet if need be)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code: Any) -> str:
    """A typed join code as stored: upper case, no spaces or dashes."""
    if not isinstance(code, str):
        return ""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def digest(secret: str) -> str:
    """The SHA-256 hex digest of a device secret (what the journal keeps)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def check_name(name: Any, field: str = "name") -> str:
    """A player's name, trimmed: 1 to 24 printable characters, else MalformedInput."""
    if not isinstance(name, str):
        raise MalformedInput("a player's name is text", field=field)
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_LENGTH:
        raise MalformedInput(f"a name has 1 to {NAME_LENGTH} characters", field=field)
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise MalformedInput("a name has no control characters", field=field)
    return name


def check_names(names: Any, num_seats: int) -> dict[int, str]:
    """The Host's names for the seats, in seat order (blank: the phone names itself), checked:
    seat -> name; MalformedInput naming the bad one."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise MalformedInput("a list of player names, one per seat", field="names")
    if len(names) > num_seats:
        raise MalformedInput(f"at most {num_seats} names", field="names")
    chosen: dict[int, str] = {}
    for seat, name in enumerate(names):
        if name not in (None, ""):
            chosen[seat] = check_name(name, f"names[{seat}]")
    folded = [name.casefold() for name in chosen.values()]
    if len(set(folded)) != len(folded):
        raise MalformedInput("two players have the same name", field="names")
    return chosen


class Seats:
    """The seats of one game: names, holders, the join code (the service holds its lock).

    ``record``: the game; ``num_seats``: how many seats it has; ``seat_name``: what the game calls
    a seat (a House), for messages; ``clock``: when a seat is claimed.
    """

    def __init__(
        self,
        store: JournalStore,
        record: GameRecord,
        num_seats: int,
        seat_name: Callable[[int], str],
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.record = record
        self.num_seats = num_seats
        self.seat_name = seat_name
        self.clock = clock
        stored = store.seats(record.id)
        self.names: dict[int, str] = {s: r.name for s, r in stored.items() if r.name}
        self.devices: dict[int, str] = {s: r.device for s, r in stored.items() if r.device}

    @property
    def join_code(self) -> str | None:
        """The game's join code (None: nobody joins this game, e.g. the demo's)."""
        return self.record.join_code

    def name(self, names: dict[int, str]) -> None:
        """Keep the Host's names for the seats (checked by :func:`check_names`)."""
        for seat, name in names.items():
            self.store.set_seat(self.record.id, seat, name=name, device=None, claimed=None)
            self.names[seat] = name

    def is_open(self) -> bool:
        """True while a phone may still claim a seat (a join code and a free seat)."""
        return self.join_code is not None and len(self.devices) < self.num_seats

    def claim(self, code: Any, seat: Any, name: Any) -> str:
        """Claim ``seat`` with join code ``code`` as ``name``; returns the new device secret."""
        known = self.join_code
        if known is None or not hmac.compare_digest(normal_code(code), known):
            raise NotSeated("no game at this table takes that join code", status=404)
        top = self.num_seats - 1
        whole(seat, "seat", f"a seat from 0 to {top}", low=0, high=top)
        name = check_name(name)
        if seat in self.devices:
            raise IllegalAction(f"{self.label(seat)} is taken", rule=TAKEN_RULE)
        for other, known_name in self.names.items():
            if other != seat and other in self.devices and known_name.casefold() == name.casefold():
                raise IllegalAction(f"{known_name} is already at the table", rule=NAME_RULE)
        secret = secrets.token_urlsafe(DEVICE_BYTES)
        device = digest(secret)
        self.store.set_seat(self.record.id, seat, name=name, device=device, claimed=self.clock())
        self.names[seat] = name
        self.devices[seat] = device
        return secret

    def free(self, seat: Any) -> bool:
        """Free ``seat`` (its phone is lost): the device holding it is revoked. True if held."""
        top = self.num_seats - 1
        whole(seat, "seat", f"a seat from 0 to {top}", low=0, high=top)
        if seat not in self.devices:
            return False
        name = self.names.get(seat)
        self.store.set_seat(self.record.id, seat, name=name, device=None, claimed=None)
        del self.devices[seat]
        return True

    def claim_of(self, secret: Any) -> Claim | None:
        """The live claim of the device whose secret is ``secret`` (None: it holds no seat)."""
        if not isinstance(secret, str) or not secret:
            return None
        device = digest(secret)
        found = None
        for seat, known in self.devices.items():
            if hmac.compare_digest(known, device):
                found = Claim(self.record.id, seat, device)
        return found

    def is_live(self, claim: Claim) -> bool:
        """True while ``claim``'s device still holds its seat of this game."""
        return claim.game_id == self.record.id and self.devices.get(claim.seat) == claim.device

    def label(self, seat: int) -> str:
        """The seat as people say it: the player's name (when known) and what the game calls the
        seat, "Anna · De Miceti"."""
        name = self.names.get(seat)
        called = self.seat_name(seat)
        return f"{name} · {called}" if name else called

    def players(self) -> list[dict[str, Any]]:
        """Every seat: its name, what the game calls it, its label, and whether it is taken."""
        return [
            {
                "seat": seat,
                "name": self.names.get(seat),
                "seat_name": self.seat_name(seat),
                "label": self.label(seat),
                "taken": seat in self.devices,
            }
            for seat in range(self.num_seats)
        ]
