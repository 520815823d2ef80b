#!/usr/bin/env python3
"""Modelled time to inventory k stacked tags (k = 1..16) per reader, beside the air-time floor.

The firmware drivers (firmware/lib) run against the register-level chip models
(tests/firmware/fw_sim_*.py) on a simulated 4 MHz SPI bus. The models charge time per exchange:
SPI bytes, the PN5180's BUSY time per host instruction, frames on the air, frame delay times,
and the programmed timer window whenever nobody answers (the PN5180 model plays these on its
modelled clock: TIMER1 as configured, RF_ON's ramp, the tags' power-up after the field is on;
the MFRC522 model too: its frames, the ISO 14443-3 frame delay times, the answers' bits and its
timer are events on the clock, which the driver's SPI polling moves on).
The floor is computed here from the frames' bit counts alone, for a reader that wastes nothing
and never meets a collision:

* ISO/IEC 14443A, 106 kbit/s (one bit = 128/fc = 9.44 us). Air bits of a frame: start + data +
  one parity bit per byte + end; a short frame (REQA) is 9 bits. Per 7-byte-UID tag (NTAG
  stickers in coaster rings and tokens): REQA/ATQA, then per cascade level ANTICOLLISION
  (SEL NVB) / UID CLn+BCC and SELECT (7 bytes + CRC_A) / SAK+CRC_A, then HLTA. Each
  answered command costs two minimum frame delay times (1172/fc = 86.4 us), HLTA one. The
  inventory ends with one REQA nobody answers (its FDT plus one bit).
* ISO/IEC 15693, high data rate, 26.48 kbit/s (one bit = 512/fc = 37.76 us, 1-out-of-4 from the
  reader, one subcarrier back). One 16-slot inventory: request (flags, command, mask length,
  CRC) with SOF and EOF, 15 slot-closing EOFs, and per answered slot t1 + SOF + 12 bytes
  (flags, DSFID, UID, CRC) + EOF + t2; per empty slot t1 + the SOF window (t3). The floor
  assumes the k tags fall into k different slots.

Usage: .venv/bin/python scripts/bench_firmware.py [--seeds N] [--markdown]
"""

import argparse
import pathlib
import random
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "firmware"), str(ROOT / "firmware" / "lib")]

from fw_rigs import mfrc522_rig, pn5180_rig, random_14443_tags, random_15693_tags  # noqa: E402

FC = 13.56e6
A_BIT_US = 128 / FC * 1e6
A_FDT_US = 1172 / FC * 1e6
V_BIT_US = 512 / FC * 1e6
V_SOF_US, V_EOF_US = 75.52, 37.76
T_SOF_US = T_EOF_US = 768 / FC * 1e6
T1_US, T2_US = 4320 / FC * 1e6, 4192 / FC * 1e6


def a_frame_bits(data_bits):
    """Air bits of an ISO 14443A frame carrying ``data_bits`` (short frame for 7)."""
    return 9 if data_bits == 7 else 2 + data_bits + data_bits // 8


def floor_14443a_ms(k, levels=2):
    """Air-time floor of inventorying ``k`` tags with ``levels`` cascade levels each."""
    per_tag = a_frame_bits(7) + a_frame_bits(16)  # REQA / ATQA
    per_tag += levels * (a_frame_bits(16) + a_frame_bits(40))  # ANTICOLLISION / CLn + BCC
    per_tag += levels * (a_frame_bits(72) + a_frame_bits(24))  # SELECT / SAK
    per_tag += a_frame_bits(32)  # HLTA
    fdts = 2 + levels * 4 + 1
    end = a_frame_bits(7) * A_BIT_US + A_FDT_US + A_BIT_US
    return (k * (per_tag * A_BIT_US + fdts * A_FDT_US) + end) / 1000


def floor_15693_ms(k):
    """Air-time floor of one 16-slot ISO 15693 inventory answered by ``k`` <= 16 tags."""
    request = V_SOF_US + 5 * 8 * V_BIT_US + V_EOF_US
    answered = T1_US + T_SOF_US + 12 * 8 * V_BIT_US + T_EOF_US + T2_US
    empty = T1_US + T_SOF_US
    return (request + 15 * V_EOF_US + k * answered + (16 - k) * empty) / 1000


def modelled_mfrc522_ms(k, seed):
    """Modelled time of the MFRC522 driver's inventory of ``k`` 7-byte-UID tags."""
    tags = random_14443_tags(random.Random(seed * 100 + k), k, sizes=(7,))
    driver, chip, clock = mfrc522_rig(tags, seed=seed)
    driver.init()
    start = clock.us
    got = driver.inventory()
    assert sorted(got) == sorted(t.uid for t in tags), "the inventory missed a tag"
    return (clock.us - start) / 1000, chip.exchanges


