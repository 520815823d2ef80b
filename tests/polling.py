"""Waiting in tests for something another thread or process does: poll until it holds."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(predicate: Callable[[], object], seconds: float = 30.0, step: float = 0.05) -> bool:
    """Call ``predicate`` every ``step`` seconds until it is truthy (True) or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False
