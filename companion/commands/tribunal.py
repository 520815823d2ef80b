"""``companion tribunal``: the courtroom's odds and a random demo game.

``odds`` prints the exact chance that a verdict passes for a Judgment Pool, and with
``--simulate N`` draws N judgments with the very code the game uses for its cube draws
(:mod:`companion.core.games.tribunal.pool`). A pool the box cannot hold (more cubes of a colour
than :data:`BOX`) is still computed, with a one-line warning on stderr. ``play`` plays a seeded
random game to the end. Bad input is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
from typing import Any

from companion.commands import one_line_errors
from companion.core.errors import MalformedInput
from companion.core.game import CHANCE
from companion.core.games.tribunal.cards import synthetic_deck
from companion.core.games.tribunal.pool import Pool, pass_probability, simulate_judgment
from companion.core.games.tribunal.vine import PRESETS
from companion.core.journal import Journal, replay

VERDICT_NAMES = {"guilty": "guilty", "not-guilty": "not_guilty", "not_guilty": "not_guilty"}
MAX_SIMULATIONS = 10_000_000
BOX = {"red": 11, "white": 3, "blue": 1}
"""The cubes in the box (rulebook, Elements of the Game): "11 red cubes", "3 white cubes", "One
blue cube". No Judgment Pool can hold more of a colour than this."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``companion tribunal odds`` and ``companion tribunal play``."""
    parser = one_line_errors(
        subparsers.add_parser("tribunal", help="The Gods Will Have Blood: odds and a demo game")
    )
    actions = parser.add_subparsers(dest="tribunal_command", metavar="{odds,play}")
    parser.set_defaults(func=lambda args: _usage(parser))

    odds = one_line_errors(actions.add_parser("odds", help="exact chance that a verdict passes"))
    odds.add_argument("--red", type=int, required=True, help="red cubes in the Judgment Pool")
    odds.add_argument("--white", type=int, required=True, help="white cubes in the Judgment Pool")
    odds.add_argument("--blue", type=int, default=0, help="blue (wild) cubes in the pool")
    odds.add_argument("--verdict", required=True, choices=sorted(VERDICT_NAMES))
    odds.add_argument("--simulate", type=int, metavar="N", help="also draw N judgments")
    odds.add_argument("--seed", type=int, help="seeded random.Random (default: SystemRandom)")
    odds.set_defaults(func=run_odds)

    play = one_line_errors(actions.add_parser("play", help="play a seeded random game"))
    play.add_argument("--seed", type=int, required=True, help="seed of the game and its deck")
    play.add_argument("--vine", default="default", choices=sorted(PRESETS))
    play.add_argument("--second-draw", default="stop", choices=["stop", "always"])
    play.add_argument("--missing-reds", default="box", choices=["box", "drawn"])
    play.set_defaults(func=run_play)


def _usage(parser: argparse.ArgumentParser) -> int:
    print(f"{parser.prog}: choose odds or play", file=sys.stderr)
    return 2


def run_odds(args: argparse.Namespace) -> int:
    """Print ``{"p_pass": ...}`` (and ``"simulated_passes"`` with ``--simulate``)."""
    pool = Pool(args.red, args.white, args.blue)
    if pool.total == 0:
        raise MalformedInput("the Judgment Pool needs at least one cube", field="pool")
    beyond = box_excess(args.red, args.white, args.blue)
    if beyond:
        print(f"companion tribunal: warning: {beyond}; computing the odds anyway", file=sys.stderr)
    verdict = VERDICT_NAMES[args.verdict]
    result: dict[str, Any] = {"p_pass": float(pass_probability(pool, verdict))}
    if args.simulate is not None:
        if not 0 <= args.simulate <= MAX_SIMULATIONS:
            raise MalformedInput(f"N is 0 to {MAX_SIMULATIONS}", field="simulate")
        rng = random.Random(args.seed) if args.seed is not None else secrets.SystemRandom()
        result["simulated_passes"] = sum(
            simulate_judgment(pool, verdict, rng)[1] for _ in range(args.simulate)
        )
    print(json.dumps(result))
    return 0


def box_excess(red: int, white: int, blue: int) -> str:
    """What a pool holds beyond the box's cubes, as one sentence ("" when the box can hold it).

    The odds of any pool are well defined, so a pool beyond the box is not refused: it may be a
    what-if question. But a pool like 20 red, 9 white, 3 blue can never happen at the table, and
    saying so catches a typo (the box holds 11 red, 3 white and 1 blue).
    """
    pool = {"red": red, "white": white, "blue": blue}
    over = [f"{pool[c]} {c}" for c in BOX if pool[c] > BOX[c]]
    if not over:
        return ""
    red, white, blue = (f"{n} {c}" for c, n in BOX.items())
    held = f"{red}, {white} and {blue} cube"
    return f"the box holds only {held}: no Judgment Pool holds {', '.join(over)}"


def play_demo(seed: int, options: dict[str, Any] | None = None) -> Journal:
    """A seeded random game to the end on a synthetic deck: random verdicts and sentence order,
    the printed effects in order (no renaming of cards, no undo)."""
    rng = random.Random(seed)
    options = {"deck": synthetic_deck(random.Random(seed)), **(options or {})}
    journal = Journal("tribunal", options)
    state, _ = replay(journal)
    while not state.is_over():
        if state.to_move() is CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = [a for a in state.legal_actions() if a["type"] not in ("name_card", "undo")]
            action = rng.choice(legal)
        state.apply(action)
        journal.append(action)
    return journal


def run_play(args: argparse.Namespace) -> int:
    """Print the journal of a seeded random game and its result, as one JSON document."""
    journal = play_demo(
        args.seed,
        {"vine": args.vine, "second_draw": args.second_draw, "missing_reds": args.missing_reds},
    )
    state, _ = replay(journal)
    print(json.dumps({"journal": journal.to_json(), "result": state.outcome()}))
    return 0
