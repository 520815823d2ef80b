"""Helpers shared by the web tests (a module of its own: ``conftest`` names are ambiguous)."""

PIN = "2468"


def csrf_of(client):
    """This test client's session CSRF token."""
    return client.get("/api/csrf").get_json()["csrf"]
