"""PN5180 model on modelled time: the SPI host interface with BUSY, TIMER1, RF field and tags.

Everything happens at a time of the shared ``SimClock`` (microseconds). The model keeps a queue
of timed events (BUSY falling, the field up, frames on the air, the timer's expiry) and plays
them whenever the host touches a pin, so a register read shows only what the modelled clock has
reached. Sources: NXP PN5180 datasheet host-interface section as quoted by NXP support and in
ATrappmann/PN5180-Library (PN5180.cpp), NXP NxpNfcRdLib ``phhalHw_Pn5180_Reg.h`` (TIMER1_CONFIG
bit map), ISO/IEC 15693-2/-3 (frame timing). Figures the sources do not give are marked
*modelled*.

Host interface (datasheet 11.4, "BUSY line handling": assert NSS, exchange, wait BUSY high,
deassert NSS, wait BUSY low). A frame holding a complete instruction makes BUSY rise
``BUSY_RISE_US`` after its last byte (modelled), while NSS is still low; BUSY stays high after
NSS rises for the instruction's processing time (``busy_us``, modelled), then falls. A GET
instruction's reply is clocked out in a second frame, valid only once BUSY is low; BUSY rises
again after its last byte. Counted in ``violations``: NSS falling or a byte clocked while BUSY
is high, NSS released before BUSY rose, a reply frame started before BUSY fell.

Reset (ATrappmann: RESET_N low "at least 10us", then "2ms to ramp up"): RESET_N low holds the
chip (it ignores SPI); when it rises the chip boots for ``boot_us`` with BUSY high, then sets
IDLE_IRQ. RF_ON (0x16): the field ramps for ``rf_on_us`` (modelled), then TX_RFON_IRQ (bit 9).
RF_OFF (0x17): TX_RFOFF_IRQ (bit 8) after ``rf_on_us``; every tag loses power.

Transceive (SYSTEM_CONFIG command 3, then SEND_DATA): the request's air time at 26.48 kbit/s
(1 out of 4: SOF 75.52 us, 37.76 us per bit, EOF 37.76 us; with TX_CONFIG's SOF/data bits
cleared only the EOF, the next inventory slot), then t1 = 4320/fc, then the answer of every tag
whose slot it is (single subcarrier, high rate: SOF 768/fc, 96 bits of 512/fc, EOF 768/fc).
RX_SOF_DET_IRQ and the timer's RX-started event come when the SOF has been received, RX_IRQ and
RX_STATUS at the end of the frame; for firmware below 3.8 both come ``DIGITAL_DELAY_US`` late
(NXP's reader library adds that delay to every timeout for such firmware). A tag hears a
request only if it had power for ``tag_power_up_us`` before the request began (ISO 15693's
VICC power-up, about 1 ms); a slot EOF sent less than t2 = 4192/fc after the last answer is
not taken by the tags (counted in ``t2_violations``). Two or more answers superpose: RX_STATUS
collision and integrity bits.

TIMER1 (NXP register map, TIMER1_CONFIG 0x0F): every defined bit is modelled; setting any other
bit raises ``ModelError``. T1_ENABLE (0), T1_RELOAD_ENABLE (1), T1_MODE_SEL (2: clear = 13.56
MHz, set = the prescaler), T1_PRESCALE_SEL (3..5: 6.78 MHz >> n), START_NOW (6), start on
internal RF off/on (7, 8), external RF off/on (9, 10; this model has no external field, so they
never fire), TX ended (11), TX started (12), RX ended (13), RX started (14); stop on internal RF
off/on (15, 16), external RF off/on (17, 18), TX started (19), RX started (20). TIMER1_RELOAD is
20 bits. Expiry sets TIMER1_IRQ (bit 12) and ends a reception in progress: the answer is lost.
"""

from fw_sim_bus import Lcg

