"""The dashboard's server: uvicorn (asyncio, HTTP/1.1 by h11) running the ASGI front.

Why uvicorn: pure Python with h11 (nothing to compile on a Raspberry Pi), well kept, and asyncio
underneath, so a live SSE stream is a coroutine, not a thread: a guest who opens hundreds of
streams or slow connections costs sockets, while pages and the API keep their own bounded pool
of worker threads (the front's, for Flask). The waitress server it replaces gave every stream a
thread, and 32 public streams stopped the dashboard.

Connections are guarded in uvicorn's own HTTP protocol (:class:`GuardedH11`): at most
``connections_per_address`` open connections per client address (more are answered ``429`` and
closed), and a request's headers must arrive within ``header_timeout`` seconds of the connection
or of the previous response (a slowloris client is closed). uvicorn's ``limit_concurrency``
bounds everything at once, its keep-alive timeout closes idle connections.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections import Counter

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from companion.web.front import Front

log = logging.getLogger(__name__)

TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nConnection: close\r\n"
    b'Content-Length: 48\r\n\r\n{"error": "too many connections from this device"}'
)


class Guard:
    """Open connections per client address (shared by every connection of one server)."""

    def __init__(self, per_address: int, header_timeout: float) -> None:
        self.per_address = per_address
        self.header_timeout = header_timeout
        self.open: Counter[str] = Counter()


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a per-address connection limit and a headers deadline."""

    guard: Guard

    def connection_made(self, transport) -> None:  # type: ignore[override]
        """Count the connection against its address; refuse it past the limit."""
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            # Headers and body go out as separate writes: without this, the second waits for the
            # client's delayed ACK (40 ms on Linux) on every answer.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._address = self.client[0] if self.client else "?"
        self.guard.open[self._address] += 1
        if self.guard.open[self._address] > self.guard.per_address:
            transport.write(TOO_MANY)
            transport.close()
            return
        self._expect_headers()

    def connection_lost(self, exc) -> None:
        """Uncount it."""
        self.guard.open[self._address] -= 1
        if self.guard.open[self._address] <= 0:
            del self.guard.open[self._address]
        deadline = getattr(self, "_deadline", None)
        if deadline is not None:
            deadline.cancel()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        """The next request's headers are awaited within the deadline too."""
        super().on_response_complete()
        self._expect_headers()

    def _expect_headers(self) -> None:
        """Close the connection unless a new request has begun within the headers deadline."""
        waiting_for = self.cycle
        deadline = getattr(self, "_deadline", None)
        if deadline is not None:
            deadline.cancel()

        def too_slow() -> None:
            idle = self.cycle is waiting_for and (
                waiting_for is None or waiting_for.response_complete
            )
            if idle and not self.transport.is_closing():
                self.transport.close()

        self._deadline = self.loop.call_later(self.guard.header_timeout, too_slow)


class WebServer:
    """The dashboard for Flask ``app`` on ``host:port`` (port 0: a free one), in its own thread.

    ``threads``: Flask's worker threads (pages and API; streams need none).
    """

    def __init__(
        self,
        app,
        *,
        host: str,
        port: int,
        threads: int,
        connections_per_address: int = 48,
        header_timeout: float = 10.0,
        streams_per_address: int = 16,
    ) -> None:
        self.front = Front(app, workers=threads, streams_per_address=streams_per_address)
        protocol = type(
            "Guarded", (GuardedH11,), {"guard": Guard(connections_per_address, header_timeout)}
        )
        self.config = uvicorn.Config(
            self.front,
            host=host,
            port=port,
            http=protocol,
            lifespan="on",
            log_level="warning",
            access_log=False,
            server_header=False,
            date_header=False,
            proxy_headers=False,
            timeout_keep_alive=5,
            timeout_graceful_shutdown=5,
            limit_concurrency=2048,
            h11_max_incomplete_event_size=16 * 1024,
        )
        self.server = uvicorn.Server(self.config)
        # Bound and listening now, as the URL is printed: a client may connect (and wait for the
        # first answer) before the serving thread has started.
        self.socket = self.config.bind_socket()
        self.socket.listen(self.config.backlog)
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None

    @property
    def port(self) -> int:
        """The port actually bound."""
        return int(self.socket.getsockname()[1])

    @property
    def host(self) -> str:
        """The address actually bound."""
        return str(self.socket.getsockname()[0])

    def _serve(self) -> None:
        async def main() -> None:
            serving = asyncio.ensure_future(self.server.serve(sockets=[self.socket]))
            while not self.server.started and not serving.done():
                await asyncio.sleep(0.01)
            self._ready.set()
            await serving

        try:
            asyncio.run(main())
        except BaseException as error:  # told to whoever waits for the server
            self._failed = error
            raise
        finally:
            self._ready.set()

    def start(self) -> WebServer:
        """Serve in a background thread (returns once listening)."""
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._failed is not None:
            raise self._failed
        return self

    def run(self) -> None:
        """Serve until :meth:`stop` (from another thread or a signal handler's thread)."""
        if self._thread is None:
            self.start()
        assert self._thread is not None
        while self._thread.is_alive():
            self._thread.join(0.5)

    def stop(self) -> None:
        """Stop accepting, end the streams (the service's hub must be closed first), wait."""
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=15)
        self.front.executor.shutdown(wait=False, cancel_futures=True)
