"""MFRC522 driver (ISO/IEC 14443A), handed its SPI bus and chip-select pin.

micropython-lib style: registers are ``const()``, the transfer buffers are allocated once, and
the caller builds the bus (``firmware/main.py`` on a microcontroller, ``firmware/pi/`` on a Pi).
``spi`` needs ``write_readinto(wbuf, rbuf)``; ``cs`` is a callable pin (``cs(0)`` selects).

What it does beyond the usual hobby drivers: bit-level anticollision over all three cascade
levels (4-, 7- and 10-byte UIDs), SELECT with CRC_A from the chip's coprocessor, and a
multi-tag inventory (WUPA, then select one tag, HLTA it, REQA again until nobody answers), so a
coaster ring and a token stacked on the same antenna are both reported.

Timeouts are microseconds of ``clock`` (MicroPython's ``time`` module unless one is given: an
object with ``ticks_us``, ``ticks_diff`` and ``sleep_us``), never loop counts, so they mean the
same on a 240 MHz ESP32, a Pi and the modelled clock of the tests.
"""

try:
    from micropython import const
except ImportError:  # CPython: the tests and the Pi adapters

    def const(value):
        """Stand-in for MicroPython's compile-time constant marker."""
        return value


# Registers (MFRC522 datasheet section 9).
REG_COMMAND = const(0x01)
REG_COM_IEN = const(0x02)
REG_COM_IRQ = const(0x04)
REG_DIV_IRQ = const(0x05)
REG_ERROR = const(0x06)
REG_FIFO_DATA = const(0x09)
REG_FIFO_LEVEL = const(0x0A)
REG_CONTROL = const(0x0C)
REG_BIT_FRAMING = const(0x0D)
REG_COLL = const(0x0E)
REG_MODE = const(0x11)
REG_TX_MODE = const(0x12)
REG_RX_MODE = const(0x13)
REG_TX_CONTROL = const(0x14)
REG_TX_ASK = const(0x15)
REG_CRC_RESULT_H = const(0x21)
REG_CRC_RESULT_L = const(0x22)
REG_MOD_WIDTH = const(0x24)
REG_RF_CFG = const(0x26)
REG_T_MODE = const(0x2A)
REG_T_PRESCALER = const(0x2B)
REG_T_RELOAD_H = const(0x2C)
REG_T_RELOAD_L = const(0x2D)
REG_VERSION = const(0x37)

# CommandReg commands.
CMD_IDLE = const(0x00)
CMD_CALC_CRC = const(0x03)
CMD_TRANSCEIVE = const(0x0C)
CMD_SOFT_RESET = const(0x0F)

# ComIrqReg bits.
IRQ_TIMER = const(0x01)
IRQ_ERR = const(0x02)
IRQ_IDLE = const(0x10)
IRQ_RX = const(0x20)
# DivIrqReg bits.
DIV_CRC = const(0x04)
# ErrorReg bits that void a frame (collisions are handled on their own).
ERR_PROTOCOL = const(0x01)
ERR_PARITY = const(0x02)
ERR_COLL = const(0x08)
ERR_BUFFER = const(0x10)

# PICC commands (ISO/IEC 14443-3).
PICC_REQA = const(0x26)
PICC_WUPA = const(0x52)
PICC_HLTA = const(0x50)
PICC_CT = const(0x88)  # cascade tag in CL1/CL2 of 7- and 10-byte UIDs
SEL_CL = (0x93, 0x95, 0x97)

# transceive() results.
OK = const(0)
TIMEOUT = const(1)
COLLISION = const(2)
ERROR = const(3)

