"""What the sensing side tells the table: each seat's reader health and the Host's notices.

A reader's health shows on every viewer's dashboard ("virtual", "online", "offline", "broken"); a
reader the Host marked broken stays so until the Host says otherwise (a flaky reader would
otherwise flip it back). Notices (tracker conflicts, unknown tags, counts the readers and the
camera disagree on) go to the Host's view only; the newest :data:`KEPT` are kept.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import MalformedInput

READER_STATUSES = ("online", "offline", "virtual", "broken")
KEPT = 20
"""Notices kept for the Host (the oldest dropped first)."""


class Board:
    """The readers' health per seat and the Host's latest notices (the service's lock guards
    it)."""

    def __init__(self) -> None:
        self.readers: dict[int, str] = {}
        """Sensor health per seat: "virtual", "online", "offline" or "broken"."""
        self.notices: list[dict[str, Any]] = []
        """Messages for the Host from the sensing side (tracker conflicts, unknown tags)."""

    def note(self, t: float, kind: str, message: str, **data: Any) -> None:
        """Keep a notice for the Host (the newest :data:`KEPT`)."""
        self.notices.append({"t": t, "kind": kind, "message": message, **data})
        del self.notices[:-KEPT]

    def set_reader(self, seat: Any, status: Any, *, by_host: bool = False) -> bool:
        """Record a seat reader's health; False when a Host's "broken" mark keeps it unchanged.

        Malformed input (an unknown status, a seat that is no seat number) is refused, naming it.
        """
        if status not in READER_STATUSES:
            raise MalformedInput(f"unknown reader status {status!r}", field="status")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise MalformedInput(f"no seat {seat!r}", field="seat")
        if not by_host and self.readers.get(seat) == "broken":
            return False
        self.readers[seat] = status
        return True

    def forget_virtual(self) -> None:
        """Drop the demo's simulated readers (a person's game is not read by them)."""
        self.readers = {k: v for k, v in self.readers.items() if v != "virtual"}
