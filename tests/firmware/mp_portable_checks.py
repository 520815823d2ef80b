"""Runs INSIDE MicroPython (the WebAssembly port): the portable modules' self-tests and the
golden wire vectors through the firmware's encoder (``fw_vectors.py``, mounted at /sim).
Prints one line per check group."""

import json
import sys

import cbwire
import seats
from fw_vectors import encode_mqtt, encode_serial

print("impl", sys.implementation.name)
print("selftest cbwire", cbwire.self_test())
print("selftest seats", seats.self_test())

with open("/vectors.json") as f:
    vectors = json.load(f)

passed = 0
for v in vectors:
    if v["kind"] == "serial" and not v.get("stream"):
        got = encode_serial(v["fields"]).hex()
        if got != v["hex"]:
            raise AssertionError(v["name"] + ": " + got)
        passed += 1
    elif v["kind"] == "mqtt" and "error" not in v:
        topic, payload = encode_mqtt(v["fields"])
        if topic != v["topic"] or payload != v["payload"]:
            raise AssertionError(v["name"] + ": " + topic + " " + payload)
        passed += 1
print("vectors", passed)
