"""``companion vision``: the overhead camera's detector on image files, and synthetic frames.

- ``companion vision render --seed S --out FRAME.png [--seats N] [--noise LEVEL] [--size WxH]
  [--empty] [--truth TRUTH.json]``: writes a synthetic camera frame (the virtual twin) and,
  with ``--truth``, its ground truth (scene, homography, token counts).
- ``companion vision calibrate IMAGE --seats N [--out CAL.json]``: finds the table (the four
  ArUco markers, else the table's outline) and prints or writes the calibration JSON; a warning
  on stderr when the camera clips the cloth (lower its exposure).
- ``companion vision detect IMAGE (--calibration CAL.json | --seats N) [--no-tokens]``: prints
  the detections as JSON: which House's ring stands at each seat, every ring seen, and each
  seat's revealed tokens. Without ``--calibration`` the image calibrates itself from its markers.

- ``companion vision watch [--camera SRC] [--calibration CAL.json | --seats N] [--rate HZ]
  [--frames N] [--seconds S] [--no-tokens] [--observations] [--registry-out REG.json]``: reads
  a camera (``auto``, ``pi``, ``synthetic``, a device index, a URL or a video file) at a rate
  and prints one JSON line of detections per frame; with ``--observations`` it prints the
  tracker's snapshots instead (one per seat per frame, ``companion track``'s input) and
  ``--registry-out`` writes the registry of the camera's ring pseudo-UIDs for ``--registry``.

An unreadable image or calibration is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
from pathlib import Path
from typing import Any

from companion.core.errors import MalformedInput


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``vision`` subcommand and its ``render``, ``calibrate`` and ``detect``."""
    parser = subparsers.add_parser(
        "vision",
        help="the overhead camera: detect rings and tokens in an image, render synthetic frames",
        description=__doc__.split("\n\n")[0],
    )
    sub = parser.add_subparsers(dest="vision_command", metavar="ACTION", required=True)

    p = sub.add_parser("render", help="write a synthetic camera frame (PNG) from a seed")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", type=Path, required=True, help="image file to write (.png, .jpg)")
    p.add_argument("--seats", type=int, help="2..6 (default: drawn from the seed)")
    p.add_argument("--noise", default="realistic", help="none, realistic, rough or harsh")
    p.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT (default 1280x720)")
    p.add_argument("--empty", action="store_true", help="the bare table, for calibration")
    p.add_argument("--truth", type=Path, help="also write the ground truth as JSON")
    p.set_defaults(func=run_render)

    p = sub.add_parser("calibrate", help="find the table in an image; print the calibration")
    p.add_argument("image", type=Path)
    p.add_argument("--seats", type=int, required=True)
    p.add_argument("--out", type=Path, help="write the calibration JSON here")
    p.add_argument(
        "--allow-ellipse",
        action="store_true",
        help="without the four markers, calibrate from the table's outline (a warning is printed)",
    )
    p.set_defaults(func=run_calibrate)

    p = sub.add_parser("detect", help="print the rings at seats and revealed tokens as JSON")
    p.add_argument("image", type=Path)
    p.add_argument("--calibration", type=Path, help="calibration JSON (default: from markers)")
    p.add_argument("--seats", type=int, help="seats at the table (needed without --calibration)")
    p.add_argument("--no-tokens", action="store_true", help="rings only")
    p.set_defaults(func=run_detect)

    p = sub.add_parser("watch", help="read a camera at a rate, print detections as JSON lines")
    p.add_argument("--camera", default="auto", help="auto, pi, synthetic, an index or a URL")
    p.add_argument("--calibration", type=Path, help="calibration JSON (default: from markers)")
    p.add_argument("--seats", type=int, help="seats, to calibrate from the first frame")
    p.add_argument("--rate", type=float, default=5.0, help="frames per second (default 5)")
    p.add_argument("--frames", type=int, help="stop after this many frames")
    p.add_argument("--seconds", type=float, help="stop after this long")
    p.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT asked of the camera")
    p.add_argument("--seed", type=int, default=0, help="the synthetic camera's table")
    p.add_argument("--no-tokens", action="store_true", help="rings only")
    p.add_argument("--observations", action="store_true", help="print tracker snapshots")
    p.add_argument("--registry-out", type=Path, help="write the ring pseudo-UID registry")
    p.set_defaults(func=run_watch)


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``; anything else is MalformedInput."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise MalformedInput(f"must be WIDTHxHEIGHT, got {text!r}", field="size") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise MalformedInput(f"must be 64..8192 pixels a side, got {text!r}", field="size")
    return w, h


def read_image(path: Path) -> Any:
    """An image file as a BGR array; unreadable files are MalformedInput."""
    import cv2  # the vision extra: imported only when a vision command runs

    image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if image is None:
        raise MalformedInput(f"cannot read an image from {path}", field="image")
    return image


def load_calibration(path: Path) -> Any:
    """A calibration JSON file; unreadable or malformed files are MalformedInput."""
    from vision.calibrate import Calibration

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise MalformedInput(f"cannot read {path}: {error.strerror}", field="calibration") from None
    except json.JSONDecodeError as error:
        raise MalformedInput(f"{path} is not JSON: {error.msg}", field="calibration") from None
    return Calibration.from_json(data)


