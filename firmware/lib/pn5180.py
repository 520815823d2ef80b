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


# Host interface instructions (PN5180 datasheet 11.4.3; RF_OFF as in ATrappmann's PN5180.cpp).
CMD_WRITE_REGISTER = const(0x00)
CMD_WRITE_REGISTER_OR_MASK = const(0x01)
CMD_WRITE_REGISTER_AND_MASK = const(0x02)
CMD_READ_REGISTER = const(0x04)
CMD_READ_EEPROM = const(0x07)
CMD_SEND_DATA = const(0x09)
CMD_READ_DATA = const(0x0A)
CMD_LOAD_RF_CONFIG = const(0x11)
CMD_RF_ON = const(0x16)
CMD_RF_OFF = const(0x17)

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
IRQ_TX_RFOFF = const(1 << 8)
IRQ_TX_RFON = const(1 << 9)
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

# TIMER1_CONFIG (NXP NxpNfcRdLib phhalHw_Pn5180_Reg.h): T1_ENABLE (bit 0), T1_START_ON_TX_ENDED
# (bit 11), T1_STOP_ON_RX_STARTED (bit 20): the window runs from the end of our frame until a
# tag's SOF is received, so an answer (3.7 ms) is never cut by the timer. T1_MODE_SEL (bit 2)
# clear: the timer counts at 13.56 MHz (the prescaler, 6.78 MHz >> PRESCALE_SEL, is off).
TIMER1_CONFIG_SLOT = const(0x00100801)
TIMER1_HZ = 13_560_000
# The windows, as NXP's reader library sets them (phpalSli15693_Sw_Int.h, phpalSli15693_Sw.c):
# after the inventory request its slot timeout t1 + t2 = 324 + 310 = 634 us; after a slot's EOF
# (ASK 100 %, high data rate) t1 + SOF = 324 + 152 = 476 us. phhalHw_Pn5180_SetTmo adds the
# receive digital delay, 321 us at the high data rate, for firmware below 3.8
# (gkphhalHw_Pn5180_DigiDelays_Us): 955 us and 797 us there. Counts at 13.56 MHz: 634 us = 8597,
# 476 us = 6455, 955 us = 12950, 797 us = 10807. ISO 15693-3's t1 is 4320/fc = 318.6 us and the
# answer's SOF 768/fc = 56.6 us, so a SOF is received by 375 us (+ the delay).
REQUEST_WINDOW_US = 634
EOF_WINDOW_US = 476
DIGITAL_DELAY_US = 321
FIRMWARE_NO_DELAY = const(0x0308)
EEPROM_FIRMWARE_VERSION = const(0x12)
# ISO/IEC 15693-3 9.1.3: t2 = 4192/fc = 309.2 us from a tag's EOF to the next slot's EOF.
T2_US = 310
# A tag in a field just switched on may take about 1 ms to power up (ISO 15693); it must have
# power before the request starts or it does not hear it.
TAG_POWER_UP_US = 1000
# RESET_N low "at least 10us" and "2ms to ramp up" (ATrappmann PN5180::reset, from the datasheet).
RESET_LOW_US = 100
BOOT_TIMEOUT_US = 20_000
# The longest BUSY of one instruction we accept before calling the chip stuck (LOAD_RF_CONFIG
# copies the RF set-up from EEPROM; the others take microseconds).
BUSY_TIMEOUT_US = 5_000
# BUSY rises right after a frame's last byte; a chip that never raises it is not answering.
BUSY_RISE_TIMEOUT_US = 1_000
# RF_ON/RF_OFF until TX_RFON/TX_RFOFF; a transceive until RX or TIMER1: the window, the
# longest answer (SOF + 12 bytes + EOF = 3.74 ms) and room for the SPI polling.
RF_TIMEOUT_US = 10_000
TRANSCEIVE_TIMEOUT_US = 10_000
BUSY_POLL_US = 1
# Air times (ISO 15693-2, 1 out of 4 at 26.48 kbit/s): SOF 75.52 us, 37.76 us a bit, EOF
# 37.76 us; the answer after its SOF: 96 bits and a 56.64 us EOF = 3681 us. Nothing can come
# back before our frame is out and t1 (4320/fc = 318.6 us) has passed, and an answer whose SOF
# was seen cannot end sooner than 3681 us later: the driver sleeps through those instead of
# polling IRQ_STATUS over the bus.
VCD_SOF_US = 75.52
VCD_BIT_US = 37.76
VCD_EOF_US = 37.76
T1_SLEEP_US = 300
ANSWER_REST_US = 3600

SLOT_EMPTY = const(0)
SLOT_ONE = const(1)
SLOT_COLLISION = const(2)


