"""The node's configuration (``config.json`` on the board): checked, with the field named.

Unknown keys are an error, not a silent default: a typo in a pin name must not boot a node that
reads the wrong seat. ``load(text)`` returns the checked dict with defaults filled in.

``rate_hz`` (default 10) is how often each seat is read and reported: every reading becomes one
snapshot (docs/protocol.md). ``poll_ms`` is the longest the loop sleeps while no seat is due.
"""

import json

READER_TYPES = ("mfrc522", "pn5180")
TRANSPORTS = ("mqtt", "serial")
_NODE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
REQUIRED = "<required>"

_TOP = {
    "node_id": REQUIRED,
    "transport": "serial",
    "spi": REQUIRED,
    "readers": REQUIRED,
    "seats": REQUIRED,
    "poll_ms": 20,
    "rate_hz": 10,
    "watchdog_ms": 30000,
    "wifi": None,
    "mqtt": None,
}
_SPI = {"id": 1, "baudrate": 4000000, "sck": REQUIRED, "mosi": REQUIRED, "miso": REQUIRED}
_READER = {"type": REQUIRED, "cs": REQUIRED, "busy": None, "rst": None}
_SEAT = {"seat": REQUIRED, "reader": REQUIRED}
# The antenna-multiplexer variant (one reader switched between antennas) is gone: its switch
# (ADG904, a 1.65-2.75 V part) cannot carry a PN5180's 5 V transmitter (hardware/README.md).
_MUX_DROPPED = (
    "the antenna-mux variant was dropped: its RF switch cannot carry a PN5180 transmitter, so "
    "give each seat its own reader (hardware/README.md, Node topology); delete this key"
)
# Keys of firmware 1.0 that are gone: named, so an old config fails with the reason.
_REMOVED = {
    "debounce": "removed in firmware 1.1: every reading is sent raw and the companion's tracker "
    "debounces (docs/protocol.md); delete this key",
    "refresh_ms": "removed in firmware 1.1: every reading is sent (rate_hz), so no refresh is "
    "needed; delete this key",
    "mux": _MUX_DROPPED,
}
_WIFI = {"ssid": REQUIRED, "password": ""}
_MQTT = {"broker": REQUIRED, "port": 1883, "user": REQUIRED, "password": REQUIRED, "keepalive": 30}


class ConfigError(ValueError):
    """A bad configuration value; ``field`` is its dotted path (``readers.r0.cs``)."""

    def __init__(self, field, message):
        super().__init__(field + ": " + message)
        self.field = field


def _section(path, value, spec):
    if not isinstance(value, dict):
        raise ConfigError(path, "must be an object")
    for key in value:
        if key not in spec:
            raise ConfigError(path + "." + key if path else key, "unknown key")
    out = {}
    for key, default in spec.items():
        field = path + "." + key if path else key
        if key in value:
            out[key] = value[key]
        elif default is REQUIRED:
            raise ConfigError(field, "missing")
        else:
            out[key] = default
    return out


def _int(field, value, low, high):
    if not isinstance(value, int) or isinstance(value, bool) or value < low or value > high:
        raise ConfigError(field, "must be an integer %d..%d" % (low, high))
    return value


def _str(field, value, allow_empty=False):
    if not isinstance(value, str) or (not value and not allow_empty):
        raise ConfigError(field, "must be a non-empty string")
    return value


