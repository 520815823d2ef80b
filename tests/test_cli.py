"""The ``companion`` entry point: discovery of subcommands and behaviour at the edges."""

from __future__ import annotations

import json
import subprocess
import sys

from companion.cli import build_parser, main


def test_every_subcommand_is_discovered():
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # argparse keeps them here
    for name in ("goblets", "tribunal", "track", "node", "serve"):
        assert name in commands


def test_a_command_imports_only_its_own_module():
    """``companion goblets score`` loads neither the dashboard nor the links (a Pi would wait
    seconds for Flask, paho and OpenCV to score one Toast); the full list stays in the help."""
    probe = (
        "import sys; from companion.cli import main; status = main(['goblets', 'score']);"
        "print(status, sorted(m for m in ('flask', 'paho', 'cv2', 'companion.web',"
        " 'companion.commands.serve') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], input="{}", capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split(None, 1) == ["2", "[]\n"], done.stderr
    assert "goblets score: " in done.stderr


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


def test_a_reader_that_goes_away_is_not_an_error(tmp_path):
    """``companion goblets score --jsonl | head`` ends quietly, with no BrokenPipeError traceback.

    The output (about 1 MB) is far larger than a pipe's buffer, so the writer does hit the closed
    pipe.
    """
    line = json.dumps(
        {
            "seats": ["a", "b", "c", "d"],
            "targets": {"a": "b", "b": "c", "c": "d", "d": "a"},
            "goblets": {"a": {"wine": 2}, "b": {"poison": 1}, "c": {}, "d": {"antidote": 1}},
        }
    )
    source = tmp_path / "reveals.jsonl"
    source.write_text((line + "\n") * 5000)
    with source.open("rb") as stdin:
        process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "goblets", "score", "--jsonl"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout.read(12) == b'{"players": '
        process.stdout.close()
        stderr = process.stderr.read()
        process.stderr.close()
        assert process.wait(timeout=60) == 0
    assert b"Traceback" not in stderr
