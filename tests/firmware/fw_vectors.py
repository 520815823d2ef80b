"""The golden wire vectors' fields through the firmware's encoder (``cbwire``), shared by the
CPython tests (``test_fw_wire.py``) and the MicroPython run (``mp_portable_checks.py``): it must
stay plain enough for MicroPython."""

import cbwire


def uids(tags):
    """A vector's tags (hex strings) as the UIDs the readers report."""
    return [bytes.fromhex(t) for t in tags]


def encode_serial(f):
    """The frame the firmware sends for a vector's fields."""
    kind = f["type"]
    if kind == "hello":
        payload = cbwire.hello_payload(f["node"], f["fw"], f["seats"])
        code = cbwire.HELLO
    elif kind == "snapshot":
        payload = cbwire.snapshot_payload(f["seat"], f["seq"], f["t_ms"], uids(f["tags"]))
        code = cbwire.SNAPSHOT
    elif kind == "heartbeat":
        payload = cbwire.heartbeat_payload(f["uptime_ms"], f["frames"])
        code = cbwire.HEARTBEAT
    elif kind == "log":
        payload = cbwire.log_payload(f["level"], f["text"])
        code = cbwire.LOG
    elif kind == "reader_fault":
        payload = cbwire.fault_payload(f["seat"], f["code"])
        code = cbwire.READER_FAULT
    else:
        raise AssertionError("vector type not known to the firmware: " + kind)
    return cbwire.frame(f["frame_seq"], code, payload)


def encode_mqtt(f):
    """(topic, payload) the firmware publishes for a vector's fields."""
    kind, node = f["type"], f["node"]
    if kind == "status":
        return cbwire.topic_status(node), "online" if f["online"] else "offline"
    if kind == "hello":
        return cbwire.topic_hello(node), cbwire.hello_json(node, f["fw"], f["seats"])
    if kind == "snapshot":
        payload = cbwire.snapshot_json(node, f["seat"], f["seq"], f["t_ms"], uids(f["tags"]))
        return cbwire.topic_snapshot(f["seat"]), payload
    if kind == "heartbeat":
        return cbwire.topic_heartbeat(node), cbwire.heartbeat_json(f["frames"], f["uptime_ms"])
    if kind == "reader_fault":
        return cbwire.topic_fault(node), cbwire.fault_json(f["seat"], f["code"])
    if kind == "log":
        return cbwire.topic_log(node), cbwire.log_json(f["level"], f["text"])
    raise AssertionError("vector type not known to the firmware: " + kind)
