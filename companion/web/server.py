"""The production WSGI server: waitress, in a thread that can be stopped.

Why waitress: pure Python (no C build on a Raspberry Pi), a real multi-threaded HTTP/1.1 server
with production defaults, and it streams responses chunk by chunk, which Server-Sent Events need.
Every live SSE client holds one worker thread, so the pool is sized from the settings
(``web.threads``, 32 by default: 20 live clients plus pages and API calls).
"""

from __future__ import annotations

import logging
import threading

from waitress.server import create_server

log = logging.getLogger(__name__)


class WebServer:
    """A waitress server for ``app`` on ``host:port`` (port 0: a free one)."""

    def __init__(self, app, *, host: str, port: int, threads: int) -> None:
        self._server = create_server(
            app,
            host=host,
            port=port,
            threads=threads,
            ident="cupbearer",
            channel_timeout=120,
            clear_untrusted_proxy_headers=True,
        )
        self._thread: threading.Thread | None = None
        self._stopping = False

    @property
    def port(self) -> int:
        """The port actually bound."""
        return int(self._server.effective_port)

    @property
    def host(self) -> str:
        """The address actually bound."""
        return str(self._server.effective_host)

    def run(self) -> None:
        """Serve in the calling thread until :meth:`stop`."""
        try:
            self._server.run()
        except Exception:
            # Closing the sockets under the running loop may surface as an error in select():
            # expected while stopping (as in webtest's StopableWSGIServer), a bug otherwise.
            if not self._stopping:
                raise
            log.debug("server loop ended while stopping", exc_info=True)

    def start(self) -> WebServer:
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self.run, name="waitress", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Close every connection and the listening socket; wait for the worker threads.

        Live SSE streams must already have been ended (the service closes its hub first).
        """
        self._stopping = True
        # Closing live channels makes waitress log "unhandled close event": expected here.
        logging.getLogger("waitress").setLevel(logging.ERROR)
        server = self._server
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        # Closing every channel and the listening socket empties the map, which ends run().
        for channel in list(server._map.values()):
            try:
                channel.handle_close()
            except Exception:  # a channel already half-closed by its client
                log.debug("closing a channel failed", exc_info=True)
        server.close()
        if self._thread is not None:
            self._thread.join(timeout=10)