FC = 13.56e6
BIT_US = 512 / FC * 1e6  # 37.76 us per bit at 26.48 kbit/s, both directions (ISO 15693-2)
VCD_SOF_US = 4 * 256 / FC * 1e6  # 75.52 us, the 1-out-of-4 SOF (ISO 15693-2 8.2)
VCD_EOF_US = 512 / FC * 1e6  # 37.76 us
VICC_SOF_US = 768 / FC * 1e6  # 56.64 us
VICC_EOF_US = 768 / FC * 1e6  # 56.64 us
T1_US = 4320 / FC * 1e6  # 318.6 us from the VCD's EOF to the VICC's SOF (ISO 15693-3 9.1.2)
T2_US = 4192 / FC * 1e6  # 309.1 us from a VICC's EOF to the next slot's EOF (9.1.3)
ANSWER_BITS = 12 * 8  # flags, DSFID, UID, CRC

BUSY_RISE_US = 1.0  # modelled: BUSY rises this long after a complete frame's last byte
BUSY_US = 5.0  # modelled processing time of a register/data instruction
LOAD_RF_CONFIG_US = 200.0  # modelled: the RF set-up is copied from EEPROM
RF_ON_US = 30.0  # modelled: field ramp until TX_RFON_IRQ / TX_RFOFF_IRQ
BOOT_US = 2000.0  # ATrappmann: "2ms to ramp up required" after RESET_N rises
RESET_MIN_US = 10.0  # ATrappmann: RESET_N low "at least 10us required"
BYTE_US = 2.0  # one byte at 4 MHz: the bus calls xfer at a byte's end, it began this much earlier
TAG_POWER_UP_US = 1000.0  # ISO 15693: a VICC may take about 1 ms to power up in the field
DIGITAL_DELAY_US = 321.0  # NXP's ISO 15693 high-rate digital delay, firmware < 3.8

# IRQ_STATUS bits (NXP phhalHw_Pn5180_Reg.h; ATrappmann PN5180.h).
IRQ_RX = 1 << 0
IRQ_TX = 1 << 1
IRQ_IDLE = 1 << 2
IRQ_TX_RFOFF = 1 << 8
IRQ_TX_RFON = 1 << 9
IRQ_TIMER1 = 1 << 12
IRQ_RX_SOF_DET = 1 << 14

# TIMER1_CONFIG bits.
T1_ENABLE = 1 << 0
T1_RELOAD_ENABLE = 1 << 1
T1_MODE_SEL = 1 << 2
T1_PRESCALE_SHIFT = 3
T1_START_NOW = 1 << 6
T1_STOP_ON_RX_STARTED = 1 << 20
T1_DEFINED = (1 << 21) - 1  # bits 0..20; 21..31 are not in the register map
START_BITS = {
    "rf_off_int": 7,
    "rf_on_int": 8,
    "rf_off_ext": 9,
    "rf_on_ext": 10,
    "tx_ended": 11,
    "tx_started": 12,
    "rx_ended": 13,
    "rx_started": 14,
}
STOP_BITS = {
    "rf_off_int": 15,
    "rf_on_int": 16,
    "rf_off_ext": 17,
    "rf_on_ext": 18,
    "tx_started": 19,
    "rx_started": 20,
}
RELOAD_MASK = 0xFFFFF

REG_SYSTEM_CONFIG = 0x00
REG_IRQ_STATUS = 0x02
REG_IRQ_CLEAR = 0x03
REG_TIMER1_RELOAD = 0x0C
REG_TIMER1_CONFIG = 0x0F
REG_RX_STATUS = 0x13
REG_TX_CONFIG = 0x18
TX_CONFIG_SOF_DATA = 0x4C0
ISO15693_RF_CONFIG = (0x0D, 0x8D)

# Instruction code -> frame length (None: variable, at least 2).
FRAME_LEN = {0x00: 6, 0x01: 6, 0x02: 6, 0x04: 2, 0x07: 3, 0x09: None, 0x0A: 2, 0x11: 3}
FRAME_LEN.update({0x16: 2, 0x17: 2})


