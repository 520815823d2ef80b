"""Stop signals run their callback outside the signal handler (no deadlock on held locks)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap


def test_sigterm_runs_the_callback_in_another_thread_and_the_wait_ends():
    """A main thread waiting on an Event in a tight loop is stopped by SIGTERM, every time."""
    program = textwrap.dedent(
        """
        import sys, threading
        from companion.signals import on_stop_signals
        stopping = threading.Event()
        where = []
        on_stop_signals(lambda: (where.append(threading.current_thread().name), stopping.set()))
        print("ready", flush=True)
        while not stopping.is_set():
            stopping.wait(0.0001)  # many lock round trips: the handler lands inside one
        print(where[0], flush=True)
        """
    )
    for _ in range(20):
        process = subprocess.Popen(
            [sys.executable, "-c", program], stdout=subprocess.PIPE, text=True
        )
        assert process.stdout.readline() == "ready\n"
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=20)
        assert process.returncode == 0
        assert out.startswith("signal-")
