"""A simulated SPI bus with chip-select pins, and a clock that the chip models charge time to.

The bus speaks MicroPython's ``machine.SPI`` calls (``write``, ``read``, ``readinto``,
``write_readinto``); a device sees bytes only while its chip-select pin is low, as on the real
wire. A device that keeps driving MISO while deselected (the shared-MISO fault of some RC522
modules) can be simulated with ``Device.holds_miso``.
"""

ISO14443A_FC = 13.56e6


class Lcg:
    """A tiny seeded generator (the models also run under MicroPython, which lacks Random)."""

    def __init__(self, seed=0):
        self.state = (seed * 2654435761 + 1) & 0x7FFFFFFF

    def randrange(self, n):
        """An integer in [0, n)."""
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


class SimClock:
    """Modelled time in microseconds; chip models add air time, the bus adds SPI time."""

    def __init__(self):
        self.us = 0.0

    def advance(self, us):
        """Charge ``us`` microseconds."""
        self.us += us

    def ticks_ms(self):
        """Milliseconds as MicroPython's ``time.ticks_ms`` (monotonic, wrapping ignored here)."""
        return int(self.us // 1000)

    def ticks_us(self):
        """Microseconds as MicroPython's ``time.ticks_us`` (the drivers' timeouts)."""
        return int(self.us)

    def ticks_diff(self, a, b):
        """``time.ticks_diff`` without the wrap."""
        return a - b

    def ticks_add(self, a, b):
        """``time.ticks_add`` without the wrap."""
        return a + b

    def sleep_ms(self, ms):
        """``time.sleep_ms``: modelled time passes."""
        self.advance(ms * 1000)

    def sleep_us(self, us):
        """``time.sleep_us``: modelled time passes."""
        self.advance(us)


class SimPin:
    """An output or input pin: ``pin(v)``/``pin.value(v)`` set, ``pin()``/``pin.value()`` read."""

    def __init__(self, name, value=1, on_change=None, reader=None):
        self.name = name
        self._value = value
        self._on_change = on_change
        self._reader = reader  # for inputs driven by a model (BUSY)
        self.writes = 0

    def value(self, v=None):
        """Read (no argument) or drive the pin."""
        if v is None:
            return self._reader() if self._reader else self._value
        v = 1 if v else 0
        self.writes += 1
        if v != self._value:
            self._value = v
            if self._on_change:
                self._on_change(v)
        return None

    __call__ = value

    def on(self):
        """Drive high."""
        self.value(1)

    def off(self):
        """Drive low."""
        self.value(0)


class SimSPI:
    """A shared SPI bus: byte-by-byte full duplex to whichever device is selected.

    ``call_us`` is host time charged once per transfer call, before its first byte: the
    interpreter's method call and the SPI peripheral's transaction set-up, which a real node
    spends on every register access (0, the default, charges only the bytes on the wire: the
    drivers' own tests measure them against the chips' timing alone).
    """

    def __init__(self, clock=None, baudrate=4_000_000, call_us=0.0):
        self.clock = clock or SimClock()
        self.baudrate = baudrate
        self.call_us = call_us
        self.devices = []
        self.bytes_moved = 0
        self._selected = []

    def attach(self, device, name="cs"):
        """Wire ``device`` (with begin/xfer/end) to the bus; returns its chip-select pin."""

        def edge(v):
            if v == 0:
                self._select(device)
                device.begin()
            else:
                self._selected.remove(device)
                device.end()

        pin = SimPin(name, 1, on_change=edge)
        device.cs_pin = pin
        self.devices.append(device)
        return pin

    def _select(self, device):
        # The bus keeps the devices whose chip select is low (in attach order), updated on each
        # NSS edge, so a byte costs no look at every pin (the host only drives NSS between
        # transfers, never within one).
        selected = self._selected
        selected.append(device)
        if len(selected) > 1:
            selected.sort(key=self.devices.index)

    def _transfer(self, wbuf, rbuf):
        # Each byte first costs its SPI time (8 bits at ``baudrate``), then meets the devices,
        # so a model that reads the clock in ``xfer`` sees the time its byte ends.
        selected = self._selected
        if self.call_us:
            self.clock.advance(self.call_us)
        # A deselected device that keeps driving MISO (``holds_miso``, set by a test between
        # transfers) pulls the line on every byte.
        holding = [
            dev for dev in self.devices if getattr(dev, "holds_miso", False) and dev not in selected
        ]
        advance = self.clock.advance
        byte_us = 8e6 / self.baudrate
        if len(selected) == 1 and not holding:
            xfer = selected[0].xfer
            for i in range(len(wbuf)):
                self.bytes_moved += 1
                advance(byte_us)
                miso = xfer(wbuf[i]) & 0xFF
                if rbuf is not None:
                    rbuf[i] = miso
            return
        for i in range(len(wbuf)):
            self.bytes_moved += 1
            advance(byte_us)
            out = wbuf[i]
            miso = 0xFF  # pull-up: nobody drives MISO
            for dev in selected:
                miso &= dev.xfer(out)
            for dev in holding:
                miso &= dev.stuck_miso  # open-drain-like: a driver pulling low wins
            if rbuf is not None:
                rbuf[i] = miso

    def write_readinto(self, wbuf, rbuf):
        """Full-duplex transfer of ``len(wbuf)`` bytes."""
        self._transfer(wbuf, rbuf)

    def write(self, buf):
        """Send ``buf``, discard what comes back."""
        self._transfer(buf, None)

    def readinto(self, buf, write=0):
        """Receive ``len(buf)`` bytes clocking out ``write``."""
        self._transfer([write] * len(buf), buf)

    def read(self, n, write=0):
        """Receive ``n`` bytes."""
        buf = bytearray(n)
        self.readinto(buf, write)
        return bytes(buf)
