"""PN5180 driver for ISO/IEC 15693 inventories, handed its SPI bus, NSS and BUSY pins.

The PN5180 is driven through its host interface: each instruction is one SPI frame (NSS low,
bytes, NSS high); BUSY rises while the chip works on it and the host waits for BUSY low before
the next frame, and before clocking out a reply. ISO 15693 tags answer an inventory in one of
16 time slots chosen by four UID bits after the mask; the host ends each slot with a bare EOF.
A slot where two tags answered (collision or broken CRC) is split by inventorying again with
the mask extended by that slot's four bits, recursively, so a goblet holding a dozen stacked
tokens is read completely. The UIDs are returned most significant byte first ("E004...").
"""

try:
    from micropython import const
except ImportError:  # CPython: the tests and the Pi adapters

    def const(value):
        """Stand-in for MicroPython's compile-time constant marker."""
        return value


# Host interface instructions.
CMD_WRITE_REGISTER = const(0x00)
CMD_WRITE_REGISTER_OR_MASK = const(0x01)
CMD_WRITE_REGISTER_AND_MASK = const(0x02)
CMD_READ_REGISTER = const(0x04)
CMD_READ_EEPROM = const(0x07)
CMD_SEND_DATA = const(0x09)
CMD_READ_DATA = const(0x0A)
CMD_LOAD_RF_CONFIG = const(0x11)
CMD_RF_ON = const(0x16)

# Registers.
REG_SYSTEM_CONFIG = const(0x00)
REG_IRQ_STATUS = const(0x02)
REG_IRQ_CLEAR = const(0x03)
REG_TIMER1_RELOAD = const(0x0C)
REG_TIMER1_CONFIG = const(0x0F)
REG_RX_STATUS = const(0x13)
REG_TX_CONFIG = const(0x18)

# IRQ_STATUS bits.
IRQ_RX = const(1 << 0)
IRQ_TX = const(1 << 1)
IRQ_IDLE = const(1 << 2)
IRQ_TIMER1 = const(1 << 12)
IRQ_RX_SOF = const(1 << 14)
IRQ_GENERAL_ERROR = const(1 << 17)

# RX_STATUS fields.
RX_BYTES_MASK = const(0x1FF)
RX_INTEGRITY_ERROR = const(1 << 16)
RX_PROTOCOL_ERROR = const(1 << 17)
RX_COLLISION = const(1 << 18)

EEPROM_PRODUCT_VERSION = const(0x10)
RF_CONFIG_ISO15693_TX = const(0x0D)
RF_CONFIG_ISO15693_RX = const(0x8D)
TX_CONFIG_SOF_DATA = const(0x4C0)  # TX_DATA_ENABLE and SOF bits: cleared, SEND_DATA sends EOF

# ISO 15693 request flags: high data rate | inventory (16 slots: Nb_slots flag clear).
FLAGS_INVENTORY_16 = const(0x06)
ISO15693_INVENTORY = const(0x01)
# RX wait window (TIMER1 at 6.78 MHz): 2712 counts = 400 us, past t1 = 320.9 us plus the SOF.
SLOT_WINDOW_COUNTS = const(2712)

SLOT_EMPTY = const(0)
SLOT_ONE = const(1)
SLOT_COLLISION = const(2)


