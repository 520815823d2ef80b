"""Detection against the synthetic camera's ground truth, across seeds, sizes and noise levels.

These frames come from the detector's own renderer (``vision/render.py``, the synthetic camera the
demo table plays through), so they guard that pairing, not the detector's accuracy on a real
table: the independent judge is tests/vision/test_independent.py (its own renderer, harsher
optics). A dozen frames per level keep the guard; more of the same renderer add no evidence.

At ``none``, ``realistic`` and ``rough`` noise every ring-at-seat and every token count must be
exact but for the slips listed in :data:`KNOWN_SLIPS`, each looked at; at ``harsh`` noise the
accuracy is measured and must only stay usable (the figures per level are in
docs/benchmarks.md, "Vision").
"""

import pytest

from vision.calibrate import Calibration
from vision.detect import detect
from vision.render import render_frame

KNOWN_SLIPS = {
    # The token reader (a network taught on training/scenes.py, never on these frames) names
    # a Poison in the middle of a clump of Wine tokens at 1280x720 a Wine: between three red
    # neighbours its face shows dark maroon in the twin's frame (a person would hesitate too).
    (208, 5, "tokens"),
}
"""(seed, seat, what) of the twin's frames the detector is known to get wrong."""


def score(seeds, noise, size):
    """(seats whose ring is right, seats whose token counts are right, seats, failures)."""
    rings = tokens = seats = 0
    failures = []
    for seed in seeds:
        image, truth = render_frame(seed, noise=noise, size=size)
        found = detect(image, Calibration(truth.scene.seats, truth.homography, size))
        for seat in range(truth.scene.seats):
            seats += 1
            want = truth.scene.rings.get(seat)
            if found.rings.seats[seat] == want:
                rings += 1
            else:
                failures.append((seed, seat, "ring", want, found.rings.seats[seat]))
            counts = dict(truth.scene.tokens[seat])
            if found.tokens[seat] == counts:
                tokens += 1
            else:
                failures.append((seed, seat, "tokens", counts, found.tokens[seat]))
    return rings, tokens, seats, failures


@pytest.mark.parametrize(
    ("noise", "size", "seeds"),
    [
        ("none", (1280, 720), range(100, 104)),
        ("realistic", (1280, 720), range(200, 212)),
        ("realistic", (640, 480), range(300, 310)),
        ("rough", (1280, 720), range(400, 408)),
    ],
)
def test_rings_at_seats_and_token_counts_are_exact(noise, size, seeds):
    rings, tokens, seats, failures = score(seeds, noise, size)
    slips = {(seed, seat, what) for seed, seat, what, _, _ in failures}
    assert slips <= KNOWN_SLIPS, failures
    assert rings == seats > 0
    assert tokens == seats - len(slips)


def test_harsh_noise_degrades_gracefully():
    # Heavy blur, noise, JPEG 45 and half-lit tables: not perfect, but most seats still right.
    rings, tokens, seats, _ = score(range(500, 510), "harsh", (1280, 720))
    assert rings / seats >= 0.85
    assert tokens / seats >= 0.8


def test_loose_goblet_is_seen_but_stands_at_no_seat():
    # Seed 5 has the Van Visser goblet in mid-move, half-way between two seats.
    image, truth = render_frame(5, noise="realistic")
    assert [h for h, _, _ in truth.scene.loose] == ["van_visser"]
    found = detect(image, Calibration(truth.scene.seats, truth.homography, (1280, 720)))
    loose = [r for r in found.rings.rings if r.seat is None]
    assert [r.house for r in loose] == ["van_visser"]
    assert "van_visser" not in found.rings.seats.values()
    assert found.rings.seats == {s: truth.scene.rings.get(s) for s in range(truth.scene.seats)}
