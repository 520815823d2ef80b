"""Small files in the data directory, written so that a crash leaves the old file or the new.

The Character deck, the enrolled tags and the camera's calibration are each one JSON document,
and the calibration's picture of the bare table a PNG beside it. Each is written to a temporary
file beside the target, fsynced, renamed over it, and the directory fsynced so the rename itself
survives a power cut.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def write_json(path: Path, data: Any, **dump: Any) -> None:
    """Write ``data`` as JSON to ``path`` atomically (``dump``: options for ``json.dump``)."""
    write_bytes(path, (json.dumps(data, indent=1, **dump) + "\n").encode("utf-8"))


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a crash leaves the old file or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