class ReaderFault(Exception):
    """The chip does not answer, or answers as something else (``code`` as on the wire)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class PN5180:
    """One PN5180 on a shared SPI bus, selected by ``cs``; ``busy`` is its BUSY input pin."""

    def __init__(self, spi, cs, busy, rst=None, busy_limit=2000, poll_limit=200):
        self.spi = spi
        self.cs = cs
        self.busy = busy
        self.rst = rst
        self.busy_limit = busy_limit
        self.poll_limit = poll_limit
        cs(1)
        self._cmd = bytearray(16)
        self._reply = bytearray(16)
        self._req = bytearray(12)
        self.uid = bytearray(8)
        self.errors = 0

    # --- host interface --------------------------------------------------------------------

    def _wait_busy(self):
        for _ in range(self.busy_limit):
            if not self.busy():
                return
        raise ReaderFault(3, "PN5180: BUSY stuck high")

    def _send(self, n):
        self._wait_busy()
        self.cs(0)
        self.spi.write(memoryview(self._cmd)[:n])
        self.cs(1)
        self._wait_busy()

    def _receive(self, n):
        self.cs(0)
        self.spi.readinto(memoryview(self._reply)[:n], 0xFF)
        self.cs(1)
        self._wait_busy()
        return self._reply

    def _reg_cmd(self, cmd, reg, value):
        c = self._cmd
        c[0] = cmd
        c[1] = reg
        for i in range(4):
            c[2 + i] = (value >> (8 * i)) & 0xFF  # registers are little-endian
        self._send(6)

    def write_reg(self, reg, value):
        """WRITE_REGISTER."""
        self._reg_cmd(CMD_WRITE_REGISTER, reg, value)

    def or_reg(self, reg, mask):
        """WRITE_REGISTER_OR_MASK."""
        self._reg_cmd(CMD_WRITE_REGISTER_OR_MASK, reg, mask)

    def and_reg(self, reg, mask):
        """WRITE_REGISTER_AND_MASK."""
        self._reg_cmd(CMD_WRITE_REGISTER_AND_MASK, reg, mask)

    def read_reg(self, reg):
        """READ_REGISTER: an instruction frame, then a four-byte reply frame."""
        self._cmd[0] = CMD_READ_REGISTER
        self._cmd[1] = reg
        self._send(2)
        r = self._receive(4)
        return r[0] | (r[1] << 8) | (r[2] << 16) | (r[3] << 24)

    def read_eeprom(self, addr, n):
        """READ_EEPROM of ``n`` bytes (at most 16)."""
        c = self._cmd
        c[0] = CMD_READ_EEPROM
        c[1] = addr
        c[2] = n
        self._send(3)
        return bytes(self._receive(n)[:n])

    def send_data(self, data, n, valid_bits=0):
        """SEND_DATA: starts the transmission of a Transceive (n = 0 sends only an EOF)."""
        c = self._cmd
        c[0] = CMD_SEND_DATA
        c[1] = valid_bits
        for i in range(n):
            c[2 + i] = data[i]
        self._send(2 + n)

    def read_data(self, n):
        """READ_DATA: the received bytes of the last frame."""
        self._cmd[0] = CMD_READ_DATA
        self._cmd[1] = 0
        self._send(2)
        return self._receive(n)

    # --- set-up ----------------------------------------------------------------------------

    def init(self):
        """Reset, check the product version, load the ISO 15693 RF set-up, switch RF on."""
        if self.rst is not None:
            self.rst(0)
            self.rst(1)
        version = self.read_eeprom(EEPROM_PRODUCT_VERSION, 2)
        if version in (b"\x00\x00", b"\xff\xff"):
            raise ReaderFault(1, "PN5180: no answer on SPI")
        if version[1] not in (3, 4):
            raise ReaderFault(
                2, "PN5180: unexpected product version %d.%d" % (version[1], version[0])
            )
        c = self._cmd
        c[0] = CMD_LOAD_RF_CONFIG
        c[1] = RF_CONFIG_ISO15693_TX
        c[2] = RF_CONFIG_ISO15693_RX
        self._send(3)
        c[0] = CMD_RF_ON
        c[1] = 0
        self._send(2)
        self.write_reg(REG_TIMER1_RELOAD, SLOT_WINDOW_COUNTS)
        self.write_reg(REG_TIMER1_CONFIG, 0x00000801)  # start on TX end, stop on RX SOF, enable
        return version

    # --- ISO 15693 -------------------------------------------------------------------------

    def _slot(self, request_len):
        # One slot: transmit (the request, or a bare EOF when request_len == 0), wait for an
        # answer or the timer, classify it.
        self.write_reg(REG_IRQ_CLEAR, 0xFFFFFFFF)
        self.and_reg(REG_SYSTEM_CONFIG, 0xFFFFFFF8)  # Idle
        self.or_reg(REG_SYSTEM_CONFIG, 0x00000003)  # Transceive: waits for SEND_DATA
        self.send_data(self._req, request_len)
        irq = 0
        for _ in range(self.poll_limit):
            irq = self.read_reg(REG_IRQ_STATUS)
            if irq == 0xFFFFFFFF:
                # Reserved bits never read 1: the chip is gone and MISO floats high.
                raise ReaderFault(1, "PN5180: no answer on SPI (unplugged?)")
            if irq & (IRQ_RX | IRQ_TIMER1 | IRQ_GENERAL_ERROR):
                break
        else:
            raise ReaderFault(3, "PN5180: no interrupt from a transceive")
        if not irq & IRQ_RX:
            return SLOT_EMPTY
        status = self.read_reg(REG_RX_STATUS)
        n = status & RX_BYTES_MASK
        if status & (RX_COLLISION | RX_INTEGRITY_ERROR | RX_PROTOCOL_ERROR) or n != 10:
            return SLOT_COLLISION
        r = self.read_data(10)
        if r[0] & 0x01:  # error flag in the answer: treat as unreadable, ask again
            return SLOT_COLLISION
        for i in range(8):
            self.uid[i] = r[9 - i]  # the air carries the UID least significant byte first
        return SLOT_ONE

    def _round(self, mask, mask_len, found, pending):
        # One 16-slot inventory under a mask; collided slots become longer masks.
        req = self._req
        req[0] = FLAGS_INVENTORY_16
        req[1] = ISO15693_INVENTORY
        req[2] = mask_len
        nbytes = (mask_len + 7) >> 3
        for i in range(nbytes):
            req[3 + i] = (mask >> (8 * i)) & 0xFF
        for slot in range(16):
            if slot == 0:
                result = self._slot(3 + nbytes)
            else:
                self.and_reg(REG_TX_CONFIG, ~TX_CONFIG_SOF_DATA & 0xFFFFFFFF)
                try:
                    result = self._slot(0)
                finally:
                    self.or_reg(REG_TX_CONFIG, TX_CONFIG_SOF_DATA)
            if result == SLOT_ONE:
                uid = bytes(self.uid)
                if uid not in found:
                    found.append(uid)
            elif result == SLOT_COLLISION:
                if mask_len + 4 <= 60:
                    pending.append((mask | (slot << mask_len), mask_len + 4))
                else:
                    self.errors += 1

    def inventory(self, max_rounds=64):
        """Every ISO 15693 tag in the field, as 8-byte UIDs most significant byte first."""
        found = []
        pending = [(0, 0)]
        rounds = 0
        while pending and rounds < max_rounds:
            mask, mask_len = pending.pop()
            self._round(mask, mask_len, found, pending)
            rounds += 1
        if pending:
            self.errors += 1
        return found
