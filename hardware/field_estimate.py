#!/usr/bin/env python3
"""The sensing figures hardware/README.md quotes, computed from textbook formulas (no measurement).

Three tables, printed as Markdown rows that the README carries verbatim
(tests/firmware/test_fw_hardware_files.py checks that they agree):

* **Field on the axis of a loop antenna**: H(z) = N I a^2 / (2 (a^2 + z^2)^(3/2)) (Biot-Savart
  for a circular loop of radius a; NXP AN11740 "PN5180 antenna design guide" section 3.1 starts
  from the same law; Finkenzeller, RFID Handbook, "Path of field strength H(x) in conductor
  loops"). A rectangular loop is taken as the circle of equal area.
* **A detuned tag**: the voltage a tag's resonant loop delivers at the 13.56 MHz carrier, relative
  to the field, for a second-order resonance of self-resonance f0 and quality factor Q:
  1 / sqrt((1 - (f/f0)^2)^2 + (f / (Q f0))^2), which is Q when f = f0.
* **A stack of tags**: n identical loops, each coupled to its neighbours with coupling factor k,
  resonate in n modes f0 / sqrt(1 + 2 k cos(j pi / (n + 1))), j = 1..n (coupled-resonator chain;
  two loops give the familiar f0 / sqrt(1 +- k)). The lowest mode is the one the stack pulls
  below the carrier.

Every input is an assumption named below; measure your parts and change them.
Usage: .venv/bin/python hardware/field_estimate.py
"""

import math

CARRIER_MHZ = 13.56
H_MIN_15693 = 0.15  # A/m, ISO/IEC 15693-2: the least field a vicinity card must work in
H_MAX_15693 = 5.0  # A/m, ISO/IEC 15693-2: the most field a vicinity card must withstand
H_MIN_14443 = 1.5  # A/m, ISO/IEC 14443-2: the least field a proximity card must work in

# The antenna of a common "PN5180 NFC RF module" board: a loop of about 45 mm x 40 mm (an
# assumption from the board's outline, not a datasheet figure): a circle of equal area.
MODULE_RADIUS_MM = math.sqrt(45 * 40 / math.pi)
# The reveal spot's antenna in the seat mat: a 100 mm loop, so that one layer of a Goblet's
# tokens (about 12 tokens of 25 mm) lies inside it.
MAT_RADIUS_MM = 50.0
# The module's drive, taken as what an ISO 14443 reader must give where it reads a card:
# H_MIN_14443 at 40 mm (AN11740 section 3.1 sizes antennas for operating distances of 4-8 cm).
# Both antennas are driven with these ampere-turns: an estimate, not a measured current.
DRIVE_AT_MM = 40.0

# Where the tags sit, in mm above the antenna's copper.
OLD_TABLE_MM = 18.0  # the old design: wood over the antenna
RING_MM = 3.0  # the old design's ring: its tag on top of the ring's 3 mm
RING_STICKER_MM = 1.0  # the mat design: the ring's sticker faces down, 1 mm above the felt
GOBLET_BASE_MM = 8.0  # from the ring's underside to the first token inside the Goblet
TOKEN_PITCH_MM = 3.0  # one stacked token
MAT_MM = 2.0  # felt or cork over the mat's antenna
FLAT_TOKEN_MM = 1.0  # a token's inlay above the token's underside


def on_axis(a_mm, z_mm):
    """H(z) / H(0) on the axis of a circular loop of radius ``a_mm`` at height ``z_mm``."""
    return a_mm**3 / (a_mm**2 + z_mm**2) ** 1.5


def field(ampere_turns, a_mm, z_mm):
    """H in A/m on the axis of a loop of radius ``a_mm`` carrying ``ampere_turns`` (N I)."""
    a, z = a_mm / 1000, z_mm / 1000
    return ampere_turns * a**2 / (2 * (a**2 + z**2) ** 1.5)


def ampere_turns_for(h, a_mm, z_mm):
    """The N I that puts field ``h`` (A/m) at height ``z_mm`` on the axis of the loop."""
    return h / field(1.0, a_mm, z_mm)


