"""Small modules of one idea: no module in ``companion/`` is over 400 lines (issue 16's bar).

A module that grows past it has taken a second idea on; split it where the ideas part (as
``service/table.py`` was split into the journaled table, seats, viewers, messages and history).
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "companion"
LIMIT = 400


def test_no_module_is_over_400_lines():
    sizes = {
        str(path.relative_to(PACKAGE.parent)): len(path.read_text().splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(sizes) > 100  # the whole package was read
    assert {path: n for path, n in sizes.items() if n > LIMIT} == {}
