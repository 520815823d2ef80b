"""Register-level MFRC522 model on modelled time, with virtual ISO/IEC 14443A tags in its field.

What is modelled (NXP MFRC522 datasheet rev. 3.9, ISO/IEC 14443-2 and 14443-3):
- the SPI address byte (1 a5..a0 0 read, 0 a5..a0 0 write), burst reads where each MOSI byte
  is the next address and MISO carries the previous register, burst writes to one address;
- the 64-byte FIFO with FIFOLevelReg flush, CommandReg (Idle, CalcCRC, Transceive, NoCmdChange,
  SoftReset, RcvOff), BitFramingReg (StartSend, RxAlign, TxLastBits), ControlReg (RxLastBits,
  TStartNow, TStopNow), ErrorReg, CollReg (ValuesAfterColl, CollPosNotValid, CollPos counted
  from bit 0 of the first FIFO byte, RxAlign included), ComIrqReg/DivIrqReg with their
  Set1/Set2 write semantics, Status1Reg TRunning/CRCReady, the version register;
- time: nothing happens inside the register write that starts it. A StartSend puts the frame
  on the air for its bit time (106 kbit/s, 128/fc a bit); the tags answer after the frame delay
  time of ISO/IEC 14443-3 section 6.2.1.1 (n * 128 + 84 or + 20 carrier cycles after the end
  of the reader's last pause, n = 9); the answer's bytes enter the FIFO as their last bit and
  parity bit arrive; CollReg/ErrorReg/ErrIRq when the colliding bit has arrived; RxIRq and
  ControlReg RxLastBits at the end of the answer. Events are applied when the SimClock (moved
  by the SPI bus and by the driver's sleeps) has passed them, on the next SPI access;
- the timer unit (datasheet section 8.5, TModeReg table 106): TAuto starts it at the end of a
  transmission and stops it at the fifth received bit (RxMultiple = 0); TStartNow/TStopNow;
  f_timer = 13.56 MHz / (2 * TPrescaler + 1), or (2 * TPrescaler + 2) with DemodReg
  TPrescalEven; TimerIRq when the counter passes zero after TReload + 1 ticks; TAutoRestart
  reloads and raises TimerIRq every period; TCounterValReg reads the count. The timer does not
  end a reception: a timer that expires before the answer's fifth bit raises TimerIRq and the
  answer still arrives later, so the driver decides what TimerIRq means;
- the CRC coprocessor takes ``crc_byte_us`` per byte before CRCIRq and CRCResultReg, from
  ModeReg's CRCPreset;
- SoftReset (section 10.3.1.10) takes the internal delay of section 8.8.2 (1024 cycles of the
  27.12 MHz crystal, 37.76 us) before registers answer: until then CommandReg reads PowerDown
  and the other registers 0x00, and writes are lost (counted in ``lost_writes``);
- tags: the IDLE/READY/ACTIVE/HALT state machine, cascade levels for 4-, 7- and 10-byte UIDs,
  and answers superposed bit by bit: a bit where answering tags differ is a collision.
Configurations the model does not implement raise ``Unmodelled``, loudly, instead of behaving
like something: TGated (timer gated by MFIN/AUX1), RxMultiple, transmit/receive speeds other
than 106 kbit/s, TxCRCEn/RxCRCEn, MSBFirst CRCs, soft power-down, and the commands Mem,
Generate RandomID, Transmit, Receive and MFAuthent.
Not modelled: radio physics (tags always hear and always answer), the reader's minimum wait
between an answer and its next frame (ISO/IEC 14443-3 6.2.1.2), LoAlert/HiAlert after reset,
the IRQ pin, hard power-down (NRSTPD).
"""

from fw_sim_bus import Lcg, SimClock

