"""Cupbearer wire format, the node's side: serial frames and MQTT JSON payloads.

MicroPython and CPython both run this module. It only ENCODES; the companion decodes
(companion/links/wire.py). The layout is the one agreed in docs/protocol.md:

    SYNC0=0xCB SYNC1=0x42 | LEN | SEQ | TYPE | PAYLOAD | CRC-16/CCITT-FALSE (big-endian)

JSON is built by string formatting with the keys in sorted order and no spaces, so it is the
same bytes as the companion's ``json.dumps(..., sort_keys=True, separators=(",", ":"))``.
"""

import struct

try:
    from micropython import const
except ImportError:  # CPython (tests, the Pi adapters)

    def const(value):
        """Stand-in for MicroPython's compile-time constant marker."""
        return value


PROTO_VERSION = const(1)
SYNC0 = const(0xCB)
SYNC1 = const(0x42)
MAX_PAYLOAD = const(240)

HELLO = const(0x01)
SNAPSHOT = const(0x02)
HEARTBEAT = const(0x03)
LOG = const(0x04)
READER_FAULT = const(0x05)

FAULT_NO_CHIP = const(1)
FAULT_VERSION = const(2)
FAULT_TIMEOUT = const(3)

TOPIC_PREFIX = "cupbearer/v1"


class WireError(ValueError):
    """A value that cannot be put on the wire; ``field`` names the culprit."""

    def __init__(self, field, message):
        super().__init__(field + ": " + message)
        self.field = field


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection); check value 0x29B1."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _u8(field, value):
    if not isinstance(value, int) or value < 0 or value > 0xFF:
        raise WireError(field, "must be an integer 0..255")
    return value


def _ascii(field, text, limit=255):
    if not isinstance(text, str):
        raise WireError(field, "must be a string")
    raw = text.encode()
    if len(raw) > limit or len(raw) != len(text):
        raise WireError(field, "must be ASCII and at most %d bytes" % limit)
    return raw


def _uid(field, uid):
    if not isinstance(uid, (bytes, bytearray)) or len(uid) not in (4, 7, 8, 10):
        raise WireError(field, "a UID is 4, 7, 10 (ISO 14443A) or 8 (ISO 15693) bytes")
    return bytes(uid)


def sorted_uids(uids):
    """The tags of a snapshot as raw bytes, validated and sorted so encodings are deterministic."""
    return sorted(_uid("tags", u) for u in uids)


def frame(seq, frame_type, payload):
    """One serial frame: sync, LEN, SEQ (mod 256), TYPE, PAYLOAD, CRC over LEN..PAYLOAD."""
    if len(payload) > MAX_PAYLOAD:
        raise WireError("payload", "longer than %d bytes" % MAX_PAYLOAD)
    body = bytes((len(payload), seq & 0xFF, _u8("type", frame_type))) + bytes(payload)
    return bytes((SYNC0, SYNC1)) + body + struct.pack(">H", crc16(body))


def hello_payload(node_id, fw_version, seats):
    """HELLO: proto | node id | firmware version | the seat indices this node reads."""
    node = _ascii("node", node_id)
    fw = _ascii("fw", fw_version)
    out = bytes((PROTO_VERSION, len(node))) + node + bytes((len(fw),)) + fw
    return out + bytes([len(seats)] + [_u8("seats", s) for s in seats])


def snapshot_payload(seat, snap_seq, t_ms, uids):
    """SNAPSHOT: seat | snap_seq u16 | t_ms u32 | n_tags | (uid_len | uid) * n, sorted by bytes."""
    tags = sorted_uids(uids)
    out = struct.pack(">BHIB", _u8("seat", seat), snap_seq & 0xFFFF, t_ms & 0xFFFFFFFF, len(tags))
    for uid in tags:
        out += bytes((len(uid),)) + uid
    return out


def heartbeat_payload(uptime_ms, frames_sent):
    """HEARTBEAT: uptime_ms u32 | frames_sent u32 (both wrap)."""
    return struct.pack(">II", uptime_ms & 0xFFFFFFFF, frames_sent & 0xFFFFFFFF)


def log_payload(level, text):
    """LOG: level (0 debug .. 3 error) | UTF-8 text, cut to fit one frame."""
    if level not in (0, 1, 2, 3):
        raise WireError("level", "must be 0..3")
    raw = text.encode()
    end = min(len(raw), MAX_PAYLOAD - 1)
    while end < len(raw) and raw[end] & 0xC0 == 0x80:
        end -= 1  # never cut a UTF-8 sequence: the companion decodes the text strictly
    return bytes((level,)) + raw[:end]


def fault_payload(seat, code):
    """READER_FAULT: seat | code (1 no chip answer, 2 version mismatch, 3 timeout)."""
    if code not in (FAULT_NO_CHIP, FAULT_VERSION, FAULT_TIMEOUT):
        raise WireError("code", "must be 1, 2 or 3")
    return bytes((_u8("seat", seat), code))


