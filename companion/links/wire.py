"""The wire format between reader nodes and the companion: serial frames and MQTT payloads.

One documented, versioned format (DESIGN.md principle 8, ``docs/protocol.md``) carries five
records: :class:`Hello`, :class:`Snapshot`, :class:`Heartbeat`, :class:`Log` and
:class:`ReaderFault`. Over USB serial each record travels in a frame::

    SYNC0=0xCB SYNC1=0x42 | LEN u8 | SEQ u8 | TYPE u8 | PAYLOAD (LEN bytes) | CRC16 (big-endian)

with CRC-16/CCITT-FALSE over LEN..PAYLOAD; :class:`FrameDecoder` hunts for the sync bytes and, on a
bad CRC or an impossible LEN, drops one byte and hunts again, so garbage and truncated frames cost
only themselves. Over MQTT each record is compact, key-sorted JSON on its own topic under
``cupbearer/v1`` (:func:`encode_mqtt`, :func:`decode_mqtt`). Golden byte vectors live in
``tests/fixtures/wire_vectors.json`` and are shared with the firmware tests.

Every decoding failure raises :class:`~companion.core.errors.MalformedInput` naming the field.

This module is the format's one front door; its parts, one idea each: the records and their
checks (:mod:`.records`), the serial payloads (:mod:`.payloads`), the serial framing and the
streaming decoder (:mod:`.frames`), and the MQTT topics and JSON payloads (:mod:`.mqtt_codec`).
"""

from companion.links.frames import (
    HEADER_LEN,
    OVERHEAD,
    SEQ_WINDOW,
    SYNC,
    DecoderStats,
    FrameDecoder,
    crc16_ccitt_false,
    decode_frame,
    encode_frame,
)
from companion.links.mqtt_codec import (
    MAX_MQTT_PAYLOAD,
    TOPIC_PREFIX,
    Publication,
    compact_json,
    decode_mqtt,
    encode_mqtt,
    node_topic,
    seat_topic,
)
from companion.links.payloads import (
    MAX_PAYLOAD,
    TYPE_HEARTBEAT,
    TYPE_HELLO,
    TYPE_LOG,
    TYPE_READER_FAULT,
    TYPE_SNAPSHOT,
    decode_payload,
    encode_payload,
)
from companion.links.records import (
    PROTO_VERSION,
    Frame,
    Heartbeat,
    Hello,
    Log,
    ReaderFault,
    Record,
    Snapshot,
    Status,
    Unknown,
    from_fields,
    to_fields,
)

__all__ = [
    "HEADER_LEN",
    "MAX_MQTT_PAYLOAD",
    "MAX_PAYLOAD",
    "OVERHEAD",
    "PROTO_VERSION",
    "SEQ_WINDOW",
    "SYNC",
    "TOPIC_PREFIX",
    "TYPE_HEARTBEAT",
    "TYPE_HELLO",
    "TYPE_LOG",
    "TYPE_READER_FAULT",
    "TYPE_SNAPSHOT",
    "DecoderStats",
    "Frame",
    "FrameDecoder",
    "Heartbeat",
    "Hello",
    "Log",
    "Publication",
    "ReaderFault",
    "Record",
    "Snapshot",
    "Status",
    "Unknown",
    "compact_json",
    "crc16_ccitt_false",
    "decode_frame",
    "decode_mqtt",
    "decode_payload",
    "encode_frame",
    "encode_mqtt",
    "encode_payload",
    "from_fields",
    "node_topic",
    "seat_topic",
    "to_fields",
]
