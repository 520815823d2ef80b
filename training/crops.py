"""The token reader's lessons: reveal-area crops of :mod:`training.scenes` frames, as the
detector sees them, with what lies in each.

Every frame goes through the detector's own pipe (:func:`vision.frame.light_of`, then
:func:`vision.frame.relit_box` for each seat's box), so the reader is taught on exactly what it
reads at run time, the light fit's misses included. A lesson is the crop at the reader's input
size (:data:`vision.tokennet.INPUT`), the token centres in it (kind index, x, y in input
pixels) and the share of each output cell something covers.

``python -m training.crops OUT.npz --first S --frames N [--workers W] [--stress]`` writes a set
(``--stress``: :func:`training.scenes.render`'s stress draws).
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import sys

import cv2
import numpy as np

from training import scenes
from vision import area, frame, tokennet


def lessons(seed: int, stress: bool = False) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``[(crop, tokens, cover)]`` for every seat of frame ``seed``: ``crop`` the reader's
    input (uint8 BGR), ``tokens`` rows (kind, x, y) in input pixels, ``cover`` the share of
    each output cell covered (uint8, 255 = all)."""
    image, scene = scenes.render(seed, stress=stress)
    h = scene.homography
    try:
        light = frame.light_of(image, h)
    except Exception:  # a frame the pipe cannot light is no lesson
        return []
    out = []
    for seat, box in enumerate(area.boxes(scene.seats)):
        y0, y1, x0, x1 = box
        crop = tokennet.prepare(frame.relit_box(image, h, light, box))
        scale = tokennet.INPUT / (x1 - x0)
        rows = [
            (scenes.KINDS.index(kind), (x - x0 + 0.5) * scale - 0.5, (y - y0 + 0.5) * scale - 0.5)
            for kind, x, y in scene.tokens[seat]
        ]
        o = scenes.ORIGIN
        cov = scene.cover[y0 - o : y1 - o, x0 - o : x1 - o]
        cells = cv2.resize(cov, (tokennet.OUTPUT, tokennet.OUTPUT), interpolation=cv2.INTER_AREA)
        out.append(
            (
                crop,
                np.array(rows, np.float32).reshape(-1, 3),
                np.clip(cells * 255 + 0.5, 0, 255).astype(np.uint8),
            )
        )
    return out


def main() -> None:
    """Write a set of lessons to an ``.npz``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--frames", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--stress", action="store_true", help="scenes.render's stress draws")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    seeds = range(args.first, args.first + args.frames)
    crops, tokens, covers, owner = [], [], [], []
    with multiprocessing.Pool(args.workers) as pool:
        teach = functools.partial(lessons, stress=args.stress)
        for i, found in enumerate(pool.imap(teach, seeds, chunksize=4)):
            for crop, rows, cover in found:
                crops.append(crop)
                tokens.append(rows)
                covers.append(cover)
                owner.append(args.first + i)
            if i % 200 == 0:
                print(f"{i}/{args.frames} frames, {len(crops)} crops", file=sys.stderr, flush=True)
    counts = np.array([len(t) for t in tokens], np.int32)
    np.savez(
        args.out,
        crops=np.stack(crops),
        covers=np.stack(covers),
        tokens=np.concatenate(tokens) if tokens else np.zeros((0, 3), np.float32),
        counts=counts,
        frames=np.array(owner, np.int32),
    )


if __name__ == "__main__":
    main()