class ModelError(Exception):
    """The driver used something this model does not model (an undefined register bit)."""


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
    """The chip behind NSS, BUSY and RESET_N with one antenna field (a Field of Tag15693)."""

    def __init__(
        self,
        field,
        clock,
        product_version=(0x00, 0x04),
        firmware_version=(0x00, 0x04),
        seed=0,
        busy_us=BUSY_US,
        tag_power_up_us=TAG_POWER_UP_US,
        rf_on_us=RF_ON_US,
        boot_us=BOOT_US,
        byte_us=BYTE_US,
    ):
        self.field = field
        self.clock = clock
        self.product_version = bytes(product_version)
        self.firmware_version = bytes(firmware_version)
        # NXP adds (and for the FDT subtracts) a receive digital delay of 321 us at the high
        # data rate for firmware below 3.8 (phhalHw_Pn5180_SetTmo, gkphhalHw_Pn5180_DigiDelays_Us):
        # the chip's receive events come that much after the air's. Modelled as such.
        major, minor = firmware_version[1], firmware_version[0]
        self.rx_delay_us = DIGITAL_DELAY_US if (major << 8 | minor) < 0x308 else 0.0
        self.busy_us = busy_us
        self.tag_power_up_us = tag_power_up_us
        self.rf_on_us = rf_on_us
        self.boot_us = boot_us
        self.byte_us = byte_us
        self.rng = Lcg(seed)
        self.violations = 0
        self.t2_violations = 0
        self.exchanges = 0
        self.on_exchange = None
        self.holds_miso = False
        self.stuck_busy = False  # a hardware fault: BUSY never falls
        self.cs_pin = None
        self.rf_on_time_us = 0.0  # total time the field was on (heat, power)
        self._events = []  # sorted (time, seq, name, arg)
        self._seq = 0
        self._power_on()
        self.irq = IRQ_IDLE  # the chip booted at power-on

    def _power_on(self):
        self.regs = {REG_TX_CONFIG: 0}
        self.irq = 0
        self.rx_status = 0
        self.rx = b""
        self.reply = b""
        self.rf_on = False
        self.rf_config = None
        self.state = "idle"  # idle, wait_transmit, transmitting, wait_receive, receiving
        self._events = []
        self._field_since = None  # when the field came up (None: off)
        self._field_changed_at = None
        self._powered = {}  # uid -> time the tag had power and was in the field
        self._tags_key = None
        self._nss_low = False
        self._frame = bytearray()
        self._last_byte_at = 0.0
        self._out_pos = 0
        self._reply_ready = False
        self._busy_until = 0.0
        self._in_reset = False
        self._reset_fell = None
        self._timer_start = None  # running since (None: stopped)
        self._timer_expired = False
        self._inventory = None  # per slot, the tags that heard the request
        self._slot_index = 0
        self._answer_end = None  # air time the last answer ended (for t2)
        self._pending = None  # the answer being received: (answers,)
        self.tx_started_at = None  # when the last transmission began

    # --- modelled time ---------------------------------------------------------------------

    def _now(self):
        return self.clock.us

    def _at(self, t, name, arg=None):
        self._seq += 1
        item = (t, self._seq, name, arg)
        events = self._events
        i = len(events)
        while i > 0 and events[i - 1][:2] > item[:2]:
            i -= 1
        events.insert(i, item)

    def _cancel(self, *names):
        self._events = [e for e in self._events if e[2] not in names]

    def sync(self):
        """Play every event the modelled clock has reached, in time order."""
        now = self._now()
        self._track_tags(now)
        while self._events and self._events[0][0] <= now:
            t, _, name, arg = self._events.pop(0)
            getattr(self, "_ev_" + name)(t, arg)

    def _track_tags(self, now):
        # A tag gets power from the moment both it is in the field and the field is up.
        if self._field_since is None:
            self._powered = {}
            return
        tags = self.field.tags
        key = (id(tags), len(tags))
        if key == self._tags_key:
            return  # the field's tags have not changed since the last look
        self._tags_key = key
        present = self.field.uids()
        for uid in list(self._powered):
            if uid not in present:
                del self._powered[uid]
        for uid in present:
            if uid not in self._powered:
                self._powered[uid] = max(self._field_since, now)

    def _hears(self, tag, t):
        since = self._powered.get(tag.uid)
        return since is not None and t - since >= self.tag_power_up_us

    # --- pins ------------------------------------------------------------------------------

    def busy(self):
        """The BUSY pin as the host reads it."""
        self.sync()
        return 1 if self._busy_now() else 0

    def _busy_now(self):
        now = self._now()
        if self.stuck_busy or self._in_reset:
            return True
        if self._nss_low:
            return self._frame_complete() and now - self._last_byte_at >= BUSY_RISE_US
        return now < self._busy_until

    def reset_line(self, level):
        """RESET_N driven by the host (wire as a SimPin's ``on_change``)."""
        now = self._now()
        if not level:
            self._reset_fell = now
            self._in_reset = True
            return
        if self._reset_fell is None:
            return
        held = now - self._reset_fell
        self._in_reset = False
        self._reset_fell = None
        if held < RESET_MIN_US:
            return  # too short a pulse: not a reset
        self.rf_on_time_us += self._field_on_for(now)
        self._power_on()
        self._busy_until = now + self.boot_us
        self._at(now + self.boot_us, "booted")

    def _ev_booted(self, t, arg):
        self.irq |= IRQ_IDLE

    # --- SPI -------------------------------------------------------------------------------

    def begin(self):
        """NSS fell."""
        self.sync()
        if self._busy_now():
            self.violations += 1
        self._nss_low = True
        self._frame = bytearray()
        self._out_pos = 0
        self._last_byte_at = self._now()

    def _frame_complete(self):
        f = self._frame
        if self._reply_ready:
            return len(f) >= len(self.reply)
        if not f:
            return False
        n = FRAME_LEN.get(f[0], 1)
        return len(f) >= 2 if n is None else len(f) >= n

    def xfer(self, mosi):
        """One byte in; out comes the pending reply (0xFF when none)."""
        self.sync()
        began = self._now() - self.byte_us
        if self.stuck_busy or self._in_reset:
            self.violations += 1
        elif self._frame_complete() and began - self._last_byte_at >= BUSY_RISE_US:
            self.violations += 1  # BUSY had risen: the chip takes no more bytes
        self._frame.append(mosi)
        self._last_byte_at = self._now()
        if self._in_reset:
            return 0xFF
        if self._reply_ready and self._out_pos < len(self.reply):
            out = self.reply[self._out_pos]
            self._out_pos += 1
            return out
        return 0xFF

    def end(self):
        """NSS rose: a reply frame consumes the reply, otherwise the instruction runs."""
        self.sync()
        self._nss_low = False
        now = self._now()
        if self._in_reset:
            return
        if not (self._frame_complete() and now - self._last_byte_at >= BUSY_RISE_US):
            self.violations += 1  # NSS released before BUSY rose
        if self._reply_ready:
            self._reply_ready = False
            self.reply = b""
            self._busy_until = now + self.busy_us
            return
        busy = self._execute(bytes(self._frame), now)
        self._busy_until = now + busy
        if self.reply:
            self._reply_ready = True

    # --- instructions ----------------------------------------------------------------------

    def _reg(self, addr):
        if addr == REG_IRQ_STATUS:
            return self.irq
        if addr == REG_RX_STATUS:
            return self.rx_status
        return self.regs.get(addr, 0)

    def _set_reg(self, addr, value, now):
        value &= 0xFFFFFFFF
        if addr == REG_IRQ_CLEAR:
            self.irq &= ~value
        elif addr == REG_IRQ_STATUS:
            pass
        elif addr == REG_TIMER1_CONFIG:
            if value & ~T1_DEFINED:
                raise ModelError("TIMER1_CONFIG bits %#x are not modelled" % (value & ~T1_DEFINED))
            self.regs[addr] = value
            if not value & T1_ENABLE:
                self._timer_stop()
            elif value & T1_START_NOW:
                self._timer_begin(now)
        elif addr == REG_TIMER1_RELOAD:
            if value & ~RELOAD_MASK:
                raise ModelError("TIMER1_RELOAD is 20 bits, got " + hex(value))
            self.regs[addr] = value
        elif addr == REG_SYSTEM_CONFIG:
            self.regs[addr] = value
            command = value & 0x07
            if command == 0:
                self._abort()
                self.state = "idle"
            elif command == 3 and self.state == "idle":
                self.state = "wait_transmit"
        else:
            self.regs[addr] = value

    def _execute(self, f, now):
        if not f:
            return 0.0
        cmd = f[0]
        self.reply = b""
        if cmd in (0x00, 0x01, 0x02) and len(f) == 6:
            value = int.from_bytes(f[2:6], "little")
            old = self._reg(f[1])
            if cmd == 0x01:
                value |= old
            elif cmd == 0x02:
                value &= old
            self._set_reg(f[1], value, now)
        elif cmd == 0x04 and len(f) == 2:
            self.reply = self._reg(f[1]).to_bytes(4, "little")
        elif cmd == 0x07 and len(f) == 3:
            eeprom = bytearray(256)
            eeprom[0x10:0x12] = self.product_version
            eeprom[0x12:0x14] = self.firmware_version
            self.reply = bytes(eeprom[f[1] : f[1] + f[2]])
        elif cmd == 0x0A and len(f) == 2:
            self.reply = self.rx
        elif cmd == 0x11 and len(f) == 3:
            self.rf_config = (f[1], f[2])
            if self.rf_config == ISO15693_RF_CONFIG:
                self.regs[REG_TX_CONFIG] = TX_CONFIG_SOF_DATA  # SOF, data and EOF sent
            return LOAD_RF_CONFIG_US
        elif cmd == 0x16 and len(f) == 2:
            if not self.rf_on:
                self.rf_on = True
                self._cancel("field_down")
                self._at(now + self.rf_on_us, "field_up")
        elif cmd == 0x17 and len(f) == 2:
            if self.rf_on:
                self.rf_on = False
                self._cancel("field_up")
                self._abort()
                self._at(now + self.rf_on_us, "field_down")
        elif cmd == 0x09 and len(f) >= 2:
            self._send_data(f[2:], now)
        return self.busy_us

    # --- the field -------------------------------------------------------------------------

    def _field_on_for(self, now):
        return 0.0 if self._field_since is None else now - self._field_since

    def _ev_field_up(self, t, arg):
        self._field_since = t
        self._powered = {uid: t for uid in self.field.uids()}  # power from the field's rise
        self._tags_key = (id(self.field.tags), len(self.field.tags))
        self.irq |= IRQ_TX_RFON
        self._timer_event("rf_on_int", t)

    def _ev_field_down(self, t, arg):
        self.rf_on_time_us += self._field_on_for(t)
        self._field_since = None
        self._powered = {}  # every tag loses power
        self._inventory = None
        self.irq |= IRQ_TX_RFOFF
        self._timer_event("rf_off_int", t)

    # --- TIMER1 ----------------------------------------------------------------------------

    def timer_hz(self):
        """TIMER1's count frequency from T1_MODE_SEL and T1_PRESCALE_SEL."""
        config = self.regs.get(REG_TIMER1_CONFIG, 0)
        if not config & T1_MODE_SEL:
            return FC
        return 6.78e6 / (1 << ((config >> T1_PRESCALE_SHIFT) & 0x07))

    def _timer_begin(self, t):
        self._cancel("timer_expired")
        self._timer_start = t
        reload = self.regs.get(REG_TIMER1_RELOAD, 0)
        self._at(t + reload / self.timer_hz() * 1e6, "timer_expired")

    def _timer_stop(self):
        self._cancel("timer_expired")
        self._timer_start = None

    def _timer_event(self, name, t):
        config = self.regs.get(REG_TIMER1_CONFIG, 0)
        if not config & T1_ENABLE:
            return
        stop = STOP_BITS.get(name)
        if stop is not None and config & (1 << stop) and self._timer_start is not None:
            self._timer_stop()
        if config & (1 << START_BITS[name]):
            self._timer_begin(t)

    def _ev_timer_expired(self, t, arg):
        self.irq |= IRQ_TIMER1
        self._timer_start = None
        if self.regs.get(REG_TIMER1_CONFIG, 0) & T1_RELOAD_ENABLE:
            self._timer_begin(t)
        if self.state in ("wait_receive", "receiving"):
            # The timer ends the reception: an answer still arriving is lost.
            self._abort()
            self.state = "wait_transmit"

    # --- air -------------------------------------------------------------------------------

    def _abort(self):
        self._cancel("tx_ended", "rx_sof", "rx_ended")
        self._pending = None
        if self.state != "idle":
            self.state = "wait_transmit"

    def _send_data(self, data, now):
        if self.state != "wait_transmit" or self._field_since is None:
            return  # not waiting to transmit, or no field: SEND_DATA does nothing
        if self.rf_config != ISO15693_RF_CONFIG:
            return
        self.exchanges += 1
        if self.on_exchange is not None:
            self.on_exchange(self)
        self._track_tags(now)
        self.state = "transmitting"
        self.tx_started_at = now
        self.rx = b""
        self.rx_status = 0
        self._timer_event("tx_started", now)
        eof_only = not self.regs.get(REG_TX_CONFIG, 0) & TX_CONFIG_SOF_DATA
        if eof_only:
            self._at(now + VCD_EOF_US, "tx_ended", ("eof", now))
        else:
            air = VCD_SOF_US + (len(data) + 2) * 8 * BIT_US + VCD_EOF_US
            self._at(now + air, "tx_ended", ("request", now, bytes(data)))

    def _ev_tx_ended(self, t, arg):
        self.irq |= IRQ_TX
        self.state = "wait_receive"
        self._timer_event("tx_ended", t)
        start = arg[1]
        answers = None
        if arg[0] == "request":
            answers = self._request(arg[2], start)
        elif self._inventory is not None:
            if self._answer_end is not None and start - self._answer_end < T2_US:
                self.t2_violations += 1  # the tags do not take an EOF this early
            elif self._slot_index < 15:
                self._slot_index += 1
                answers = self._answerers()
        if answers:
            sof = t + T1_US  # on the air
            end = sof + VICC_SOF_US + ANSWER_BITS * BIT_US + VICC_EOF_US
            self._at(sof + VICC_SOF_US + self.rx_delay_us, "rx_sof", answers)
            self._at(end + self.rx_delay_us, "rx_ended", (answers, end))

    def _request(self, data, start):
        self._inventory = None
        self._answer_end = None
        if len(data) < 3 or not data[0] & 0x04 or data[1] != 0x01:
            return None
        mask_len = data[2]
        mask = int.from_bytes(data[3 : 3 + (mask_len + 7) // 8], "little")
        slots = 1 if data[0] & 0x20 else 16
        self._inventory = [[] for _ in range(slots)]
        for tag in self.field.tags:
            slot = tag.slot_for(mask, mask_len)
            if slot is not None and self._hears(tag, start):
                self._inventory[slot if slots == 16 else 0].append(tag)
        self._slot_index = 0
        return self._answerers()

    def _answerers(self):
        present = self.field.uids()
        return [t for t in self._inventory[self._slot_index] if t.uid in present]

    def _ev_rx_sof(self, t, answers):
        self.state = "receiving"
        self.irq |= IRQ_RX_SOF_DET
        self._timer_event("rx_started", t)

    def _ev_rx_ended(self, t, arg):
        tags, self._answer_end = arg  # t2 counts from the air's EOF
        self.irq |= IRQ_RX
        self.state = "wait_transmit"
        self._timer_event("rx_ended", t)
        answers = [tag.answer() for tag in tags]
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

    def field_on_us(self):
        """Total modelled time the RF field has been on so far."""
        return self.rf_on_time_us + self._field_on_for(self._now())
