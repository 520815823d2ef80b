"""The camera's health as every viewer sees it: frame rate, last frame, errors and a status.

Nothing secret: no image and no counts, only whether the camera gives frames it can read
(``"not calibrated"``, ``"no frames"``, ``"covered"``: a hand or a Goblet over a reveal area, or
``"ok"``).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

NO_FRAMES_AFTER = 3.0
"""Seconds without a detected frame before the camera is shown as giving no frames."""
FPS_WINDOW = 5.0
"""Seconds of detected frames the frame rate is measured over."""
HEALTH_EVERY = 5.0
"""Seconds between two publications of the camera's health when nothing else changes."""


class FrameHealth:
    """The detected frames of the last :data:`FPS_WINDOW` seconds (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frames: deque[float] = deque()
        self._covered = False

    def frame(self, t: float, covered: bool) -> None:
        """A frame detected at ``t``; ``covered``: a reveal area of it was not seen."""
        with self._lock:
            self._frames.append(t)
            self._covered = covered

    def report(self, now: float, *, calibrated: bool, errors: int) -> dict[str, Any]:
        """``{"fps", "last_frame" (seconds ago, None: never), "errors", "status"}``."""
        with self._lock:
            while self._frames and now - self._frames[0] > FPS_WINDOW:
                self._frames.popleft()
            frames = list(self._frames)
            covered = self._covered
        last = frames[-1] if frames else None
        if len(frames) >= 2 and frames[-1] > frames[0]:
            fps = (len(frames) - 1) / (frames[-1] - frames[0])
        else:
            fps = 0.0
        if not calibrated:
            status = "not calibrated"
        elif last is None or now - last > NO_FRAMES_AFTER:
            status = "no frames"
        elif covered:
            status = "covered"
        else:
            status = "ok"
        return {
            "fps": round(fps, 1),
            "last_frame": None if last is None else round(now - last, 1),
            "errors": errors,
            "status": status,
        }
