"""A private mosquitto on a loopback port, for tests, benchmarks and development.

On the Pi the broker is the system's mosquitto (``hardware/mosquitto/``). Tests and
``scripts/bench_links.py`` need their own: :class:`MosquittoBroker` writes a config into a
working directory, starts ``/usr/sbin/mosquitto`` on a free 127.0.0.1 port, waits until it
accepts connections, and can stop and restart it on the same port (a broker restart mid-game).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class BrokerError(RuntimeError):
    """mosquitto did not start (the message carries the end of its log)."""


class MosquittoBroker:
    """One mosquitto process with a generated config in ``workdir``.

    ``config`` is the body of the config file without the listener line (``allow_anonymous
    true`` by default); ``user <caller>`` and ``listener PORT 127.0.0.1`` are prepended.
    """

    def __init__(self, workdir: Path, config: str = "allow_anonymous true\n", port: int = 0):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.host = "127.0.0.1"
        self.port = port or free_port()
        self.conf_path = self.workdir / "mosquitto.conf"
        self.log_path = self.workdir / "mosquitto.log"
        # Started as root, mosquitto would switch to the `mosquitto` user, who cannot read the
        # caller's private temporary files: stay the caller.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name}\n"
        self.conf_path.write_text(f"{user}listener {self.port} {self.host}\n{config}")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``mqtt://127.0.0.1:PORT``."""
        return f"mqtt://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> MosquittoBroker:
        """Start mosquitto and wait until it accepts TCP connections; returns self."""
        log = self.log_path.open("ab")
        try:
            self.process = subprocess.Popen(
                [MOSQUITTO, "-c", str(self.conf_path)],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            with (
                contextlib.suppress(OSError),
                socket.create_connection((self.host, self.port), 0.2),
            ):
                return self
            time.sleep(0.02)
        self.stop()
        tail = self.log_path.read_text(errors="replace")[-2000:]
        raise BrokerError(f"mosquitto did not start on port {self.port}:\n{tail}")

    def stop(self, timeout: float = 5.0) -> None:
        """Stop mosquitto (SIGTERM, then SIGKILL after ``timeout``); harmless if not running."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)

    def restart(self) -> None:
        """Stop and start again on the same port (clients see the broker vanish and return)."""
        self.stop()
        self.start()

    def log(self) -> str:
        """What mosquitto has logged so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> MosquittoBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
