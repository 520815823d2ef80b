"""Helpers for the link tests: a collecting sink with bounded waits, and a fake USB port (pty)."""

from __future__ import annotations

import os
import threading
import time
import tty
from pathlib import Path

import pytest


class Collector:
    """A sink that keeps every item and lets a test wait (bounded) for a condition on them."""

    def __init__(self) -> None:
        self.items: list = []
        self.cond = threading.Condition()

    def __call__(self, item) -> None:
        with self.cond:
            self.items.append(item)
            self.cond.notify_all()

    def of(self, kind) -> list:
        with self.cond:
            return [i for i in self.items if isinstance(i, kind)]

    def wait(self, predicate, timeout: float = 10.0):
        """Wait until ``predicate(items)`` is truthy; fails the test after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                result = predicate(self.items)
                if result:
                    return result
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; got {self.items[-8:]!r}")
                self.cond.wait(left)


class FakeUsbPort:
    """A pty pair behind a stable symlink, like a udev name: it can be unplugged and replugged."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.master: int | None = None
        self.slave: int | None = None

    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tmp = self.path.with_suffix(".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(self.slave))
        os.replace(tmp, self.path)

    def unplug(self) -> None:
        self.path.unlink(missing_ok=True)
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None

    def write(self, data: bytes) -> None:
        assert self.master is not None
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view) :]


@pytest.fixture
def collector() -> Collector:
    return Collector()


@pytest.fixture
def usb_port(tmp_path):
    port = FakeUsbPort(tmp_path / "cupbearer-node1")
    port.plug()
    try:
        yield port
    finally:
        port.unplug()
