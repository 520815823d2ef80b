"""Runs INSIDE MicroPython (the WebAssembly port): the portable modules' self-tests and the
golden wire vectors through the firmware's encoder. Prints one line per check group."""

import json
import sys

import cbwire
import seats

print("impl", sys.implementation.name)
print("selftest cbwire", cbwire.self_test())
print("selftest seats", seats.self_test())

with open("/vectors.json") as f:
    vectors = json.load(f)


def uids(tags):
    return [bytes.fromhex(t) for t in tags]


def serial(f):
    kind = f["type"]
    if kind == "hello":
        p, code = cbwire.hello_payload(f["node"], f["fw"], f["seats"]), cbwire.HELLO
    elif kind == "snapshot":
        p = cbwire.snapshot_payload(f["seat"], f["seq"], f["t_ms"], uids(f["tags"]))
        code = cbwire.SNAPSHOT
    elif kind == "heartbeat":
        p, code = cbwire.heartbeat_payload(f["uptime_ms"], f["frames"]), cbwire.HEARTBEAT
    elif kind == "log":
        p, code = cbwire.log_payload(f["level"], f["text"]), cbwire.LOG
    else:
        p, code = cbwire.fault_payload(f["seat"], f["code"]), cbwire.READER_FAULT
    return cbwire.frame(f["frame_seq"], code, p)


def mqtt(f):
    kind, node = f["type"], f["node"]
    if kind == "status":
        return cbwire.topic_status(node), "online" if f["online"] else "offline"
    if kind == "hello":
        return cbwire.topic_hello(node), cbwire.hello_json(node, f["fw"], f["seats"])
    if kind == "snapshot":
        s = cbwire.snapshot_json(node, f["seat"], f["seq"], f["t_ms"], uids(f["tags"]))
        return cbwire.topic_snapshot(f["seat"]), s
    if kind == "heartbeat":
        return cbwire.topic_heartbeat(node), cbwire.heartbeat_json(f["frames"], f["uptime_ms"])
    if kind == "reader_fault":
        return cbwire.topic_fault(node), cbwire.fault_json(f["seat"], f["code"])
    return cbwire.topic_log(node), cbwire.log_json(f["level"], f["text"])


passed = 0
for v in vectors:
    if v["kind"] == "serial" and not v.get("stream"):
        got = serial(v["fields"]).hex()
        if got != v["hex"]:
            raise AssertionError(v["name"] + ": " + got)
        passed += 1
    elif v["kind"] == "mqtt" and "error" not in v:
        topic, payload = mqtt(v["fields"])
        if topic != v["topic"] or payload != v["payload"]:
            raise AssertionError(v["name"] + ": " + topic + " " + payload)
        passed += 1
print("vectors", passed)
