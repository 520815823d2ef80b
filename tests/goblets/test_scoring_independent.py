"""The bar: an independent scorer agrees with ``companion goblets score --jsonl`` on every state.

The scorer below is written straight from the rulebook's reveal and table, in a different style
from ``scoring.py`` (which it does not import): it tries every way of sharing the Antidotes
between ordinary Poison and Ogre Poison and keeps the best, where ``scoring.py`` uses a closed
min-cut formula. Thousands of random reveal states go through the real command line in a
subprocess, one JSON object per line.
"""

from __future__ import annotations

import json
import random
import string
import subprocess
import sys

STATES = 4000
KINDS = ("wine", "poison", "antidote", "unicorn_antidote", "ogre_poison")

# The rules-notes presets, restated here (not imported) for the independent scorer.
PRESETS = {
    "default": {
        "unicorn_antidote_cancels": None,
        "unicorn_antidote_cancels_ogre_poison": True,
        "antidote_cancels_ogre_poison": False,
        "ogre_poison_doses": 1,
    },
    "plain": {
        "unicorn_antidote_cancels": 1,
        "unicorn_antidote_cancels_ogre_poison": True,
        "antidote_cancels_ogre_poison": True,
        "ogre_poison_doses": 1,
    },
    "strong_ogre": {
        "unicorn_antidote_cancels": 2,
        "unicorn_antidote_cancels_ogre_poison": True,
        "antidote_cancels_ogre_poison": False,
        "ogre_poison_doses": 2,
    },
}
TABLE = {"survived": 1, "poisoned": 0, "target_poisoned": 1, "target_survived": 0, "both": 1}


def rules_of(spec):
    """The four special-token settings a request's ``token_rules`` stands for."""
    if spec is None:
        return dict(PRESETS["default"])
    if isinstance(spec, str):
        return dict(PRESETS[spec])
    rules = dict(PRESETS[spec.get("preset", "default")])
    rules.update({k: v for k, v in spec.items() if k != "preset"})
    return rules


def is_poisoned(goblet, rules):
    """ "For each Antidote token in Your Goblet, remove 1 Poison token. If after this Your Goblet
    still contains at least 1 Poison token, you have been poisoned." — trying every split."""
    poison = goblet.get("poison", 0)
    ogre = goblet.get("ogre_poison", 0) * rules["ogre_poison_doses"]
    antidotes = goblet.get("antidote", 0)
    unicorns = goblet.get("unicorn_antidote", 0)
    doses = poison + ogre
    each = rules["unicorn_antidote_cancels"]
    unicorn_removals = min(doses, unicorns * (doses if each is None else each))
    least_left = doses
    antidote_to_ogre = range(antidotes + 1) if rules["antidote_cancels_ogre_poison"] else [0]
    unicorn_to_ogre = (
        range(unicorn_removals + 1) if rules["unicorn_antidote_cancels_ogre_poison"] else [0]
    )
    for a in antidote_to_ogre:
        for u in unicorn_to_ogre:
            ogre_left = max(0, ogre - a - u)
            poison_left = max(0, poison - (antidotes - a) - (unicorn_removals - u))
            least_left = min(least_left, ogre_left + poison_left)
    return least_left > 0


def independent_score(request):
    """Score a request from the rulebook's table, by hand."""
    rules = rules_of(request.get("token_rules"))
    goblets = request["goblets"]
    poisoned = {p: is_poisoned(goblets[p], rules) for p in request["seats"]}
    wine = sorted(((g.get("wine", 0), p) for p, g in goblets.items()), reverse=True)
    # "if there's a tie, no one receives this bonus VP"
    winner = wine[0][1] if wine[0][0] != wine[1][0] else None
    out = {}
    for player in request["seats"]:
        table = {**TABLE, **(request.get("overrides") or {}).get(player, {})}
        alive = not poisoned[player]
        hit = poisoned[request["targets"][player]]
        points = table["survived"] if alive else table["poisoned"]
        points += table["target_poisoned"] if hit else table["target_survived"]
        if alive and hit:
            points += table["both"]
        if player == winner:
            points += 1
        out[player] = {
            "poisoned": not alive,
            "survived": alive,
            "target_poisoned": hit,
            "most_wine": player == winner,
            "vp": points,
        }
    return {"players": out}


