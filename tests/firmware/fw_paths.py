"""Puts the firmware's ``lib/`` on sys.path, as the board's filesystem does, for the tests."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
LIB = FIRMWARE / "lib"

for path in (str(LIB), str(FIRMWARE / "pi")):
    if path not in sys.path:
        sys.path.insert(0, path)
