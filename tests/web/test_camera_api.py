"""The camera's Host endpoints: calibrate from the empty table, the latest frame, Host only.

The camera is the synthetic one (``vision.camera.SyntheticCamera``), behind a real CameraTable
that is stepped, not started; the frame it shows and the calibration it stores are real.
"""

from __future__ import annotations

import json
import random
import re
from contextlib import contextmanager

import cv2
import numpy as np
import pytest
from webhelpers import PIN, TABLET, csrf_of, join, log_in_as_host

from companion import config
from companion.commands import serve
from companion.core import registry
from companion.core.game import HOST, PUBLIC
from companion.service import Service
from companion.service.camera import CameraTable
from companion.service.camera_calibration import IN_PLAY_NOTE
from companion.web import create_app
from companion.web.server import WebServer
from vision import render
from vision.camera import SyntheticCamera

SIZE = (640, 480)


class Defocused:
    """An out-of-focus lens: the markers cannot be read, the table's outline can; or, with
    ``glare``, a lamp's hot spot in the middle of the table that the camera clips white."""

    def __init__(self, camera: SyntheticCamera) -> None:
        self.camera = camera
        self.blur = False
        self.glare = False

    def read(self):
        frame = self.camera.read()
        if self.glare:
            h, w = frame.shape[:2]
            ys, xs = np.mgrid[0:h, 0:w]
            spot = 255 * np.exp(-((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / (2 * 90.0**2))
            frame = np.clip(frame + spot[..., None], 0, 255).astype(np.uint8)
        return cv2.GaussianBlur(frame, (0, 0), 3.0) if self.blur else frame

    def close(self) -> None:
        self.camera.close()


@pytest.fixture
def camera(service, settings):
    synthetic = SyntheticCamera(seed=4, seats=4, noise="realistic", size=SIZE)
    synthetic.scene = render.Scene(4)  # the empty table
    lens = Defocused(synthetic)
    table = CameraTable(service, lens, calibration_path=settings.calibration_path)
    yield table, lens
    table.stop()


def end_the_game(service):
    """Play the shell game in play to its end by the Host's hand: passes, then the toast."""
    for _ in range(50):
        state = service.table.state
        if state.is_over():
            return
        actions = state.legal_actions()
        toasts = [a for a in actions if a["type"] == "toast"]
        service.act(
            toasts[0] if toasts else next(a for a in actions if a["type"] == "pass"), by=HOST
        )
    raise AssertionError("the shell game did not end")


@contextmanager
def host_page(browser, service, settings):
    """The Host page in Chromium, logged in, its camera panel shown: ``(page, base, open_page)``,
    ``open_page()`` another page of the same tablet. On leaving, the browser context, the streams
    and the server stop, and no page may have raised a script error."""
    server = WebServer(create_app(service, settings), host="127.0.0.1", port=0, threads=8).start()
    base = f"http://127.0.0.1:{server.port}"
    context = browser.new_context(**TABLET)
    errors: list[str] = []

    def open_page():
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    try:
        page = open_page()
        log_in_as_host(page, base)
        page.wait_for_selector("#camera-panel:not([hidden])")
        yield page, base, open_page
    finally:
        context.close()
        service.hub.close()
        server.stop()
    assert errors == []


def calibrate(host, data):
    client, token = host
    return client.post("/api/host/camera/calibrate", json=data, headers={"X-CSRF-Token": token})


def test_the_host_calibrates_from_the_markers_and_sees_the_frame(host, camera, settings, service):
    table, _ = camera
    client, _ = host
    end_the_game(service)
    reply = calibrate(host, {})
    assert reply.status_code == 200, reply.get_json()
    found = reply.get_json()
    assert found["method"] == "markers" and sorted(found["markers"]) == ["0", "1", "2", "3"]
    assert [s["seat"] for s in found["seats"]] == [0, 1, 2, 3]
    assert found["warning"] is None  # a bare, well-exposed table
    stored = json.loads(settings.calibration_path.read_text())
    assert stored["method"] == "markers" and stored["image_size"] == list(SIZE)
    # A game is in play: from above the camera sees into its Goblets, and the Host is a player
    # (the Arm's Length Rule). Once it has ended the Host may look at the table.
    service.new_game("shellgame", {"players": 3})
    refused = client.get("/api/host/camera/frame.jpg")
    assert refused.status_code == 409 and refused.mimetype == "application/json"
    assert "Arm's Length Rule" in refused.get_json()["rule"]
    end_the_game(service)
    frame = client.get("/api/host/camera/frame.jpg")
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert (image.shape[1], image.shape[0]) == SIZE
    assert client.get("/api/host/camera").get_json()["calibrated"] is True
    assert table.calibration is not None


def test_while_a_game_is_in_play_the_calibration_says_the_same_whatever_the_table_holds(
    host, camera, service
):
    """Noninterference: the Host is a player. With a game in play, two tables that differ in
    what the camera would see on them (a lamp's hot spot that clips the cloth, tokens poured
    in the reveal areas, or neither) give the same answer; with no game in play the same two
    tables give different warnings, so the comparison can fail. The lens takes an exposure
    control, as a Pi camera does: in play the calibration must not lower it either."""
    synthetic, lens = camera[1].camera, camera[1]
    lens.exposure = 0.0
    lens.set_exposure = lambda stops: setattr(lens, "exposure", stops)
    poured = render.Scene(4, tokens={0: {"wine": 2, "antidote": 1}, 2: {"poison": 1}})

    def answers():
        replies = []
        for glare, scene in ((False, render.Scene(4)), (True, poured)):
            lens.glare, synthetic.scene = glare, scene
            reply = calibrate(host, {})
            assert reply.status_code == 200, reply.get_json()
            found = reply.get_json()
            replies.append(
                (found["method"], sorted(found["markers"]), found["warning"], found["exposure"])
            )
        return replies

    bare, laid = answers()  # the shell game is in play
    assert bare == laid and bare[2] == IN_PLAY_NOTE and bare[3] is None
    assert lens.exposure == 0.0
    end_the_game(service)
    del lens.set_exposure  # out of play it would be lowered (tested on its own below)
    bare, laid = answers()
    assert bare[2] is None
    assert (
        "the camera saturates" in laid[2]
        and "tokens in the reveal area of seats 0 and 2" in laid[2]
    )


def test_an_outline_only_calibration_is_refused_without_the_flag(host, camera, settings):
    _, lens = camera
    client, _ = host
    lens.blur = True
    reply = calibrate(host, {})
    assert reply.status_code == 400
    assert reply.get_json()["field"] == "accept_ellipse"
    assert '{"accept_ellipse": true}' in reply.get_json()["error"]
    assert not settings.calibration_path.exists()
    assert calibrate(host, {"accept_ellipse": "yes"}).status_code == 400
    reply = calibrate(host, {"accept_ellipse": True})
    assert reply.status_code == 200
    assert reply.get_json()["method"] == "ellipse" and reply.get_json()["warning"]
    assert json.loads(settings.calibration_path.read_text())["method"] == "ellipse"
    shown = client.get("/api/host/camera").get_json()
    assert shown["warning"] == reply.get_json()["warning"]


def test_only_the_host_reaches_the_camera(app, client, camera, settings, service):
    service.new_game("goblets", {"players": 4})
    phone = join(app, 0, name="Ada")
    for who in (client, phone.client):
        assert who.get("/api/host/camera/frame.jpg").status_code == 401
        assert who.get("/api/host/camera").status_code == 401
        token = csrf_of(who)
        reply = who.post("/api/host/camera/calibrate", json={}, headers={"X-CSRF-Token": token})
        assert reply.status_code == 401
        assert who.post("/api/host/camera/calibrate", json={}).status_code == 403  # no CSRF
    assert not settings.calibration_path.exists()


def test_every_viewer_sees_the_cameras_health_and_nothing_else(client, camera, service):
    table, _ = camera
    table.step()
    shown = client.get("/api/state").get_json()["camera"]
    assert shown == {"fps": 0.0, "last_frame": None, "errors": 0, "status": "not calibrated"}
    assert service.message(PUBLIC)["camera"] == shown


def test_without_a_camera_the_endpoints_say_so(host):
    client, _ = host
    reply = client.get("/api/host/camera/frame.jpg")
    assert reply.status_code == 409 and "--camera" in reply.get_json()["rule"]
    assert calibrate(host, {}).status_code == 409


def test_the_host_page_calibrates_and_the_tablet_shows_the_camera(
    browser, camera, service, settings
):
    """Chromium: the Host's camera panel says to calibrate, calibrates, shows the frame; the
    tablet's Readers panel shows the camera's health."""
    table, _ = camera
    table.step()
    with host_page(browser, service, settings) as (page, base, open_page):
        assert "calibrate the camera" in page.inner_text("#camera-status")
        # The outline is offered only once the markers were not found (a button's CSS display
        # once beat its hidden attribute and offered it from the start).
        assert page.locator("#camera-ellipse").is_hidden()
        page.click("#camera-calibrate")
        page.wait_for_selector("#camera-result:has-text('Calibrated (markers)')")
        # A game is in play: the page says why there is no frame and shows no picture.
        page.wait_for_selector('#camera-frame-note:has-text("Arm\'s Length Rule")')
        assert page.locator("#camera-frame").is_hidden()
        end_the_game(service)
        page.click("#camera-look")
        page.wait_for_selector("#camera-frame", state="visible")
        assert page.locator("#camera-frame-note").is_hidden()
        width = "document.getElementById('camera-frame').naturalWidth"
        for _ in range(100):  # polled here: a page-side predicate would need eval (CSP)
            if page.evaluate(width):
                break
            page.wait_for_timeout(50)
        assert page.evaluate(width) == SIZE[0]
        tablet = open_page()
        tablet.goto(f"{base}/")
        tablet.wait_for_selector("#readers [data-camera]")
        assert "Camera:" in tablet.inner_text("#readers")


def test_the_host_page_offers_the_outline_only_when_the_markers_are_not_found(
    browser, camera, service, settings
):
    """Chromium: an out-of-focus camera, the markers unread; the page says so in its own words
    (no JSON flag) and offers the outline, which calibrates with the outline's warning."""
    _, lens = camera
    lens.blur = True
    service.new_game("goblets", {"players": 4})
    with host_page(browser, service, settings) as (page, _, _):
        assert page.locator("#camera-ellipse").is_hidden()
        page.click("#camera-calibrate")
        page.wait_for_selector("#camera-ellipse", state="visible")
        shown = page.inner_text("#camera-result")
        assert "markers were not all found" in shown and "Use the table's outline" in shown
        assert "accept_ellipse" not in page.inner_text("body")
        assert not settings.calibration_path.exists()
        page.click("#camera-ellipse")
        page.wait_for_selector("#camera-result:has-text('Calibrated (ellipse)')")
        assert page.inner_text("#camera-warning").startswith("Warning: ")
        assert page.locator("#camera-ellipse").is_hidden()
        assert json.loads(settings.calibration_path.read_text())["method"] == "ellipse"


def test_the_demo_played_for_the_camera_lists_no_readers_to_mark_broken(browser, tmp_path):
    """Chromium: ``serve --camera synthetic``'s demo table has no reader; the Host page says the
    camera reads it instead of listing every seat's reader as unknown with a "mark broken"."""
    settings = config.replace(
        config.Config(),
        data_dir=str(tmp_path),
        **{"host.pin": PIN, "camera.source": "synthetic", "camera.rate_hz": 2.5},
    )
    service = Service(settings, games=registry.load_all(), rng=random.Random(2))
    now = [0.0]  # the camera's clock: stepped with the show, not started (tests/virtual)

    def frame(t: float) -> None:
        now[0] = t
        camera_table.step()

    camera_table, demo = serve.start_camera_demo(
        service, settings, frame=frame, clock=lambda: now[0]
    )
    demo.step()
    try:
        with host_page(browser, service, settings) as (page, _, _):
            page.wait_for_selector("#reader-controls li")
            assert "read by the overhead camera" in page.inner_text("#reader-controls")
            assert page.locator("#reader-controls button").count() == 0
            page.click("#camera-look")  # the demo's table is nobody's secret: its frame is shown
            page.wait_for_selector("#camera-frame", state="visible")
    finally:
        camera_table.stop()
        service.close()


def test_the_host_page_warns_when_the_camera_clips_the_cloth(browser, camera, service, settings):
    """Chromium: a lamp's hot spot the camera clips over a quarter of the table; the calibration
    is made (from the markers) and the Host is told to lower the exposure, on the page and in
    the camera's view."""
    table, lens = camera
    lens.glare = True
    end_the_game(service)  # the table's checks are made only while no game is in play
    with host_page(browser, service, settings) as (page, _, _):
        page.click("#camera-calibrate")
        page.wait_for_selector("#camera-result:has-text('Calibrated (markers)')")
        shown = page.inner_text("#camera-warning")
        assert shown.startswith("Warning: the camera saturates") and "[camera] exposure" in shown
        assert "the camera saturates" in table.view()["warning"]
        # It stays: the page opened again shows it until the camera is calibrated again.
        page.reload()
        page.wait_for_selector("#camera-warning:has-text('the camera saturates')")
        lens.glare = False
        page.click("#camera-calibrate")
        page.wait_for_selector("#camera-warning", state="hidden")
        assert table.view()["warning"] is None


class Dimmable(Defocused):
    """A lens with an exposure control, as the Pi camera has: one stop down, the lamp's hot
    spot no longer clips (the page's words are tested here; the optics in
    tests/vision/test_exposure.py)."""

    def __init__(self, camera: SyntheticCamera) -> None:
        super().__init__(camera)
        self.exposure = 0.0
        self.glare = True

    def set_exposure(self, stops: float) -> None:
        self.exposure = stops
        self.glare = stops > -1


def test_the_host_page_says_when_the_calibration_lowered_the_exposure(browser, service, settings):
    """Chromium: a camera that clips the empty table and takes an exposure control is lowered
    by the calibration itself; the page says so and shows no warning."""
    synthetic = SyntheticCamera(seed=4, seats=4, noise="realistic", size=SIZE)
    synthetic.scene = render.Scene(4)
    lens = Dimmable(synthetic)
    table = CameraTable(service, lens, calibration_path=settings.calibration_path)
    try:
        end_the_game(service)
        with host_page(browser, service, settings) as (page, _, _):
            page.click("#camera-calibrate")
            page.wait_for_selector("#camera-result:has-text('Calibrated (markers)')")
            shown = page.inner_text("#camera-result")
            assert re.search(
                r"Exposure: the camera clipped \d+% of the empty table at \+0 stops, so the "
                r"calibration lowered its exposure to -1 stops, where it clips 0%\.",
                shown,
            ), shown
            assert page.locator("#camera-warning").is_hidden()
        assert lens.exposure == -1 and table.calibration.exposure == -1
    finally:
        table.stop()
