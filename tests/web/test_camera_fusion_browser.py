"""Chromium: the Host page shows a readers/camera disagreement with its two answers and a tap.

The table is the one of ``tests/service/test_camera_fusion.py`` (a readers game after a played
Course, the synthetic camera beside the readers, seeing a swap the readers did not see).
"""

from __future__ import annotations

from test_camera_fusion import Rig, engine_layout, open_service, swapped
from webhelpers import TABLET, log_in_as_host

from companion.web import create_app
from companion.web.server import WebServer
from vision import render


def test_the_host_taps_which_source_is_right_and_the_tablet_shows_no_such_panel(
    browser, settings, tmp_path
):
    service = open_service(settings)
    rig = Rig(service, tmp_path)
    server = None
    context = browser.new_context(**TABLET)
    errors: list[str] = []
    try:
        moved = swapped(rig.layout, 0, 1)
        rig.synthetic.scene = render.Scene(4, moved)
        rig.steps(9, rig.layout)
        assert rig.notices("disagreement")
        server = WebServer(
            create_app(service, settings), host="127.0.0.1", port=0, threads=8
        ).start()
        base = f"http://127.0.0.1:{server.port}"
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        log_in_as_host(page, base)
        page.wait_for_selector("#fusion-host:not([hidden])")
        shown = page.inner_text("#fusion-list")
        assert "Readers:" in shown and "Camera:" in shown
        page.click("#fusion-list button:has-text('The camera is right')")
        page.wait_for_selector("#fusion-host[hidden]", state="attached")
        last = service.store.entries(service.table.record.id)[-1]
        assert (last.action["type"], last.actor) == ("swap", "host")
        assert engine_layout(service) == moved
        tablet = context.new_page()
        tablet.on("pageerror", lambda error: errors.append(str(error)))
        tablet.goto(f"{base}/")
        tablet.wait_for_selector("#readers")
        assert tablet.query_selector("#fusion-host") is None
    finally:
        context.close()
        service.hub.close()
        if server is not None:
            server.stop()
        rig.close()
        service.close()
    assert errors == []
