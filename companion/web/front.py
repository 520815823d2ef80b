"""The dashboard's ASGI front: live streams on the event loop, everything else on Flask's threads.

A guest at the table must not be able to stop the dashboard, so before anything reaches Flask:

- **Live streams hold no thread.** ``GET /api/stream`` runs through Flask like any request (the
  viewer is checked there, once), but the :class:`~companion.web.sse.EventStream` it returns is
  then sent from the event loop: a phone asleep on its stream costs a socket and a few kilobytes,
  not one of the worker threads pages and the API need. At most ``streams_per_address`` streams
  per client address, and ``max_streams`` in all: more are refused ``429``.
- **Bodies are refused at the limit before they are read.** A ``Content-Length`` over ``max_body``
  is ``413`` at once; a chunked body is counted as it comes and refused when it passes the limit.
  A body is read in memory (it is at most 64 KiB) within ``body_timeout`` seconds (``408``), so a
  slow upload holds no thread either. Nothing is ever spooled to disk.
- Every other request goes to Flask through a2wsgi, on a bounded pool of ``workers`` threads.

Connections (how many per address, how long headers may take) are limited one level down, in the
server's protocol (:mod:`companion.web.server`).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ

from companion.web.sse import ENVIRON_KEY

log = logging.getLogger(__name__)

STREAM_PATH = "/api/stream"
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def client_address(scope: dict[str, Any]) -> str:
    """The client's address (who a limit counts against)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


async def reply(send, status: int, error: str) -> None:
    """A short JSON error, the connection closed after it."""
    body = json.dumps({"error": error}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Front:
    """The ASGI application in front of the Flask ``app`` (see the module docstring)."""

    def __init__(
        self,
        app,
        *,
        workers: int = 8,
        max_body: int = 64 * 1024,
        body_timeout: float = 10.0,
        streams_per_address: int = 16,
        max_streams: int = 512,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout
        self.streams_per_address = streams_per_address
        self.max_streams = max_streams
        self.wsgi = WSGIMiddleware(app, workers=workers)
        self.executor: ThreadPoolExecutor = self.wsgi.executor
        self.streams: Counter[str] = Counter()
        self.live: set[asyncio.Task] = set()

    async def __call__(self, scope, receive, send) -> None:
        """Serve one ASGI connection scope (see the module docstring)."""
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets here
        if scope["path"] == STREAM_PATH and scope["method"] == "GET":
            await self._stream(scope, send, receive)
            return
        body = await self._read_body(scope, receive, send)
        if body is None:
            return  # refused, already answered
        await self.wsgi(scope, _replay(body, receive), send)

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                for task in list(self.live):
                    task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # -- bodies -----------------------------------------------------------------------------

    async def _read_body(self, scope, receive, send) -> bytes | None:
        """The whole request body, at most ``max_body`` bytes; None once refused."""
        length = None
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    await reply(send, 400, "a Content-Length is a number")
                    return None
        if length is not None and length > self.max_body:
            await reply(send, 413, f"a request body is at most {self.max_body} bytes")
            return None
        if scope["method"] not in BODY_METHODS and not length:
            return b""
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body:
                        await reply(send, 413, f"a request body is at most {self.max_body} bytes")
                        return None
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            await reply(send, 408, f"the request body took longer than {self.body_timeout:g} s")
            return None

    # -- live streams -----------------------------------------------------------------------

    async def _stream(self, scope, send, receive) -> None:
        address = client_address(scope)
        if self.streams[address] >= self.streams_per_address:
            await reply(send, 429, f"at most {self.streams_per_address} live streams per device")
            return
        if sum(self.streams.values()) >= self.max_streams:
            await reply(send, 429, "too many live streams: try again later")
            return
        self.streams[address] += 1
        task = asyncio.current_task()
        if task is not None:
            self.live.add(task)
        try:
            await self._serve_stream(scope, send, receive)
        finally:
            self.streams[address] -= 1
            if self.streams[address] <= 0:
                del self.streams[address]
            if task is not None:
                self.live.discard(task)

    async def _serve_stream(self, scope, send, receive) -> None:
        """Flask checks the viewer (on a worker thread, briefly); the loop sends the frames."""
        environ = build_environ(scope, io.BytesIO(b""))  # type: ignore[arg-type]
        environ["wsgi.errors"] = sys.stderr
        started: dict[str, Any] = {}

        def start_response(status, headers, exc_info=None):
            started["status"], started["headers"] = status, headers
            return lambda chunk: None

        def call():
            iterable = self.app(environ, start_response)
            stream = environ.get(ENVIRON_KEY)
            if stream is None:  # an error answer: read it here
                try:
                    return b"".join(iterable), None, iterable
                finally:
                    getattr(iterable, "close", lambda: None)()
            return b"", stream, iterable

        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        body, stream, iterable = await loop.run_in_executor(self.executor, context.run, call)
        status = int(started["status"].split(" ", 1)[0])
        headers = [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in started["headers"]]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if stream is None:
            await send({"type": "http.response.body", "body": body})
            return

        async def pump() -> None:
            async for frame in stream.frames_async():
                await send(
                    {"type": "http.response.body", "body": frame.encode(), "more_body": True}
                )
            await send({"type": "http.response.body", "body": b""})

        pumping = asyncio.ensure_future(pump())
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await asyncio.wait({pumping, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (pumping, gone):
                task.cancel()
            await asyncio.gather(pumping, gone, return_exceptions=True)
            getattr(iterable, "close", stream.close)()  # unsubscribes


async def _disconnected(receive) -> None:
    """Returns when the client has gone."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _replay(body: bytes, receive):
    """A ``receive`` that hands the already-read ``body`` over, then waits for a disconnect."""
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
