"""A recorded session replayed end to end: the regression test of the whole sensed pipe.

``tests/fixtures/recordings/sensed-goblets-5/`` holds one 5-seat Course as the readers reported
it (``observations.jsonl``, the ``companion track`` input format), the tag registry
(``registry.json``), the inputs nobody's sensor sees (``inputs.jsonl``: the Host's start of the
Course and Target deal, the players' "end turn" and Toast, the reveal; ``after`` is how many
snapshots came before each) and what the table made of it (``expected.json``). Replaying it
through today's tracker and sensed table must give the same journal of actions, and a reveal that
equals the true final table scored by the rulebook. Regenerate after a deliberate change with
``sensed_script.record_session()``.
"""

from __future__ import annotations

import json

from sensed_script import RECORDING

from companion.core import registry
from companion.core.games.goblets.scoring import score_toast
from companion.core.games.goblets.sensed import Result, SensedSession
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation


def load() -> tuple[TagRegistry, list[Observation], list[dict], dict]:
    tags = TagRegistry.from_json(json.loads((RECORDING / "registry.json").read_text()))
    lines = (RECORDING / "observations.jsonl").read_text().splitlines()
    observations = [Observation.from_json(json.loads(line)) for line in lines]
    inputs = [json.loads(line) for line in (RECORDING / "inputs.jsonl").read_text().splitlines()]
    expected = json.loads((RECORDING / "expected.json").read_text())
    return tags, observations, inputs, expected


def give(session: SensedSession, line: dict) -> Result:
    kind = line["input"]
    if kind == "start_course":
        return session.start_course()
    if kind == "chance":
        return session.apply_chance(line["action"])
    if kind in ("end_turn", "toast"):
        return getattr(session, kind)(line["seat"])
    if kind == "advance":
        return session.advance(line["t"])
    assert kind == "reveal"
    return session.reveal(line["t"])


def replay() -> tuple[Result, SensedSession, dict]:
    tags, observations, inputs, expected = load()
    state = registry.get("goblets").new_state(expected["options"])
    layout = {int(k): v for k, v in expected["layout"].items()}
    session = SensedSession(state, tags, layout=layout)
    result = Result()
    pending = list(inputs)
    for index, obs in enumerate(observations):
        while pending and pending[0]["after"] <= index:
            result.extend(give(session, pending.pop(0)))
        result.extend(session.observe(obs))
    for line in pending:
        result.extend(give(session, line))
    return result, session, expected


def test_the_recorded_session_replays_to_the_same_journal_and_scores() -> None:
    result, session, expected = replay()
    assert result.actions == expected["actions"]
    outcome = session.state.results[0]
    assert [p["contents"] for p in outcome["places"]] == expected["revealed"]
    assert outcome["vp"] == expected["vp"]
    assert result.notices == []


def test_the_recorded_reveal_is_the_true_table_scored_by_the_rulebook() -> None:
    result, session, expected = replay()
    truth = expected["truth"]
    outcome = session.state.results[0]
    houses = [p["house"] for p in outcome["places"]]
    goblets = {h: truth["goblets"][truth["seats"][str(p)]] for p, h in enumerate(houses)}
    assert [goblets[h] for h in houses] == [p["contents"] for p in outcome["places"]]
    targets = {p["house"]: p["target"] for p in outcome["places"]}
    scores = score_toast(houses, targets, goblets)
    assert outcome["vp"] == [scores[h].vp for h in houses]
    # Every pour and move the readers saw is in the journal; the tracker ends with empty Goblets.
    kinds = [a["type"] for a in result.actions]
    assert kinds[0] == "initial_pour" and kinds[-1] == "reveal"
    assert all(not c for c in session.tracker.state()["goblets"].values())
