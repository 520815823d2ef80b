"""The wire codec against the golden vectors (byte for byte) and against hostile input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import MalformedInput
from companion.core.observations import Observation
from companion.links import wire
from companion.links.wire import FrameDecoder, Heartbeat, Hello, Snapshot

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "wire_vectors.json").read_text()
)
SINGLE = [v for v in VECTORS if v["kind"] == "serial" and not v.get("stream")]
STREAMS = [v for v in VECTORS if v["kind"] == "serial" and v.get("stream")]
MQTT_GOOD = [v for v in VECTORS if v["kind"] == "mqtt" and "error" not in v]
MQTT_BAD = [v for v in VECTORS if v["kind"] == "mqtt" and "error" in v]


def by_name(vectors):
    return pytest.mark.parametrize("vector", vectors, ids=[v["name"] for v in vectors])


def frame_fields(frame):
    return {"frame_seq": frame.seq, **wire.to_fields(frame.record)}


def test_crc_check_value():
    assert wire.crc16_ccitt_false(b"123456789") == 0x29B1


def test_hand_built_frame_matches_codec():
    # Built from the spec by hand, independent of the encoder: HEARTBEAT uptime 1000, frames 42.
    body = bytes([8, 255, 0x03]) + (1000).to_bytes(4, "big") + (42).to_bytes(4, "big")
    frame = b"\xcb\x42" + body + wire.crc16_ccitt_false(body).to_bytes(2, "big")
    assert wire.encode_frame(Heartbeat(uptime_ms=1000, frames=42), 255) == frame
    assert [v["hex"] for v in SINGLE if v["name"] == "heartbeat"] == [frame.hex()]


def test_vectors_cover_every_type_and_failure():
    kinds = {v["fields"]["type"] for v in SINGLE}
    assert kinds == {"hello", "snapshot", "heartbeat", "log", "reader_fault"}
    assert len(STREAMS) >= 6 and len(MQTT_BAD) >= 5


@by_name(SINGLE)
def test_serial_vector_encodes_byte_for_byte(vector):
    fields = dict(vector["fields"])
    seq = fields.pop("frame_seq")
    assert wire.encode_frame(wire.from_fields(fields), seq).hex() == vector["hex"]


@by_name(SINGLE)
def test_serial_vector_decodes(vector):
    frame = wire.decode_frame(bytes.fromhex(vector["hex"]))
    assert frame_fields(frame) == vector["fields"]


@by_name(STREAMS)
def test_serial_stream_vector_decodes(vector):
    decoder = FrameDecoder()
    frames = decoder.feed(bytes.fromhex(vector["hex"]))
    expected = vector["fields"]
    assert [frame_fields(f) for f in frames] == expected["frames"]
    stats = decoder.stats
    got = {
        "crc_errors": stats.crc_errors,
        "dropped_bytes": stats.dropped_bytes,
        "lost_frames": stats.lost_frames,
        "malformed": stats.malformed,
        "pending_bytes": len(decoder.buffer),
    }
    assert got == expected["stats"]


@by_name(STREAMS)
def test_stream_vector_decodes_the_same_byte_by_byte(vector):
    decoder = FrameDecoder()
    frames = []
    for byte in bytes.fromhex(vector["hex"]):
        frames += decoder.feed(bytes([byte]))
    assert [frame_fields(f) for f in frames] == vector["fields"]["frames"]


@by_name(MQTT_GOOD)
def test_mqtt_vector_encodes_byte_for_byte(vector):
    pub = wire.encode_mqtt(wire.from_fields(vector["fields"]))
    assert (pub.topic, pub.payload.decode(), pub.qos, pub.retain) == (
        vector["topic"],
        vector["payload"],
        vector["qos"],
        vector["retain"],
    )


@by_name(MQTT_GOOD)
def test_mqtt_vector_decodes(vector):
    record = wire.decode_mqtt(vector["topic"], vector["payload"].encode())
    assert wire.to_fields(record) == vector["fields"]


@by_name(MQTT_BAD)
def test_mqtt_bad_vector_names_the_field(vector):
    with pytest.raises(MalformedInput) as error:
        wire.decode_mqtt(vector["topic"], vector["payload"].encode())
    assert error.value.field == vector["error"]["field"]


def test_truncated_frame_blocking_good_frames_is_released_by_expire():
    good = wire.encode_frame(Heartbeat(uptime_ms=1, frames=1), 1)
    # A header claiming 200 bytes, then one good frame and silence: the good frame is held back
    # until the link declares the partial frame stale.
    decoder = FrameDecoder()
    assert decoder.feed(b"\xcb\x42\xc8\x00\x02" + good) == []
    frames = decoder.expire()
    assert [f.record for f in frames] == [Heartbeat(uptime_ms=1, frames=1)]
    assert decoder.buffer == bytearray()


def test_decode_frame_rejects_damage_with_field():
    frame = bytearray(wire.encode_frame(Hello(node="n1", fw="1", seats=(0,)), 0))
    for damaged, field in [
        (frame[:-1], "len"),
        (b"\x00" + frame[1:], "sync"),
        (frame[:-1] + bytes([frame[-1] ^ 1]), "crc"),
    ]:
        with pytest.raises(MalformedInput) as error:
            wire.decode_frame(bytes(damaged))
        assert error.value.field == field


@pytest.mark.parametrize(
    ("record", "field"),
    [
        (Snapshot(seat=256, seq=0, t_ms=0, tags=()), "seat"),
        (Snapshot(seat=0, seq=70000, t_ms=0, tags=()), "seq"),
        (Snapshot(seat=0, seq=0, t_ms=0, tags=("04A1",)), "tags"),
        (Snapshot(seat=0, seq=0, t_ms=0, tags=tuple(f"{i:014X}" for i in range(30))), "payload"),
        (Hello(node="bad/id", fw="1", seats=(0,)), "node"),
        (Hello(node="n1", fw="1", seats=()), "seats"),
        (Hello(node="n1", fw="1", seats=tuple(range(250))), "payload"),
    ],
)
def test_encoding_out_of_range_is_a_typed_error(record, field):
    with pytest.raises(MalformedInput) as error:
        wire.encode_frame(record, 0)
    assert error.value.field == field


def test_snapshot_observation_round_trip():
    obs = Observation.of(12.5, 3, ["04a1b2c3d4e5f6", "DEADBEEF"], seq=9, node="n1")
    snap = Snapshot.from_observation(obs, t_ms=777)
    frame = wire.decode_frame(wire.encode_frame(snap, 0))
    assert frame.record.to_observation(12.5, node="n1") == obs
    decoded = wire.decode_mqtt(*_pub(snap))
    assert decoded.to_observation(12.5) == obs


def _pub(record):
    pub = wire.encode_mqtt(record)
    return pub.topic, pub.payload


uids = st.sampled_from([4, 7, 8, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
snapshots = st.builds(
    Snapshot,
    seat=st.integers(0, 255),
    seq=st.integers(0, 0xFFFF),
    t_ms=st.integers(0, 0xFFFFFFFF),
    tags=st.sets(uids.map(lambda b: b.hex().upper()), max_size=20).map(tuple),
)


@settings(max_examples=150, deadline=None)
@given(snapshots, st.integers(0, 255))
def test_any_snapshot_round_trips(snap, seq):
    frame = wire.decode_frame(wire.encode_frame(snap, seq))
    assert frame == wire.Frame(seq=seq, record=snap)


@settings(max_examples=150, deadline=None)
@given(st.lists(snapshots, min_size=1, max_size=6), st.binary(max_size=60), st.integers(0, 2**32))
def test_garbage_between_frames_never_loses_a_complete_frame(snaps, garbage, seed):
    # Garbage without the sync pair cannot start a false frame, so every real frame survives,
    # however the stream is cut into reads.
    garbage = garbage.replace(b"\xcb", b"\x00")
    stream = b"".join(garbage + wire.encode_frame(s, i) for i, s in enumerate(snaps))
    rng = random.Random(seed)
    decoder, frames, pos = FrameDecoder(), [], 0
    while pos < len(stream):
        step = rng.randint(1, 40)
        frames += decoder.feed(stream[pos : pos + step])
        pos += step
    assert [f.record for f in frames] == snaps
    assert decoder.stats.lost_frames == 0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_crash_the_decoder(data):
    decoder = FrameDecoder()
    frames = decoder.feed(data) + decoder.expire()
    assert all(isinstance(f, wire.Frame) for f in frames)
    assert len(decoder.buffer) <= len(data)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30), st.binary(max_size=120))
def test_arbitrary_mqtt_input_is_decoded_or_a_typed_error(leaf, payload):
    for topic in (f"cupbearer/v1/seat/{leaf}/snapshot", f"cupbearer/v1/node/n1/{leaf}"):
        try:
            record = wire.decode_mqtt(topic, payload)
        except MalformedInput as error:
            assert error.field
        else:
            assert wire.to_fields(record)["type"]
