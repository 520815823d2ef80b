"""micropython-lib's real ``umqtt.simple`` (vendored in ``vendor/umqtt/``) run under CPython.

The client is loaded unmodified; only the two MicroPython modules it imports are swapped for
CPython stand-ins that behave as MicroPython's do, so the node's real client talks to a real
mosquitto:

- ``socket``: MicroPython's socket has ``write(buf, n)`` and ``read(n)`` (a stream: a blocking
  ``read(n)`` returns n bytes, fewer only at EOF; a non-blocking one returns None when nothing is
  waiting), which CPython's lacks. :class:`MpSocket` gives CPython's socket those calls and taps
  every byte written, so a test can read each PUBLISH's packet identifier off the wire.
- ``struct``: MicroPython's ``struct.pack_into("!H", buf, 0, 65536)`` stores the low 16 bits
  (0), no range check; CPython raises ``struct.error``. Checked on MicroPython 1.27 (the WebAssembly
  port in ``firmware/node_modules``): ``pack_into`` of 65536 gives ``b"\\x00\\x00"`` and
  ``pack("!H", 65537)`` gives ``b"\\x00\\x01"``. :data:`mp_struct` masks the same way, so the
  65,536th QoS 1 publish goes out with packet id 0 here exactly as on a board.
"""

import importlib.util
import socket as _socket
import struct as _struct
import types
from pathlib import Path

VENDOR = Path(__file__).resolve().parent / "vendor" / "umqtt" / "simple.py"


def _mask(fmt, values):
    # Only the unsigned formats umqtt.simple uses ("!H"): wrap as MicroPython does.
    if fmt.strip("!<>=@") == "H":
        return [v & 0xFFFF for v in values]
    return list(values)


mp_struct = types.SimpleNamespace(
    pack=lambda fmt, *v: _struct.pack(fmt, *_mask(fmt, v)),
    pack_into=lambda fmt, buf, off, *v: _struct.pack_into(fmt, buf, off, *_mask(fmt, v)),
    unpack=_struct.unpack,
)


class WireTap:
    """Parses the bytes a client writes into MQTT control packets (MQTT 3.1.1 section 2)."""

    def __init__(self):
        self.buffer = bytearray()
        self.publishes = {0: 0, 1: 0}  # QoS -> PUBLISH packets written
        self.pids = []  # packet identifier of every QoS > 0 PUBLISH, in order

    def feed(self, data):
        """Add written bytes; parse every complete packet."""
        self.buffer += data
        while len(self.buffer) >= 2:
            # Remaining Length: 1-4 bytes, 7 bits each, high bit = more (section 2.2.3).
            length, shift, i = 0, 0, 1
            while True:
                if i >= len(self.buffer):
                    return
                byte = self.buffer[i]
                length |= (byte & 0x7F) << shift
                shift += 7
                i += 1
                if not byte & 0x80:
                    break
            if len(self.buffer) < i + length:
                return
            header, body = self.buffer[0], self.buffer[i : i + length]
            del self.buffer[: i + length]
            if header >> 4 == 3:  # PUBLISH (section 3.3): topic, then the id when QoS > 0
                qos = (header >> 1) & 3
                self.publishes[qos] = self.publishes.get(qos, 0) + 1
                if qos:
                    topic_len = body[0] << 8 | body[1]
                    self.pids.append(body[2 + topic_len] << 8 | body[3 + topic_len])


class MpSocket:
    """A CPython socket with MicroPython's stream calls (``write``/``read``), tapped."""

    def __init__(self, tap):
        self.sock = _socket.socket()
        # umqtt.simple writes one packet in four or five small writes; with Nagle on, the last
        # ones wait for the broker's delayed ACK (40 ms on Linux) and the test would measure
        # TCP timers, not MQTT.
        self.sock.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
        self.tap = tap
        self.blocking = True

    def settimeout(self, timeout):
        """As socket.settimeout."""
        self.sock.settimeout(timeout)
        self.blocking = timeout is None or timeout > 0

    def setblocking(self, flag):
        """As socket.setblocking."""
        self.sock.setblocking(flag)
        self.blocking = bool(flag)

    def connect(self, addr):
        """As socket.connect."""
        self.sock.connect(addr)

    def write(self, buf, n=None):
        """Write ``buf`` (its first ``n`` bytes); returns the count."""
        if isinstance(buf, str):  # MicroPython's str has the buffer protocol (its UTF-8 bytes)
            buf = buf.encode()
        data = bytes(buf if n is None else memoryview(buf)[:n])
        self.sock.sendall(data)
        self.tap.feed(data)
        return len(data)

    def read(self, n):
        """n bytes (fewer only at EOF); None when non-blocking and nothing is waiting."""
        out = bytearray()
        while len(out) < n:
            try:
                chunk = self.sock.recv(n - len(out))
            except BlockingIOError:
                if not out:
                    return None
                self.sock.setblocking(True)  # a packet has begun: the rest is on its way
                continue
            if not chunk:
                break
            out += chunk
        return bytes(out)

    def close(self):
        """As socket.close."""
        self.sock.close()


def load_simple(tap):
    """A fresh copy of the vendored ``umqtt.simple`` wired to MicroPython-like socket/struct."""
    spec = importlib.util.spec_from_file_location("vendored_umqtt_simple", VENDOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.socket = types.SimpleNamespace(
        socket=lambda *a: MpSocket(tap), getaddrinfo=_socket.getaddrinfo
    )
    module.struct = mp_struct
    return module
