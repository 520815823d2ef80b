"""Shared pytest fixtures. Keep each one small and documented.

``mosquitto``: a real mosquitto broker (Debian ``mosquitto``) on a free 127.0.0.1 port with a
config generated in ``tmp_path``; yields a :class:`companion.links.broker.MosquittoBroker`
(``.host``, ``.port``, ``.url``, ``.restart()``), always stopped at teardown. It allows anonymous
clients; a test that needs passwords and the ACL builds its own broker from
``hardware/mosquitto/`` (see ``tests/links/test_mqtt_acl.py``).

``tmp_path`` lives in RAM (``/dev/shm``) when the machine has one with room: the journal
commits with ``synchronous=FULL`` (an fsync per appended action), and on a disk those syncs were
half the time of the journal-heavy tests. What the tests check of durability (a ``kill -9``, a
reopened file, the PRAGMAs) is the same on tmpfs: an fsync only matters after a power cut,
which no test can make. ``--basetemp`` or ``PYTEST_DEBUG_TEMPROOT`` given by the caller win.

The slowest files run first (:data:`SLOW_FIRST`): ``scripts/test`` hands whole files to two
workers in collection order, and a 90-second file collected last kept one worker busy for
minutes after the other had finished.
"""

from __future__ import annotations

import os

import pytest

from companion.links.broker import MosquittoBroker

SLOW_FIRST = (
    "web/test_game_night.py",
    "test_conformance.py",
    "web/test_accessibility.py",
    "web/test_noninterference.py",
    "firmware/test_fw_end_to_end.py",
    "vision/test_independent.py",
    "virtual/test_camera_demo.py",
    "firmware/test_fw_node.py",
    "tracking/test_bar.py",
    "web/test_browser.py",
    "web/test_history_replay.py",
    "firmware/test_fw_device_checks.py",
    "vision/test_accuracy.py",
    "web/test_table_moments.py",
)
"""Test files by their time on a 2-core machine, slowest first (``scripts/test --durations``;
measured, not guessed: a file missing from here only runs later, never wrongly)."""

RAM = "/dev/shm"
RAM_ROOM = 1 << 30
"""Bytes ``/dev/shm`` must have free to hold the run's temporary files (a container's default
64 MiB does not: the tests then keep the system's temporary directory)."""


def pytest_collection_modifyitems(config, items):
    """Put the files of :data:`SLOW_FIRST` first, in its order; the rest keep theirs."""
    rank = {name: k for k, name in enumerate(SLOW_FIRST)}
    here = os.path.dirname(__file__)

    def weight(item) -> int:
        path = os.path.relpath(str(item.path), here).replace(os.sep, "/")
        return rank.get(path, len(rank))

    items.sort(key=weight)  # stable: within a file, and among the rest, the order is kept


def pytest_configure(config):
    if config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    try:
        room = os.statvfs(RAM)
    except OSError:
        return
    if os.access(RAM, os.W_OK) and room.f_bavail * room.f_frsize >= RAM_ROOM:
        # pytest's own hook for the root of its temporary directories (read when the first
        # tmp_path is made, after this).
        os.environ["PYTEST_DEBUG_TEMPROOT"] = RAM


@pytest.fixture
def mosquitto(tmp_path):
    broker = MosquittoBroker(tmp_path / "mosquitto")
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
