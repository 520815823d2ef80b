"""Write ``tests/fixtures/wire_vectors.json``: the golden vectors of the wire format.

Run ``.venv/bin/python scripts/gen_wire_vectors.py`` after a deliberate format change only (with a
new ``proto`` version, see ``docs/protocol.md``); ``tests/links/test_wire.py`` checks the committed
file byte for byte against the codec, and the firmware tests read the same file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.links import wire
from companion.links.wire import (
    FrameDecoder,
    Heartbeat,
    Hello,
    Log,
    ReaderFault,
    Snapshot,
    Status,
)

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "wire_vectors.json"

UID7 = "04A1B2C3D4E5F6"
UID8 = "E004015012345678"
UID4 = "DEADBEEF"
UID10 = "0811223344556677889A"
UID_SYNC = "CB42CB42"  # sync bytes inside a payload must not confuse the decoder

FRAMES = [
    ("hello_n1", 0, Hello(node="n1", fw="1.0.0", seats=(0, 1))),
    ("hello_one_seat", 7, Hello(node="node-kitchen", fw="1.2.3-rc1", seats=(5,))),
    ("snapshot_empty", 1, Snapshot(seat=0, seq=0, t_ms=0, tags=())),
    ("snapshot_two_tags", 2, Snapshot(seat=1, seq=17, t_ms=123456, tags=(UID7, UID8))),
    (
        "snapshot_all_uid_sizes_wrapping_counters",
        3,
        Snapshot(seat=11, seq=65535, t_ms=0xFFFFFFFF, tags=(UID4, UID7, UID8, UID10)),
    ),
    ("snapshot_sync_bytes_in_uid", 4, Snapshot(seat=2, seq=300, t_ms=5000, tags=(UID_SYNC,))),
    ("heartbeat", 255, Heartbeat(uptime_ms=1000, frames=42)),
    ("log_warn", 9, Log(level=2, text="seat 1 reader slow")),
    ("reader_fault_no_chip", 10, ReaderFault(seat=2, code=1)),
    ("reader_fault_timeout", 11, ReaderFault(seat=0, code=3)),
]


def frame_fields(frame: wire.Frame) -> dict:
    """A decoded frame as vector fields: ``frame_seq`` is the link counter SEQ."""
    return {"frame_seq": frame.seq, **wire.to_fields(frame.record)}


def raw_frame(seq: int, ftype: int, payload: bytes) -> bytes:
    """A frame built by hand around any payload (for malformed and unknown-type vectors)."""
    body = bytes([len(payload), seq, ftype]) + payload
    return wire.SYNC + body + wire.crc16_ccitt_false(body).to_bytes(2, "big")


def serial_vectors() -> list[dict]:
    """Single frames (encode and decode) and streams (decode only)."""
    vectors = []
    for name, seq, record in FRAMES:
        vectors.append(
            {
                "name": name,
                "kind": "serial",
                "fields": {"frame_seq": seq, **wire.to_fields(record)},
                "hex": wire.encode_frame(record, seq).hex(),
            }
        )
    snap = wire.encode_frame(Snapshot(seat=1, seq=17, t_ms=123456, tags=(UID7, UID8)), 20)
    beat = wire.encode_frame(Heartbeat(uptime_ms=2000, frames=21), 21)
    snap2 = wire.encode_frame(Snapshot(seat=2, seq=4, t_ms=124000, tags=(UID4,)), 22)
    bad_crc = bytearray(snap)
    bad_crc[12] ^= 0x01
    # A good CRC around a bad payload (a 5-byte UID): skipped whole, the next frame survives.
    bad_uid_len = raw_frame(20, wire.TYPE_SNAPSHOT, bytes([0, 0, 1, 0, 0, 0, 9, 1, 5]) + b"ABCDE")
    unknown = raw_frame(20, 0x7F, bytes([1, 2, 3]))
    streams = [
        ("stream_garbage_before_frame", b"\x00\xff\xcb\x13\xcb\x42\xff\x01\x02" + snap),
        ("stream_truncated_then_frames", snap[:9] + beat + snap2),
        ("stream_bad_crc_then_frame", bytes(bad_crc) + beat),
        ("stream_seq_gap_counts_lost_frames", snap + wire.encode_frame(Heartbeat(3000, 22), 24)),
        ("stream_truncated_at_end_waits", snap + beat[:6]),
        ("stream_malformed_payload_skipped", bad_uid_len + beat),
        ("stream_unknown_type_skipped_over", unknown + beat),
        ("stream_only_garbage", bytes(range(0, 256, 7)) + b"\xcb"),
    ]
    for name, data in streams:
        decoder = FrameDecoder()
        frames = decoder.feed(data)
        stats = decoder.stats
        vectors.append(
            {
                "name": name,
                "kind": "serial",
                "stream": True,
                "fields": {
                    "frames": [frame_fields(f) for f in frames],
                    "stats": {
                        "crc_errors": stats.crc_errors,
                        "dropped_bytes": stats.dropped_bytes,
                        "lost_frames": stats.lost_frames,
                        "malformed": stats.malformed,
                        "pending_bytes": len(decoder.buffer),
                    },
                },
                "hex": data.hex(),
            }
        )
    return vectors


MQTT = [
    ("mqtt_status_online", Status(node="n1", online=True)),
    ("mqtt_status_offline_last_will", Status(node="n1", online=False)),
    ("mqtt_hello", Hello(node="n1", fw="1.0.0", seats=(0, 1))),
    ("mqtt_snapshot", Snapshot(seat=0, seq=17, t_ms=123456, tags=(UID7, UID8), node="n1")),
    ("mqtt_snapshot_empty", Snapshot(seat=3, seq=0, t_ms=0, tags=(), node="n2")),
    ("mqtt_heartbeat", Heartbeat(uptime_ms=61000, frames=75, node="n1")),
    ("mqtt_fault", ReaderFault(seat=0, code=1, node="n1")),
    ("mqtt_log", Log(level=3, text="seat 0: no chip answer", node="n1")),
]

MQTT_BAD = [
    ("mqtt_bad_not_json", "cupbearer/v1/seat/0/snapshot", "{tags", "payload"),
    (
        "mqtt_bad_seat_mismatch",
        "cupbearer/v1/seat/1/snapshot",
        '{"node":"n1","seat":0,"seq":1,"t_ms":1,"tags":[]}',
        "seat",
    ),
    (
        "mqtt_bad_lower_case_uid",
        "cupbearer/v1/seat/0/snapshot",
        '{"node":"n1","seat":0,"seq":1,"t_ms":1,"tags":["04a1b2c3d4e5f6"]}',
        "tags",
    ),
    (
        "mqtt_bad_uid_length",
        "cupbearer/v1/seat/0/snapshot",
        '{"node":"n1","seat":0,"seq":1,"t_ms":1,"tags":["04A1B2"]}',
        "tags",
    ),
    (
        "mqtt_bad_missing_seq",
        "cupbearer/v1/seat/0/snapshot",
        '{"node":"n1","seat":0,"t_ms":1,"tags":[]}',
        "seq",
    ),
    ("mqtt_bad_status", "cupbearer/v1/node/n1/status", "maybe", "status"),
    ("mqtt_bad_topic", "cupbearer/v2/seat/0/snapshot", "{}", "topic"),
]


def mqtt_vectors() -> list[dict]:
    """Good publications (encode and decode) and bad ones with the field the error names."""
    vectors = []
    for name, record in MQTT:
        pub = wire.encode_mqtt(record)
        vectors.append(
            {
                "name": name,
                "kind": "mqtt",
                "fields": wire.to_fields(record),
                "topic": pub.topic,
                "payload": pub.payload.decode(),
                "qos": pub.qos,
                "retain": pub.retain,
            }
        )
    for name, topic, payload, field in MQTT_BAD:
        vectors.append(
            {
                "name": name,
                "kind": "mqtt",
                "fields": {},
                "topic": topic,
                "payload": payload,
                "error": {"field": field},
            }
        )
    return vectors


def main() -> None:
    """Write the vectors file."""
    vectors = serial_vectors() + mqtt_vectors()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(vectors, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(vectors)} vectors to {OUT}")


if __name__ == "__main__":
    main()
