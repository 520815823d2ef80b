"""Subcommands of ``companion``: each module here defines ``register(subparsers)``.

:mod:`companion.cli` discovers the modules, so adding a command is adding a file.
"""
