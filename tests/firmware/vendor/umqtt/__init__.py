"""micropython-lib's umqtt package, vendored for tests (see simple.py's header)."""