def random_request(rng):
    """A random reveal state: 2-8 players (mostly 4-6), random targets, goblets and rules."""
    count = rng.choice([2, 3, 4, 4, 5, 5, 6, 6, 7, 8])
    seats = []
    while len(seats) < count:
        name = "".join(rng.choices(string.ascii_lowercase + "äñ_", k=rng.randint(1, 6)))
        if name not in seats:
            seats.append(name)
    targets = {p: rng.choice([q for q in seats if q != p]) for p in seats}
    goblets = {}
    for player in seats:
        goblet = {
            "wine": rng.randint(0, 4),
            "poison": rng.choice([0, 0, 1, 1, 2, 3, 5]),
            "antidote": rng.choice([0, 0, 1, 1, 2, 3]),
            "unicorn_antidote": rng.choice([0, 0, 0, 1, 2]),
            "ogre_poison": rng.choice([0, 0, 0, 1, 2]),
        }
        goblets[player] = {k: v for k, v in goblet.items() if v or rng.random() < 0.5}
    request = {"seats": seats, "targets": targets, "goblets": goblets}
    roll = rng.random()
    if roll < 0.3:
        request["token_rules"] = rng.choice(list(PRESETS))
    elif roll < 0.6:
        spec = {"preset": rng.choice(list(PRESETS))}
        if rng.random() < 0.7:
            spec["unicorn_antidote_cancels"] = rng.choice([None, 0, 1, 2, 3])
        for key in ("unicorn_antidote_cancels_ogre_poison", "antidote_cancels_ogre_poison"):
            if rng.random() < 0.6:
                spec[key] = rng.random() < 0.5
        if rng.random() < 0.5:
            spec["ogre_poison_doses"] = rng.randint(1, 3)
        request["token_rules"] = spec
    if rng.random() < 0.3:
        request["overrides"] = {
            player: {k: rng.randint(0, 3) for k in TABLE if rng.random() < 0.5}
            for player in rng.sample(seats, rng.randint(1, len(seats)))
        }
    rng_order = list(request.items())
    rng.shuffle(rng_order)  # key order in the object must not matter
    return dict(rng_order)


def test_independent_scorer_knows_the_table():
    """Sanity of the reference itself: "1 VP if you survived; 1 VP if your Target has been
    poisoned; +1 VP extra if you achieved both ...; 1 VP if you have the most Wine tokens"."""
    request = {
        "seats": ["a", "b", "c", "d"],
        "targets": {"a": "b", "b": "c", "c": "d", "d": "a"},
        "goblets": {"a": {"wine": 2}, "b": {"poison": 1}, "c": {}, "d": {"ogre_poison": 1}},
    }
    players = independent_score(request)["players"]
    assert [players[p]["vp"] for p in "abcd"] == [4, 0, 3, 0]
    assert is_poisoned({"ogre_poison": 1, "antidote": 3}, PRESETS["default"])
    assert not is_poisoned({"ogre_poison": 1, "antidote": 1}, PRESETS["plain"])


def test_command_line_agrees_with_the_independent_scorer():
    """The bar (issue 2): thousands of random reveal states, the real CLI, agreement on all."""
    rng = random.Random(20261130)
    requests = [random_request(rng) for _ in range(STATES)]
    stdin = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "goblets", "score", "--jsonl"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    answers = done.stdout.splitlines()
    assert len(answers) == STATES
    mismatches = [
        (request, answer)
        for request, answer in zip(requests, answers, strict=True)
        if json.loads(answer) != independent_score(request)
    ]
    assert not mismatches, f"{len(mismatches)} disagreements, first: {mismatches[0]}"
    # the random states cover every interesting case
    flat = [s for a in answers for s in json.loads(a)["players"].values()]
    assert any(s["poisoned"] for s in flat) and any(s["survived"] for s in flat)
    assert any(s["most_wine"] for s in flat) and any(s["vp"] >= 4 for s in flat)


def test_single_object_mode_agrees_too():
    rng = random.Random(7)
    request = random_request(rng)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "goblets", "score"],
        input=json.dumps(request, indent=2),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == independent_score(request)
