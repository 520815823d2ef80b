"""Small JSON files in the data directory, written so that a crash leaves the old file or the new.

The Character deck, the enrolled tags and the camera's calibration are each one JSON document:
written to a temporary file beside the target, fsynced, renamed over it, and the directory
fsynced so the rename itself survives a power cut.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def write_json(path: Path, data: Any, **dump: Any) -> None:
    """Write ``data`` as JSON to ``path`` atomically (``dump``: options for ``json.dump``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(data, file, indent=1, **dump)
        file.write("\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
