"""Generate the dashboard's binary assets into companion/web/static/ (nothing is downloaded).

- ``turn.wav``: the phone's short "your turn" chime (two soft notes, 0.4 s, 22.05 kHz mono);
- ``icon-192.png``, ``icon-512.png``: the web app manifest's icons (a cream Goblet on the
  dashboard's wine red, drawn inside the maskable safe zone so a launcher may crop it round).

Run ``.venv/bin/python scripts/web_assets.py``; the output is deterministic (no randomness, no
clock), so re-running it changes no file. Only the standard library is used.
"""

from __future__ import annotations

import math
import struct
import wave
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "companion" / "web" / "static"
RATE = 22050
WINE = (0x7A, 0x1F, 0x2B)
CREAM = (0xF5, 0xEF, 0xE2)


def chime() -> bytes:
    """Two notes (E5 then A5), each with a quick attack and an exponential fade."""
    frames = bytearray()
    for freq, length in ((659.25, 0.16), (880.0, 0.24)):
        count = int(RATE * length)
        for i in range(count):
            t = i / RATE
            envelope = min(1.0, t / 0.008) * math.exp(-t * 9.0)
            tone = math.sin(2 * math.pi * freq * t) + 0.25 * math.sin(4 * math.pi * freq * t)
            sample = envelope * tone
            frames += struct.pack("<h", int(max(-1.0, min(1.0, 0.45 * sample)) * 32767))
    return bytes(frames)


def write_wav(path: Path) -> None:
    """The chime as a 16-bit mono WAV file."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(chime())


def inside_goblet(x: float, y: float) -> bool:
    """Whether the point (0..1 square) lies on the Goblet: a bowl, a stem and a foot."""
    bowl = y >= 0.26 and y <= 0.50 and (x - 0.5) ** 2 / 0.22**2 + (y - 0.26) ** 2 / 0.24**2 <= 1
    rim = 0.24 <= y <= 0.28 and abs(x - 0.5) <= 0.22
    stem = 0.48 <= y <= 0.70 and abs(x - 0.5) <= 0.035
    foot = 0.68 <= y <= 0.76 and (x - 0.5) ** 2 / 0.16**2 + (y - 0.76) ** 2 / 0.07**2 <= 1
    return bowl or rim or stem or foot


def icon(size: int) -> bytes:
    """An RGB ``size`` x ``size`` icon (4 samples a pixel for smooth edges) as PNG bytes."""
    rows = bytearray()
    offsets = (0.25, 0.75)
    for py in range(size):
        rows.append(0)  # PNG filter type 0 (None) for this row
        for px in range(size):
            hits = sum(
                inside_goblet((px + dx) / size, (py + dy) / size)
                for dx in offsets
                for dy in offsets
            )
            share = hits / 4
            rows += bytes(round(w + (c - w) * share) for w, c in zip(WINE, CREAM, strict=True))
    return png(size, size, bytes(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    """A PNG file of 8-bit RGB rows already prefixed with their filter byte."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    """Write every asset into companion/web/static/."""
    write_wav(STATIC / "turn.wav")
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(icon(size))


if __name__ == "__main__":
    main()