def run_render(args: argparse.Namespace) -> int:
    """Write a synthetic frame (and its truth)."""
    import cv2

    from vision import render

    if args.noise not in render.NOISE:
        raise MalformedInput(f"must be one of {', '.join(render.NOISE)}", field="noise")
    image, truth = render.render_frame(
        args.seed, args.seats, args.noise, parse_size(args.size), empty=args.empty
    )
    if not cv2.imwrite(str(args.out), image):
        raise MalformedInput(f"cannot write {args.out}", field="out")
    if args.truth:
        scene = truth.scene
        data = {
            "seed": args.seed,
            "seats": scene.seats,
            "noise": args.noise,
            "rings": {str(s): scene.rings.get(s) for s in range(scene.seats)},
            "loose": [h for h, _, _ in scene.loose],
            "tokens": {str(s): dict(c) for s, c in scene.tokens.items()},
            "homography": [[float(v) for v in row] for row in truth.homography],
        }
        args.truth.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


def run_calibrate(args: argparse.Namespace) -> int:
    """Print (or write) the calibration of an image; written, with its picture of the bare
    table beside it (``vision.bare``), as the Host page's calibration keeps it."""
    from companion.service.camera_calibration import save_calibration, table_warnings
    from vision.bare import bare_view
    from vision.calibrate import calibrate

    image = read_image(args.image)
    calibration = calibrate(image, args.seats, allow_ellipse=args.allow_ellipse)
    if calibration.method == "ellipse":
        print(
            "warning: calibrated from the table's outline, not the markers: seat 0 is assumed at "
            "the bottom of the frame and a tilted camera misplaces the seats",
            file=sys.stderr,
        )
    for warning in table_warnings(image, calibration):
        print(f"warning: {warning}", file=sys.stderr)
    text = json.dumps(calibration.to_json(), indent=1) + "\n"
    if args.out:
        bare = bare_view(image, calibration.homography)
        save_calibration(args.out, dataclasses.replace(calibration, bare=bare))
    print(text, end="")
    return 0


def run_detect(args: argparse.Namespace) -> int:
    """Print the detections of an image as JSON."""
    from vision.calibrate import calibrate
    from vision.detect import detect

    image = read_image(args.image)
    if args.calibration:
        calibration = load_calibration(args.calibration)
    elif args.seats is None:
        raise MalformedInput("give --calibration, or --seats to calibrate from the image")
    else:
        calibration = calibrate(image, args.seats)
    detections = detect(image, calibration, tokens=not args.no_tokens)
    print(json.dumps({"calibration": calibration.method, **detections.to_json()}))
    return 0


END_OF_STREAM = 5
"""Frames missed in a row after which a camera (a video file, a dropped stream) is finished."""


def watch_calibration(args: argparse.Namespace, camera: Any) -> Any:
    """The calibration: the file, the synthetic camera's own, or the first frame's markers."""
    from vision.calibrate import calibrate
    from vision.camera import SyntheticCamera

    if args.calibration:
        return load_calibration(args.calibration)
    if isinstance(camera, SyntheticCamera):
        return camera.calibration
    if args.seats is None:
        raise MalformedInput("give --calibration, or --seats to calibrate from the first frame")
    for _ in range(END_OF_STREAM):
        frame = camera.read()
        if frame is not None:
            return calibrate(frame, args.seats)
    raise MalformedInput(f"no frame from camera {args.camera!r}", field="camera")


def run_watch(args: argparse.Namespace) -> int:
    """Read the camera at ``--rate`` and print a JSON line per frame (or per seat snapshot)."""
    import time

    from vision.camera import FrameLoop, open_camera
    from vision.rings import observations, ring_registry

    if not args.rate > 0:
        raise MalformedInput(f"must be > 0, got {args.rate}", field="rate")
    seats = args.seats if args.seats is not None else 6
    # stdout is the JSON lines; the camera's choice (``--camera auto``) is logged to stderr.
    logging.basicConfig(level=logging.INFO, format="companion vision: %(message)s")
    camera = open_camera(args.camera, parse_size(args.size), seed=args.seed, seats=seats)
    start = time.monotonic()

    def sink(t: float, detections: Any) -> None:
        t = round(t - start, 3)
        if args.observations:
            for obs in observations(detections.rings, t, seq=loop.frames):
                print(json.dumps(obs.to_json()), flush=True)
        else:
            print(json.dumps({"t": t, **detections.to_json()}), flush=True)

    try:
        calibration = watch_calibration(args, camera)
        if args.registry_out:
            args.registry_out.write_text(
                json.dumps(ring_registry().to_json(), indent=1) + "\n", encoding="utf-8"
            )
        loop = FrameLoop(camera, calibration, sink, args.rate, tokens=not args.no_tokens)
        missed = 0
        next_at = time.monotonic()
        while args.frames is None or loop.frames < args.frames:
            if args.seconds is not None and time.monotonic() - start >= args.seconds:
                break
            before = loop.misses
            loop.step()
            missed = missed + 1 if loop.misses > before else 0
            if missed >= END_OF_STREAM:
                break
            next_at = max(next_at + 1.0 / args.rate, time.monotonic())
            time.sleep(max(0.0, next_at - time.monotonic()))
    finally:
        camera.close()
    if loop.errors:
        print(f"companion vision: {loop.errors} frames refused: {loop.last_error}", file=sys.stderr)
    return 0