# VersionReg values of chips that work as an MFRC522, and where each is documented:
#   0x91, 0x92  NXP MFRC522 version 1.0 and 2.0 (datasheet rev. 3.9, VersionReg, 9.3.4.8);
#   0x90        "version 0.0" (miguelbalboa/rfid PCD_DumpVersionToSerial, and its self-test
#               reference data for it in MFRC522.h);
#   0x88        Fudan FM17522 (miguelbalboa/rfid pull request #106, its self-test data);
#   0x89        Fudan FM17522E, 0xB2 FM17522 (second id) (OSSLibraries/Arduino_MFRC522v2
#               PCD_GetVersion);
#   0x12        the clone miguelbalboa/rfid calls "counterfeit chip" (issue #482: it reads
#               tags with other libraries);
#   0x82        a clone board reported reading MIFARE 1K tags (OSSLibraries/Arduino_MFRC522v2
#               issue #59).
# Anything else is refused (code 2): the chip answers, but as something we know nothing of.
KNOWN_VERSIONS = (0x91, 0x92, 0x90, 0x88, 0x89, 0xB2, 0x12, 0x82)

# Air timing at 106 kbit/s (ISO/IEC 14443-3): one bit is 128 carrier cycles, 9.44 us.
#   Longest frame sent: SELECT, 9 bytes = 72 bits + 9 parity + start + end = 83 bits, 784 us.
#   Longest answer expected: a whole cascade level in anticollision (CLn 4 bytes + BCC) =
#   40 bits + 5 parity + start + end = 47 bits, 444 us, after a frame delay time of at most
#   9 * 128 + 84 = 1236 cycles, 91 us (section 6.2.1.1, n = 9).
# The timer (TAuto) starts at the end of the transmission and, with RxMultiple = 0, stops at
# the answer's fifth bit (datasheet table 106), so its window needs FDT + 5 bits, < 91 + 47 us;
# it is set to cover the whole longest answer as well (91 + 444 = 535 us) in case a clone's
# timer does not stop, and to the 1 ms after which ISO/IEC 14443-3 (HLTA, section 6.4) takes
# silence after HLTA as its acknowledgement: prescaler 169 -> (2 * 169 + 1) / 13.56 MHz =
# 25.0 us a tick, reload 40 -> 41 ticks = 1025 us.
T_PRESCALER = const(169)
T_RELOAD = const(40)
# The driver's own limit for a transceive, from StartSend: the longest frame, the window and
# the longest answer (784 + 1025 + 444 = 2253 us), doubled. Past it the chip is not working.
TRANSCEIVE_TIMEOUT_US = const(4500)
# The CRC coprocessor: the datasheet gives no duration for CalcCRC; it runs on the chip's
# 13.56 MHz clock, so 9 bytes take microseconds, and 1 ms means it never finished.
CRC_TIMEOUT_US = const(1000)
# SoftReset: miguelbalboa/rfid waits up to 3 x 50 ms for PowerDown to clear (the chip may come
# out of soft power-down: crystal start-up + 37.74 us, datasheet 8.8.2); the same limit here,
# polled every 50 us.
RESET_TIMEOUT_US = const(150000)
RESET_POLL_US = const(50)


