"""What the board needs and CPython would not notice: mpy-cross compiles every firmware file,
device files import only what MicroPython has, and the portable modules run under a real
MicroPython (the WebAssembly port, in Node.js) with the golden vectors."""

import ast
import json
import shutil
import subprocess
import sys

import pytest
from fw_paths import FIRMWARE, ROOT

HERE = ROOT / "tests" / "firmware"
ALL_FILES = sorted(p for p in FIRMWARE.rglob("*.py") if "node_modules" not in p.parts)
# What runs on the board: main.py and lib/. firmware/pi/ runs on the Pi's CPython.
DEVICE_FILES = [FIRMWARE / "main.py", *sorted((FIRMWARE / "lib").glob("*.py"))]
# Modules a MicroPython ESP32 / Pico W build provides (plus micropython-lib's umqtt.simple).
DEVICE_MODULES = {
    "binascii",
    "gc",
    "json",
    "machine",
    "micropython",
    "network",
    "os",
    "struct",
    "sys",
    "time",
    "umqtt.simple",
}
LOCAL_MODULES = {p.stem for p in (FIRMWARE / "lib").glob("*.py")}


def device_imports(source):
    """Modules a file imports that a MicroPython board would not have (sorted)."""
    bad = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [("." * node.level) + (node.module or "")]
        else:
            continue
        for name in names:
            if name not in DEVICE_MODULES and name not in LOCAL_MODULES:
                bad.add(name)
    return sorted(bad)


def _mpy_cross():
    found = shutil.which("mpy-cross", path=str(ROOT / ".venv" / "bin")) or shutil.which(
        "mpy-cross", path=str(sys.prefix + "/bin")
    )
    assert found, "mpy-cross is in the test extra; install it"
    return found


def test_every_firmware_file_is_listed():
    names = {p.relative_to(FIRMWARE).as_posix() for p in ALL_FILES}
    assert {"main.py", "lib/mfrc522.py", "lib/pn5180.py", "lib/cbwire.py"} <= names


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.relative_to(FIRMWARE).as_posix())
def test_mpy_cross_compiles(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    result = subprocess.run(
        [_mpy_cross(), "-o", str(out), str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


def test_mpy_cross_rejects_what_micropython_cannot_compile(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    result = subprocess.run([_mpy_cross(), str(bad)], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0


@pytest.mark.parametrize("path", DEVICE_FILES, ids=lambda p: p.relative_to(FIRMWARE).as_posix())
def test_device_files_import_only_what_the_board_has(path):
    assert device_imports(path.read_text()) == []


@pytest.mark.parametrize(
    "source",
    [
        "import dataclasses",
        "from typing import Optional",
        "import enum",
        "from pathlib import Path",
        "import abc",
        "from __future__ import annotations",
        "import typing as t",
        "from . import sibling",
    ],
)
def test_the_import_check_rejects_cpython_only_modules(source):
    assert device_imports(source) != []


def run_micropython(script, *extras):
    """Run ``script`` under MicroPython's WebAssembly port; its stdout as {key: last word}."""
    node = shutil.which("node")
    assert node, "Node.js is installed by scripts/test"
    if not (FIRMWARE / "node_modules" / "@micropython").is_dir():
        subprocess.run(
            ["npm", "ci", "--silent", "--no-audit", "--no-fund"],
            cwd=FIRMWARE,
            check=True,
            timeout=300,
        )
    result = subprocess.run(
        [node, str(HERE / "mp_wasm_run.mjs"), str(FIRMWARE), str(HERE / script), *extras],
        capture_output=True,
        text=True,
        timeout=300,  # a bound, not a goal: 120 s ran out on a machine at load 6
    )
    assert result.returncode == 0, result.stderr
    return dict(line.rsplit(" ", 1) for line in result.stdout.splitlines())


def test_portable_modules_run_under_real_micropython():
    vectors = ROOT / "tests" / "fixtures" / "wire_vectors.json"
    lines = run_micropython(
        "mp_portable_checks.py",
        f"{vectors}=/vectors.json",
        f"{HERE / 'fw_vectors.py'}=/sim/fw_vectors.py",
    )
    assert lines["impl"] == "micropython"
    for module in ("cbwire", "seats"):
        assert int(lines["selftest " + module]) > 0
    expected = [
        v
        for v in json.loads(vectors.read_text())
        if (v["kind"] == "serial" and not v.get("stream"))
        or (v["kind"] == "mqtt" and "error" not in v)
    ]
    assert int(lines["vectors"]) == len(expected)


def test_drivers_inventory_the_models_under_real_micropython():
    models = [
        f"{HERE / name}=/sim/{name}"
        for name in ("fw_sim_bus.py", "fw_sim_mfrc522.py", "fw_sim_pn5180.py")
    ]
    lines = run_micropython("mp_driver_checks.py", *models)
    assert lines["drivers"] == str(2 * 16)
