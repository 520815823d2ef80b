"""``companion goblets``: score a Raise Your Goblets Toast from JSON, or play a random game.

``companion goblets score`` reads one JSON object on stdin and writes one on stdout::

    {"seats": ["alice", "bob", ...],                 # player ids, clockwise
     "targets": {"alice": "bob", ...},                # each player's Target (a player)
     "goblets": {"alice": {"wine": 2, "poison": 1, "antidote": 1,
                           "unicorn_antidote": 0, "ogre_poison": 0}, ...},
     "token_rules": "default" | {"preset": ..., <TokenRules field>: ...},   # optional
     "overrides": {"alice": {"survived": 2, ...}}}                          # optional

and answers ``{"players": {player: {"poisoned", "survived", "target_poisoned", "most_wine",
"vp"}}}`` in seat order. Bad input writes one line on stderr naming the field and the problem and
exits with status 2.

With ``--jsonl`` every input line is one such object and every output line answers it, in order.
A bad line writes ``line N: <field>: <problem>`` on stderr and, so outputs stay paired with
inputs, ``{"error": {"line": N, "field": ..., "message": ...}}`` on stdout; the command goes on
with the next line and exits with status 2 at the end if any line was bad. Blank lines are
skipped without output (see docs/rules-notes.md).

``companion goblets play --players N --seed S [--variant NAME ...] [--option KEY=JSON ...]`` plays
a random legal game with :func:`companion.core.journal.play_random` and prints the journal and the
result as JSON: ``{"journal": {...}, "result": {...}}``. ``--variant`` names the game
(``standard``, ``winetasters``, ``russian_goblette``; by default the one for ``--players``) and/or
the optional rules ``raise_your_memory`` and ``legacy`` (repeatable: ``--variant winetasters
--variant legacy``). ``--option`` passes any other game option
(``legacy=true``, ``raise_your_memory=true``, ``token_rules='"plain"'``); bad options are the
game's MalformedInput, one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Mapping
from typing import Any, TextIO

from companion.commands import one_line
from companion.core.errors import MalformedInput
from companion.core.games.goblets.options import VARIANTS
from companion.core.games.goblets.scoring import ScoringOverride, check_seats, score_toast
from companion.core.games.goblets.tokens import TokenRules
from companion.core.journal import Journal, play_random

INPUT_KEYS = ("seats", "targets", "goblets", "token_rules", "overrides")
REQUIRED_KEYS = ("seats", "targets", "goblets")

RULE_VARIANTS = ("raise_your_memory", "legacy")
"""``--variant`` names that switch on an optional rule (the game option of the same name)."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """JSON object hook: a key given twice is ambiguous input, not "the last one wins"."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise MalformedInput(f"duplicate key {key!r} in a JSON object", field="input")
        result[key] = value
    return result


def _no_constants(name: str) -> Any:
    """JSON constant hook: NaN and Infinity are not JSON."""
    raise MalformedInput(f"{name} is not valid JSON", field="input")


def parse_json(text: str) -> Any:
    """Parse strict JSON (no duplicate keys, no NaN); errors are MalformedInput on ``input``."""
    try:
        text.encode("utf-8")  # stdin is read with surrogateescape: undecodable bytes show here
    except UnicodeEncodeError:
        raise MalformedInput("not valid UTF-8", field="input") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except json.JSONDecodeError as error:
        raise MalformedInput(f"not valid JSON: {error}", field="input") from None
    except RecursionError:
        raise MalformedInput("not valid JSON: nested too deeply", field="input") from None