def tag_gain(f0_mhz, q, f_mhz=CARRIER_MHZ):
    """A tag's resonant voltage gain at ``f_mhz`` for self-resonance ``f0_mhz`` and ``q``."""
    x = (f_mhz / f0_mhz) ** 2
    return 1 / math.sqrt((1 - x) ** 2 + (f_mhz / (q * f0_mhz)) ** 2)


def lowest_mode(f0_mhz, k, n):
    """The lowest resonance of a chain of ``n`` loops coupled ``k`` to each neighbour (MHz)."""
    return f0_mhz / math.sqrt(1 + 2 * k * math.cos(math.pi / (n + 1)))


def drive():
    """The ampere-turns assumed for both antennas (H_MIN_14443 at DRIVE_AT_MM, module loop)."""
    return ampere_turns_for(H_MIN_14443, MODULE_RADIUS_MM, DRIVE_AT_MM)


def places():
    """(design, what, loop radius mm, height mm, the design's ring height mm) of every row."""
    ring_old = OLD_TABLE_MM + RING_MM
    stack_top_old = ring_old + GOBLET_BASE_MM + 12 * TOKEN_PITCH_MM
    ring_mat = MAT_MM + RING_STICKER_MM
    flat = MAT_MM + FLAT_TOKEN_MM
    stack_top_mat = ring_mat + GOBLET_BASE_MM + 12 * TOKEN_PITCH_MM
    module, mat = MODULE_RADIUS_MM, MAT_RADIUS_MM
    return [
        ("old: module under 18 mm of wood", "coaster ring", module, ring_old, ring_old),
        (
            "old: module under 18 mm of wood",
            "top of 12 stacked tokens",
            module,
            stack_top_old,
            ring_old,
        ),
        ("mat: 100 mm loop", "coaster ring", mat, ring_mat, ring_mat),
        ("mat: 100 mm loop", "poured-out token, flat", mat, flat, ring_mat),
        ("mat: 100 mm loop", "top of 12 tokens in the Goblet", mat, stack_top_mat, ring_mat),
    ]


def field_rows():
    """The field table's Markdown rows."""
    ni = drive()
    rows = []
    for design, what, a, z, ring in places():
        h = field(ni, a, z)
        ratio = on_axis(a, z) / on_axis(a, ring)
        rows.append(
            f"| {design} | {what} | {a:.0f} | {z:.0f} | {on_axis(a, z):.2f} | {ratio:.2f} "
            f"| {h:.2f} | {h / H_MIN_15693:.0f} |"
        )
    return rows


def tag_rows():
    """The detuned-tag table's Markdown rows: gain at the carrier, absolute and vs tuned."""
    rows = []
    for f0 in (16.0, CARRIER_MHZ, 12.0, 10.0, 8.5):
        cells = []
        for q in (10, 30):
            g = tag_gain(f0, q)
            cells.append(f"{g:.1f} | {100 * g / q:.0f}%")
        rows.append(f"| {f0:.2f} | {' | '.join(cells)} |")
    return rows


def stack_rows(n=12):
    """The stack table's Markdown rows: the lowest mode, and the self-resonance that fixes it."""
    rows = []
    for k in (0.1, 0.2, 0.4, 0.8):
        low = lowest_mode(CARRIER_MHZ, k, n)
        fix = CARRIER_MHZ * CARRIER_MHZ / low
        rows.append(f"| {n} | {k:.1f} | {low:.1f} | {fix:.1f} |")
    return rows


def tables():
    """Every table the README quotes, header lines included, as one list of lines."""
    return [
        f"Drive assumed: {drive():.2f} ampere-turns ({H_MIN_14443:.1f} A/m at {DRIVE_AT_MM:.0f} mm "
        "on the module loop's axis).",
        "",
        "| design | tag | loop radius mm | height mm | H/H(0) | H/H(ring) | H A/m | x Hmin |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        *field_rows(),
        "",
        "| tag self-resonance MHz | gain Q=10 | vs tuned | gain Q=30 | vs tuned |",
        "| ---: | ---: | ---: | ---: | ---: |",
        *tag_rows(),
        "",
        "| tags | k | lowest mode MHz (tuned 13.56) | self-resonance for lowest = 13.56 |",
        "| ---: | ---: | ---: | ---: |",
        *stack_rows(),
    ]


def main():
    """Print the tables."""
    print("\n".join(tables()))


if __name__ == "__main__":
    main()
