"""``companion vision render | calibrate | detect`` on files, as a user runs them."""

import json

from companion.cli import main


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
