"""Twenty live SSE clients at once on the dashboard's server (a stream holds no thread), plus
pages, from one address (a test machine: the per-device stream limit is raised for it)."""

from __future__ import annotations

import json
import socket
import threading
import urllib.request

from companion.core.game import Viewer
from companion.web import create_app
from companion.web.server import WebServer

CLIENTS = 20


def open_stream(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET /api/stream?viewer=public HTTP/1.1\r\nHost: t\r\n\r\n")
    return sock


def read_until(sock: socket.socket, needle: bytes, buffer: bytes = b"") -> bytes:
    while needle not in buffer:
        chunk = sock.recv(65536)
        assert chunk, "the stream closed"
        buffer += chunk
    return buffer


def test_twenty_live_clients_get_every_update(service, settings):
    app = create_app(service, settings)
    server = WebServer(
        app, host="127.0.0.1", port=0, threads=2, streams_per_address=CLIENTS
    ).start()
    sockets = []
    try:
        sockets = [open_stream(server.port) for _ in range(CLIENTS)]
        buffers = [read_until(sock, b'"seq":0') for sock in sockets]  # the first snapshot
        assert service.hub.count() == CLIENTS
        # With every stream open, pages and the API still answer.
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/state", timeout=10) as r:
            assert json.loads(r.read())["seq"] == 0
        service.act({"type": "pass", "seat": 0}, by=Viewer.seat(0))
        results: list[bytes] = [b""] * CLIENTS

        def read(index: int) -> None:
            results[index] = read_until(sockets[index], b'"seq":1', buffers[index])

        threads = [threading.Thread(target=read, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=15)
        assert all(b'"seq":1' in result for result in results)
    finally:
        for sock in sockets:
            sock.close()
        service.hub.close()
        server.stop()
