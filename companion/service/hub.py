"""The publish hub: live subscribers (SSE clients), each a viewer with a one-message mailbox.

Every message is a full snapshot of what its viewer may see, so a subscriber keeps only the
newest one: a slow phone that misses three updates gets the fourth, which says everything. The
service builds each message through ``state.view(viewer)``, once per distinct viewer per publish.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from companion.core.game import Viewer

Message = dict[str, Any]


class Closed(Exception):
    """The subscriber was closed (the service is stopping or the client left)."""


class Subscriber:
    """One live client: a viewer and the newest message not yet taken."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self._cond = threading.Condition()
        self._message: Message | None = None
        self._closed = False

    def offer(self, message: Message) -> None:
        """Replace the pending message with ``message`` (newer snapshots supersede older)."""
        with self._cond:
            self._message = message
            self._cond.notify_all()

    def take(self, timeout: float) -> Message | None:
        """The next message, or None after ``timeout`` seconds; raises :class:`Closed`."""
        with self._cond:
            if self._message is None and not self._closed:
                self._cond.wait(timeout)
            if self._closed:
                raise Closed
            message, self._message = self._message, None
            return message

    def close(self) -> None:
        """Wake and end the client's stream."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()


class Hub:
    """Thread-safe set of subscribers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []
        self._closed = False

    def subscribe(self, viewer: Viewer) -> Subscriber:
        """A new subscriber for ``viewer`` (closed at once if the hub is closed)."""
        subscriber = Subscriber(viewer)
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

    def close_viewer(self, viewer: Viewer) -> int:
        """End every stream of ``viewer`` (its link was replaced); returns how many."""
        with self._lock:
            gone = [s for s in self._subscribers if s.viewer == viewer]
            self._subscribers = [s for s in self._subscribers if s.viewer != viewer]
        for subscriber in gone:
            subscriber.close()
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
