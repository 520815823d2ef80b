"""``companion enroll`` driven by ``--script`` and ``--virtual``: the registry file it writes (the
format ``companion track`` and ``companion serve`` read), resuming, and clear errors."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from companion import cli
from companion.commands.enroll import Session, save_registry
from companion.core.games.goblets.enroll import Enrollment
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation
from companion.virtual.enrollset import VirtualSet


def uid(n: int) -> str:
    return f"E004{n:012X}"


def reads(tags, times=3, seat=0):
    return [{"t": k / 10, "seat": seat, "tags": list(tags)} for k in range(times)]


def write_script(path: Path, lines) -> Path:
    path.write_text("".join(x if isinstance(x, str) else json.dumps(x) + "\n" for x in lines))
    return path


def enroll(capsys, *args):
    status = cli.main(["enroll", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def registry_of(data: Path) -> TagRegistry:
    return TagRegistry.from_json(json.loads((data / "registry.json").read_text()))


CONFIRM = {"step": "confirm"}


def test_a_script_enrolls_rings_and_tokens(tmp_path, capsys):
    script = write_script(
        tmp_path / "scan.jsonl",
        [
            *reads([uid(1)]),
            CONFIRM,
            *reads([uid(2)]),
            "not json\n",
            CONFIRM,
            *reads([uid(10 + i) for i in range(20)]),  # one Wine token lost: 20 of 21
            CONFIRM,
            *reads([uid(1), uid(40)]),  # De Miceti's ring left on the reader
            CONFIRM,
            {"step": "skip"},  # Antidote later
            *reads([uid(50)]),
            {"step": "restart"},
            *reads([uid(51)]),
            CONFIRM,
            *reads([uid(52)]),
            CONFIRM,
        ],
    )
    data = tmp_path / "data"
    status, out, err = enroll(
        capsys, "--script", script, "--data-dir", data, "--houses", "de_miceti,mctoadery"
    )
    assert status == 1  # Antidote was skipped
    assert "script line 8: " in err
    assert "place every Wine token (21) on seat 0's reader" in out
    assert "confirmed 20 of 21 expected" in out
    assert f"conflict: {uid(1)} is enrolled already as ring de_miceti" in out
    assert "not enrolled yet: antidote" in out
    registry = registry_of(data)
    assert registry.ring_goblet(uid(1)) == "de_miceti"
    assert registry.ring_goblet(uid(2)) == "mctoadery"
    assert sum(registry.token_kind(u) == "wine" for u in registry) == 20
    assert registry.token_kind(uid(40)) == "poison"
    assert uid(50) not in registry  # restarted away
    assert registry.token_kind(uid(51)) == "unicorn_antidote"
    assert registry.token_kind(uid(52)) == "ogre_poison"
    assert list(data.iterdir()) == [data / "registry.json"]  # no temporary file left

    # Run again: it resumes at the step that is left, and the set is complete.
    rest = write_script(tmp_path / "rest.jsonl", [*reads([uid(60), uid(61)]), CONFIRM])
    status, out, _ = enroll(
        capsys, "--script", rest, "--data", data, "--houses", "de_miceti", "mctoadery"
    )
    assert status == 0
    assert out.startswith("resuming ")
    assert "[5/7] place every Antidote token (14)" in out
    assert registry_of(data).token_kind(uid(61)) == "antidote"
    assert len(registry_of(data)) == 27


def test_yes_confirms_a_step_once_its_count_is_read(tmp_path, capsys):
    wine = [uid(100 + i) for i in range(21)]
    script = write_script(tmp_path / "s.jsonl", [*reads([uid(1)]), *reads(wine, times=4)])
    status, out, _ = enroll(
        capsys, "--script", script, "--data-dir", tmp_path, "--houses", "araneros", "--yes"
    )
    assert status == 1  # Poison and the rest never came
    assert "confirmed 21 of 21 expected" in out
    assert len(registry_of(tmp_path)) == 22


def test_virtual_set_is_enrolled_exactly(tmp_path, capsys):
    status, out, _ = enroll(
        capsys, "--virtual", 7, "--speed", 0, "--yes", "--data-dir", tmp_path, "--seat", 3
    )
    assert status == 0, out
    assert "58 tags enrolled" in out
    assert registry_of(tmp_path) == VirtualSet(random.Random(7)).registry()


def test_a_virtual_set_never_replaces_the_real_registry(tmp_path, capsys, monkeypatch):
    """Without --data-dir, --virtual saves to ./data/virtual, not ./data (what serve reads)."""
    monkeypatch.chdir(tmp_path)
    status, out, _ = enroll(capsys, "--virtual", 7, "--speed", 0, "--yes")
    assert status == 0, out
    assert registry_of(tmp_path / "data" / "virtual") == VirtualSet(random.Random(7)).registry()
    assert not (tmp_path / "data" / "registry.json").exists()


def test_the_registry_drives_companion_track(tmp_path, capsys, monkeypatch):
    enroll(capsys, "--virtual", 2, "--speed", 0, "--yes", "--data-dir", tmp_path)
    tagset = VirtualSet(random.Random(2))
    ring, wine = tagset.rings["de_miceti"], tagset.tokens["wine"][0]
    lines = [
        {"t": k / 10, "seat": 0, "tags": [ring] + ([wine] if k >= 20 else [])} for k in range(40)
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    registry = tmp_path / "registry.json"
    status = cli.main(
        ["track", "--registry", str(registry), "--seats", "2", "--layout", "de_miceti,x"]
    )
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0
    pours = [e for e in events if e["event"] == "pour"]
    assert [(p["goblet"], p["token"], p["uid"]) for p in pours] == [("de_miceti", "wine", wine)]


def test_bad_input_is_named(tmp_path, capsys):
    (tmp_path / "registry.json").write_text("{not json")
    status, _, err = enroll(capsys, "--virtual", 1, "--data-dir", tmp_path, "--yes")
    assert status == 2 and "registry" in err
    status, _, err = enroll(capsys, "--script", tmp_path / "none.jsonl", "--fresh")
    assert status == 2 and "script" in err
    status, _, err = enroll(capsys, "--script", "-", "--speed", 2, "--fresh")
    assert status == 2 and "speed" in err
    status, _, err = enroll(capsys, "--virtual", 1, "--houses", "nobody", "--fresh")
    assert status == 2 and "houses" in err
    bad = write_script(tmp_path / "bad.jsonl", [{"step": "dance"}])
    status, _, err = enroll(capsys, "--script", bad, "--data-dir", tmp_path / "d")
    assert status == 1 and "step: must be confirm, skip or restart" in err


class Keys:
    """A keyboard with no keys: the test presses them by calling Session.key."""

    def get(self):
        return None


class NoSource:
    def begin(self, step):
        self.step = step


def test_a_short_step_asks_before_confirming_with_fewer(tmp_path):
    out = io.StringIO()
    enrollment = Enrollment(0, houses=["de_miceti"])
    enrollment.skip()
    session = Session(enrollment, NoSource(), tmp_path / "registry.json", out, Keys(), yes=False)
    session.key("confirm")
    assert "nothing read yet" in out.getvalue()
    for k in range(3):
        session.take(Observation.of(k, 0, [uid(1), uid(2)]))
    assert "Wine tokens: 2 / 21" in out.getvalue()
    session.key("confirm")
    assert "only 2 of 21 read: Enter again to confirm with fewer" in out.getvalue()
    assert not (tmp_path / "registry.json").exists()
    session.key("confirm")
    assert "confirmed 2 of 21 expected" in out.getvalue()
    assert len(registry_of(tmp_path)) == 2
    assert enrollment.current.name == "poison"


def test_save_registry_replaces_the_file_whole(tmp_path):
    path = tmp_path / "sub" / "registry.json"
    registry = TagRegistry()
    registry.add_token(uid(1), "wine")
    save_registry(path, registry)
    registry.add_ring(uid(2), "de_miceti")
    save_registry(path, registry)
    assert TagRegistry.from_json(json.loads(path.read_text())) == registry
    assert [p.name for p in path.parent.iterdir()] == ["registry.json"]
