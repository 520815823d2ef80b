"""``companion goblets score`` and ``companion goblets play`` on the command line.

Bad input must give exactly one line on stderr naming the field and the problem, and exit
status 2, never a traceback (issue 2, Command line).
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys

import pytest

from companion.commands.goblets import run_score

GOOD = {
    "seats": ["alice", "bob", "carol", "dave"],
    "targets": {"alice": "bob", "bob": "carol", "carol": "dave", "dave": "alice"},
    "goblets": {
        "alice": {"wine": 2, "antidote": 1},
        "bob": {"poison": 1},
        "carol": {"wine": 1, "poison": 1, "antidote": 1},
        "dave": {},
    },
}


def run(text, *, jsonl=False):
    """Run the score command in-process on ``text``; returns (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = run_score(argparse.Namespace(jsonl=jsonl), io.StringIO(text), out, err)
    return status, out.getvalue(), err.getvalue()


def cli(*args, stdin=""):
    """Run the real ``companion`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "goblets", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def with_(**changes):
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return json.dumps(data)


def with_goblet(player, goblet):
    data = json.loads(json.dumps(GOOD))
    data["goblets"][player] = goblet
    return json.dumps(data)


def test_scores_one_object():
    """ "You score: 1 VP if you survived; 1 VP if your Target has been poisoned; +1 VP extra if
    you achieved both of the above goals; 1 VP if you have the most Wine tokens"."""
    status, out, err = run(json.dumps(GOOD))
    assert (status, err) == (0, "")
    assert json.loads(out) == {
        "players": {
            "alice": {
                "poisoned": False,
                "survived": True,
                "target_poisoned": True,
                "most_wine": True,
                "vp": 4,
            },
            "bob": {
                "poisoned": True,
                "survived": False,
                "target_poisoned": False,
                "most_wine": False,
                "vp": 0,
            },
            "carol": {
                "poisoned": False,
                "survived": True,
                "target_poisoned": False,
                "most_wine": False,
                "vp": 1,
            },
            "dave": {
                "poisoned": False,
                "survived": True,
                "target_poisoned": False,
                "most_wine": False,
                "vp": 1,
            },
        }
    }


def test_token_rules_and_overrides_are_read():
    """Optional keys carry the special-token rules and Characters' scoring overrides ("you apply
    their effect instead of the normal scoring")."""
    text = with_goblet("dave", {"ogre_poison": 1, "antidote": 1})
    assert json.loads(run(text)[1])["players"]["dave"]["poisoned"]
    data = json.loads(text)
    data["token_rules"] = "plain"
    data["overrides"] = {"bob": {"poisoned": 3}}
    status, out, _ = run(json.dumps(data))
    players = json.loads(out)["players"]
    assert status == 0
    assert players["dave"]["survived"]
    assert players["bob"]["vp"] == 3


BAD = [
    ("{", "input", "not valid JSON"),
    ("", "input", "not valid JSON"),
    ("[1, 2]", "input", "must be a JSON object, got list"),
    ('"hi"', "input", "must be a JSON object, got str"),
    ('{"seats": 1, "seats": 2}', "input", "duplicate key 'seats'"),
    ('{"seats": NaN}', "input", "NaN is not valid JSON"),
    (with_(colour="red"), "colour", "unknown key"),
    (json.dumps({"targets": {}, "goblets": {}}), "seats", "missing"),
    (json.dumps({"seats": ["a", "b"], "goblets": {}}), "targets", "missing"),
    (json.dumps({"seats": ["a", "b"], "targets": {}}), "goblets", "missing"),
    (with_(seats="alice"), "seats", "must be a list"),
    (with_(seats=["alice"]), "seats", "at least 2 players"),
    (with_(seats=["alice", "bob", "carol", "dave", "bob"]), "seats[4]", "duplicate player"),
    (with_(seats=["alice", "bob", "carol", 4]), "seats[3]", "non-empty string"),
    (with_(seats=["alice", "bob", "carol", None]), "seats[3]", "non-empty string"),
    (with_(targets=[]), "targets", "must be an object"),
    (with_(targets={**GOOD["targets"], "eve": "bob"}), "targets.eve", "not a seated player"),
    (with_(targets={**GOOD["targets"], "bob": "eve"}), "targets.bob", "must be a seated player"),
    (with_(targets={**GOOD["targets"], "bob": "bob"}), "targets.bob", "can't target yourself"),
    (with_(targets={**GOOD["targets"], "bob": 2}), "targets.bob", "must be a seated player"),
    (with_(targets={"alice": "bob"}), "targets.bob", "missing target"),
    (with_(goblets={"alice": {}}), "goblets.bob", "missing goblet"),
    (with_(goblets=[]), "goblets", "must be an object"),
    (
        with_(goblets={**GOOD["goblets"], "eve": {}}),
        "goblets.eve",
        "not a seated player",
    ),
    (with_goblet("alice", {"poison": -1}), "goblets.alice.poison", "non-negative integer, got -1"),
    (with_goblet("alice", {"wine": 1.5}), "goblets.alice.wine", "got 1.5"),
    (with_goblet("alice", {"wine": 2.0}), "goblets.alice.wine", "got 2.0"),
    (with_goblet("alice", {"wine": True}), "goblets.alice.wine", "got True"),
    (with_goblet("alice", {"wine": "3"}), "goblets.alice.wine", "got '3'"),
    (with_goblet("alice", {"wine": None}), "goblets.alice.wine", "got None"),
    (with_goblet("alice", {"mead": 1}), "goblets.alice.mead", "unknown token kind 'mead'"),
    (with_goblet("alice", [1]), "goblets.alice", "must be an object"),
    (with_(token_rules="fancy"), "token_rules.preset", "unknown preset 'fancy'"),
    (with_(token_rules={"ogre_poison_doses": 0}), "token_rules.ogre_poison_doses", ">= 1"),
    (with_(token_rules=5), "token_rules", "must be an object or a preset name"),
    (with_(overrides=[]), "overrides", "must be an object"),
    (with_(overrides={"eve": {}}), "overrides.eve", "not a seated player"),
    (with_(overrides={"bob": {"survived": -1}}), "overrides.bob.survived", "got -1"),
    (with_(overrides={"bob": {"most_wine": 0}}), "overrides.bob.most_wine", "NEVER affected"),
    (with_(overrides={"bob": 2}), "overrides.bob", "must be an object"),
]


@pytest.mark.parametrize(("text", "field", "problem"), BAD)
def test_bad_input_is_one_line_naming_the_field(text, field, problem):
    status, out, err = run(text)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"companion goblets score: {field}: "), err
    assert problem in err


