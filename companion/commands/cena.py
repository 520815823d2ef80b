"""``companion cena``: score a round of Cena from JSON, or play a random legal game.

``companion cena score`` reads one JSON object on stdin (the cards won per alliance and the
poison card(s); format in :mod:`companion.core.games.cena.score_pad`) and writes the per-House
points as one JSON object. ``companion cena play --players N --seed S [--variant NAME ...]``
plays a seeded random legal game and prints ``{"journal": ..., "result": ...}``; NAME is
``private_feast`` or ``single_course`` (repeatable). ``--host H`` names the first Host House
(0-based, the engine's default is House 0) or ``--host random`` draws it ("or randomly if there is
no evidence"), a chance action in the journal. Bad input is one line on stderr naming the
field, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from companion.commands import one_line, one_line_errors
from companion.core.errors import MalformedInput
from companion.core.games.cena.options import RANDOM
from companion.core.games.cena.score_pad import score_request
from companion.core.journal import Journal, play_random

VARIANTS = ("private_feast", "single_course")


def _fail(error: MalformedInput) -> int:
    # Field names can come from the input (an unknown key): keep the message on one line.
    print("companion cena: " + one_line(error), file=sys.stderr)
    return 2


def run_score(args: argparse.Namespace) -> int:
    """Score the round on stdin; print ``{"houses": [...], "poisons": [...]}``."""
    text = sys.stdin.read()
    try:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            raise MalformedInput(f"not valid JSON: {error}", field="input") from None
        result = score_request(data)
    except MalformedInput as error:
        return _fail(error)
    print(json.dumps(result))
    return 0


def run_play(args: argparse.Namespace) -> int:
    """Print the journal and the result of a seeded random legal game, as one JSON document."""
    options: dict[str, Any] = {"players": args.players}
    if args.host is not None:
        options["host"] = args.host
    for variant in args.variant:
        options[variant] = True
    journal = Journal("cena", options)
    try:
        state, _ = play_random(journal, random.Random(args.seed))
    except MalformedInput as error:
        return _fail(error)
    print(json.dumps({"journal": journal.to_json(), "result": state.outcome()}))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``companion cena score`` and ``companion cena play``."""
    parser = one_line_errors(
        subparsers.add_parser("cena", help="Cena: round scoring and a random demo game")
    )
    commands = parser.add_subparsers(dest="cena_command", metavar="{score,play}")
    parser.set_defaults(func=lambda args: _usage(parser))

    score = one_line_errors(
        commands.add_parser("score", help="score a round: JSON on stdin, JSON on stdout")
    )
    score.set_defaults(func=run_score)

    play = one_line_errors(commands.add_parser("play", help="play a seeded random legal game"))
    play.add_argument("--players", type=int, required=True, help="Houses, 3 to 5")
    play.add_argument("--seed", type=int, required=True, help="seed of the random game")
    play.add_argument("--variant", action="append", default=[], choices=VARIANTS, help="repeatable")
    play.add_argument(
        "--host",
        type=_host,
        metavar="HOUSE",
        help='the first Host House: a number from 0, or "random" (no evidence)',
    )
    play.set_defaults(func=run_play)


def _host(text: str) -> int | str:
    """``--host``: a House number, or "random" (the engine checks the range against --players)."""
    if text == RANDOM:
        return RANDOM
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a House number or 'random'") from None


def _usage(parser: argparse.ArgumentParser) -> int:
    print(f"{parser.prog}: choose score or play", file=sys.stderr)
    return 2