class ReaderFault(Exception):
    """The chip does not answer, or answers as something else (``code`` as on the wire)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class MFRC522:
    """One MFRC522 on a shared SPI bus, selected by its own ``cs`` pin."""

    def __init__(self, spi, cs, rst=None, clock=None):
        self.spi = spi
        self.cs = cs
        self.rst = rst
        if clock is None:
            import time as clock

            if not hasattr(clock, "ticks_us"):
                raise TypeError("MFRC522: pass clock= (this time module has no ticks_us)")
        self.clock = clock
        cs(1)
        self._w = bytearray(2)
        self._r = bytearray(2)
        self._fifo_w = bytearray(65)
        self._fifo_r = bytearray(65)
        self.rx = bytearray(64)  # last response, bits placed from RxAlign on
        self.rx_len = 0
        self.rx_last_bits = 0
        self.coll_pos = 0
        self._uid = bytearray(10)
        self._cl = bytearray(9)  # SEL NVB UID0..3 BCC CRC_A(2)
        self._crc = bytearray(2)
        self.errors = 0  # anticollision failures seen, for the node's log

    # --- registers -------------------------------------------------------------------------

    def read(self, reg):
        """One register; the SPI address byte is 1 a5..a0 0 for a read."""
        self._w[0] = 0x80 | (reg << 1)
        self._w[1] = 0
        self.cs(0)
        self.spi.write_readinto(self._w, self._r)
        self.cs(1)
        return self._r[1]

    def write(self, reg, value):
        """One register; the address byte is 0 a5..a0 0 for a write."""
        self._w[0] = reg << 1
        self._w[1] = value
        self.cs(0)
        self.spi.write_readinto(self._w, self._r)
        self.cs(1)

    def set_bits(self, reg, mask):
        """Read-modify-write setting ``mask``."""
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg, mask):
        """Read-modify-write clearing ``mask``."""
        self.write(reg, self.read(reg) & ~mask & 0xFF)

    def write_fifo(self, data, n):
        """Write ``n`` bytes of ``data`` to the FIFO in one SPI burst."""
        w = self._fifo_w
        w[0] = REG_FIFO_DATA << 1
        for i in range(n):
            w[i + 1] = data[i]
        mv = memoryview(w)
        self.cs(0)
        self.spi.write_readinto(mv[: n + 1], memoryview(self._fifo_r)[: n + 1])
        self.cs(1)

    def read_fifo(self, n):
        """Read ``n`` FIFO bytes into ``self.rx`` in one burst (address repeated, then 0)."""
        w = self._fifo_w
        for i in range(n):
            w[i] = 0x80 | (REG_FIFO_DATA << 1)
        w[n] = 0
        self.cs(0)
        self.spi.write_readinto(memoryview(w)[: n + 1], memoryview(self._fifo_r)[: n + 1])
        self.cs(1)
        for i in range(n):
            self.rx[i] = self._fifo_r[i + 1]

    # --- set-up ----------------------------------------------------------------------------

    def init(self):
        """Reset, check the version register, set the timer and switch the antenna on."""
        if self.rst is not None:
            self.rst(1)
        self.write(REG_COMMAND, CMD_SOFT_RESET)
        # Registers written before the reset is over are lost: wait for PowerDown to clear
        # (at least the 37.74 us of datasheet 8.8.2). On timeout the version check below tells
        # an absent chip (0x00/0xFF) from a wrong one.
        clock = self.clock
        start = clock.ticks_us()
        while True:
            clock.sleep_us(RESET_POLL_US)
            if not self.read(REG_COMMAND) & 0x10:
                break
            if clock.ticks_diff(clock.ticks_us(), start) > RESET_TIMEOUT_US:
                break
        version = self.read(REG_VERSION)
        if version in (0x00, 0xFF):
            # All zeros or all ones is an empty bus or a MISO line held by another module
            # (the shared-MISO fault documented in hardware/README.md).
            raise ReaderFault(1, "MFRC522: no answer on SPI (version 0x%02X)" % version)
        if version not in KNOWN_VERSIONS:
            raise ReaderFault(2, "MFRC522: unexpected version 0x%02X" % version)
        # Timer: TAuto, not gated, no auto-restart; the window is argued at T_RELOAD.
        self.write(REG_T_MODE, 0x80 | (T_PRESCALER >> 8))
        self.write(REG_T_PRESCALER, T_PRESCALER & 0xFF)
        self.write(REG_T_RELOAD_H, T_RELOAD >> 8)
        self.write(REG_T_RELOAD_L, T_RELOAD & 0xFF)
        self.write(REG_TX_ASK, 0x40)  # 100 % ASK, as ISO 14443A requires
        self.write(REG_MODE, 0x3D)  # CRC preset 0x6363 (CRC_A)
        self.write(REG_TX_MODE, 0x00)
        self.write(REG_RX_MODE, 0x00)
        self.write(REG_MOD_WIDTH, 0x26)
        self.clear_bits(REG_COLL, 0x80)  # ValuesAfterColl=0: bits after a collision read 0
        self.antenna(True)
        return version

    def antenna(self, on):
        """Drive (or stop driving) TX1 and TX2."""
        if on:
            self.set_bits(REG_TX_CONTROL, 0x03)
        else:
            self.clear_bits(REG_TX_CONTROL, 0x03)

    # --- frames ----------------------------------------------------------------------------

    def crc_a(self, data, n):
        """CRC_A of ``data[:n]`` from the chip's coprocessor, into ``self._crc`` (low, high)."""
        self.write(REG_COMMAND, CMD_IDLE)
        self.write(REG_DIV_IRQ, 0x04)  # Set2=0: clear CRCIRq
        self.write(REG_FIFO_LEVEL, 0x80)  # flush
        self.write_fifo(data, n)
        self.write(REG_COMMAND, CMD_CALC_CRC)
        clock = self.clock
        start = clock.ticks_us()
        while clock.ticks_diff(clock.ticks_us(), start) <= CRC_TIMEOUT_US:
            if self.read(REG_DIV_IRQ) & DIV_CRC:
                self.write(REG_COMMAND, CMD_IDLE)
                self._crc[0] = self.read(REG_CRC_RESULT_L)
                self._crc[1] = self.read(REG_CRC_RESULT_H)
                return self._crc
        raise ReaderFault(3, "MFRC522: CRC coprocessor timeout")

    def transceive(self, data, n, tx_last_bits=0, rx_align=0):
        """Send ``data[:n]`` (last byte ``tx_last_bits`` long, 0 = whole) and receive.

        Returns OK, TIMEOUT (no tag answered in the timer window), COLLISION (``coll_pos`` set,
        the received bits are in ``rx``) or ERROR. ``rx_len`` counts received bytes.
        """
        self.write(REG_COMMAND, CMD_IDLE)
        self.write(REG_COM_IRQ, 0x7F)  # Set1=0: clear every interrupt request
        self.write(REG_FIFO_LEVEL, 0x80)
        self.write_fifo(data, n)
        self.write(REG_BIT_FRAMING, (rx_align << 4) | tx_last_bits)
        self.write(REG_COMMAND, CMD_TRANSCEIVE)
        self.write(REG_BIT_FRAMING, 0x80 | (rx_align << 4) | tx_last_bits)  # StartSend
        clock = self.clock
        start = clock.ticks_us()
        while True:
            irq = self.read(REG_COM_IRQ)
            if irq == 0xFF:
                # Set1 (bit 7) never reads back as 1: the chip is gone and MISO floats high.
                raise ReaderFault(1, "MFRC522: no answer on SPI (unplugged?)")
            # RxIRq: the answer is complete in the FIFO. TimerIRq: the window closed before an
            # answer's fifth bit arrived (TAuto stops the timer there), so none is coming.
            # The timer does not stop a reception, so RxIRq is what ends an answer.
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                break
            if clock.ticks_diff(clock.ticks_us(), start) > TRANSCEIVE_TIMEOUT_US:
                self.write(REG_COMMAND, CMD_IDLE)
                raise ReaderFault(3, "MFRC522: no interrupt from a transceive")
        self.write(REG_COMMAND, CMD_IDLE)  # Transceive never ends by itself
        if not irq & (IRQ_RX | IRQ_IDLE):
            return TIMEOUT
        error = self.read(REG_ERROR)
        self.rx_len = self.read(REG_FIFO_LEVEL) & 0x7F
        self.rx_last_bits = self.read(REG_CONTROL) & 0x07
        if self.rx_len:
            self.read_fifo(self.rx_len)
        if error & ERR_COLL:
            coll = self.read(REG_COLL)
            if coll & 0x20:  # CollPosNotValid
                return ERROR
            self.coll_pos = (coll & 0x1F) or 32
            return COLLISION
        if error & (ERR_PROTOCOL | ERR_PARITY | ERR_BUFFER):
            return ERROR
        return OK

    def request(self, wake=False):
        """REQA (IDLE tags) or WUPA (IDLE and HALT tags); True when anybody answered.

        Several tags answering ATQA at once collide; that still means 'tags present'.
        """
        self._cl[0] = PICC_WUPA if wake else PICC_REQA
        status = self.transceive(self._cl, 1, tx_last_bits=7)  # short frame: 7 bits
        if status == TIMEOUT:
            return False
        return status == COLLISION or self.rx_len == 2

    def halt(self):
        """HLTA the selected tag (it answers nothing when it obeys)."""
        cl = self._cl
        cl[0] = PICC_HLTA
        cl[1] = 0
        crc = self.crc_a(cl, 2)
        cl[2] = crc[0]
        cl[3] = crc[1]
        self.transceive(cl, 4)

    def _cascade(self, level):
        # One cascade level: bit-level anticollision down to one tag, then SELECT.
        # Returns the SAK, or -1 when the tags went away or the frame was broken.
        cl = self._cl
        cl[0] = SEL_CL[level]
        for i in range(2, 7):
            cl[i] = 0
        known = 0  # UID bits of this level already fixed (of 32 + 8 BCC)
        for _ in range(33):  # each round fixes at least one more bit
            nbytes = known >> 3
            nbits = known & 7
            cl[1] = ((2 + nbytes) << 4) | nbits  # NVB: bytes and bits sent
            tx_n = 2 + nbytes + (1 if nbits else 0)
            status = self.transceive(cl, tx_n, tx_last_bits=nbits, rx_align=nbits)
            if status in (TIMEOUT, ERROR) or self.rx_len == 0:
                return -1
            # Received bits continue the partly sent byte: merge it, then copy the rest.
            keep = (1 << nbits) - 1
            cl[2 + nbytes] = (cl[2 + nbytes] & keep) | (self.rx[0] & ~keep & 0xFF)
            for i in range(1, self.rx_len):
                if 2 + nbytes + i < 7:
                    cl[2 + nbytes + i] = self.rx[i]
            if status == COLLISION:
                # CollPos counts from bit 0 of the first received byte (RxAlign included),
                # which is UID bit 8 * nbytes of this level.
                pos = (nbytes << 3) + self.coll_pos  # 1-based bit number
                if pos <= known or pos > 32:
                    return -1
                bit = pos - 1
                cl[2 + (bit >> 3)] |= 1 << (bit & 7)  # follow the tags that sent a 1
                known = pos
                continue
            if cl[2] ^ cl[3] ^ cl[4] ^ cl[5] != cl[6]:
                return -1  # BCC wrong: a corrupted answer, start again
            break
        else:
            return -1
        cl[1] = 0x70  # SELECT: all 40 bits
        crc = self.crc_a(cl, 7)
        cl[7] = crc[0]
        cl[8] = crc[1]
        status = self.transceive(cl, 9)
        if status != OK or self.rx_len != 3:
            return -1
        return self.rx[0]

    def select_one(self):
        """Anticollision and SELECT of one READY tag over the cascade levels; UID or None."""
        n = 0
        for level in range(3):
            sak = self._cascade(level)
            if sak < 0:
                return None
            cl = self._cl
            if sak & 0x04:  # cascade bit: UID not complete, CL starts with the cascade tag
                if cl[2] != PICC_CT:
                    return None
                for i in range(3):
                    self._uid[n + i] = cl[3 + i]
                n += 3
            else:
                for i in range(4):
                    self._uid[n + i] = cl[2 + i]
                n += 4
                return bytes(self._uid[:n])
        return None

    def inventory(self, max_tags=32):
        """Every tag in the field: WUPA, then select + HLTA one at a time until REQA is silent.

        After a broken round (a tag left, a corrupted answer) the next REQA may meet tags that
        fell back to IDLE, so only a silent REQA after a clean round ends the loop; a second
        silent REQA ends it in any case.
        """
        found = []
        wake = True
        clean = True
        retried = False
        for _ in range(max_tags * 4 + 4):
            if not self.request(wake):
                if clean or retried:
                    break
                retried = True
                continue
            wake = False
            retried = False
            uid = self.select_one()
            if uid is None:
                self.errors += 1
                clean = False
                continue
            clean = True
            self.halt()
            if uid not in found:
                found.append(uid)
            if len(found) >= max_tags:
                break
        return found