FC = 13.56e6
BIT_US = 128 / FC * 1e6  # 9.44 us per bit at 106 kbit/s
# Minimum frame delay time PICC -> PCD, ISO/IEC 14443-3 section 6.2.1.2 (1172/fc, 86.4 us).
FDT_US = 1172 / FC * 1e6
# ISO/IEC 14443-3 section 6.2.1.1, table 2: FDT PCD -> PICC in carrier cycles, from the end of
# the reader's last pause to the tag's first modulation edge; n = 9 for REQA, WUPA,
# ANTICOLLISION and SELECT (the only commands answered here).
FDT_N = 9
FDT_LAST_1 = FDT_N * 128 + 84
FDT_LAST_0 = FDT_N * 128 + 20
# Datasheet section 8.8.2: after the clock is stable the chip needs 1024 cycles of the
# 27.12 MHz crystal (37.74 us) before it can be addressed. A SoftReset from a running oscillator
# costs this much; from soft power-down the crystal's own start-up would come first
# (soft power-down is not modelled).
RESET_US = 1024 / 27.12e6 * 1e6


class Unmodelled(Exception):
    """The driver set up the chip in a way this model does not implement."""


IDLE, READY, ACTIVE, HALT = "IDLE", "READY", "ACTIVE", "HALT"
SEL = (0x93, 0x95, 0x97)


def crc_a(data, preset=0x6363):
    """CRC_A of ISO/IEC 14443-3 (reflected 0x8408, preset 0x6363); returns (low, high).

    ``preset`` is for the chip's coprocessor, which starts from ModeReg's CRCPreset.
    """
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return crc & 0xFF, (crc >> 8) & 0xFF


def to_bits(data, nbits):
    """The first ``nbits`` bits of ``data``, least significant bit of each byte first."""
    return [(data[i >> 3] >> (i & 7)) & 1 for i in range(nbits)]


def from_bits(bits):
    """Bytes from LSB-first bits (a partial last byte is zero-padded)."""
    out = bytearray((len(bits) + 7) // 8)
    for i, b in enumerate(bits):
        out[i >> 3] |= b << (i & 7)
    return bytes(out)


class Tag14443A:
    """A virtual ISO 14443A tag (an NTAG sticker has a 7-byte UID, old MIFARE 4 bytes)."""

    def __init__(self, uid, sak=0x00):
        if len(uid) not in (4, 7, 10):
            raise ValueError("uid: 4, 7 or 10 bytes")
        self.uid = bytes(uid)
        self.sak = sak
        self.state = IDLE
        self.level = 0
        cls = []
        u = self.uid
        if len(u) == 4:
            parts = [u]
        elif len(u) == 7:
            parts = [b"\x88" + u[:3], u[3:]]
        else:
            parts = [b"\x88" + u[:3], b"\x88" + u[3:6], u[6:]]
        for p in parts:
            cls.append(p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]))
        self.cl = cls
        size = {4: 0, 7: 1, 10: 2}[len(u)]
        self.atqa = bytes([(size << 6) | 0x04, 0x00])

    @classmethod
    def random(cls, rng, size=None):
        """A tag with a random UID (7-byte UIDs start with NXP's manufacturer byte 0x04)."""
        size = size or rng.choice((4, 7))
        if size == 4:
            first = rng.choice([b for b in range(256) if b not in (0x88, 0x08)])
            return cls(bytes([first]) + bytes(rng.randrange(256) for _ in range(3)))
        return cls(b"\x04" + bytes(rng.randrange(256) for _ in range(size - 1)))

    def receive(self, bits):
        """React to a PCD frame (LSB-first bits without parity); the answer's bits or None."""
        n = len(bits)
        if n == 7:
            cmd = from_bits(bits)[0]
            if (cmd == 0x26 and self.state == IDLE) or (cmd == 0x52 and self.state in (IDLE, HALT)):
                self.state, self.level = READY, 0
                return to_bits(self.atqa, 16)
            if self.state in (READY, ACTIVE):
                self.state = IDLE  # an unexpected command sends READY/ACTIVE back to IDLE
            return None
        if n < 16:
            return None
        data = from_bits(bits)
        if self.state == READY and data[0] == SEL[self.level]:
            return self._anticollision(data, bits)
        if self.state == ACTIVE and n == 32 and data[:2] == b"\x50\x00":
            if crc_a(data[:2]) == (data[2], data[3]):
                self.state = HALT
            return None
        if self.state in (READY, ACTIVE):
            self.state = IDLE
        return None

    def _anticollision(self, data, bits):
        nvb = data[1]
        cl = self.cl[self.level]
        if nvb == 0x70:
            if len(bits) != 72 or crc_a(data[:7]) != (data[7], data[8]):
                return None  # broken frame: ignored
            if data[2:7] != cl:
                self.state = IDLE  # another tag was selected
                return None
            last = self.level == len(self.cl) - 1
            sak = self.sak if last else 0x04
            if last:
                self.state = ACTIVE
            else:
                self.level += 1
            lo, hi = crc_a(bytes([sak]))
            return to_bits(bytes([sak, lo, hi]), 24)
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if known < 0 or known > 40 or len(bits) != 16 + known:
            return None
        mine = to_bits(cl, 40)
        if bits[16:] != mine[:known]:
            return None  # not my prefix: stay silent, stay READY
        return mine[known:]


