"""A token's kind under a lamp's sheen (vision/kinds.py): white added keeps a colour's chroma.

The judge of the whole detector is the independent renderer (tests/vision/test_independent.py);
these pin the colour rule itself on the dichromatic model the module's docstring states: a sheen
adds the same white to every channel, clipping at 255.
"""

import numpy as np
import pytest

from vision import palette
from vision.kinds import KINDS, NO_KIND, chroma_kind, chromatic, kind_of


def _sheened(kind: str, sheen: float, shade: float = 1.0) -> np.ndarray:
    """A token's BGR colour under ``shade`` of the light with ``sheen`` (of 255) of white added."""
    body = np.array(palette.TOKEN_COLOURS[kind][::-1], np.float32) * shade
    return np.clip(body + sheen, 0, 255).astype(np.uint8)


def _disc(kind: str, peak: float, shade: float = 1.0, size: int = 41) -> np.ndarray:
    """A token filling a crop, with a Gaussian sheen of ``peak`` off its centre (towards a lamp)."""
    yy, xx = np.mgrid[:size, :size].astype(np.float32)
    c = size // 2
    blob = np.exp(-((xx - c - 3) ** 2 + (yy - c - 3) ** 2) / (2 * 7.0**2))
    body = np.array(palette.TOKEN_COLOURS[kind][::-1], np.float32) * shade
    return np.clip(body + peak * blob[..., None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("kind", ["wine", "unicorn_antidote", "ogre_poison"])
@pytest.mark.parametrize("sheen", [60, 100, 150])
def test_a_sheened_colour_keeps_its_kind(kind, sheen):
    pixel = _sheened(kind, sheen).reshape(1, 1, 3)
    assert KINDS[int(chromatic(pixel)[0, 0])] == kind


def test_greys_and_dark_mixes_have_no_chroma_kind():
    """An Antidote under a slight cast, a Poison, and the dark mix where a Wine token's blurred
    edge meets a Poison one (chromatic, but no white added): the nearest colour names them."""
    for bgr in [(228, 236, 238), (210, 232, 240), (30, 26, 26), (40, 35, 90)]:
        assert chromatic(np.array([[bgr]], np.uint8))[0, 0] == NO_KIND


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("peak", [0, 120, 230])
@pytest.mark.parametrize("shade", [1.0, 0.6])
def test_kind_of_a_sheened_token(kind, peak, shade):
    """Whatever a sheen's peak, a token in light or a goblet's shadow keeps its kind (a Wine
    token washed pink was an Antidote by its nearest colour)."""
    crop = _disc(kind, peak, shade)
    grey = crop.mean(axis=2).astype(np.uint8)
    assert kind_of(crop, grey, shade, 20, 20) == kind


def test_the_cloth_names_the_kind_it_would_hide():
    assert KINDS[chroma_kind((38, 36, 150))] == "wine"  # a red cloth
    assert chroma_kind((116, 124, 128)) == NO_KIND  # grey
    assert chroma_kind((62, 104, 156)) == NO_KIND  # wood: brown is no Wine
