"""Shared pytest fixtures. Keep each one small and documented.

``mosquitto``: a real mosquitto broker (Debian ``mosquitto``) on a free 127.0.0.1 port with a
config generated in ``tmp_path``; yields a :class:`companion.links.broker.MosquittoBroker`
(``.host``, ``.port``, ``.url``, ``.restart()``), always stopped at teardown. It allows anonymous
clients; a test that needs passwords and the ACL builds its own broker from
``hardware/mosquitto/`` (see ``tests/links/test_mqtt_acl.py``).
"""

from __future__ import annotations

import pytest

from companion.links.broker import MosquittoBroker


@pytest.fixture
def mosquitto(tmp_path):
    broker = MosquittoBroker(tmp_path / "mosquitto")
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
