"""A guest cannot stop the dashboard: streams, slow connections and huge bodies, on loopback.

The dashboard's real server (uvicorn with the ASGI front) is started in-process. The guest is
another device: its sockets come from 127.0.0.2 while the tablet's come from 127.0.0.1 (Linux
routes the whole 127/8 to loopback), as a phone and the tablet have their own addresses on the
Wi-Fi. Every load here is bounded and local. These tests say *whether* the dashboard still
answers; how fast it does under the load is measured by ``scripts/bench_abuse.py``.
"""

from __future__ import annotations

import contextlib
import json
import socket
import tempfile
import time

import pytest

from companion.web import create_app
from companion.web.server import WebServer

GUEST = "127.0.0.2"
TABLET = "127.0.0.1"


@pytest.fixture
def served(service, settings):
    app = create_app(service, settings)
    server = WebServer(
        app, host="127.0.0.1", port=0, threads=2, header_timeout=1.0, streams_per_address=8
    ).start()
    try:
        yield server
    finally:
        service.hub.close()
        server.stop()


def connect(server, source: str) -> socket.socket:
    sock = socket.create_connection(
        ("127.0.0.1", server.port), timeout=10, source_address=(source, 0)
    )
    return sock


def get(server, path: str, source: str = TABLET) -> tuple[int, bytes]:
    """One whole request on a fresh connection: (status, body)."""
    with connect(server, source) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def open_stream(server, source: str) -> tuple[socket.socket, bytes]:
    sock = connect(server, source)
    sock.sendall(b"GET /api/stream?viewer=public HTTP/1.1\r\nHost: t\r\n\r\n")
    first = sock.recv(65536)
    return sock, first


def test_a_guests_streams_and_slow_connections_leave_the_tablet_served(served, service):
    streams, slow = [], []
    try:
        for _ in range(40):  # far more than a device needs
            sock, first = open_stream(served, GUEST)
            streams.append((sock, first))
        live = [s for s, first in streams if b" 200 " in first.split(b"\r\n")[0]]
        refused = [s for s, first in streams if b" 429 " in first.split(b"\r\n")[0]]
        assert len(live) == 8 and len(refused) == 32  # the device's share, the rest refused
        for _ in range(30):  # slowloris: headers begun, never finished
            sock = connect(served, GUEST)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nX-Slow: ")
            slow.append(sock)
        # The tablet still gets its page, its state and a stream of its own.
        status, body = get(served, "/api/state")
        assert status == 200 and json.loads(body)["seq"] == service.table.seq
        assert get(served, "/")[0] == 200
        mine, first = open_stream(served, TABLET)
        assert b" 200 " in first.split(b"\r\n")[0]
        mine.close()
        # Slow headers are closed after the deadline (the guest's streams, complete, stay).
        deadline = time.monotonic() + 10
        for sock in slow:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            assert sock.recv(100) == b""  # closed by the server
    finally:
        for sock, _ in streams:
            sock.close()
        for sock in slow:
            sock.close()


def test_a_device_cannot_hold_more_connections_than_its_share(served):
    held = []
    try:
        answers = []
        for _ in range(60):
            sock = connect(served, GUEST)
            held.append(sock)
        for sock in held[-12:]:  # past the share of 48: answered 429 and closed
            sock.settimeout(5)
            answers.append(sock.recv(200))
        assert all(b" 429 " in answer for answer in answers)
        assert get(served, "/api/state")[0] == 200  # the tablet is another device
    finally:
        for sock in held:
            sock.close()


def test_a_huge_body_is_refused_before_it_is_read(served, tmp_path, monkeypatch):
    spool = tmp_path / "spool"  # where a server that spools bodies would write them
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))
    with connect(served, GUEST) as sock:
        sock.sendall(
            b"POST /api/host/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1073741824\r\n\r\n" + b"{" * 65536
        )
        answer = sock.recv(4096)  # after 64 KiB of the 1 GiB announced: nothing more was read
        pushed = 0
        with contextlib.suppress(OSError):  # the guest goes on sending; the server has hung up
            sock.settimeout(1)
            while pushed < 64 << 20:
                sock.sendall(b"{" * (1 << 20))
                pushed += 1 << 20
    assert b" 413 " in answer.split(b"\r\n")[0]
    assert pushed < 64 << 20  # the connection was closed, not drained
    assert list(spool.iterdir()) == []  # nothing of the body reached the disk
    with connect(served, GUEST) as sock:  # no length: counted as it comes
        sock.sendall(
            b"POST /api/host/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        sent = 0
        chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
        answer = b""
        try:
            while sent < 16 * 0x10000 and not answer:
                sock.sendall(chunk)
                sent += 0x10000
                sock.settimeout(0.05)
                with contextlib.suppress(TimeoutError):
                    answer = sock.recv(4096)
        except (BrokenPipeError, ConnectionResetError):
            pass
        sock.settimeout(5)
        answer = answer or sock.recv(4096)
    assert b" 413 " in answer.split(b"\r\n")[0]
    assert sent <= 4 * 0x10000  # refused within a few chunks of the 64 KiB limit
