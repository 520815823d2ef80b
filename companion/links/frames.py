"""Serial framing: a record's payload in a frame with sync bytes, length, counter and CRC.

::

    SYNC0=0xCB SYNC1=0x42 | LEN u8 | SEQ u8 | TYPE u8 | PAYLOAD (LEN bytes) | CRC16 (big-endian)

with CRC-16/CCITT-FALSE over LEN..PAYLOAD (``docs/protocol.md``, "Serial frames").
:func:`encode_frame` and :func:`decode_frame` make and read one whole frame; :class:`FrameDecoder`
reads a byte stream, hunting for the sync bytes and, on a bad CRC or an impossible LEN, dropping
one byte and hunting again, so garbage and truncated frames cost only themselves. The payloads
inside are :mod:`companion.links.payloads`'.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

from companion.core.errors import MalformedInput
from companion.links.payloads import MAX_PAYLOAD, decode_payload, encode_payload
from companion.links.records import Frame, Hello, Record, Unknown

SYNC = b"\xcb\x42"
HEADER_LEN = 5  # SYNC0 SYNC1 LEN SEQ TYPE
OVERHEAD = HEADER_LEN + 2  # plus the CRC
SEQ_WINDOW = 128
"""A forward SEQ step of at most this many frames is a gap (frames lost); a larger one, or a HELLO
with SEQ 0 (a node's first frame after boot), is the node's counter starting again: counted as a
reset, not as up to 255 lost frames."""


def crc16_ccitt_false(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0 (check 0x29B1).

    That is the CRC the standard library's ``binascii.crc_hqx`` computes (the XMODEM polynomial,
    seeded here with 0xFFFF); the firmware keeps its own MicroPython loop, checked against the same
    golden vectors.
    """
    return binascii.crc_hqx(data, crc)


def encode_frame(record: Record, seq: int) -> bytes:
    """One complete serial frame carrying ``record`` with link frame counter ``seq`` (mod 256)."""
    ftype, payload = encode_payload(record)
    if len(payload) > MAX_PAYLOAD:
        raise MalformedInput(f"{len(payload)} bytes exceed {MAX_PAYLOAD}", field="payload")
    body = bytes([len(payload), seq & 0xFF, ftype]) + payload
    return SYNC + body + crc16_ccitt_false(body).to_bytes(2, "big")


def decode_frame(data: bytes) -> Frame:
    """Decode exactly one complete frame (no garbage around it); raises MalformedInput."""
    data = bytes(data)
    if len(data) < OVERHEAD or data[:2] != SYNC:
        raise MalformedInput("no frame: missing sync bytes or too short", field="sync")
    length = data[2]
    if length > MAX_PAYLOAD or len(data) != OVERHEAD + length:
        raise MalformedInput(f"LEN {length} does not match {len(data)} bytes", field="len")
    if crc16_ccitt_false(data[2:-2]) != int.from_bytes(data[-2:], "big"):
        raise MalformedInput("CRC mismatch", field="crc")
    return Frame(seq=data[3], record=decode_payload(data[4], data[5:-2]))


@dataclass
class DecoderStats:
    """What a :class:`FrameDecoder` has seen, for diagnostics and the dashboard."""

    frames: int = 0
    dropped_bytes: int = 0
    crc_errors: int = 0
    malformed: int = 0
    unknown: int = 0
    lost_frames: int = 0
    seq_resets: int = 0


class FrameDecoder:
    """A streaming frame decoder: feed it bytes as they arrive, get complete valid frames back.

    It hunts for SYNC0 SYNC1; on a bad CRC or an impossible LEN it drops ONE byte and hunts again,
    so a truncated frame followed by a good one loses only the truncated one. A frame whose CRC is
    good but whose payload is malformed is skipped whole and counted. SEQ gaps between consecutive
    good frames count as lost frames (snapshots are idempotent: nothing to re-request).
    """

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.stats = DecoderStats()
        self.last_seq: int | None = None
        self.errors: list[MalformedInput] = []
        self._lent = False
        """The last frame ended with a SYNC0 byte that may have been the next frame's."""

    def feed(self, data: bytes) -> list[Frame]:
        """Add received bytes; returns every frame completed by them, in order."""
        self.buffer += data
        return self._scan()

    def expire(self) -> list[Frame]:
        """Give up on a pending partial frame (the line went quiet mid-frame) and rescan.

        Without this a truncated frame whose LEN reaches past the end of the received bytes would
        hold back the good frames behind it until more bytes arrive.
        """
        if not self.buffer:
            return []
        self._drop(1)
        return self._scan()

    def reset(self) -> None:
        """Forget partial input and the SEQ history (a new connection)."""
        self.buffer.clear()
        self.last_seq = None
        self._lent = False

    def _count_seq(self, seq: int, record: object) -> None:
        """Count the frames lost between two good ones (a HELLO or a jump: a counter reset)."""
        if self.last_seq is not None:
            step = (seq - self.last_seq) % 256
            booted = isinstance(record, Hello) and seq == 0  # a node's first frame after boot
            if 1 <= step <= SEQ_WINDOW and not booted:
                self.stats.lost_frames += step - 1
            else:
                self.stats.seq_resets += 1
        self.last_seq = seq

    def _drop(self, n: int) -> None:
        del self.buffer[:n]
        self.stats.dropped_bytes += n

    def _scan(self) -> list[Frame]:
        frames: list[Frame] = []
        buf = self.buffer
        while True:
            if self._lent and buf:
                # A frame cut by its last byte borrows the next frame's SYNC0 when that byte was
                # also 0xCB: its CRC then checks, and the next frame would lose its sync. If a
                # SYNC1 follows, the byte is given back to the next frame (garbage otherwise:
                # the hunt drops it).
                self._lent = False
                if buf[0] == SYNC[1]:
                    buf[:0] = SYNC[:1]
            start = buf.find(SYNC)
            if start < 0:
                # Keep a trailing SYNC0: its SYNC1 may be in the next read.
                keep = 1 if buf[-1:] == SYNC[:1] else 0
                self._drop(len(buf) - keep)
                return frames
            if start:
                self._drop(start)
            if len(buf) < 3:
                return frames
            length = buf[2]
            if length > MAX_PAYLOAD:
                self._drop(1)
                continue
            if len(buf) < OVERHEAD + length:
                return frames
            end = OVERHEAD + length
            crc = int.from_bytes(buf[end - 2 : end], "big")
            if crc16_ccitt_false(bytes(buf[2 : end - 2])) != crc:
                self.stats.crc_errors += 1
                self._drop(1)
                continue
            seq, ftype, payload = buf[3], buf[4], bytes(buf[5 : end - 2])
            self._lent = buf[end - 1] == SYNC[0]
            del buf[:end]
            try:
                record = decode_payload(ftype, payload)
            except MalformedInput as error:
                self._count_seq(seq, None)
                self.stats.malformed += 1
                self.errors = [*self.errors[-9:], error]
                continue
            self._count_seq(seq, record)
            if isinstance(record, Unknown):
                self.stats.unknown += 1
            self.stats.frames += 1
            frames.append(Frame(seq=seq, record=record))
