"""The publish hub: live subscribers (SSE clients), each a viewer with a one-message mailbox.

Every message is a full snapshot of what its viewer may see, so a subscriber keeps only the
newest one: a slow phone that misses three updates gets the fourth, which says everything. The
service builds each message through ``state.view(viewer)``, once per distinct viewer per publish.

A seat's subscriber carries the claim it was opened with (the game and the device holding the
seat): when that claim ends (a new game, the Host frees the seat) the service closes it with a
reason, and a closed subscriber never hands out another message.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any

from companion.core.game import Viewer

Message = dict[str, Any]


class Closed(Exception):
    """The subscriber was closed; ``reason`` says why ("stopping", "new_game", "freed", ...)."""

    def __init__(self, reason: str = "stopping") -> None:
        super().__init__(reason)
        self.reason = reason


class Subscriber:
    """One live client: a viewer (and for a seat, its claim) and the newest message not taken."""

    def __init__(self, viewer: Viewer, claim: Any = None) -> None:
        self.viewer = viewer
        self.claim = claim
        self._cond = threading.Condition()
        self._message: Message | None = None
        self._closed: str | None = None
        self._waker: Callable[[], None] | None = None
        """Wakes an event loop awaiting :meth:`take_async` (called from any thread)."""

    def offer(self, message: Message) -> None:
        """Replace the pending message with ``message`` (newer snapshots supersede older)."""
        with self._cond:
            self._message = message
            self._cond.notify_all()
            waker = self._waker
        if waker is not None:
            waker()

    def take(self, timeout: float) -> Message | None:
        """The next message, or None after ``timeout`` seconds; raises :class:`Closed`."""
        with self._cond:
            if self._message is None and self._closed is None:
                self._cond.wait(timeout)
            if self._closed is not None:
                raise Closed(self._closed)
            message, self._message = self._message, None
            return message

    def close(self, reason: str = "stopping") -> None:
        """Wake and end the client's stream (the first reason given is kept)."""
        with self._cond:
            if self._closed is None:
                self._closed = reason
            self._message = None
            self._cond.notify_all()
            waker = self._waker
        if waker is not None:
            waker()

    async def take_async(self, timeout: float) -> Message | None:
        """:meth:`take` for an event loop: awaits the next message without holding a thread."""
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        with self._cond:
            self._waker = lambda: loop.call_soon_threadsafe(ready.set)
            pending = self._message is not None or self._closed is not None
        try:
            if not pending:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ready.wait(), timeout)
        finally:
            with self._cond:
                self._waker = None
        return self.take(0)


class Hub:
    """Thread-safe set of subscribers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []
        self._closed = False

    def subscribe(self, viewer: Viewer, claim: Any = None) -> Subscriber:
        """A new subscriber for ``viewer`` (closed at once if the hub is closed)."""
        subscriber = Subscriber(viewer, claim)
        with self._lock:
            if self._closed:
                subscriber.close()
            else:
                self._subscribers.append(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Forget ``subscriber`` (idempotent)."""
        with self._lock:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)
        subscriber.close()

    def close_where(self, predicate: Callable[[Subscriber], bool], reason: str) -> int:
        """End every stream ``predicate`` picks (e.g. an ended claim's), saying ``reason``."""
        with self._lock:
            gone = [s for s in self._subscribers if predicate(s)]
            self._subscribers = [s for s in self._subscribers if not predicate(s)]
        for subscriber in gone:
            subscriber.close(reason)
        return len(gone)

    def viewers(self) -> set[Viewer]:
        """The viewers with at least one live subscriber."""
        with self._lock:
            return {s.viewer for s in self._subscribers}

    def count(self) -> int:
        """How many subscribers are live."""
        with self._lock:
            return len(self._subscribers)

    def publish(self, build: Callable[[Viewer], Message]) -> None:
        """Offer every subscriber ``build(its viewer)``; built once per distinct viewer."""
        with self._lock:
            subscribers = list(self._subscribers)
        built: dict[Viewer, Message] = {}
        for subscriber in subscribers:
            if subscriber.viewer not in built:
                built[subscriber.viewer] = build(subscriber.viewer)
            subscriber.offer(built[subscriber.viewer])

    def close(self) -> None:
        """Close every subscriber and refuse new ones."""
        with self._lock:
            self._closed = True
            subscribers, self._subscribers = self._subscribers, []
        for subscriber in subscribers:
            subscriber.close()
