"""Join links as QR codes, drawn server-side as SVG by segno (no images, no CDN).

A game's code is drawn on every Table page the tablet loads: the drawing is kept (a game's link
is the same until the next game).
"""

from __future__ import annotations

import io
from functools import lru_cache

import segno


@lru_cache(maxsize=16)
def qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` (error correction M, dark on white, scalable)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        scale=4,
        border=2,
        xmldecl=False,
        svgns=True,
        omitsize=True,
        dark="#111",
        light="#fff",
    )
    return out.getvalue().decode()
