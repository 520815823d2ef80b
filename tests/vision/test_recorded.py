"""Recorded frames (tests/fixtures/vision/, written once by ``companion vision render`` and saved
as JPEG, so a change to the renderer does not regenerate them): the bare table calibrates to the
stored calibration and the laid table reads as its stored truth."""

import json
from pathlib import Path

import cv2
import numpy as np

from vision.calibrate import Calibration, calibrate, error_px
from vision.detect import detect

FIXTURES = Path(__file__).parent.parent / "fixtures" / "vision"


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def test_the_recorded_bare_table_calibrates_as_stored():
    truth = load("table-31.truth.json")
    stored = Calibration.from_json(load("table-31.calibration.json"))
    image = cv2.imread(str(FIXTURES / "empty-31.jpg"))
    found = calibrate(image, truth["seats"])
    assert found.method == stored.method == "markers"
    assert error_px(found, stored.homography, truth["seats"]) < 0.5
    assert error_px(found, np.array(truth["homography"]), truth["seats"]) < 3.0


def test_the_recorded_table_reads_as_its_truth():
    truth = load("table-31.truth.json")
    calibration = Calibration.from_json(load("table-31.calibration.json"))
    found = detect(cv2.imread(str(FIXTURES / "table-31.jpg")), calibration).to_json()
    assert found["seats"] == truth["rings"]
    assert found["tokens"] == truth["tokens"]
    assert [r["house"] for r in found["rings"] if r["seat"] is None] == truth["loose"]
