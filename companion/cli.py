"""The ``companion`` command line: discovers the subcommands in :mod:`companion.commands`.

Each subcommand module defines ``register(subparsers)`` and sets ``func`` on its parser; ``func``
receives the parsed arguments and returns the exit status (a module whose name starts with ``_``
is a part of a subcommand, not one). Domain errors that reach this edge become one line on stderr
and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from companion import __version__, commands
from companion.core.errors import CupbearerError


def command_names() -> list[str]:
    """Every subcommand's name (a module of :mod:`companion.commands` not starting with ``_``)."""
    found = pkgutil.iter_modules(commands.__path__)
    return sorted(info.name for info in found if not info.name.startswith("_"))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every discovered subcommand, or with ``only`` that one.

    Each subcommand's module is imported to register it, and ``serve`` brings Flask, the links
    and the service with it: ``companion goblets score`` on a Pi should not wait for those.
    """
    parser = argparse.ArgumentParser(
        prog="companion", description="Cupbearer, the table companion."
    )
    parser.add_argument("--version", action="version", version=f"cupbearer {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in [only] if only else command_names():
        module = importlib.import_module(f"{commands.__name__}.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # The command named first is the only one whose module is needed; anything else (help,
    # --version, a mistyped name) gets the full parser and its list of commands.
    named = argv[0] if argv and argv[0] in command_names() else None
    parser = build_parser(named)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except CupbearerError as error:
        print(f"companion {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``companion goblets play | head``): not an error of ours.
        # Point stdout at /dev/null so the interpreter's final flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
