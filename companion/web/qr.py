"""Seat join links as QR codes, drawn server-side as SVG by segno (no images, no CDN)."""

from __future__ import annotations

import io

import segno


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
