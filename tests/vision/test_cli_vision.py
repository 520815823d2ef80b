"""``companion vision render | calibrate | detect`` on files, as a user runs them."""

import io
import json

import cv2

from companion.cli import main
from companion.commands.track import load_registry, replay
from companion.core.games.goblets.tracking import Tracker
from vision.camera import SyntheticCamera


def test_render_calibrate_detect_round_trip(tmp_path, capsys):
    frame, empty = tmp_path / "frame.png", tmp_path / "empty.png"
    truth, cal = tmp_path / "truth.json", tmp_path / "cal.json"
    assert (
        main(["vision", "render", "--seed", "5", "--out", str(frame), "--truth", str(truth)]) == 0
    )
    assert main(["vision", "render", "--seed", "5", "--out", str(empty), "--empty"]) == 0
    expected = json.loads(truth.read_text())
    seats = expected["seats"]
    capsys.readouterr()
    assert main(["vision", "calibrate", str(empty), "--seats", str(seats), "--out", str(cal)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(cal.read_text()) and printed["method"] == "markers"
    assert (tmp_path / "cal-bare.png").exists()  # the bare table, kept as the Host page keeps it
    for how in (["--calibration", str(cal)], ["--seats", str(seats)]):
        assert main(["vision", "detect", str(frame), *how]) == 0
        found = json.loads(capsys.readouterr().out)
        assert found["calibration"] == "markers"
        assert found["seats"] == expected["rings"]
        assert found["tokens"] == expected["tokens"]
        assert sorted(r["house"] for r in found["rings"] if r["seat"] is None) == expected["loose"]


def test_rings_only_and_noise_and_size_options(tmp_path, capsys):
    frame = tmp_path / "f.jpg"
    argv = ["vision", "render", "--seed", "8", "--out", str(frame), "--seats", "4"]
    assert main([*argv, "--noise", "none", "--size", "640x480"]) == 0
    assert main(["vision", "detect", str(frame), "--seats", "4", "--no-tokens"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["tokens"] is None and len(found["seats"]) == 4


def test_errors_are_one_line_and_status_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"seats": 6, "image_size": [1280, 720], "homography": "x"}')
    not_image = tmp_path / "notes.png"
    not_image.write_text("not an image")
    frame = tmp_path / "f.png"
    assert main(["vision", "render", "--seed", "1", "--out", str(frame)]) == 0
    cases = [
        (["vision", "detect", str(tmp_path / "missing.png"), "--seats", "6"], "cannot read"),
        (["vision", "detect", str(not_image), "--seats", "6"], "cannot read an image"),
        (["vision", "detect", str(frame)], "--calibration, or --seats"),
        (["vision", "detect", str(frame), "--calibration", str(bad)], "calibration.homography"),
        (["vision", "detect", str(frame), "--calibration", str(tmp_path)], "cannot read"),
        (["vision", "render", "--seed", "1", "--out", str(frame), "--noise", "fog"], "noise"),
        (["vision", "render", "--seed", "1", "--out", str(frame), "--size", "big"], "size"),
        (["vision", "render", "--seed", "1", "--out", str(frame), "--seats", "9"], "seats"),
        (["vision", "calibrate", str(frame), "--seats", "1"], "seats"),
    ]
    for argv, words in cases:
        capsys.readouterr()
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("companion vision: ") and words in err, (argv, err)
        assert err.count("\n") == 1


def test_watch_prints_a_line_per_frame_from_the_synthetic_camera(capsys):
    argv = ["vision", "watch", "--camera", "synthetic", "--seed", "3", "--seats", "4"]
    assert main([*argv, "--frames", "2", "--rate", "50", "--size", "640x480"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 2 and lines[0]["t"] <= lines[1]["t"]
    assert lines[0]["seats"] == lines[1]["seats"] and len(lines[0]["seats"]) == 4
    assert None not in lines[0]["seats"].values()


def test_watch_observations_feed_companion_track(tmp_path, capsys):
    registry = tmp_path / "camera-registry.json"
    argv = ["vision", "watch", "--camera", "synthetic", "--seed", "3", "--seats", "4"]
    argv += ["--frames", "12", "--rate", "100", "--observations", "--registry-out", str(registry)]
    assert main(argv) == 0
    snapshots = capsys.readouterr().out
    assert len(snapshots.splitlines()) == 12 * 4
    tracker = Tracker(load_registry(registry), 4)
    out, err = io.StringIO(), io.StringIO()
    assert replay(tracker, io.StringIO(snapshots), out, err) == 0
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert events[0]["event"] == "layout" and len(events[0]["seats"]) == 4
    assert events[-1]["seats"] == events[0]["seats"]


def test_watch_reads_a_recorded_video_to_its_end(tmp_path, capsys):
    camera = SyntheticCamera(seed=8, seats=5, size=(640, 480))
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (640, 480))
    for _ in range(3):
        writer.write(camera.read())
    writer.release()
    argv = ["vision", "watch", "--camera", str(path), "--seats", "5", "--rate", "100"]
    assert main([*argv, "--size", "640x480", "--no-tokens"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # The first frame calibrates (its markers), the other two are read; then the file ends.
    assert len(lines) == 2
    assert all(
        line["seats"] == {str(s): h for s, h in camera.scene.rings.items()} for line in lines
    )
    assert all(line["tokens"] is None for line in lines)


def test_watch_errors(capsys):
    cases = [
        (["vision", "watch", "--camera", "/nonexistent/cam.mp4", "--seats", "4"], "cannot open"),
        (["vision", "watch", "--camera", "synthetic", "--rate", "0"], "rate"),
    ]
    for argv, words in cases:
        capsys.readouterr()
        assert main(argv) == 2
        assert words in capsys.readouterr().err


def test_calibrating_without_markers_needs_the_outline_accepted(tmp_path, capsys):
    # The outline fallback guesses seat 0: refused unless asked for, then stored with a warning.
    empty = tmp_path / "empty.png"
    assert main(["vision", "render", "--seed", "5", "--out", str(empty), "--empty"]) == 0
    image = cv2.imread(str(empty))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    corners, _, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(image)
    assert len(corners) == 4
    for quad in corners:  # the markers painted over with the cloth beside them
        x, y = quad.reshape(4, 2).mean(axis=0).astype(int)
        colour = [int(c) for c in image[y, x + 40]]
        cv2.fillConvexPoly(image, quad.reshape(4, 2).astype("int32"), colour)
        cv2.circle(image, (int(x), int(y)), 30, colour, -1)
    bare = tmp_path / "bare.png"
    cv2.imwrite(str(bare), image)
    capsys.readouterr()
    assert main(["vision", "calibrate", str(bare), "--seats", "4"]) == 2
    err = capsys.readouterr().err
    assert "--allow-ellipse" in err and err.count("\n") == 1
    cal = tmp_path / "cal.json"
    argv = ["vision", "calibrate", str(bare), "--seats", "4", "--allow-ellipse", "--out", str(cal)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert json.loads(cal.read_text())["method"] == "ellipse"
    assert captured.err.startswith("warning: calibrated from the table's outline")
