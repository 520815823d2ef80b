"""The firmware's SPI bus interface on a Raspberry Pi, over Linux spidev.

The drivers in ``firmware/lib`` call ``write_readinto``/``write``/``readinto`` like MicroPython's
``machine.SPI`` and drive their own chip-select pin, so several readers can share the bus with
a GPIO each as chip select (more than the Pi's two hardware CE lines). spidev's own CE line is
therefore switched off with ``no_cs`` where the kernel driver allows it; where it does not,
leave CE0 unconnected (hardware/README.md, "A table with no microcontroller").
"""


class SpidevBus:
    """``machine.SPI``-shaped wrapper around ``spidev.SpiDev`` (mode 0, MSB first)."""

    def __init__(self, bus=0, device=0, baudrate=4000000, spidev_module=None):
        if spidev_module is None:
            import spidev as spidev_module
        self.dev = spidev_module.SpiDev()
        self.dev.open(bus, device)
        self.dev.max_speed_hz = baudrate
        self.dev.mode = 0
        try:
            self.dev.no_cs = True
        except OSError:
            self.no_cs = False
        else:
            self.no_cs = True

    def write_readinto(self, wbuf, rbuf):
        """Full-duplex transfer; ``rbuf`` gets what came back."""
        got = self.dev.xfer2(list(wbuf))
        for i in range(len(wbuf)):
            rbuf[i] = got[i]

    def write(self, buf):
        """Send ``buf``."""
        self.dev.xfer2(list(buf))

    def readinto(self, buf, write=0):
        """Receive ``len(buf)`` bytes while sending ``write``."""
        got = self.dev.xfer2([write] * len(buf))
        for i in range(len(buf)):
            buf[i] = got[i]

    def close(self):
        """Release the device."""
        self.dev.close()
