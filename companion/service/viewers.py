"""Seats and viewers: who holds a seat of the game at the table now, and their live streams.

A phone claims a seat with the game's join code and holds it by its device secret
(:mod:`companion.service.seats`); every request and stream checks the claim under the service's
lock, so a new game or a freed seat ends the old device's access at once, and the streams of the
claims it ends are closed before anything else is published.
"""

from __future__ import annotations

import threading
from typing import Any

from companion.core.game import HOST, Viewer
from companion.service.hub import Hub, Message, Subscriber
from companion.service.journaled import Table
from companion.service.seats import NOT_SEATED, Claim, NotSeated, Seats


class SeatsAndViewers:
    """The :class:`~companion.service.table.Service`'s seat and subscriber methods (a mixin: the
    service gives the lock, the table, the hub and the messages)."""

    lock: threading.RLock
    table: Table | None
    hub: Hub

    def message(self, viewer: Viewer) -> Message:
        """Everything ``viewer`` may see now (the service's)."""
        raise NotImplementedError

    def publish(self) -> None:
        """Send every subscriber a fresh snapshot (the service's)."""
        raise NotImplementedError

    def _require_table(self) -> Table:
        raise NotImplementedError

    def _seats(self) -> Seats:
        table = self._require_table()
        assert table.seats is not None
        return table.seats

    def claim_seat(self, code: Any, seat: Any, name: Any) -> str:
        """A phone claims ``seat`` as ``name`` with the game's join ``code``; returns the new
        device secret (only its digest is kept)."""
        with self.lock:
            table = self.table
            if table is None or table.seats is None or table.record.is_finished:
                raise NotSeated("no game at this table takes that join code", status=404)
            secret = table.seats.claim(code, seat, name)
            self.publish()
            return secret

    def claim_of(self, secret: Any) -> Claim | None:
        """The live claim of the device whose secret is ``secret`` (None: it holds no seat)."""
        with self.lock:
            table = self.table
            if table is None or table.seats is None:
                return None
            return table.seats.claim_of(secret)

    def free_seat(self, seat: Any) -> Message:
        """The Host frees ``seat`` (a lost phone): its device is revoked and its streams end."""
        with self.lock:
            seats = self._seats()
            if seats.free(seat):
                self.hub.close_where(
                    lambda s: isinstance(s.claim, Claim) and not seats.is_live(s.claim), "freed"
                )
            self.publish()
            return self.message(HOST)

    def _check_claim(self, claim: Claim | None) -> Viewer:
        """The seat viewer of ``claim`` if it is live now (under the lock), else NotSeated."""
        table = self.table
        if claim is None or table is None or table.seats is None or not table.seats.is_live(claim):
            raise NotSeated(NOT_SEATED)
        return Viewer.seat(claim.seat)

    def seat_message(self, claim: Claim | None) -> Message:
        """What the seat of ``claim`` sees now (NotSeated if the claim has ended)."""
        with self.lock:
            return self.message(self._check_claim(claim))

    def subscribe(
        self, viewer: Viewer, claim: Claim | None = None, *, host_session: str | None = None
    ) -> Subscriber:
        """A live subscriber for ``viewer`` holding its first snapshot (a seat's with ``claim``,
        checked live; the Host's with its session's digest, so that logging out ends it): made
        under the lock, so no later game's message reaches an older claim."""
        with self.lock:
            if claim is not None:
                viewer = self._check_claim(claim)
            elif viewer.is_seat:
                raise NotSeated("a seat's stream needs its claim")
            subscriber = self.hub.subscribe(viewer, claim if claim is not None else host_session)
            subscriber.offer(self.message(viewer))
            return subscriber