class FrameWriter:
    """Numbers the frames of one serial link and counts them for the heartbeat."""

    def __init__(self):
        self.seq = 0
        self.frames_sent = 0

    def encode(self, frame_type, payload):
        """The next frame of the link; SEQ advances mod 256."""
        out = frame(self.seq, frame_type, payload)
        self.seq = (self.seq + 1) & 0xFF
        self.frames_sent += 1
        return out


# --- MQTT --------------------------------------------------------------------------------


def uid_hex(uid):
    """Upper-case hex without separators, as the companion spells UIDs."""
    digits = "0123456789ABCDEF"
    return "".join(digits[b >> 4] + digits[b & 15] for b in uid)


_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _json_str(text):
    # Same bytes as Python's json.dumps (ensure_ascii): short escapes, then \uXXXX.
    out = '"'
    for ch in text:
        code = ord(ch)
        if ch == '"' or ch == "\\":
            out += "\\" + ch
        elif ch in _SHORT_ESCAPES:
            out += _SHORT_ESCAPES[ch]
        elif code < 0x20 or 0x7F <= code <= 0xFFFF:
            out += "\\u%04x" % code
        elif code > 0xFFFF:
            code -= 0x10000
            out += "\\u%04x\\u%04x" % (0xD800 | (code >> 10), 0xDC00 | (code & 0x3FF))
        else:
            out += ch
    return out + '"'


def _json_ints(values):
    return "[" + ",".join(str(int(v)) for v in values) + "]"


def topic_status(node_id):
    """Retained availability topic; ``offline`` is the Last Will."""
    return TOPIC_PREFIX + "/node/" + node_id + "/status"


def topic_hello(node_id):
    """Retained hello topic of a node."""
    return TOPIC_PREFIX + "/node/" + node_id + "/hello"


def topic_heartbeat(node_id):
    """Heartbeat topic of a node (QoS 0, not retained)."""
    return TOPIC_PREFIX + "/node/" + node_id + "/heartbeat"


def topic_fault(node_id):
    """Reader fault topic of a node."""
    return TOPIC_PREFIX + "/node/" + node_id + "/fault"


def topic_log(node_id):
    """Log topic of a node."""
    return TOPIC_PREFIX + "/node/" + node_id + "/log"


def topic_snapshot(seat):
    """Retained per-seat snapshot topic."""
    return TOPIC_PREFIX + "/seat/" + str(_u8("seat", seat)) + "/snapshot"


def hello_json(node_id, fw_version, seats):
    """``{"fw":..,"node":..,"proto":1,"seats":[..]}``."""
    _ascii("node", node_id)
    _ascii("fw", fw_version)
    return '{"fw":%s,"node":%s,"proto":%d,"seats":%s}' % (
        _json_str(fw_version),
        _json_str(node_id),
        PROTO_VERSION,
        _json_ints(_u8("seats", s) for s in seats),
    )


def snapshot_json(node_id, seat, snap_seq, t_ms, uids):
    """``{"node":..,"seat":..,"seq":..,"t_ms":..,"tags":[sorted hex]}``: never a delta."""
    tags = ",".join('"' + uid_hex(u) + '"' for u in sorted_uids(uids))
    return '{"node":%s,"seat":%d,"seq":%d,"t_ms":%d,"tags":[%s]}' % (
        _json_str(node_id),
        _u8("seat", seat),
        snap_seq & 0xFFFF,
        t_ms & 0xFFFFFFFF,
        tags,
    )


def heartbeat_json(frames_sent, uptime_ms):
    """``{"frames":n,"uptime_ms":n}``."""
    return '{"frames":%d,"uptime_ms":%d}' % (frames_sent & 0xFFFFFFFF, uptime_ms & 0xFFFFFFFF)


def fault_json(seat, code):
    """``{"code":n,"seat":n}``."""
    fault_payload(seat, code)
    return '{"code":%d,"seat":%d}' % (code, seat)


def log_json(level, text):
    """``{"level":n,"text":".."}``."""
    log_payload(level, text)
    return '{"level":%d,"text":%s}' % (level, _json_str(text))


def self_test():
    """Checks that run on the device and under MicroPython's WebAssembly port; returns a count."""
    assert crc16(b"123456789") == 0x29B1
    assert frame(0, HEARTBEAT, heartbeat_payload(1000, 42))[:5] == b"\xcb\x42\x08\x00\x03"
    assert uid_hex(b"\x04\xa1") == "04A1"
    assert snapshot_json("n", 0, 1, 2, [b"\xe0\x04\x00\x00\x00\x00\x00\x01", b"\x01\x02\x03\x04"])
    try:
        snapshot_payload(0, 0, 0, [b"\x01"])
    except WireError as err:
        assert err.field == "tags"
    else:
        raise AssertionError("short UID accepted")
    return 5
