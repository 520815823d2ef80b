"""``companion serve --camera`` without OpenCV: a clear error naming the way out, no traceback."""

import sys

import pytest

from companion.commands import serve
from companion.core.errors import MalformedInput


def test_the_camera_without_opencv_names_the_vision_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)  # `import cv2` now raises ImportError
    with pytest.raises(MalformedInput, match=r"vision extra.*\[vision\]") as caught:
        serve.need_opencv()
    assert caught.value.field == "camera.source"


def test_with_opencv_the_camera_is_let_through():
    serve.need_opencv()  # the test extra installs OpenCV, as scripts/run installs the vision extra
