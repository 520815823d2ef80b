"""Whatever the readers report, the tracker answers with events or a typed error, never a crash,
and its state stays a table: each goblet on at most one seat, tokens in at most one goblet."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import MalformedInput
from companion.core.games.goblets.tags import TagRegistry
from companion.core.games.goblets.tracking import Tracker, TrackerConfig
from companion.core.observations import Observation

RINGS = {f"04000{i}": f"g{i}" for i in range(5)}
TOKENS = {f"04100{i}": kind for i, kind in enumerate(["wine", "poison", "antidote"] * 3)}
REGISTRY = TagRegistry.from_json(
    {
        "tags": {
            **{uid: {"kind": "ring", "goblet": g} for uid, g in RINGS.items()},
            **{uid: {"kind": "token", "token": k} for uid, k in TOKENS.items()},
        }
    }
)
UIDS = [*RINGS, *TOKENS, "04FFFF"]

steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("obs"),
            st.floats(0, 0.5),
            st.integers(-1, 4),
            st.lists(st.sampled_from(UIDS), max_size=6),
        ),
        st.tuples(st.just("node"), st.floats(0, 2), st.booleans()),
        st.tuples(
            st.just("fix"), st.floats(0, 2), st.integers(0, 3), st.sampled_from(["g0", "g9"])
        ),
        st.tuples(st.just("empty"), st.floats(0, 2)),
        st.tuples(st.just("advance"), st.floats(0, 20)),
    ),
    max_size=300,
)


@settings(max_examples=60, deadline=None)
@given(steps)
def test_random_streams_never_crash(program):
    config = TrackerConfig(conflict_after=2.0, settle=0.2)
    tracker = Tracker(REGISTRY, 4, config)
    t = 0.0
    for step in program:
        t += step[1]
        try:
            if step[0] == "obs":
                events = tracker.observe(Observation.of(t, step[2], step[3]))
            elif step[0] == "node":
                events = tracker.node_status("n", step[2], t)
            elif step[0] == "fix":
                events = tracker.fix_layout({step[2]: step[3]}, t)
            elif step[0] == "empty":
                events = tracker.empty_goblets(None, t)
            else:
                events = tracker.advance(t)
        except MalformedInput as error:
            assert step[0] == "obs" and step[2] in (-1, 4) and error.field == "seat"
            continue
        assert all(isinstance(e["event"], str) and e["t"] is not None for e in events)
        state = tracker.state()
        seated = [g for g in state["seats"].values() if g is not None]
        assert len(seated) == len(set(seated))
        owners = {}
        for goblet in state["goblets"]:
            for uid in tracker._contents[goblet]:
                assert uid not in owners
                owners[uid] = goblet