def test_bad_input_from_the_real_command_line():
    done = cli("score", stdin=with_goblet("alice", {"poison": -1}))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "companion goblets score: goblets.alice.poison: must be a non-negative integer, got -1\n"
    )


def test_field_names_with_newlines_stay_on_one_line():
    text = with_(targets={**GOOD["targets"], "e\nve": "bob"})
    status, _, err = run(text)
    assert status == 2
    assert err.count("\n") == 1


def test_deeply_nested_json_is_malformed_not_a_crash():
    status, _, err = run("[" * 100_000 + "]" * 100_000)
    assert status == 2
    assert err.startswith("companion goblets score: input: ")


def test_undecodable_bytes_are_malformed_input():
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "goblets", "score"],
        input=b'{"seats": ["\xff"]}',
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == b"companion goblets score: input: not valid UTF-8\n"


def test_jsonl_one_answer_per_line_in_order():
    """With --jsonl, one object per line in and out, in order."""
    lines = [with_goblet("dave", {"wine": n}) for n in (0, 5, 2)]
    status, out, err = run("\n".join(lines) + "\n", jsonl=True)
    assert (status, err) == (0, "")
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["players"]["dave"]["most_wine"] for a in answers] == [False, True, False]


def test_jsonl_bad_line_is_reported_and_the_rest_still_scored():
    """A bad line: one stderr line with its number, an error object in its place on stdout,
    the next lines scored, exit status 2 at the end (docs/rules-notes.md)."""
    text = "\n".join(
        [json.dumps(GOOD), "{oops", "", with_goblet("bob", {"poison": -1}), json.dumps(GOOD)]
    )
    status, out, err = run(text + "\n", jsonl=True)
    assert status == 2
    assert err.splitlines() == [
        err.splitlines()[0],
        "companion goblets score: line 4: goblets.bob.poison: must be a non-negative integer,"
        " got -1",
    ]
    assert err.splitlines()[0].startswith("companion goblets score: line 2: input: not valid JSON")
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 4  # the blank line 3 gives no output
    assert answers[0] == answers[3] and "players" in answers[0]
    assert answers[1]["error"]["line"] == 2 and answers[1]["error"]["field"] == "input"
    assert answers[2]["error"] == {
        "line": 4,
        "field": "goblets.bob.poison",
        "message": "must be a non-negative integer, got -1",
    }


def test_jsonl_through_the_real_command_line():
    done = cli("score", "--jsonl", stdin=json.dumps(GOOD) + "\n[]\n" + json.dumps(GOOD) + "\n")
    assert done.returncode == 2
    assert (
        done.stderr == "companion goblets score: line 2: input: must be a JSON object, got list\n"
    )
    assert len(done.stdout.splitlines()) == 3


def test_score_needs_a_subcommand():
    done = cli()
    assert done.returncode == 2
    assert "SUBCOMMAND" in done.stderr


def play(*args):
    done = cli("play", *args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("players", "extra"),
    [
        (4, []),
        (6, ["--variant", "standard", "--option", "legacy=true"]),
        (5, ["--option", "raise_your_memory=true", "--option", 'token_rules="plain"']),
        (3, ["--variant", "russian_goblette"]),
        (7, ["--variant", "winetasters"]),
    ],
)
def test_play_prints_a_replayable_journal_and_the_result(players, extra):
    """`companion goblets play` plays a random legal game to the end; replaying its journal
    reproduces the same result (the game is the fold of its journal)."""
    from companion.core.journal import Journal, replay

    printed = play("--players", str(players), "--seed", "3", *extra)
    journal = Journal.from_json(printed["journal"])
    assert journal.game == "goblets"
    assert journal.options["players"] == players
    assert journal.entries
    state, _ = replay(journal)
    assert state.is_over()
    assert json.loads(json.dumps(state.outcome())) == printed["result"]


def test_play_is_deterministic_per_seed():
    first = cli("play", "--players", "4", "--seed", "11")
    again = cli("play", "--players", "4", "--seed", "11")
    other = cli("play", "--players", "4", "--seed", "12")
    assert first.returncode == again.returncode == other.returncode == 0
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--players", "13", "--seed", "1"], "players"),
        (["--players", "4", "--seed", "1", "--variant", "chess"], "variant"),
        (["--players", "4", "--seed", "1", "--option", "legacy"], "--option"),
        (["--players", "4", "--seed", "1", "--option", "legacy=maybe"], "--option legacy"),
    ],
)
def test_play_bad_options_are_one_line(args, field):
    done = cli("play", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"companion goblets: {field}: "), done.stderr
