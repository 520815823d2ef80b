"""The wire codec against the golden vectors (byte for byte) and against hostile input."""

from __future__ import annotations

import json
import random
import struct
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


def _crc_by_the_spec(data: bytes) -> int:
    # CRC-16/CCITT-FALSE written out bit by bit (poly 0x1021, init 0xFFFF, no reflection, no
    # xorout), as the firmware computes it: the stdlib's crc_hqx must agree with it.
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


@by_name(SINGLE)
def test_crc_equals_the_bitwise_crc_on_each_golden_frame(vector):
    frame = bytes.fromhex(vector["hex"])
    body = frame[2:-2]
    assert wire.crc16_ccitt_false(body) == _crc_by_the_spec(body)
    if "error" not in vector:
        assert wire.crc16_ccitt_false(body) == int.from_bytes(frame[-2:], "big")


def test_crc_equals_the_bitwise_crc_on_random_bodies():
    rng = random.Random(16)
    for size in range(0, 260, 3):
        body = bytes(rng.randrange(256) for _ in range(size))
        assert wire.crc16_ccitt_false(body) == _crc_by_the_spec(body)


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
        (Hello(node="n1", fw="1", seats=tuple(range(250))), "seats"),  # seats are 0..15
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
    seat=st.integers(0, 15),  # seats are 0..15
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


def _frame(ftype: int, payload: bytes, seq: int = 0) -> bytes:
    """A CRC-valid frame around any payload (to send what the encoder would refuse)."""
    body = bytes([len(payload), seq, ftype]) + payload
    return wire.SYNC + body + wire.crc16_ccitt_false(body).to_bytes(2, "big")


def test_a_frame_cut_by_a_last_byte_0xcb_costs_no_other_frame():
    """The truncated frame borrows the next frame's SYNC0 and its CRC checks: both are kept."""
    snap = Snapshot(seat=1, seq=7, t_ms=1000, tags=("04A1B2C3D4E5F6",))
    seq = next(s for s in range(256) if wire.encode_frame(snap, s)[-1] == 0xCB)
    cut = wire.encode_frame(snap, seq)[:-1]
    after = [Snapshot(seat=2, seq=i, t_ms=i, tags=()) for i in range(3)]
    stream = cut + b"".join(wire.encode_frame(s, (seq + 1 + i) % 256) for i, s in enumerate(after))
    for step in (1, 3, len(stream)):  # however the reads cut it
        decoder, frames = FrameDecoder(), []
        for i in range(0, len(stream), step):
            frames += decoder.feed(stream[i : i + step])
        assert [f.record for f in frames] == [snap, *after]


def test_lost_frames_are_counted_honestly_across_restarts():
    """A node that restarts (HELLO with SEQ 0) and a line that drops frames now and then: the
    count is the frames actually lost, not (delta - 1) mod 256 at every restart."""
    rng = random.Random(4)
    hello = Hello(node="n1", fw="1.0.0", seats=(0, 1))
    stream, lost = b"", 0
    for _boot in range(12):
        seq = 0
        stream += wire.encode_frame(hello, seq)
        for _ in range(rng.randint(20, 300)):
            seq = (seq + 1) % 256
            if rng.random() < 0.05:
                lost += 1  # this frame never arrives
                continue
            stream += wire.encode_frame(Snapshot(seat=0, seq=seq, t_ms=seq, tags=()), seq)
    decoder = FrameDecoder()
    decoder.feed(stream)
    assert decoder.stats.lost_frames == lost and decoder.stats.seq_resets == 11


@pytest.mark.parametrize(
    ("ftype", "payload", "field"),
    [
        (0x02, struct.pack(">BHIB", 255, 0, 0, 0), "seat"),  # seat 255
        (0x01, b"\x01\x02n1\x011\x00", "seats"),  # HELLO with no seats
        (0x01, b"\x01\x02n1\x011\x02\x00\x00", "seats"),  # the same seat twice
        (0x01, b"\x01\x02n1\x00\x01\x00", "fw"),  # empty firmware version
        (0x01, b"\x01\x02n1\xc8" + b"1" * 200 + b"\x01\x00", "fw"),  # 200 characters
        (0x05, b"\x00\x00", "code"),  # fault code 0
        (0x05, b"\x00\x63", "code"),  # fault code 99
    ],
)
def test_the_decoder_refuses_what_the_spec_refuses(ftype, payload, field):
    decoder = FrameDecoder()
    good = wire.encode_frame(Snapshot(seat=0, seq=1, t_ms=0, tags=()), 1)
    frames = decoder.feed(_frame(ftype, payload) + good)
    assert [f.record for f in frames] == [Snapshot(seat=0, seq=1, t_ms=0, tags=())]
    assert decoder.stats.malformed == 1 and decoder.errors[-1].field == field


def test_mqtt_payloads_too_deep_or_too_large_are_malformed_at_once():
    nested = b"[" * 2000 + b"]" * 2000  # under the size limit, deeper than json can follow
    with pytest.raises(MalformedInput, match="JSON"):
        wire.decode_mqtt("cupbearer/v1/node/n1/hello", nested)
    tags = [f"{i:014X}" for i in range(200_000)]
    huge = json.dumps({"node": "n1", "seat": 0, "seq": 0, "t_ms": 0, "tags": tags}).encode()
    with pytest.raises(MalformedInput, match="exceed"):
        wire.decode_mqtt("cupbearer/v1/seat/0/snapshot", huge)
    many = json.dumps({"node": "n1", "seat": 0, "seq": 0, "t_ms": 0, "tags": tags[:65]}).encode()
    with pytest.raises(MalformedInput, match="at most 64"):
        wire.decode_mqtt("cupbearer/v1/seat/0/snapshot", many)
