"""PN5180 model: the SPI host interface with BUSY, and ISO/IEC 15693 tags answering in slots.

Modelled: one instruction per NSS frame (WRITE_REGISTER, OR/AND masks, READ_REGISTER,
READ_EEPROM, SEND_DATA, READ_DATA, LOAD_RF_CONFIG, RF_ON); a reply is clocked out in a second
frame. After every frame BUSY reads high ``busy_reads`` times, then low; a frame started while
BUSY is high is counted in ``violations`` (the real chip would garble it). The registers the
driver uses: SYSTEM_CONFIG (Idle/Transceive), IRQ_STATUS/IRQ_CLEAR, TIMER1_RELOAD (counts at
6.78 MHz), RX_STATUS (bytes received, collision and integrity-error bits), TX_CONFIG (with
SOF/data disabled, SEND_DATA sends only an EOF: the next inventory slot).

ISO 15693 inventory (ISO/IEC 15693-3, 16 slots): a tag whose UID's low ``mask_len`` bits equal
the mask answers in the slot given by its next four UID bits. Two or more answers in one slot
superpose: RX_STATUS reports a collision. Time per exchange: VCD frame at 26.48 kbit/s (1 out of
4), t1 before the answer, the answer (single subcarrier, high rate), t2 after it; an empty
slot costs the RX window programmed in TIMER1_RELOAD.
"""

from fw_sim_bus import Lcg

FC = 13.56e6
BIT_US = 512 / FC * 1e6  # 37.76 us per bit at 26.48 kbit/s, both directions
VCD_SOF_US = 4 * 512 / FC * 1e6 / 2  # 75.52 us
VCD_EOF_US = 512 / FC * 1e6  # 37.76 us
VICC_SOF_US = 768 / FC * 1e6  # 56.64 us
VICC_EOF_US = 768 / FC * 1e6  # 56.64 us
T1_US = 4320 / FC * 1e6  # 318.6 us from VCD EOF to VICC SOF
T2_US = 4192 / FC * 1e6  # 309.2 us from VICC EOF to the next VCD EOF
TIMER1_HZ = 6.78e6
COMMAND_US = 5.0  # BUSY time of one host instruction


