"""The readers and the camera compared (companion/core/games/goblets/sensed/fusion.py): layouts and
reveals."""

from __future__ import annotations

import pytest

from companion.core.errors import AmbiguousObservation, MalformedInput
from companion.core.games.goblets.sensed.fusion import (
    DIFFERS,
    FusedPourOut,
    FusionConfig,
    LayoutFusion,
    differing,
)
from companion.core.games.goblets.sensed.pour_out import (
    CONFIRMED,
    SETTLED,
    SETTLING,
    PourOut,
    PourOutConfig,
)
from companion.core.games.goblets.tags import TagRegistry
from companion.core.observations import Observation

TABLE = {0: "de_miceti", 1: "mctoadery", 2: "aconitiers", 3: "wespendorf"}
SWAPPED = {**TABLE, 1: "aconitiers", 2: "mctoadery"}


def test_two_layouts_differ_at_the_seats_naming_other_goblets():
    assert differing(TABLE, dict(TABLE)) == []
    assert differing(TABLE, SWAPPED) == [1, 2]
    assert differing(TABLE, {k: v for k, v in TABLE.items() if k != 3}) == [3]
    assert differing(TABLE, None) == [] and differing(None, TABLE) == []


def test_agreeing_layouts_raise_nothing():
    fusion = LayoutFusion(FusionConfig(grace=2.0))
    for t in range(20):
        assert fusion.compare(float(t), TABLE, dict(TABLE)) == []
    assert fusion.conflict is None


def test_a_disagreement_that_holds_past_the_grace_is_a_conflict_once():
    fusion = LayoutFusion(FusionConfig(grace=2.0))
    assert fusion.compare(10.0, TABLE, SWAPPED) == []
    assert fusion.compare(11.5, TABLE, SWAPPED) == []
    notices = fusion.compare(12.0, TABLE, SWAPPED)
    assert notices == [
        {
            "notice": "disagreement",
            "seats": [1, 2],
            "readers": {"0": "de_miceti", "1": "mctoadery", "2": "aconitiers", "3": "wespendorf"},
            "camera": {"0": "de_miceti", "1": "aconitiers", "2": "mctoadery", "3": "wespendorf"},
            "since": 10.0,
        }
    ]
    assert fusion.compare(13.0, TABLE, SWAPPED) == []  # asked once
    assert fusion.conflict is not None and fusion.conflict["seats"] == [1, 2]


def test_a_goblet_in_mid_move_is_no_conflict():
    # The camera believes the swap 1.5 s before the readers do: within the grace.
    fusion = LayoutFusion(FusionConfig(grace=2.0))
    assert fusion.compare(0.0, TABLE, SWAPPED) == []
    assert fusion.compare(1.5, TABLE, SWAPPED) == []
    assert fusion.compare(1.9, SWAPPED, SWAPPED) == []
    assert fusion.compare(30.0, SWAPPED, SWAPPED) == []
    assert fusion.conflict is None
    # A disagreement that keeps changing restarts its grace each time (moves in progress).
    rotated = {(s + 1) % 4: n for s, n in TABLE.items()}
    assert fusion.compare(31.0, SWAPPED, TABLE) == []
    assert fusion.compare(32.5, SWAPPED, rotated) == []
    assert fusion.compare(34.0, SWAPPED, rotated) == []
    assert fusion.compare(34.5, SWAPPED, rotated)[0]["since"] == 32.5


def test_a_blind_camera_is_no_disagreement():
    fusion = LayoutFusion(FusionConfig(grace=2.0))
    assert fusion.compare(0.0, TABLE, SWAPPED) == []
    for t in range(1, 30):
        assert fusion.compare(float(t), TABLE, None) == []  # covered: nothing read
    assert fusion.conflict is None
    # Seen again after the blind spell, the disagreement's grace starts over.
    assert fusion.compare(40.0, TABLE, SWAPPED) == []
    assert fusion.compare(41.0, TABLE, SWAPPED) == []
    assert fusion.compare(42.0, TABLE, SWAPPED)[0]["since"] == 40.0
    # Nor does a blind spell close an open conflict: the Host was asked and answers.
    assert fusion.compare(50.0, TABLE, None) == [] and fusion.conflict is not None


