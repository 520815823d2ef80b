"""Recordings of raw sensor streams: JSON-lines files that ``companion track`` replays.

A recording is what the links delivered, in order, one JSON object per line (DESIGN.md principle
5: "Raw sensor streams can be recorded and replayed through the tracker, and a recorded session
becomes a regression test"):

- an observation ``{"t": seconds, "seat": i, "tags": [UID, ...]}`` (optional ``seq``, ``node``),
  exactly :meth:`companion.core.observations.Observation.to_json`;
- a node's availability ``{"t": seconds, "node": ID, "online": true | false}`` (optional
  ``"seats": [i, ...]``, the seats its HELLO announced);
- a Host correction ``{"t": seconds, "fix": {"0": NAME, ...}}``;
- the reveal ``{"t": seconds, "empty": "all" | [NAME, ...]}``.

:class:`RecordingWriter` appends such lines (flushed line by line, so a crash loses at most the
line being written); :func:`apply` feeds one parsed line to a tracker. Recordings live under
``<data directory>/recordings/`` (:func:`recording_path`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO

from companion.core.checks import is_number, is_whole
from companion.core.errors import MalformedInput
from companion.core.games.goblets.tracking import Tracker
from companion.core.observations import Observation

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def recording_path(data_dir: Path, name: str) -> Path:
    """``<data_dir>/recordings/<name>.jsonl`` (the folder is created); ``name`` is a plain word."""
    if not _NAME.match(name):
        raise MalformedInput(f"must be letters, digits, '_', '.' or '-': {name!r}", field="name")
    folder = Path(data_dir) / "recordings"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.jsonl"


NOTE_ROOM = 96
"""Bytes kept free under a recording's cap for the line that says it stopped."""


def prune(data_dir: Path, keep_bytes: int, spare: Path | None = None) -> list[Path]:
    """Delete the oldest recordings until the folder holds at most ``keep_bytes`` (``spare``, the
    one being written, is never deleted); returns the deleted files."""
    folder = Path(data_dir) / "recordings"
    if not folder.is_dir():
        return []
    files = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    total = sum(p.stat().st_size for p in files)
    deleted = []
    for path in files:
        if total <= keep_bytes:
            break
        if spare is not None and path == spare:
            continue
        total -= path.stat().st_size
        path.unlink(missing_ok=True)
        deleted.append(path)
    return deleted


class RecordingWriter:
    """Appends the lines of a recording to ``target`` (a path, or an open text stream).

    ``limit``: the most bytes the recording may reach; past it one last line says so (``{"t",
    "note": "recording stopped: ..."}``, which a replay skips) and nothing more is written. A game
    night's readers write 20 MB an hour; the cap keeps an SD card from filling.
    """

    def __init__(self, target: Path | str | TextIO, *, limit: int | None = None) -> None:
        if isinstance(target, Path | str):
            self._stream: TextIO = open(target, "a", encoding="utf-8")  # noqa: SIM115
            self._owned = True
            self.size = Path(target).stat().st_size
        else:
            self._stream = target
            self._owned = False
            self.size = 0
        self.limit = limit
        self.lines = 0
        self.stopped = False

    def _write(self, data: Mapping[str, Any]) -> None:
        if self.stopped:
            return
        line = json.dumps(data, ensure_ascii=False) + "\n"
        if self.limit is not None and self.size + len(line) + NOTE_ROOM > self.limit:
            self.stopped = True
            note = {"t": data.get("t", 0.0), "note": f"recording stopped: {self.limit} bytes"}
            line = json.dumps(note) + "\n"
        self._stream.write(line)
        self._stream.flush()
        self.size += len(line.encode("utf-8"))
        self.lines += 1

    def observation(self, obs: Observation) -> None:
        """Record one snapshot."""
        self._write(obs.to_json())

    def node_status(
        self, node: str, online: bool, t: float, seats: Iterable[int] | None = None
    ) -> None:
        """Record a node going offline or coming back (with the seats it reads, if known)."""
        data: dict[str, Any] = {"t": t, "node": node, "online": bool(online)}
        if seats is not None:
            data["seats"] = sorted(seats)
        self._write(data)

    def fix(self, layout: Mapping[Any, str], t: float) -> None:
        """Record a Host correction ``seat -> Goblet``."""
        self._write({"t": t, "fix": {str(seat): name for seat, name in layout.items()}})

    def reveal(self, goblets: Iterable[str] | None, t: float) -> None:
        """Record the reveal: these Goblets (all when ``None``) were emptied."""
        self._write({"t": t, "empty": "all" if goblets is None else list(goblets)})

    def note(self, text: str, t: float) -> None:
        """Record a remark (a replay skips it)."""
        self._write({"t": t, "note": str(text)})

    def close(self) -> None:
        """Close the file (a stream handed in is left open)."""
        if self._owned:
            self._stream.close()

    def __enter__(self) -> RecordingWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def apply(tracker: Tracker, data: Any) -> list[dict[str, Any]]:
    """Feed one parsed recording line to ``tracker``; MalformedInput names the bad field."""
    if not isinstance(data, dict):
        raise MalformedInput("a line must be a JSON object")
    t = data.get("t")
    if not is_number(t):
        raise MalformedInput(f"must be a number of seconds, got {t!r}", field="t")
    if "seat" in data or "tags" in data:
        return tracker.observe(Observation.from_json(data))
    if "online" in data:
        if not isinstance(data["online"], bool):
            raise MalformedInput("must be true or false", field="online")
        if not isinstance(data.get("node"), str):
            raise MalformedInput("must be a node id string", field="node")
        seats = data.get("seats")
        if seats is not None and not (
            isinstance(seats, list) and all(is_whole(s) and s >= 0 for s in seats)
        ):
            raise MalformedInput("must be a list of seat indexes", field="seats")
        return tracker.node_status(data["node"], data["online"], t, seats)
    if "empty" in data:
        names = data["empty"]
        if names != "all" and not (
            isinstance(names, list) and all(isinstance(n, str) for n in names)
        ):
            raise MalformedInput('must be "all" or a list of goblet names', field="empty")
        return tracker.empty_goblets(None if names == "all" else names, t)
    if "fix" in data:
        if not isinstance(data["fix"], dict):
            raise MalformedInput("must be an object of seat -> goblet", field="fix")
        return tracker.fix_layout(data["fix"], t)
    if "note" in data:
        return []  # a remark in the file (the recording stopped at its cap)
    raise MalformedInput("not an observation, node status, reveal or fix (no seat/tags)")
