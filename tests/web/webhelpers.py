"""Helpers shared by the web tests (a module of its own: ``conftest`` names are ambiguous)."""

import re

PIN = "2468"


def csrf_of(client):
    """This test client's session CSRF token."""
    return client.get("/api/csrf").get_json()["csrf"]


INITIAL = re.compile(
    r'<script id="(?:initial|timeline)" type="application/json">(.*?)</script>', re.S
)
"""A page's embedded JSON snapshot (the initial state or a timeline)."""


def first_sse_message(client, url):
    """The first snapshot a stream sends (then the connection is closed)."""
    response = client.get(url, buffered=False)
    try:
        buffer = ""
        for chunk in response.response:
            buffer += chunk.decode()
            if "data: " in buffer and buffer.endswith("\n\n"):
                return buffer
    finally:
        response.close()
    return buffer


def seat_responses(client, token):
    """What whoever holds a seat's link gets: its page, its state and its stream's first message."""
    return [
        client.get(f"/seat/{token}").data.decode(),
        client.get(f"/api/seat/{token}/state").data.decode(),
        first_sse_message(client, f"/api/stream?viewer=seat&token={token}"),
    ]


def log_in_as_host(page, base):
    """Log a Chromium page in as the Host through the Host page's PIN form."""
    page.goto(f"{base}/host")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#undo")