class Field:
    """The tags in range of one antenna; a hook may change it between exchanges."""

    def __init__(self, tags=()):
        self.tags = list(tags)

    def uids(self):
        """UIDs in the field."""
        return {t.uid for t in self.tags}

    def remove(self, uid):
        """A tag leaves (a goblet is lifted); it is reset when it comes back."""
        self.tags = [t for t in self.tags if t.uid != uid]


# The CRC coprocessor's speed: datasheet rev. 3.9 gives no figure for CalcCRC. The model assumes
# it is bit-serial at the 13.56 MHz system clock (8 cycles a byte); a test can slow it down
# (``ChipMFRC522.crc_byte_us``) to check that a driver waits for CRCIRq instead of guessing.
CRC_BYTE_US = 8 / FC * 1e6

# CommandReg codes (datasheet table 149) this model does not implement.
UNMODELLED_COMMANDS = {
    0x01: "Mem",
    0x02: "Generate RandomID",
    0x04: "Transmit",
    0x08: "Receive",
    0x0E: "MFAuthent",
}
# Concatenation, not star-unpacking: the model also runs under MicroPython.
KNOWN_COMMANDS = (0x00, 0x03, 0x07, 0x0C, 0x0F) + tuple(UNMODELLED_COMMANDS)  # noqa: RUF005


