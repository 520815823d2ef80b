"""Subcommands of ``companion``: each module here defines ``register(subparsers)``.

A module whose name starts with ``_`` is a part of one (``_enroll_sources.py``), not a command.

:mod:`companion.cli` discovers the modules, so adding a command is adding a file.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn


def one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Make argparse's usage errors one line on stderr with exit status 2, like domain errors."""

    def error(message: str) -> NoReturn:
        print(f"{parser.prog}: {message}", file=sys.stderr)
        sys.exit(2)

    parser.error = error  # type: ignore[method-assign]
    return parser


def one_line(error: Exception) -> str:
    """The error as exactly one line (field names come from input and may hold newlines)."""
    return " ".join(str(error).splitlines())
