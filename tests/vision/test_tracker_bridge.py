"""The camera speaks the tracker's language: ring readings become per-seat snapshots of
pseudo-UIDs, and a tracker fed only by the camera names a Rotate and a Swap; token counts are
contents the Goblets engine accepts at the reveal."""

from companion.core.games.goblets.tokens import check_contents
from companion.core.games.goblets.tracking import Tracker
from companion.core.observations import Observation
from vision.camera import SyntheticCamera
from vision.detect import detect
from vision.render import Scene
from vision.rings import observations, ring_registry, ring_uid

HOUSES = ["de_miceti", "mctoadery", "aconitiers", "wespendorf", "van_visser", "araneros"]


def test_ring_uids_are_hex_and_enrolled_as_rings():
    registry = ring_registry()
    assert len({ring_uid(h) for h in HOUSES}) == 6
    for house in HOUSES:
        Observation.of(0.0, 0, [ring_uid(house)])  # a valid UID for the tracker
        assert registry.ring_goblet(ring_uid(house)) == house
    assert registry.goblets() == sorted(HOUSES)


def run(tracker, camera, scene, t0, seconds=2.0, rate=10):
    """Show ``scene`` to the camera once and repeat its reading at ``rate`` Hz (it stands
    still), as the frame loop would."""
    camera.scene = scene
    reading = detect(camera.read(), camera.calibration, tokens=False).rings
    events = []
    for tick in range(round(seconds * rate)):
        for obs in observations(reading, t0 + tick / rate, seq=tick):
            events += tracker.observe(obs)
    return reading, events


def test_a_tracker_fed_by_the_camera_sees_a_rotate_then_a_swap():
    layout = dict(enumerate(HOUSES[:5]))
    camera = SyntheticCamera(seed=4, seats=5, scene=Scene(5, layout))
    tracker = Tracker(ring_registry(HOUSES[:5]), 5)
    reading, events = run(tracker, camera, Scene(5, layout), 0.0)
    assert reading.seats == layout
    assert [e["event"] for e in events] == ["layout"]
    assert events[0]["seats"] == {str(s): h for s, h in layout.items()}
    # Rotate: "Move all of the Goblets one place in the same direction" (clockwise: i -> i+1).
    rotated = {(s + 1) % 5: h for s, h in layout.items()}
    in_hand = Scene(5, {s: h for s, h in rotated.items() if s != 2}, ((layout[1], 300.0, 300.0),))
    _, moving = run(tracker, camera, in_hand, 2.0, seconds=0.3)
    reading, events = run(tracker, camera, Scene(5, rotated), 2.3)
    assert reading.seats == rotated
    assert [e for e in moving + events if e["event"] != "lift"] == [
        {"t": events[-1]["t"], "event": "rotate", "direction": "clockwise"}
    ]
    # Swap: "Exchange Your Goblet for that of another player."
    swapped = dict(rotated)
    swapped[0], swapped[3] = rotated[3], rotated[0]
    _, events = run(tracker, camera, Scene(5, swapped), 4.3)
    assert [(e["event"], e.get("seats")) for e in events] == [("swap", [0, 3])]
    assert tracker.state()["seats"] == {str(s): h for s, h in swapped.items()}


def test_revealed_counts_are_goblet_contents():
    counts = {"wine": 2, "poison": 1, "antidote": 1, "unicorn_antidote": 0, "ogre_poison": 1}
    camera = SyntheticCamera(seed=9, seats=4, scene=Scene(4, tokens={2: counts}))
    found = detect(camera.read(), camera.calibration)
    assert found.tokens[2] == counts
    for seat in range(4):
        check_contents(found.tokens[seat], f"counts[{seat}]")  # what reveal(counts=...) takes


def test_two_rings_at_one_seat_are_reported_and_both_observed():
    # A goblet put down beside another, both within a ring's radius of seat 1's spot.
    camera = SyntheticCamera(seed=6, seats=4)
    x, y = camera.calibration.layout.goblet_spot(1)
    scene = Scene(
        4, {0: "araneros", 2: "wespendorf"}, (("van_visser", x, y - 30), ("mctoadery", x, y + 30))
    )
    camera.scene = scene
    reading = detect(camera.read(), camera.calibration, tokens=False).rings
    assert sorted(reading.crowded[1]) == ["mctoadery", "van_visser"]
    assert reading.seats[1] == reading.crowded[1][0]
    assert reading.to_json()["crowded"] == {"1": reading.crowded[1]}
    snapshots = {o.seat: o.tags for o in observations(reading, 1.0)}
    assert snapshots[1] == {ring_uid("van_visser"), ring_uid("mctoadery")}
    assert snapshots[0] == {ring_uid("araneros")} and snapshots[3] == frozenset()
