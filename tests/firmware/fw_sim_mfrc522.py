"""Register-level MFRC522 model with virtual ISO/IEC 14443A tags in its field.

What is modelled (MFRC522 datasheet rev. 3.9 and ISO/IEC 14443-3):
- the SPI address byte (1 a5..a0 0 read, 0 a5..a0 0 write), burst reads where each MOSI byte
  is the next address and MISO carries the previous register, burst writes to one address;
- the 64-byte FIFO with FIFOLevelReg flush, CommandReg (Idle, CalcCRC, Transceive, SoftReset),
  BitFramingReg (StartSend, RxAlign, TxLastBits), ControlReg RxLastBits, ErrorReg, CollReg
  (ValuesAfterColl, CollPosNotValid, CollPos counted from bit 0 of the first FIFO byte,
  RxAlign included), ComIrqReg/DivIrqReg with their Set1/Set2 write semantics, the timer
  (TAuto, prescaler, reload: a silent field raises TimerIRq after the programmed window), the
  CRC coprocessor (CRC_A, preset 0x6363) and the version register;
- tags with the IDLE/READY/ACTIVE/HALT state machine, cascade levels for 4-, 7- and 10-byte
  UIDs, and answers superposed bit by bit: a bit where answering tags differ is a collision.
Time is charged to a SimClock per exchange: air time at 106 kbit/s, frame delay times and the
timer window when nobody answers. The SPI bus charges its own bytes.
"""

from fw_sim_bus import Lcg

FC = 13.56e6
BIT_US = 128 / FC * 1e6  # 9.44 us per bit at 106 kbit/s
FDT_US = 1172 / FC * 1e6  # minimum frame delay time, either direction (86.4 us)

IDLE, READY, ACTIVE, HALT = "IDLE", "READY", "ACTIVE", "HALT"
SEL = (0x93, 0x95, 0x97)


def crc_a(data):
    """CRC_A of ISO/IEC 14443-3 (reflected 0x8408, preset 0x6363); returns (low, high)."""
    crc = 0x6363
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


class ChipMFRC522:
    """The chip: registers, FIFO, commands, timer, CRC, and one or more antenna fields.

    ``fields`` lists the antennas behind an optional multiplexer; ``antenna`` picks one.
    """

    def __init__(self, fields=None, clock=None, version=0x92, seed=0):
        self.fields = fields if fields is not None else [Field()]
        self.antenna = 0
        self.clock = clock
        self.version = version
        self.rng = Lcg(seed)
        self.exchanges = 0
        self.collisions = 0
        self.on_exchange = None  # callable(chip) run before each air exchange
        self.holds_miso = False
        self.stuck_miso = 0x00
        self.cs_pin = None
        self._reset()
        self._pos = 0

    @property
    def field(self):
        """The field of the selected antenna."""
        return self.fields[self.antenna]

    def _reset(self):
        self.regs = bytearray(64)
        self.regs[0x01] = 0x20  # CommandReg: RcvOff=0, PowerDown=0 after reset completes
        self.regs[0x01] = 0x00
        self.regs[0x0D] = 0x00
        self.regs[0x0E] = 0xA0  # CollReg: ValuesAfterColl=1, CollPosNotValid=1
        self.regs[0x11] = 0x3F
        self.regs[0x14] = 0x80  # TxControlReg: antenna drivers off
        self.regs[0x2A] = 0x00
        self.fifo = []

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

    # --- registers -------------------------------------------------------------------------

    def read_reg(self, addr):
        """Register read with the chip's side effects (FIFO pops)."""
        if addr == 0x09:
            if self.fifo:
                return self.fifo.pop(0)
            return 0x00
        if addr == 0x0A:
            return len(self.fifo) & 0x7F
        if addr == 0x37:
            return self.version
        return self.regs[addr]

    def write_reg(self, addr, value):
        """Register write with the chip's semantics."""
        regs = self.regs
        if addr == 0x01:
            cmd = value & 0x0F
            regs[0x01] = value & 0x3F
            if cmd == 0x0F:
                self._reset()
            elif cmd == 0x03:
                lo, hi = crc_a(bytes(self.fifo))
                self.fifo = []
                regs[0x22], regs[0x21] = lo, hi
                regs[0x05] |= 0x04
            elif cmd == 0x0C and regs[0x0D] & 0x80:
                self._exchange()
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
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                regs[0x06] |= 0x10  # BufferOvfl
        elif addr == 0x0A:
            if value & 0x80:
                self.fifo = []
        elif addr == 0x0D:
            regs[0x0D] = value
            if value & 0x80 and regs[0x01] & 0x0F == 0x0C:
                self._exchange()
        elif addr == 0x0E:
            regs[0x0E] = (regs[0x0E] & 0x7F) | (value & 0x80)
        elif addr != 0x37:
            regs[addr] = value

    # --- air -------------------------------------------------------------------------------

    def timeout_us(self):
        """The timer window: (2 * prescaler + 1) * (reload + 1) / 13.56 MHz."""
        prescaler = ((self.regs[0x2A] & 0x0F) << 8) | self.regs[0x2B]
        reload = (self.regs[0x2C] << 8) | self.regs[0x2D]
        return (2 * prescaler + 1) * (reload + 1) / FC * 1e6

    def _charge(self, us):
        if self.clock is not None:
            self.clock.advance(us)

    @staticmethod
    def frame_bits(nbits):
        """Bits on the air for a frame of ``nbits`` data bits: start, parity per byte, end."""
        if nbits == 7:
            return 9  # short frame
        return 2 + nbits + nbits // 8

    def _exchange(self):
        regs = self.regs
        self.exchanges += 1
        if self.on_exchange is not None:
            self.on_exchange(self)
        tx_last = regs[0x0D] & 0x07
        rx_align = (regs[0x0D] >> 4) & 0x07
        data = bytes(self.fifo)
        self.fifo = []
        nbits = len(data) * 8 if tx_last == 0 else (len(data) - 1) * 8 + tx_last
        bits = to_bits(data, max(nbits, 0))
        regs[0x06] = 0
        regs[0x0E] |= 0x20
        regs[0x04] |= 0x40  # TxIRq
        self._charge(self.frame_bits(len(bits)) * BIT_US)
        answers = []
        if regs[0x14] & 0x03:  # antenna drivers on
            for tag in list(self.field.tags):
                answer = tag.receive(bits)
                if answer is not None:
                    answers.append(answer)
        if not answers:
            if regs[0x2A] & 0x80:  # TAuto: the timer runs from the end of transmission
                self._charge(self.timeout_us())
                regs[0x04] |= 0x01
            return
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
        total = rx_align + length
        placed = [0] * rx_align + got
        self.fifo = list(from_bits(placed)[:64])
        regs[0x0C] = (regs[0x0C] & 0xF8) | (total & 7)
        self._charge(FDT_US + self.frame_bits(length) * BIT_US + FDT_US)
        if coll is not None:
            self.collisions += 1
            regs[0x06] |= 0x08
            pos = rx_align + coll + 1
            if pos <= 32:
                regs[0x0E] = (regs[0x0E] & 0x80) | (pos & 0x1F)
            regs[0x04] |= 0x02
        regs[0x04] |= 0x20  # RxIRq