def modelled_pn5180_ms(k, seed, firmware=(0x00, 0x04)):
    """Modelled time of the PN5180 driver's inventory of ``k`` ISO 15693 tags.

    The inventory includes switching the field on (TX_RFON, the tags' 1 ms power-up) and off.
    """
    return pn5180_inventory(k, seed, firmware)[:2]


def pn5180_inventory(k, seed, firmware=(0x00, 0x04)):
    """(ms, exchanges, field-on ms) of one PN5180 inventory of ``k`` tags on the model."""
    tags = random_15693_tags(random.Random(seed * 100 + k), k)
    driver, chip, clock = pn5180_rig(tags, seed=seed, firmware_version=firmware)
    driver.init()
    start, on = clock.us, chip.field_on_us()
    got = driver.inventory()
    assert sorted(got) == sorted(t.uid for t in tags), "the inventory missed a tag"
    assert chip.violations == chip.t2_violations == 0, "BUSY or t2 not respected"
    return (clock.us - start) / 1000, chip.exchanges, (chip.field_on_us() - on) / 1000


def pn5180_summary(seeds, k=12, rate_hz=10, readers=6):
    """The PN5180's inventory of ``k`` tags per firmware: medians, floor ratio, RF duty cycle.

    Duty cycle of one reader's field: it is on only during that reader's inventory; the node
    reads its ``readers`` one after another on one bus, each seat due every 1/rate_hz s, so a
    reader's turn comes every max(1/rate_hz, readers x inventory).
    """
    out = []
    for label, firmware in (("fw 4.0 (>= 3.8)", (0x00, 0x04)), ("fw 3.5 (< 3.8)", (0x05, 0x03))):
        runs = [pn5180_inventory(k, s, firmware) for s in range(seeds)]
        ms = statistics.median(r[0] for r in runs)
        on = statistics.median(r[2] for r in runs)
        period = max(1000 / rate_hz, readers * ms)
        out.append(
            {
                "k": k,
                "firmware": label,
                "ms": ms,
                "max_ms": max(r[0] for r in runs),
                "floor_ms": floor_15693_ms(k),
                "ratio": ms / floor_15693_ms(k),
                "on_ms": on,
                "duty": on / period,
            }
        )
    return out


def rows(seeds):
    """One row per k: medians (and max) over ``seeds`` random tag sets."""
    out = []
    for k in range(1, 17):
        a = [modelled_mfrc522_ms(k, s) for s in range(seeds)]
        v = [modelled_pn5180_ms(k, s) for s in range(seeds)]
        out.append(
            {
                "k": k,
                "mfrc522_ms": statistics.median(t for t, _ in a),
                "mfrc522_max_ms": max(t for t, _ in a),
                "mfrc522_exchanges": statistics.median(n for _, n in a),
                "floor_14443a_ms": floor_14443a_ms(k),
                "pn5180_ms": statistics.median(t for t, _ in v),
                "pn5180_max_ms": max(t for t, _ in v),
                "pn5180_exchanges": statistics.median(n for _, n in v),
                "floor_15693_ms": floor_15693_ms(k),
            }
        )
    return out


def main(argv=None):
    """Print the table."""
    parser = argparse.ArgumentParser(description="modelled inventory time vs air-time floor")
    parser.add_argument("--seeds", type=int, default=15)
    args = parser.parse_args(argv)
    print(f"# {args.seeds} random tag sets per k; SPI 4 MHz; times in ms (median / max)")
    print(
        "| k | MFRC522 modelled | exchanges | ISO 14443A floor | PN5180 modelled "
        "| exchanges | ISO 15693 floor |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows(args.seeds):
        print(
            f"| {r['k']} | {r['mfrc522_ms']:.1f} / {r['mfrc522_max_ms']:.1f} "
            f"| {r['mfrc522_exchanges']:.0f} | {r['floor_14443a_ms']:.1f} "
            f"| {r['pn5180_ms']:.1f} / {r['pn5180_max_ms']:.1f} "
            f"| {r['pn5180_exchanges']:.0f} | {r['floor_15693_ms']:.1f} |"
        )
    print()
    print(
        f"# PN5180 inventory incl. field on (TX_RFON + 1 ms tag power-up) and off, {args.seeds} "
        "tag sets; duty cycle of one reader's field with 6 readers in turn at 10 Hz"
    )
    print(
        "| tags | firmware | modelled ms (median / max) | ISO 15693 floor ms | x floor "
        "| field on ms | RF duty cycle |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|")
    for r in pn5180_summary(args.seeds, k=12) + pn5180_summary(args.seeds, k=1):
        print(
            f"| {r['k']} | {r['firmware']} | {r['ms']:.1f} / {r['max_ms']:.1f} "
            f"| {r['floor_ms']:.1f} | {r['ratio']:.2f} | {r['on_ms']:.1f} "
            f"| {r['duty'] * 100:.0f} % |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
