"""The pure core stays pure: standard library only, no clock, no randomness source, no I/O.

DESIGN.md principle 1. Parses every module under ``companion/core`` and fails on an import from
outside the standard library (other than the core itself), an I/O or clock module, a call of the
module-level ``random`` functions, or a call of ``open``/``print``/``input``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[1] / "companion" / "core"
FORBIDDEN_STDLIB = {
    "os",
    "sys",
    "io",
    "pathlib",
    "socket",
    "threading",
    "multiprocessing",
    "subprocess",
    "time",
    "datetime",
    "secrets",
    "sqlite3",
    "shutil",
    "tempfile",
    "logging",
    "asyncio",
    "select",
    "signal",
    "urllib",
    "http",
    "glob",
    "uuid",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def core_modules() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if name.startswith("companion.core") or top == "__future__":
                continue
            if top == "companion" or top not in sys.stdlib_module_names:
                found.append(f"line {node.lineno}: imports {name} (not the standard library)")
            elif top in FORBIDDEN_STDLIB:
                found.append(f"line {node.lineno}: imports {name} (I/O, clock or randomness)")
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
                found.append(f"line {node.lineno}: calls {func.id}()")
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "random"
                and func.attr != "Random"
            ):
                found.append(f"line {node.lineno}: calls random.{func.attr}() (hidden randomness)")
    return found


def test_core_has_modules():
    assert len(core_modules()) >= 5


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_is_pure(path):
    assert violations(path) == []


def test_checker_catches_impurity(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nimport flask\nimport random\nx = random.choice([1])\nopen('f')\n")
    found = violations(bad)
    assert len(found) == 4, found
