"""Helper for the tests that watch a sensed demo play a whole game through the service."""

from __future__ import annotations

import time


def until_the_end(service, seconds: float = 120.0):
    """The state of the game at ``service``'s table once it is over (polled, waiting at most
    ``seconds``: a bound against a stuck demo, not a timing goal); the test asserts it is."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        table = service.table
        if table is not None and table.state.is_over():
            break
        time.sleep(0.05)
    return service.table.state
