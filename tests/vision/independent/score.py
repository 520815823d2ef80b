"""Scoring the detector on independent frames: the same rules for the tests and the bench.

A seat's ring is right when the House standing there (or none) is the truth. A seat's tokens are
right when all five counts are exact; where the truth says a hand or glare covers the area, "not
seen" (``None``) is right too, and a wrong count there is a *misread* (it should have been
refused). An uncovered area reported as not seen is wrong but no misread. A refused frame
(MalformedInput) is wrong everywhere, and a misread frame if it had nothing covering it is no
misread either: refusing is always safe. A scene is exact when every seat is right.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from companion.core.errors import MalformedInput
from vision.calibrate import Calibration
from vision.detect import detect

from .render import Truth, render


@dataclass
class Tally:
    """Counts over many frames."""

    frames: int = 0
    seats: int = 0
    rings: int = 0
    tokens: int = 0
    exact: int = 0
    refused: int = 0
    covered: int = 0
    held: int = 0
    misread: int = 0
    failures: list = field(default_factory=list)

    def line(self) -> str:
        """One table row's figures."""
        s, f = max(self.seats, 1), max(self.frames, 1)
        return (
            f"{self.rings:>4}/{self.seats:<4} {self.rings / s:6.1%} "
            f"{self.tokens:>4}/{self.seats:<4} {self.tokens / s:6.1%} "
            f"{self.exact:>4}/{self.frames:<4} {self.exact / f:6.1%} "
            f"{self.refused:>4} {self.held:>3}/{self.covered:<3} {self.misread:>4}"
        )


def judge(
    tally: Tally,
    seed: int,
    image,
    truth: Truth,
    calibration: Calibration | None = None,
    told_houses: bool = True,
):
    """Detects on one frame (with the true homography unless ``calibration``) and tallies it.

    The detector is told the Houses in play, as a game tells it (``companion serve``: the rings
    of Houses no one plays stay in the box), unless ``told_houses`` is False (the bare
    detector, every House's ring possible)."""
    tally.frames += 1
    tally.seats += truth.seats
    tally.covered += len(truth.covered)
    cal = calibration or Calibration(truth.seats, truth.homography, image.shape[1::-1])
    try:
        found = detect(image, cal, houses=truth.houses if told_houses else None)
    except MalformedInput as error:
        tally.refused += 1
        tally.failures.append((seed, "refused", str(error)))
        return
    ok = True
    for seat in range(truth.seats):
        want = truth.rings.get(seat)
        got = found.rings.seats.get(seat)
        ring_ok = got == want
        if not ring_ok:
            tally.failures.append((seed, seat, "ring", want, got))
        counts = found.tokens.get(seat)
        if seat in truth.covered:
            if counts is None:
                tally.held += 1
                count_ok = True
            else:
                count_ok = dict(counts) == truth.tokens[seat]
                if not count_ok:
                    tally.misread += 1
        else:
            count_ok = counts is not None and dict(counts) == truth.tokens[seat]
        if not count_ok:
            tally.failures.append((seed, seat, "tokens", truth.tokens[seat], counts))
        tally.rings += ring_ok
        tally.tokens += count_ok
        ok = ok and ring_ok and count_ok
    tally.exact += ok


@functools.lru_cache(maxsize=32)
def frame(seed: int, level: str, size: tuple[int, int], **options):
    """One independent frame and its truth, drawn once per test session (rendering costs far
    more than detecting, and the renderer is deterministic)."""
    return render(seed, level, size, **options)


def seat_read(seed: int, level: str, size: tuple[int, int], seat: int):
    """``(truth, counts)``: the frame's truth and the detector's counts of ``seat`` (None: not
    seen), read with the true homography, the way every regression case of the tests reads
    one seat."""
    image, truth = frame(seed, level, size)
    found = detect(image, Calibration(truth.seats, truth.homography, size))
    return truth, found.tokens[seat]
