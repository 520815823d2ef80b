"""Coaster rings on hard independent frames (a low side lamp, a poor camera) at 640x480: causes
fixed one by one stay fixed, each case below failing before its fix (the pattern of
``test_hard_causes.py``). A ring misnamed costs its whole scene, as a wrong count does."""

import pytest
from independent.score import frame

from vision.calibrate import Calibration
from vision.detect import detect


def _ring_at(seed: int, seat: int) -> tuple[str | None, str | None]:
    """(the true House, the House read) at ``seat`` of hard frame ``seed`` at 640x480."""
    image, truth = frame(seed, "hard", (640, 480))
    found = detect(image, Calibration(truth.seats, truth.homography, (640, 480)), tokens=False)
    return truth.rings.get(seat), found.rings.seats[seat]


@pytest.mark.parametrize(
    ("seed", "seat"),
    [
        # A brown De Miceti ring, dark and weakly coloured, whose pixels' chromaticity the
        # cloth mixed in at its edges and the camera's blur tip towards Arañeros red (dark
        # blue cloth, white linen) or Wespendorf yellow (green felt): lit, it is as bright as
        # brown is, and red or yellow would have to be in a shadow to look that dark
        # (vision.rings.SHADE_COST; before, each read as the brighter House).
        (62017, 2),
        (60021, 3),
        (60048, 2),
    ],
)
def test_a_lit_brown_ring_is_de_miceti_not_a_shaded_red_or_yellow_one(seed, seat):
    truth, read = _ring_at(seed, seat)
    assert truth == "de_miceti"
    assert read == truth