def score_request(data: Any) -> dict[str, Any]:
    """Score one parsed request object and return the output object."""
    if not isinstance(data, Mapping):
        raise MalformedInput(f"must be a JSON object, got {type(data).__name__}", field="input")
    for key in data:
        if key not in INPUT_KEYS:
            raise MalformedInput(f"unknown key (known: {', '.join(INPUT_KEYS)})", field=key)
    for key in REQUIRED_KEYS:
        if key not in data:
            raise MalformedInput("missing", field=key)
    seats = check_seats(data["seats"])
    rules = TokenRules.from_json(data.get("token_rules"))
    raw_overrides = data.get("overrides")
    if raw_overrides is None:
        raw_overrides = {}
    if not isinstance(raw_overrides, Mapping):
        raise MalformedInput(
            f"must be an object keyed by player, got {raw_overrides!r}", field="overrides"
        )
    overrides = {}
    for player, override in raw_overrides.items():
        if player not in seats:
            raise MalformedInput(f"{player!r} is not a seated player", field=f"overrides.{player}")
        overrides[player] = ScoringOverride.from_json(override, f"overrides.{player}")
    scores = score_toast(seats, data["targets"], data["goblets"], rules=rules, overrides=overrides)
    return {"players": {player: score.to_json() for player, score in scores.items()}}


def run_score(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """The ``score`` subcommand on explicit streams; returns the exit status."""
    if not args.jsonl:
        try:
            result = score_request(parse_json(stdin.read()))
        except MalformedInput as error:
            print(f"companion goblets score: {one_line(error)}", file=stderr)
            return 2
        print(json.dumps(result), file=stdout)
        return 0
    status = 0
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            result = score_request(parse_json(line))
        except MalformedInput as error:
            status = 2
            print(f"companion goblets score: line {number}: {one_line(error)}", file=stderr)
            detail = {"line": number, "field": error.field, "message": error.detail}
            print(json.dumps({"error": detail}), file=stdout)
            continue
        print(json.dumps(result), file=stdout)
    return status


def _score(args: argparse.Namespace) -> int:
    """Entry point of ``companion goblets score``."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="surrogateescape")
    return run_score(args, sys.stdin, sys.stdout, sys.stderr)


def _play(args: argparse.Namespace) -> int:
    """Entry point of ``companion goblets play``: a random legal game, journal and result."""
    options: dict[str, Any] = {"players": args.players}
    for variant in args.variant:
        # The rulebook's Desserts: Raise Your Memory and Legacy are rules added to any game,
        # Russian Goblette and Winetasters are the game for 2-3 and 7-12 players.
        if variant in RULE_VARIANTS:
            options[variant] = True
        elif "variant" in options and options["variant"] != variant:
            raise MalformedInput(
                f"one of {', '.join(VARIANTS)} at most, got {options['variant']!r} and {variant!r}",
                field="--variant",
            )
        else:
            options["variant"] = variant
    for item in args.option:
        key, equals, value = item.partition("=")
        if not equals or not key:
            raise MalformedInput(f"must be KEY=JSON, got {item!r}", field="--option")
        try:
            options[key] = parse_json(value)
        except MalformedInput as error:
            raise MalformedInput(error.detail, field=f"--option {key}") from None
    journal = Journal("goblets", options)
    state, _events = play_random(journal, random.Random(args.seed))
    print(json.dumps({"journal": journal.to_json(), "result": state.outcome()}))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``companion goblets score`` and ``companion goblets play``."""
    parser = subparsers.add_parser("goblets", help="Raise Your Goblets: Toast scoring and demos")
    commands = parser.add_subparsers(dest="goblets_command", metavar="SUBCOMMAND", required=True)

    score = commands.add_parser("score", help="score a Toast: JSON on stdin, JSON on stdout")
    score.add_argument(
        "--jsonl", action="store_true", help="one request per line in, one answer per line out"
    )
    score.set_defaults(func=_score)

    play = commands.add_parser("play", help="play a random legal game and print its journal")
    play.add_argument("--players", type=int, required=True, help="number of players")
    play.add_argument("--seed", type=int, required=True, help="seed of the random game")
    play.add_argument(
        "--variant",
        action="append",
        default=[],
        help=f"{', '.join(VARIANTS)} (by --players if left out), or the rules "
        f"{' and '.join(RULE_VARIANTS)} (repeatable)",
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="any other game option, e.g. legacy=true or raise_your_memory=true (repeatable)",
    )
    play.set_defaults(func=_play)
