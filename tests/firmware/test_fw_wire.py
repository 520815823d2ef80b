"""The firmware's wire encoder reproduces the golden vectors byte for byte."""

import json

import cbwire
import pytest
from fw_paths import ROOT
from fw_vectors import encode_mqtt, encode_serial, uids

VECTORS = json.loads((ROOT / "tests" / "fixtures" / "wire_vectors.json").read_text())
SERIAL = [v for v in VECTORS if v["kind"] == "serial" and not v.get("stream")]
MQTT = [v for v in VECTORS if v["kind"] == "mqtt" and "error" not in v]


def test_there_are_vectors_of_every_kind():
    assert {v["fields"]["type"] for v in SERIAL} >= {
        "hello",
        "snapshot",
        "heartbeat",
        "log",
        "reader_fault",
    }
    assert {v["fields"]["type"] for v in MQTT} >= {"status", "hello", "snapshot", "heartbeat"}


@pytest.mark.parametrize("vector", SERIAL, ids=[v["name"] for v in SERIAL])
def test_serial_vector_byte_for_byte(vector):
    assert encode_serial(vector["fields"]).hex() == vector["hex"]


@pytest.mark.parametrize("vector", MQTT, ids=[v["name"] for v in MQTT])
def test_mqtt_vector_byte_for_byte(vector):
    topic, payload = encode_mqtt(vector["fields"])
    assert topic == vector["topic"]
    assert payload == vector["payload"]


def test_crc_check_value():
    assert cbwire.crc16(b"123456789") == 0x29B1


def test_frame_writer_counts_and_wraps_the_sequence():
    writer = cbwire.FrameWriter()
    frames = [writer.encode(cbwire.HEARTBEAT, cbwire.heartbeat_payload(i, i)) for i in range(257)]
    assert frames[255][3] == 255 and frames[256][3] == 0
    assert writer.frames_sent == 257


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: cbwire.snapshot_payload(0, 0, 0, [b"\x01\x02"]), "tags"),
        (lambda: cbwire.snapshot_payload(300, 0, 0, []), "seat"),
        (lambda: cbwire.hello_payload("nöde", "1", [0]), "node"),
        (lambda: cbwire.fault_payload(0, 9), "code"),
        (lambda: cbwire.log_payload(7, "x"), "level"),
        (lambda: cbwire.frame(0, 2, bytes(241)), "payload"),
    ],
)
def test_bad_values_name_their_field(call, field):
    with pytest.raises(cbwire.WireError) as err:
        call()
    assert err.value.field == field


def test_json_strings_escape_like_the_companion():
    text = 'quote " backslash \\ newline \n bell \x07 accent é emoji \U0001f377'
    assert cbwire.log_json(1, text) == json.dumps(
        {"level": 1, "text": text}, sort_keys=True, separators=(",", ":")
    )


def test_self_tests_pass_on_cpython():
    import seats

    assert cbwire.self_test() > 0
    assert seats.self_test() > 0


class _Recorder:
    """A umqtt.simple stand-in recording (topic, payload, retain, qos)."""

    def __init__(self):
        self.sent = []
        self.will = None

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.will = (topic, msg, retain, qos)

    def connect(self, clean_session=True):
        return 0

    def publish(self, topic, msg, retain=False, qos=0):
        self.sent.append((topic, msg, retain, qos))


FLAGGED = [v for v in MQTT if "qos" in v]


@pytest.mark.parametrize("vector", FLAGGED, ids=[v["name"] for v in FLAGGED])
def test_the_mqtt_reporter_publishes_each_vector_with_its_qos_and_retain(vector):
    import report
    from fw_sim_bus import SimClock

    f = vector["fields"]
    client = _Recorder()
    rep = report.MqttReporter(lambda: client, f["node"], "1.0.0", [0], SimClock())
    assert rep.maintain()
    on_connect = list(client.sent)
    kind = f["type"]
    if kind == "status":
        # "online" is the first thing said after connecting; "offline" is the Last Will.
        sent = on_connect[0] if f["online"] else client.will
    else:
        if kind == "hello":
            rep.hello(f["node"], f["fw"], f["seats"])
        elif kind == "snapshot":
            rep.snapshot(f["seat"], f["seq"], f["t_ms"], uids(f["tags"]))
        elif kind == "heartbeat":
            rep.frames_sent = f["frames"] - 1  # the heartbeat counts itself
            rep.heartbeat(f["uptime_ms"])
        elif kind == "reader_fault":
            rep.fault(f["seat"], f["code"])
        elif kind == "log":
            rep.log(f["level"], f["text"])
        sent = client.sent[-1]
    assert sent == (vector["topic"], vector["payload"], vector["retain"], vector["qos"])


def test_a_long_log_line_is_cut_on_a_character_boundary():
    payload = cbwire.log_payload(1, "é" * 200)  # 400 bytes of two-byte characters
    assert len(payload) <= cbwire.MAX_PAYLOAD
    assert payload[1:].decode() == "é" * 119