def crc15693(data):
    """ISO 15693 CRC (CRC-16/X-25 style: reflected 0x8408, preset 0xFFFF, inverted)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


class Tag15693:
    """A virtual ISO 15693 tag (ICODE SLIX token); ``uid`` most significant byte first."""

    def __init__(self, uid):
        if len(uid) != 8:
            raise ValueError("uid: 8 bytes")
        self.uid = bytes(uid)
        self.value = int.from_bytes(self.uid, "big")

    @classmethod
    def random(cls, rng):
        """E0 (ISO 15693), 04 (NXP), then random bytes."""
        return cls(b"\xe0\x04" + bytes(rng.randrange(256) for _ in range(6)))

    def slot_for(self, mask, mask_len):
        """The slot this tag answers in under (mask, mask_len), or None when it does not match."""
        if self.value & ((1 << mask_len) - 1) != mask:
            return None
        return (self.value >> mask_len) & 0x0F

    def answer(self):
        """flags, DSFID, UID least significant byte first (the PN5180 strips the CRC)."""
        return bytes([0x00, 0x00]) + bytes(reversed(self.uid))


class ChipPN5180:
    """The chip behind NSS and BUSY with one antenna field (a Field of Tag15693)."""

    def __init__(self, field, clock=None, product_version=(0x00, 0x04), busy_reads=1, seed=0):
        self.field = field
        self.clock = clock
        self.product_version = bytes(product_version)
        self.busy_reads = busy_reads
        self.rng = Lcg(seed)
        self.regs = {}
        self.irq = 0
        self.rx_status = 0
        self.rx = b""
        self.reply = b""
        self.violations = 0
        self.exchanges = 0
        self.on_exchange = None
        self.rf_on = False
        self.rf_config = None
        self.holds_miso = False
        self.cs_pin = None
        self._busy_left = 0
        self._frame = bytearray()
        self._out_pos = 0
        self._slot = None  # (answers per slot) of the running inventory
        self._slot_index = 0

    # --- BUSY and SPI ----------------------------------------------------------------------

    def busy(self):
        """The BUSY pin as the host reads it."""
        if self._busy_left > 0:
            self._busy_left -= 1
            return 1
        return 0

    def begin(self):
        """NSS fell."""
        if self._busy_left > 0:
            self.violations += 1
        self._frame = bytearray()
        self._out_pos = 0

    def xfer(self, mosi):
        """One byte in; out comes the pending reply (0xFF when none)."""
        self._frame.append(mosi)
        if self._out_pos < len(self.reply):
            out = self.reply[self._out_pos]
            self._out_pos += 1
            return out
        return 0xFF

    def end(self):
        """NSS rose: a frame that carried a reply consumes it, otherwise it is an instruction."""
        if self._out_pos:
            self.reply = b""
        else:
            self._execute(bytes(self._frame))
        self._busy_left = self.busy_reads
        if self.clock is not None:
            self.clock.advance(COMMAND_US)

    # --- instructions ----------------------------------------------------------------------

    def _reg(self, addr):
        if addr == 0x02:
            return self.irq
        if addr == 0x13:
            return self.rx_status
        return self.regs.get(addr, 0)

    def _set_reg(self, addr, value):
        value &= 0xFFFFFFFF
        if addr == 0x03:
            self.irq &= ~value
        elif addr == 0x02:
            pass
        else:
            self.regs[addr] = value

    def _execute(self, f):
        if not f:
            return
        cmd = f[0]
        if cmd in (0x00, 0x01, 0x02) and len(f) == 6:
            value = int.from_bytes(f[2:6], "little")
            old = self._reg(f[1])
            if cmd == 0x01:
                value |= old
            elif cmd == 0x02:
                value &= old
            self._set_reg(f[1], value)
        elif cmd == 0x04 and len(f) == 2:
            self.reply = self._reg(f[1]).to_bytes(4, "little")
        elif cmd == 0x07 and len(f) == 3:
            eeprom = bytearray(256)
            eeprom[0x10:0x12] = self.product_version
            self.reply = bytes(eeprom[f[1] : f[1] + f[2]])
        elif cmd == 0x0A and len(f) == 2:
            self.reply = self.rx
        elif cmd == 0x11 and len(f) == 3:
            self.rf_config = (f[1], f[2])
        elif cmd == 0x16:
            self.rf_on = True
        elif cmd == 0x09 and len(f) >= 2:
            self._send_data(f[2:])

    # --- air -------------------------------------------------------------------------------

    def _charge(self, us):
        if self.clock is not None:
            self.clock.advance(us)

    def _send_data(self, data):
        if self.regs.get(0x00, 0) & 0x07 != 0x03 or not self.rf_on:
            return  # not in Transceive: SEND_DATA is ignored
        self.exchanges += 1
        if self.on_exchange is not None:
            self.on_exchange(self)
        self.irq |= 1 << 1  # TX_IRQ
        eof_only = not self.regs.get(0x18, 0x4C0) & 0x4C0
        if eof_only:
            self._charge(VCD_EOF_US)
            if self._slot is None or self._slot_index >= 15:
                self._timeout()
                return
            self._slot_index += 1
        else:
            self._charge(VCD_SOF_US + (len(data) + 2) * 8 * BIT_US + VCD_EOF_US)
            self._slot = None
            if len(data) >= 3 and data[0] & 0x04 and data[1] == 0x01:
                mask_len = data[2]
                mask = int.from_bytes(data[3 : 3 + (mask_len + 7) // 8], "little")
                self._slot = [[] for _ in range(16 if not data[0] & 0x20 else 1)]
                for tag in self.field.tags:
                    slot = tag.slot_for(mask, mask_len)
                    if slot is not None:
                        self._slot[slot if len(self._slot) == 16 else 0].append(tag)
                self._slot_index = 0
            else:
                self._timeout()
                return
        present = self.field.uids()
        answers = [t.answer() for t in self._slot[self._slot_index] if t.uid in present]
        if not answers:
            self._timeout()
            return
        self._charge(T1_US + VICC_SOF_US + 12 * 8 * BIT_US + VICC_EOF_US + T2_US)
        self.irq |= (1 << 14) | (1 << 0)  # RX_SOF_DET, RX_IRQ
        if len(answers) == 1:
            self.rx = answers[0]
            self.rx_status = len(self.rx)
            return
        merged = bytearray(10)
        first = None
        for i in range(80):
            bits = {(a[i >> 3] >> (i & 7)) & 1 for a in answers}
            if len(bits) > 1 and first is None:
                first = i
            merged[i >> 3] |= (bits.pop() if len(bits) == 1 else self.rng.randrange(2)) << (i & 7)
        self.rx = bytes(merged)
        status = 10 | (1 << 16)  # the superposed frame fails its CRC
        if first is not None:
            status |= (1 << 18) | ((first & 0x7F) << 19)
        self.rx_status = status

    def _timeout(self):
        reload = self.regs.get(0x0C, 0)
        self._charge(reload / TIMER1_HZ * 1e6)
        self.rx = b""
        self.rx_status = 0
        self.irq |= 1 << 12  # TIMER1_IRQ
