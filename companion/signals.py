"""Stop signals (SIGTERM, SIGINT) handled without deadlocks.

A Python signal handler runs in the main thread between two bytecodes, possibly while that very
thread holds a lock: inside ``threading.Event.wait`` there is a moment when the Event's own
(non-reentrant) lock is held, so a handler that calls ``event.set()`` can deadlock the process
forever (we saw ``companion node`` ignore SIGTERM about once in a few hundred stops under load).
The handler therefore does nothing but start a thread; the thread does the work once the main
thread has let go of its locks.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable


def on_stop_signals(callback: Callable[[], object]) -> None:
    """Run ``callback`` in a new daemon thread on every SIGTERM or SIGINT (main thread only)."""

    def handler(signum: int, frame: object) -> None:
        threading.Thread(target=callback, name=f"signal-{signum}", daemon=True).start()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, handler)
