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
    """A shared SPI bus: byte-by-byte full duplex to whichever device is selected."""

    def __init__(self, clock=None, baudrate=4_000_000):
        self.clock = clock or SimClock()
        self.baudrate = baudrate
        self.devices = []
        self.bytes_moved = 0

    def attach(self, device, name="cs"):
        """Wire ``device`` (with begin/xfer/end) to the bus; returns its chip-select pin."""

        def edge(v):
            if v == 0:
                device.begin()
            else:
                device.end()

        pin = SimPin(name, 1, on_change=edge)
        device.cs_pin = pin
        self.devices.append(device)
        return pin

    def _byte(self, out):
        self.bytes_moved += 1
        self.clock.advance(8e6 / self.baudrate)
        miso = 0xFF  # pull-up: nobody drives MISO
        driven = []
        for dev in self.devices:
            selected = dev.cs_pin() == 0
            if selected:
                driven.append(dev.xfer(out))
            elif getattr(dev, "holds_miso", False):
                driven.append(dev.stuck_miso)
        for value in driven:
            miso &= value  # open-drain-like: a driver pulling low wins
        return miso

    def write_readinto(self, wbuf, rbuf):
        """Full-duplex transfer of ``len(wbuf)`` bytes."""
        for i in range(len(wbuf)):
            rbuf[i] = self._byte(wbuf[i])

    def write(self, buf):
        """Send ``buf``, discard what comes back."""
        for b in buf:
            self._byte(b)

    def readinto(self, buf, write=0):
        """Receive ``len(buf)`` bytes clocking out ``write``."""
        for i in range(len(buf)):
            buf[i] = self._byte(write)

    def read(self, n, write=0):
        """Receive ``n`` bytes."""
        buf = bytearray(n)
        self.readinto(buf, write)
        return bytes(buf)