def check(raw):
    """Validate a parsed config dict; returns it with defaults filled in."""
    if isinstance(raw, dict):
        for key in _REMOVED:
            if key in raw:
                raise ConfigError(key, _REMOVED[key])
    cfg = _section("", raw, _TOP)
    node = _str("node_id", cfg["node_id"])
    if len(node) > 32 or any(ch not in _NODE_CHARS for ch in node):
        raise ConfigError("node_id", "1..32 of A-Z a-z 0-9 _ - (it is the MQTT user name)")
    if cfg["transport"] not in TRANSPORTS:
        raise ConfigError("transport", "must be one of " + ", ".join(TRANSPORTS))
    spi = _section("spi", cfg["spi"], _SPI)
    for key in ("sck", "mosi", "miso"):
        _int("spi." + key, spi[key], 0, 63)
    _int("spi.id", spi["id"], 0, 3)
    _int("spi.baudrate", spi["baudrate"], 100000, 10000000)
    cfg["spi"] = spi
    if not isinstance(cfg["readers"], dict) or not cfg["readers"]:
        raise ConfigError("readers", "must name at least one reader")
    readers = {}
    used = {spi["sck"]: "spi.sck", spi["mosi"]: "spi.mosi", spi["miso"]: "spi.miso"}
    for name, value in cfg["readers"].items():
        path = "readers." + name
        reader = _section(path, value, _READER)
        if reader["type"] not in READER_TYPES:
            raise ConfigError(path + ".type", "must be one of " + ", ".join(READER_TYPES))
        if reader["type"] == "pn5180" and reader["busy"] is None:
            raise ConfigError(path + ".busy", "a PN5180 needs its BUSY pin")
        for key in ("cs", "busy"):
            if reader[key] is not None:
                pin = _int(path + "." + key, reader[key], 0, 63)
                if pin in used:
                    raise ConfigError(
                        path + "." + key, "pin %d already used by %s" % (pin, used[pin])
                    )
                used[pin] = path + "." + key
        if reader["rst"] is not None:
            # Each reader's own line: a PN5180 driver pulses it in init(), which would reset
            # every other reader sharing it.
            pin = _int(path + ".rst", reader["rst"], 0, 63)
            if pin in used:
                raise ConfigError(path + ".rst", "pin %d already used by %s" % (pin, used[pin]))
            used[pin] = path + ".rst"
        readers[name] = reader
    cfg["readers"] = readers
    if not isinstance(cfg["seats"], list) or not cfg["seats"]:
        raise ConfigError("seats", "must list at least one seat")
    seats, seen = [], set()
    for i, value in enumerate(cfg["seats"]):
        path = "seats[%d]" % i
        if isinstance(value, dict) and "antenna" in value:
            raise ConfigError(path + ".antenna", _MUX_DROPPED)
        seat = _section(path, value, _SEAT)
        index = _int(path + ".seat", seat["seat"], 0, 15)  # the protocol's seats: 0..15
        if index in seen:
            raise ConfigError(path + ".seat", "seat %d listed twice" % index)
        seen.add(index)
        if seat["reader"] not in readers:
            raise ConfigError(path + ".reader", "no reader named %r" % (seat["reader"],))
        seats.append(seat)
    cfg["seats"] = seats
    _int("poll_ms", cfg["poll_ms"], 0, 10000)
    # At least 1 Hz keeps the protocol's floor (a snapshot of every seat at least every 2 s);
    # above 50 Hz no reader finishes an inventory in time anyway.
    _int("rate_hz", cfg["rate_hz"], 1, 50)
    _int("watchdog_ms", cfg["watchdog_ms"], 1000, 60000)
    if cfg["wifi"] is not None:
        wifi = _section("wifi", cfg["wifi"], _WIFI)
        _str("wifi.ssid", wifi["ssid"])
        _str("wifi.password", wifi["password"], allow_empty=True)
        cfg["wifi"] = wifi
    if cfg["transport"] == "mqtt":
        if cfg["mqtt"] is None:
            raise ConfigError("mqtt", "missing (transport is mqtt)")
        mqtt = _section("mqtt", cfg["mqtt"], _MQTT)
        _str("mqtt.broker", mqtt["broker"])
        _int("mqtt.port", mqtt["port"], 1, 65535)
        if _str("mqtt.user", mqtt["user"]) != node:
            raise ConfigError("mqtt.user", "must equal node_id (the broker's ACL keys on it)")
        _str("mqtt.password", mqtt["password"])
        _int("mqtt.keepalive", mqtt["keepalive"], 5, 600)
        cfg["mqtt"] = mqtt
    return cfg


def load(text):
    """Parse and check the JSON text of a config file."""
    try:
        raw = json.loads(text)
    except ValueError as err:
        raise ConfigError("config.json", "not JSON: %s" % err) from None
    return check(raw)
