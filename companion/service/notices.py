"""What the sensing side tells the table: each seat's reader health and the Host's notices.

A reader's health shows on every viewer's dashboard ("virtual", "online", "offline", "broken"); a
reader the Host marked broken stays so until the Host says otherwise (a flaky reader would
otherwise flip it back). Notices (tracker conflicts, unknown tags, counts the readers and the
camera disagree on) go to the Host's view only; the newest :data:`KEPT` are kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.checks import whole
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
        whole(seat, "seat", f"no seat {seat!r}", low=0)
        if not by_host and self.readers.get(seat) == "broken":
            return False
        self.readers[seat] = status
        return True

    def forget_virtual(self) -> None:
        """Drop the demo's simulated readers (a person's game is not read by them)."""
        self.readers = {k: v for k, v in self.readers.items() if v != "virtual"}


def describe(notice: Mapping[str, Any]) -> str:
    """What a sensed session's notice says to the Host (``{"notice": kind, ...}``)."""
    kind = notice.get("notice")
    if kind == "conflict":
        return f"the table cannot be read ({notice.get('reason')}): fix the layout"
    if kind == "unknown_tag":
        return f"an unknown tag at seat {notice.get('seat')} (enroll it)"
    if kind == "contents_mismatch":
        return f"goblet {notice.get('goblet')}: the readers and the journal disagree"
    if kind == "pour_out":
        return "pour each Goblet out on its reader spot, one layer, and set the Goblet aside"
    if kind == "layout_differs":
        return (
            "the engine has the Goblets elsewhere than the table: set them out, or fix the layout"
        )
    if kind == "disagreement":
        return (
            f"the readers and the camera disagree at seats {notice.get('seats')}: which is right?"
        )
    if kind == "agreement":
        return "the readers and the camera agree again"
    if kind == "not_recorded":
        return f"a sensed {notice.get('action', {}).get('type', 'event')} was not recorded"
    return str(kind).replace("_", " ")
