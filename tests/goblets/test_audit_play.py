"""The rules audit, part 2: whole random games in every variant, and ``companion goblets play``.

"52 plastic tokens: 21 Wine (red) | 15 Poison (black) | 14 Antidote (white) | 1 Unicorn Antidote
(blue) | 1 Ogre Poison (green)" are conserved at every step of seeded random play, for every
player count and variant (Characters that bring the special tokens into play included); and the
command line plays every player count 2 to 12 in every variant of the rulebook's Desserts.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from engine_helpers import tokens_total
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.core import registry
from companion.core.game import CHANCE, PUBLIC
from companion.core.games.goblets import HOOK_DECK
from companion.core.games.goblets.russian import RussianState
from companion.core.games.goblets.tokens import POOL
from companion.core.journal import Journal, replay

TOTAL = {str(kind): n for kind, n in POOL.items()}
GAME = registry.get("goblets")
OPTION_SETS = [
    *GAME.conformance_options(),
    {"players": 6, "characters": HOOK_DECK, "legacy": True, "raise_your_memory": True},
    {"players": 7, "characters": HOOK_DECK, "legacy": True, "courses": 2, "host": 5},
    {"players": 9, "characters": HOOK_DECK, "raise_your_memory": True, "courses": 2},
    {"players": 3, "raise_your_memory": True, "token_rules": "strong_ogre"},
]
"""The registered conformance sets (2-12 players, every variant and flag) and Character decks
that move the special tokens, with Legacy and Raise Your Memory, in the pairs' game too."""


def total(state) -> dict[str, int]:
    """Every token, wherever it is: pool + screens + Goblets + discard (or kept, Russian)."""
    counts = state.tokens_in_play() if isinstance(state, RussianState) else tokens_total(state)
    return {kind: n for kind, n in counts.items() if n}


def test_option_sets_cover_every_player_count_and_variant():
    """Every player count 2 to 12, each of the rulebook's four variants, and Characters that take
    the special tokens."""
    assert {options["players"] for options in OPTION_SETS} == set(range(2, 13))
    for options in OPTION_SETS:
        GAME.new_state(options)  # valid
    assert any(o.get("legacy") and o["players"] > 6 and o.get("characters") for o in OPTION_SETS)
    assert any(o.get("raise_your_memory") and o["players"] > 6 for o in OPTION_SETS)
    assert any(o.get("raise_your_memory") and o.get("legacy") for o in OPTION_SETS)


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(index=st.integers(0, len(OPTION_SETS) - 1), seed=st.integers(0, 2**32))
def test_the_52_tokens_are_conserved_in_every_variant(index, seed):
    """ "52 plastic tokens: 21 Wine (red) | 15 Poison (black) | 14 Antidote (white) | 1 Unicorn
    Antidote (blue) | 1 Ogre Poison (green)" -- pool + screens + Goblets + discarded stay these 52
    after every action of a random game, in every variant."""
    rng = random.Random(seed)
    state = GAME.new_state(OPTION_SETS[index])
    assert total(state) == TOTAL
    for _ in range(20_000):
        if state.is_over():
            break
        if state.to_move() is CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        assert total(state) == TOTAL
    assert state.is_over()


def play(argv, capsys):
    """``companion goblets play ...`` in-process: (status, parsed stdout or None, stderr)."""
    status = main(["goblets", "play", *argv])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == 0 else None), err


def table_variant(players: int) -> str:
    """The game the rulebook prescribes for ``players``."""
    return "russian_goblette" if players < 4 else "standard" if players <= 6 else "winetasters"


@pytest.mark.parametrize("players", range(2, 13))
def test_play_every_player_count_in_every_variant(players, capsys):
    """`companion goblets play --players N --seed S --variant V`: for N from 2 to 12, the game for
    N and each optional rule of the Desserts ("Raise Your Memory", "Raise your Goblets Legacy")
    plays to the end and its journal replays to the printed result."""
    russian = players < 4
    variants = [[], [table_variant(players)], ["raise_your_memory"]]
    if not russian:
        variants += [["legacy"], [table_variant(players), "legacy", "raise_your_memory"]]
    for index, extra in enumerate(variants):
        argv = ["--players", str(players), "--seed", str(index)]
        for variant in extra:
            argv += ["--variant", variant]
        status, printed, err = play(argv, capsys)
        assert (status, err) == (0, ""), argv
        journal = Journal.from_json(printed["journal"])
        for variant in extra:
            assert journal.options.get(variant) is True or journal.options["variant"] == variant
        state, _ = replay(journal)
        assert state.is_over()
        assert json.loads(json.dumps(state.outcome())) == printed["result"]
        assert state.view(PUBLIC)["variant"] == table_variant(players)
    if russian:  # "Play without Character cards": there is no Character to draw again
        status, _, err = play(
            ["--players", str(players), "--seed", "1", "--variant", "legacy"], capsys
        )
        assert status == 2 and err.startswith("companion goblets: legacy: ")
        assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["--players", "5", "--variant", "winetasters"], "players"),
        (["--players", "8", "--variant", "standard", "--variant", "winetasters"], "--variant"),
        (["--players", "4", "--variant", "memory"], "variant"),
    ],
)
def test_play_variant_that_does_not_fit_is_one_line(argv, field, capsys):
    """A variant that does not fit the player count (or two games at once) is one line naming
    the field, exit status 2."""
    status, _, err = play([*argv, "--seed", "1"], capsys)
    assert status == 2
    assert err.startswith(f"companion goblets: {field}: ") and len(err.splitlines()) == 1


def test_play_on_the_real_command_line():
    """The installed entry point: ``companion goblets play`` with two ``--variant`` flags."""
    argv = ["--players", "9", "--seed", "4", "--variant", "winetasters", "--variant", "legacy"]
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "goblets", "play", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    printed = json.loads(done.stdout)
    assert printed["journal"]["options"] == {"players": 9, "variant": "winetasters", "legacy": True}
    assert printed["result"]["winners"]
