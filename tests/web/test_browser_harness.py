"""The browser tests' shared harness (webhelpers): it must catch what the tests rely on it for.

``dashboard`` serves a real page and stops its server at the block's end (a later connection is
refused); ``watched`` fails a block whose page threw a script error, and passes a quiet one.
"""

from __future__ import annotations

import socket
import urllib.request

import pytest
from webhelpers import TABLET, dashboard, watched


def test_the_dashboard_serves_and_is_stopped_at_the_end(tmp_path_factory):
    with dashboard(tmp_path_factory, "harness") as (base, service, app):
        with urllib.request.urlopen(f"{base}/api/state", timeout=10) as reply:
            assert reply.status == 200
        assert app.extensions["cupbearer"].service is service
        port = int(base.rsplit(":", 1)[1])
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_watched_fails_on_a_script_error_and_passes_a_quiet_page(browser, tmp_path_factory):
    with dashboard(tmp_path_factory, "watched") as (base, _service, _app):
        with watched(browser, TABLET) as page:
            page.goto(f"{base}/")
            page.wait_for_selector("body[data-seq]")
        with pytest.raises(AssertionError, match="broken"), watched(browser, TABLET) as page:
            page.goto(f"{base}/")
            page.wait_for_selector("body[data-seq]")
            # an uncaught error thrown by a script of the page, as a bug in the page's JS
            page.evaluate("() => { setTimeout(() => { throw new Error('broken'); }, 0); }")
            page.wait_for_timeout(200)