class ReaderFault(Exception):
    """The chip does not answer, or answers as something else (``code`` as on the wire)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class PN5180:
    """One PN5180 on a shared SPI bus, selected by ``cs``; ``busy`` is its BUSY input pin.

    ``rst`` is this reader's own RESET_N output (pulsed by ``init()``); ``clock`` provides
    ``ticks_us``, ``ticks_diff``, ``sleep_us`` (None: MicroPython's ``time``). Every timeout is
    in microseconds of that clock. With ``field_off_between`` the RF field is on only during an
    inventory (heat and power); otherwise ``init()`` leaves it on.
    """

    def __init__(self, spi, cs, busy, rst=None, clock=None, field_off_between=True):
        if clock is None:
            import time as clock
        self.spi = spi
        self.cs = cs
        self.busy = busy
        self.rst = rst
        self.clock = clock
        self.field_off_between = field_off_between
        self.timer1_config = TIMER1_CONFIG_SLOT
        self.request_counts = self.eof_counts = 0  # set by init() from the firmware version
        self.power_up_us = TAG_POWER_UP_US
        cs(1)
        self._cmd = bytearray(16)
        self._reply = bytearray(16)
        self._req = bytearray(12)
        self.uid = bytearray(8)
        self.errors = 0
        self.field = False
        self._answered_at = None  # ticks_us when the last answer was seen complete

    # --- host interface --------------------------------------------------------------------

    def _wait_busy(self, level, timeout_us):
        # Datasheet 11.4 BUSY handling: wait for BUSY high before NSS rises, for BUSY low
        # before the next frame; both bounded in microseconds of the clock.
        if self.busy() == level:
            return
        clock = self.clock
        start = clock.ticks_us()
        while self.busy() != level:
            if clock.ticks_diff(clock.ticks_us(), start) > timeout_us:
                if level:
                    # The chip never took the frame: nobody is there (or it is held in reset).
                    raise ReaderFault(1, "PN5180: no answer on SPI (BUSY never rose)")
                raise ReaderFault(3, "PN5180: BUSY stuck high")
            clock.sleep_us(BUSY_POLL_US)

    def _frame(self, buf, read):
        # One SPI frame: BUSY low, NSS low, bytes, BUSY high, NSS high, BUSY low.
        self._wait_busy(0, BUSY_TIMEOUT_US)
        self.cs(0)
        try:
            if read:
                self.spi.readinto(buf, 0xFF)
            else:
                self.spi.write(buf)
            self._wait_busy(1, BUSY_RISE_TIMEOUT_US)
        finally:
            self.cs(1)
        self._wait_busy(0, BUSY_TIMEOUT_US)

    def _send(self, n):
        self._frame(memoryview(self._cmd)[:n], False)

    def _receive(self, n):
        self._frame(memoryview(self._reply)[:n], True)
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

    def _wait_irq(self, mask, timeout_us, what):
        # Poll IRQ_STATUS until one of ``mask`` is set; every read moves the clock (SPI, BUSY).
        clock = self.clock
        start = clock.ticks_us()
        while True:
            irq = self.read_reg(REG_IRQ_STATUS)
            if irq == 0xFFFFFFFF:
                # Reserved bits never read 1: the chip is gone and MISO floats high.
                raise ReaderFault(1, "PN5180: no answer on SPI (unplugged?)")
            if irq & mask:
                return irq
            if clock.ticks_diff(clock.ticks_us(), start) > timeout_us:
                raise ReaderFault(3, "PN5180: no interrupt from " + what)

    # --- set-up ----------------------------------------------------------------------------

    def reset(self):
        """Pulse RESET_N, wait for the boot (BUSY low, IDLE_IRQ), clear the IRQs."""
        self.rst(0)
        self.clock.sleep_us(RESET_LOW_US)
        self.rst(1)
        self._wait_busy(0, BOOT_TIMEOUT_US)
        self._wait_irq(IRQ_IDLE, BOOT_TIMEOUT_US, "the boot (IDLE_IRQ)")
        self.write_reg(REG_IRQ_CLEAR, 0xFFFFFFFF)
        self.field = False

    def init(self):
        """Reset, check the product version, load the ISO 15693 RF set-up and the timer."""
        if self.rst is not None:
            self.reset()
        version = self.read_eeprom(EEPROM_PRODUCT_VERSION, 2)
        if version in (b"\x00\x00", b"\xff\xff"):
            raise ReaderFault(1, "PN5180: no answer on SPI")
        if version[1] not in (3, 4):
            raise ReaderFault(
                2, "PN5180: unexpected product version %d.%d" % (version[1], version[0])
            )
        fw = self.read_eeprom(EEPROM_FIRMWARE_VERSION, 2)
        delay = DIGITAL_DELAY_US if (fw[1] << 8 | fw[0]) < FIRMWARE_NO_DELAY else 0
        self.request_counts = (REQUEST_WINDOW_US + delay) * TIMER1_HZ // 1_000_000
        self.eof_counts = (EOF_WINDOW_US + delay) * TIMER1_HZ // 1_000_000
        c = self._cmd
        c[0] = CMD_LOAD_RF_CONFIG
        c[1] = RF_CONFIG_ISO15693_TX
        c[2] = RF_CONFIG_ISO15693_RX
        self._send(3)
        self.write_reg(REG_TIMER1_CONFIG, self.timer1_config)
        if not self.field_off_between:
            self.field_on()
        return version

    def field_on(self):
        """RF_ON, wait for TX_RFON_IRQ, then the tags' power-up time."""
        self._rf(CMD_RF_ON, IRQ_TX_RFON, "RF_ON")
        self.clock.sleep_us(self.power_up_us)
        self.field = True

    def field_off(self):
        """RF_OFF and wait for TX_RFOFF_IRQ: the tags lose power."""
        self._rf(CMD_RF_OFF, IRQ_TX_RFOFF, "RF_OFF")
        self.field = False

    def _rf(self, cmd, irq, what):
        self.write_reg(REG_IRQ_CLEAR, irq)
        self._cmd[0] = cmd
        self._cmd[1] = 0
        self._send(2)
        self._wait_irq(irq, RF_TIMEOUT_US, what)
        self.write_reg(REG_IRQ_CLEAR, irq)

    # --- ISO 15693 -------------------------------------------------------------------------

    def _slot(self, request_len):
        # One slot: transmit (the request, or a bare EOF when request_len == 0), wait for an
        # answer or the timer, classify it.
        clock = self.clock
        if self._answered_at is not None:
            # ISO 15693-3 9.1.3: the next EOF no sooner than t2 after the last answer's EOF.
            left = T2_US - clock.ticks_diff(clock.ticks_us(), self._answered_at)
            if left > 0:
                clock.sleep_us(left)
            self._answered_at = None
        self.write_reg(REG_IRQ_CLEAR, 0xFFFFFFFF)
        self.and_reg(REG_SYSTEM_CONFIG, 0xFFFFFFF8)  # Idle
        self.or_reg(REG_SYSTEM_CONFIG, 0x00000003)  # Transceive: waits for SEND_DATA
        self.send_data(self._req, request_len)
        air = VCD_EOF_US
        if request_len:
            air += VCD_SOF_US + (request_len + 2) * 8 * VCD_BIT_US  # data and CRC
        clock.sleep_us(int(air) + T1_SLEEP_US)
        done = IRQ_RX | IRQ_TIMER1 | IRQ_GENERAL_ERROR
        irq = self._wait_irq(done | IRQ_RX_SOF, TRANSCEIVE_TIMEOUT_US, "a slot")
        if not irq & done:
            clock.sleep_us(ANSWER_REST_US)  # a SOF came: the answer takes 3.68 ms more
            irq = self._wait_irq(done, TRANSCEIVE_TIMEOUT_US, "a slot")
        if not irq & IRQ_RX:
            return SLOT_EMPTY
        self._answered_at = clock.ticks_us()
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
        # One 16-slot inventory under a mask; collided slots become longer masks. TX_CONFIG
        # sends only EOFs for slots 1..15 and is restored once, after the round.
        req = self._req
        req[0] = FLAGS_INVENTORY_16
        req[1] = ISO15693_INVENTORY
        req[2] = mask_len
        nbytes = (mask_len + 7) >> 3
        for i in range(nbytes):
            req[3 + i] = (mask >> (8 * i)) & 0xFF
        self._answered_at = None
        try:
            for slot in range(16):
                if slot == 0:
                    self.write_reg(REG_TIMER1_RELOAD, self.request_counts)
                    result = self._slot(3 + nbytes)
                    self.and_reg(REG_TX_CONFIG, ~TX_CONFIG_SOF_DATA & 0xFFFFFFFF)
                    self.write_reg(REG_TIMER1_RELOAD, self.eof_counts)
                else:
                    result = self._slot(0)
                if result == SLOT_ONE:
                    uid = bytes(self.uid)
                    if uid not in found:
                        found.append(uid)
                elif result == SLOT_COLLISION:
                    if mask_len + 4 <= 60:
                        pending.append((mask | (slot << mask_len), mask_len + 4))
                    else:
                        self.errors += 1
        finally:
            self.or_reg(REG_TX_CONFIG, TX_CONFIG_SOF_DATA)

    def inventory(self, max_rounds=64):
        """Every ISO 15693 tag in the field, as 8-byte UIDs most significant byte first.

        The field is switched on (and the tags given their power-up time) first if it is off,
        and off again afterwards when ``field_off_between`` is set.
        """
        if not self.field:
            self.field_on()
        try:
            found = []
            pending = [(0, 0)]
            rounds = 0
            while pending and rounds < max_rounds:
                mask, mask_len = pending.pop()
                self._round(mask, mask_len, found, pending)
                rounds += 1
            if pending:
                self.errors += 1
        finally:
            if self.field_off_between:
                self.field_off()
        return found