def test_the_host_settles_a_conflict_and_the_same_disagreement_is_not_raised_again():
    fusion = LayoutFusion(FusionConfig(grace=1.0))
    with pytest.raises(AmbiguousObservation):
        fusion.settle("camera")
    fusion.compare(0.0, TABLE, SWAPPED)
    fusion.compare(1.0, TABLE, SWAPPED)
    with pytest.raises(MalformedInput) as error:
        fusion.settle("both")
    assert error.value.field == "source"
    assert fusion.settle("readers") == TABLE
    assert fusion.conflict is None
    for t in range(2, 20):  # the camera goes on misreading the same: asked no more
        assert fusion.compare(float(t), TABLE, SWAPPED) == []
    # The ruling is kept across a restart: a new fusion told of it is not asked again either.
    again = LayoutFusion(FusionConfig(grace=1.0))
    for ruling in fusion.rulings():
        again.ruled(*({int(s): n for s, n in ruling[k].items()} for k in ("readers", "camera")))
    assert again.compare(0.0, TABLE, SWAPPED) == [] and again.compare(5.0, TABLE, SWAPPED) == []
    # Once they agree, a later disagreement is a new one.
    assert fusion.compare(20.0, TABLE, TABLE) == []
    assert fusion.rulings() == []
    fusion.compare(21.0, TABLE, SWAPPED)
    assert fusion.compare(22.0, TABLE, SWAPPED)[0]["notice"] == "disagreement"
    assert fusion.settle("camera") == SWAPPED


def test_an_open_conflict_closes_when_the_sources_agree_again():
    fusion = LayoutFusion(FusionConfig(grace=1.0))
    fusion.compare(0.0, TABLE, SWAPPED)
    fusion.compare(1.0, TABLE, SWAPPED)
    assert fusion.compare(2.0, SWAPPED, SWAPPED) == [{"notice": "agreement"}]
    assert fusion.conflict is None


def test_the_grace_is_validated_naming_the_field():
    for bad in (0, -1, True, "3"):
        with pytest.raises(MalformedInput) as error:
            FusionConfig(grace=bad)
        assert error.value.field == "grace"


# -- the reveal --------------------------------------------------------------------------------

WINE = [f"0401{i:02X}" for i in range(6)]
POISON = [f"0402{i:02X}" for i in range(3)]


def readers_registry() -> TagRegistry:
    registry = TagRegistry()
    for uid in WINE:
        registry.add_token(uid, "wine")
    for uid in POISON:
        registry.add_token(uid, "poison")
    return registry


def pour_outs(places: int = 2) -> tuple[FusedPourOut, PourOut]:
    config = PourOutConfig(settle=1.0, reads=3)
    layout = {p: f"g{p}" for p in range(places)}
    readers = PourOut(layout, readers_registry(), rings=False, apart=True, config=config)
    camera = PourOut(
        layout, readers_registry(), rings=False, apart=True, witness=True, config=config
    )
    return FusedPourOut.joined(readers, camera), camera


def read(pour: PourOut, t: float, seat: int, tags) -> None:
    pour.observe(Observation.of(t, seat, tags))


def run(fused: FusedPourOut, camera: PourOut | None, seats: dict, seen: dict, until: float):
    t = 0.0
    while t <= until:
        for seat, tags in seats.items():
            read(fused, t, seat, tags)
        if camera is not None:
            for seat, tags in seen.items():
                read(camera, t, seat, tags)
        t = round(t + 0.1, 3)


def test_a_seat_settles_when_the_camera_counts_the_same():
    fused, camera = pour_outs()
    seats = {0: WINE[:2], 1: POISON[:1]}
    run(fused, camera, seats, seats, 2.0)
    assert [fused.status(p) for p in range(2)] == [SETTLED, SETTLED]
    assert fused.is_done and fused.differences() == []
    assert fused.revealed() == [{"wine": 2}, {"poison": 1}]


def test_differing_counts_wait_for_the_host_and_never_pick_one_silently():
    fused, camera = pour_outs()
    run(fused, camera, {0: WINE[:2], 1: POISON[:1]}, {0: WINE[:3], 1: POISON[:1]}, 2.0)
    assert fused.status(0) == DIFFERS and fused.status(1) == SETTLED
    assert not fused.is_done
    assert fused.differences() == [{"place": 0, "readers": {"wine": 2}, "camera": {"wine": 3}}]
    with pytest.raises(AmbiguousObservation):
        fused.pick(1, "camera")  # they agree there
    assert fused.pick(0, "camera") == {"wine": 3}
    assert fused.status(0) == CONFIRMED and fused.is_done
    assert fused.revealed() == [{"wine": 3}, {"poison": 1}]


def test_a_seat_waits_while_the_cameras_count_settles():
    fused, camera = pour_outs()
    run(fused, camera, {0: WINE[:2], 1: []}, {0: WINE[:2], 1: []}, 2.0)
    for i in range(1, 6):  # a hand still spreading the tokens in the camera's view
        read(camera, 2.0 + i / 10, 0, WINE[:1])
    assert fused.witness_counts(0) == {"wine": 1}
    assert fused.status(0) == SETTLING and not fused.is_done


def test_a_seat_the_camera_does_not_see_settles_on_the_readers():
    fused, camera = pour_outs()
    run(fused, camera, {0: WINE[:2], 1: POISON[:2]}, {1: POISON[:2]}, 2.0)  # seat 0 covered
    assert fused.witness_counts(0) is None
    assert [fused.status(p) for p in range(2)] == [SETTLED, SETTLED]
    assert fused.revealed() == [{"wine": 2}, {"poison": 2}]