class ChipMFRC522:
    """The chip: registers, FIFO, commands, timer, CRC, and one or more antenna fields.

    ``fields`` lists the antennas behind an optional multiplexer; ``antenna`` picks one. Time is
    ``clock`` (a SimClock shared with the SPI bus); the chip never advances it itself.
    """

    def __init__(self, fields=None, clock=None, version=0x92, seed=0):
        self.fields = fields if fields is not None else [Field()]
        self.antenna = 0
        self.clock = clock if clock is not None else SimClock()
        self.version = version
        self.rng = Lcg(seed)
        self.exchanges = 0
        self.collisions = 0
        self.on_exchange = None  # callable(chip) run before each air exchange
        self.holds_miso = False
        self.stuck_miso = 0x00
        self.cs_pin = None
        self.crc_byte_us = CRC_BYTE_US
        self.lost_writes = 0  # register writes that fell into a SoftReset
        self._busy_until = None
        self._seq = 0
        self._reset()
        self._pos = 0

    @property
    def field(self):
        """The field of the selected antenna."""
        return self.fields[self.antenna]

    def _reset(self):
        # Reset values from the register tables of datasheet section 9.3.
        regs = bytearray(64)
        regs[0x01] = 0x20  # CommandReg: RcvOff = 1, Idle
        regs[0x02] = 0x80  # ComIEnReg
        regs[0x04] = 0x14  # ComIrqReg: IdleIRq, LoAlertIRq
        regs[0x07] = 0x21  # Status1Reg
        regs[0x0B] = 0x08  # WaterLevelReg
        regs[0x0C] = 0x10  # ControlReg
        regs[0x0E] = 0xA0  # CollReg: ValuesAfterColl = 1, CollPosNotValid = 1
        regs[0x11] = 0x3F  # ModeReg
        regs[0x14] = 0x80  # TxControlReg: antenna drivers off
        regs[0x16] = 0x10  # TxSelReg
        regs[0x17] = 0x84  # RxSelReg
        regs[0x18] = 0x84  # RxThresholdReg
        regs[0x19] = 0x4D  # DemodReg: TPrescalEven = 0
        regs[0x21] = 0xFF  # CRCResultReg
        regs[0x22] = 0xFF
        regs[0x24] = 0x26  # ModWidthReg
        regs[0x26] = 0x48  # RFCfgReg
        self.regs = regs
        self.fifo = []
        self._events = []  # (time_us, seq, kind, arg), sorted
        self._timer_start = None  # modelled time the running count began, None when stopped
        self._timer_value = 0
        self._crc_data = b""

    # --- SPI -------------------------------------------------------------------------------

    def begin(self):
        """NSS fell: the next byte is an address byte."""
        self._pos = 0

    def end(self):
        """NSS rose."""
        self._pos = 0

    def xfer(self, mosi):
        """One byte in, one byte out, as the chip's SPI slave does."""
        if self._pos == 0:
            self._read = bool(mosi & 0x80)
            self._addr = (mosi >> 1) & 0x3F
            self._pos = 1
            return 0x00
        self._pos += 1
        if self._read:
            out = self.read_reg(self._addr)
            self._addr = (mosi >> 1) & 0x3F
            return out
        self.write_reg(self._addr, mosi)
        return 0x00

    # --- time ------------------------------------------------------------------------------

    def _schedule(self, at, kind, arg=None):
        self._seq += 1
        self._events.append((at, self._seq, kind, arg))
        self._events.sort()

    def _drop(self, kinds):
        self._events = [e for e in self._events if e[2] not in kinds]

    def _timer_due(self):
        if self._timer_start is None:
            return None
        return self._timer_start + self._timer_ticks * self._timer_tick_us

    def settle(self):
        """Apply every event the modelled clock has passed (each SPI access calls this)."""
        now = self.clock.us
        if self._busy_until is not None:
            if now < self._busy_until:
                return
            self._busy_until = None
        while True:
            event = self._events[0] if self._events else None
            due = self._timer_due()
            if event is not None and event[0] <= now and (due is None or event[0] <= due):
                self._events.pop(0)
                self._apply(event[0], event[2], event[3])
            elif due is not None and due <= now:
                self._timer_underflow(due)
            else:
                return

    def _apply(self, at, kind, arg):
        regs = self.regs
        if kind == "tx":
            regs[0x04] |= 0x40  # TxIRq: the last bit has left
            # Receiver start-up clears ProtocolErr, ParityErr, CRCErr, CollErr (table 37).
            regs[0x06] &= ~0x0F & 0xFF
            regs[0x0E] |= 0x20  # CollPosNotValid until a collision is seen
            if regs[0x2A] & 0x80:  # TAuto: "starts automatically at the end of the transmission"
                self.start_timer(at)
        elif kind == "bit5":
            # TAuto with RxMultiple = 0: "the timer stops immediately after receiving the 5th
            # bit (1 start bit, 4 data bits)" (table 106).
            if regs[0x2A] & 0x80:
                self.stop_timer(at)
        elif kind == "byte":
            if len(self.fifo) < 64:
                self.fifo.append(arg)
            else:
                regs[0x06] |= 0x10  # BufferOvfl
                regs[0x04] |= 0x02
        elif kind == "coll":
            self.collisions += 1
            regs[0x06] |= 0x08  # CollErr
            if arg <= 32:
                regs[0x0E] = (regs[0x0E] & 0x80) | (arg & 0x1F)  # 32 reads as 0
            regs[0x04] |= 0x02  # ErrIRq
        elif kind == "rx":
            regs[0x0C] = (regs[0x0C] & 0xF8) | (arg & 7)  # RxLastBits
            regs[0x04] |= 0x20  # RxIRq: end of a valid data stream
        elif kind == "crc":
            # ModeReg CRCPreset (datasheet table 55): 00 -> 0x0000, 01 -> 0x6363 (CRC_A),
            # 10 -> 0xA671, 11 -> 0xFFFF, the reset value; a driver that never writes ModeReg
            # gets CRCs no ISO 14443A tag accepts.
            preset = (0x0000, 0x6363, 0xA671, 0xFFFF)[regs[0x11] & 0x03]
            lo, hi = crc_a(self._crc_data, preset)
            regs[0x22], regs[0x21] = lo, hi
            regs[0x05] |= 0x04  # CRCIRq: all data processed

    # --- timer (datasheet section 8.5) -----------------------------------------------------

    def timer_tick_us(self):
        """One timer tick: (2 * TPrescaler + 1) / 13.56 MHz, or + 2 with TPrescalEven."""
        prescaler = ((self.regs[0x2A] & 0x0F) << 8) | self.regs[0x2B]
        even = self.regs[0x19] & 0x10  # DemodReg TPrescalEven
        return (2 * prescaler + (2 if even else 1)) / FC * 1e6

    def timeout_us(self):
        """The timer window: TReload + 1 ticks, (2 * prescaler + 1) * (reload + 1) / fc."""
        reload = (self.regs[0x2C] << 8) | self.regs[0x2D]
        return self.timer_tick_us() * (reload + 1)

    def start_timer(self, at):
        """(Re)start the count from TReload at modelled time ``at``."""
        mode = self.regs[0x2A]
        if mode & 0x60:
            raise Unmodelled(f"TModeReg TGated = {(mode >> 5) & 3}: gating by MFIN/AUX1")
        self._timer_reload = (self.regs[0x2C] << 8) | self.regs[0x2D]
        self._timer_ticks = self._timer_reload + 1
        self._timer_tick_us = self.timer_tick_us()
        self._timer_restart = bool(mode & 0x10)
        self._timer_start = at

    def stop_timer(self, at):
        """Stop the count where it is at modelled time ``at``."""
        if self._timer_start is not None:
            self._timer_value = self._count(at)
            self._timer_start = None

    def _count(self, at):
        ticks = int((at - self._timer_start) / self._timer_tick_us)
        return max(self._timer_reload - ticks, 0)

    def _timer_underflow(self, at):
        self.regs[0x04] |= 0x01  # TimerIRq
        if self._timer_restart:  # TAutoRestart: count down again from TReload
            self._timer_start = at
        else:
            self._timer_start = None
            self._timer_value = 0

    # --- registers -------------------------------------------------------------------------

    def read_reg(self, addr):
        """Register read with the chip's side effects (FIFO pops), at the clock's time."""
        self.settle()
        if self._busy_until is not None:
            return 0x1F if addr == 0x01 else 0x00  # PowerDown | SoftReset while resetting
        if addr == 0x09:
            if self.fifo:
                return self.fifo.pop(0)
            return 0x00
        if addr == 0x0A:
            return len(self.fifo) & 0x7F
        if addr == 0x07:  # Status1Reg: CRCReady, TRunning (others not modelled)
            busy = any(e[2] == "crc" for e in self._events)
            running = self._timer_start is not None
            return (0x00 if busy else 0x20) | (0x08 if running else 0x00)
        if addr in (0x2E, 0x2F):  # TCounterValReg
            value = self._timer_value
            if self._timer_start is not None:
                value = self._count(self.clock.us)
            return (value >> 8) & 0xFF if addr == 0x2E else value & 0xFF
        if addr == 0x37:
            return self.version
        return self.regs[addr]

    def write_reg(self, addr, value):
        """Register write with the chip's semantics, at the clock's time."""
        self.settle()
        if self._busy_until is not None:
            self.lost_writes += 1
            return
        regs = self.regs
        if addr == 0x01:
            self._command(value)
        elif addr == 0x04:  # ComIrqReg: Set1 chooses set or clear of the marked bits
            if value & 0x80:
                regs[0x04] |= value & 0x7F
            else:
                regs[0x04] &= ~value & 0x7F
        elif addr == 0x05:  # DivIrqReg: Set2 likewise
            if value & 0x80:
                regs[0x05] |= value & 0x14
            else:
                regs[0x05] &= ~value & 0x14
        elif addr == 0x09:
            if regs[0x01] & 0x0F == 0x03:
                self._feed_crc(value)
            elif len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                regs[0x06] |= 0x10  # BufferOvfl
        elif addr == 0x0A:
            if value & 0x80:  # FlushBuffer: empties the FIFO and clears BufferOvfl
                self.fifo = []
                regs[0x06] &= ~0x10 & 0xFF
        elif addr == 0x0C:  # ControlReg: TStopNow, TStartNow; the rest is read-only
            if value & 0x80:
                self.stop_timer(self.clock.us)
            elif value & 0x40:
                self.start_timer(self.clock.us)
        elif addr == 0x0D:
            regs[0x0D] = value
            if value & 0x80 and regs[0x01] & 0x0F == 0x0C:
                self._start_send()
        elif addr == 0x0E:
            regs[0x0E] = (regs[0x0E] & 0x7F) | (value & 0x80)
        elif addr not in (0x06, 0x07, 0x2E, 0x2F, 0x37):  # read-only registers
            regs[addr] = value

    def _command(self, value):
        regs = self.regs
        cmd = value & 0x0F
        if value & 0x10:
            raise Unmodelled("CommandReg PowerDown: soft power-down")
        if cmd in UNMODELLED_COMMANDS:
            raise Unmodelled(f"command {UNMODELLED_COMMANDS[cmd]} (0x{cmd:X})")
        if cmd == 0x07:  # NoCmdChange: only RcvOff/PowerDown change
            regs[0x01] = (regs[0x01] & 0x0F) | (value & 0x20)
            return
        # Any other command ends the running one: a reception in progress and a CRC
        # calculation stop (the timer runs on, it is not part of the command).
        self._drop(("tx", "bit5", "byte", "coll", "rx", "crc"))
        if cmd == 0x0F:
            self._reset()
            self._busy_until = self.clock.us + RESET_US
            return
        if cmd not in KNOWN_COMMANDS:
            # "If an unknown command is started, the CommandReg Command[3:0] value changes to
            # the idle state and the IdleIRq bit is set" (section 9.3.1.5).
            regs[0x01] = value & 0x20
            regs[0x04] |= 0x10
            return
        regs[0x01] = value & 0x2F
        if cmd == 0x03:
            if regs[0x11] & 0x80:
                raise Unmodelled("ModeReg MSBFirst: CRC with the MSB first")
            self._crc_data = b""
            data, self.fifo = self.fifo, []
            regs[0x05] &= ~0x04 & 0xFF
            self._crc_at = self.clock.us
            for byte in data:
                self._feed_crc(byte)
            if not data:
                self._schedule(self.clock.us, "crc")
        elif cmd == 0x0C and regs[0x0D] & 0x80:
            self._start_send()

    def _feed_crc(self, byte):
        # "The calculation isn't stopped when the FIFO buffer is empty during the data stream.
        # The next byte written to the FIFO buffer is added to the calculation" (10.3.1.4).
        self._crc_data += bytes([byte])
        self._crc_at = max(self._crc_at, self.clock.us) + self.crc_byte_us
        self._drop(("crc",))
        self._schedule(self._crc_at, "crc")

    # --- air -------------------------------------------------------------------------------

    @staticmethod
    def frame_bits(nbits):
        """Bits on the air for a frame of ``nbits`` data bits: start, parity per byte, end."""
        if nbits == 7:
            return 9  # short frame
        return 2 + nbits + nbits // 8

    def _check_modes(self):
        regs = self.regs
        if regs[0x12] & 0xF3 or regs[0x13] & 0xF3:
            raise Unmodelled(
                f"TxModeReg 0x{regs[0x12]:02X} / RxModeReg 0x{regs[0x13]:02X}: only 106 kbit/s "
                "ISO 14443A framing without TxCRCEn/RxCRCEn is modelled"
            )
        if regs[0x13] & 0x04:
            raise Unmodelled("RxModeReg RxMultiple")

    @staticmethod
    def with_parity(bits):
        """The bits on the air between start and end: odd parity after every whole byte."""
        out = []
        for i, b in enumerate(bits):
            out.append(b)
            if i % 8 == 7:
                out.append(1 - sum(bits[i - 7 : i + 1]) % 2)
        return out

    def last_pause_end(self, air):
        """Carrier cycles from the frame start to the end of the reader's last pause.

        Modified Miller coding, ISO/IEC 14443-2 section 8.1.3.1: the start bit is sequence Z
        (pause at the bit's start), a 1 is X (pause half a bit in), a 0 is Y (no pause) after
        a 1 and Z after a 0 or the start; the end of frame is a 0 followed by Y. A pause lasts
        ModWidth + 1 carrier cycles (ModWidthReg, datasheet section 9.3.3.5).
        """
        last = 0  # the start bit's pause
        prev = 0
        for i, b in enumerate(air + [0]):  # noqa: RUF005 (+ the end of frame's 0)
            t = (i + 1) * 128
            if b:
                last = t + 64
            elif prev == 0:
                last = t
            prev = b
        return last + self.regs[0x24] + 1

    def _start_send(self):
        regs = self.regs
        self._check_modes()
        self.exchanges += 1
        if self.on_exchange is not None:
            self.on_exchange(self)
        t0 = self.clock.us
        tx_last = regs[0x0D] & 0x07
        rx_align = (regs[0x0D] >> 4) & 0x07
        data = bytes(self.fifo)
        self.fifo = []  # the transmitter takes the FIFO's bytes (when each leaves: not modelled)
        nbits = len(data) * 8 if tx_last == 0 else (len(data) - 1) * 8 + tx_last
        bits = to_bits(data, max(nbits, 0))
        air = bits if len(bits) == 7 else self.with_parity(bits)  # short frame: no parity
        self._drop(("tx", "bit5", "byte", "coll", "rx"))  # a new frame ends the old reception
        self._schedule(t0 + (len(air) + 2) * BIT_US, "tx")  # start bit + bits + end of frame
        answers = []
        if regs[0x14] & 0x03:  # antenna drivers on
            for tag in list(self.field.tags):
                answer = tag.receive(bits)
                if answer is not None:
                    answers.append(answer)
        if not answers or regs[0x01] & 0x20:  # nobody answered, or RcvOff
            return
        fdt = FDT_LAST_1 if air[-1] else FDT_LAST_0
        t_answer = t0 + (self.last_pause_end(air) + fdt) / FC * 1e6  # the tag's first edge
        length = max(len(a) for a in answers)
        got = []
        coll = None
        clear = not regs[0x0E] & 0x80
        for i in range(length):
            values = {a[i] if i < len(a) else 1 - a[-1] for a in answers}
            if len(values) > 1 and coll is None:
                coll = i
            if coll is not None and clear:
                got.append(0)
            elif len(values) > 1:
                got.append(self.rng.randrange(2))
            else:
                got.append(values.pop())

        def bit_end(b):
            # End of answer bit b: start bit, b + 1 data bits, the parity bits of the FIFO bytes
            # completed before it (the first FIFO byte holds 8 - RxAlign bits).
            return t_answer + (1 + b + 1 + (b + rx_align) // 8) * BIT_US

        self._schedule(t_answer + 5 * BIT_US, "bit5")
        placed = from_bits([0] * rx_align + got)
        whole = (rx_align + length) // 8  # FIFO bytes that end on a byte boundary
        for j in range(whole):
            self._schedule(bit_end(8 * (j + 1) - rx_align - 1) + BIT_US, "byte", placed[j])
        t_end = t_answer + (1 + length + whole + 1) * BIT_US  # + end of frame
        if whole < len(placed):
            self._schedule(t_end, "byte", placed[whole])
        if coll is not None:
            self._schedule(bit_end(coll), "coll", rx_align + coll + 1)
        self._schedule(t_end, "rx", rx_align + length)
