"""The firmware's pin interface on a Raspberry Pi, over the GPIO character device (libgpiod 2).

``GpiodPin`` is callable like a MicroPython ``machine.Pin``: ``pin(0)`` drives it, ``pin()``
reads it. Lines are requested through the ``gpiod`` Python bindings (v2 API,
``gpiod.request_lines``); on a Pi 5 the header is ``/dev/gpiochip4``, on older Pis
``/dev/gpiochip0`` (pass ``chip``).
"""


class GpiodPin:
    """One GPIO line, output (chip select, reset) or input (PN5180 BUSY)."""

    def __init__(self, offset, output=True, value=1, chip="/dev/gpiochip0", gpiod_module=None):
        if gpiod_module is None:
            import gpiod as gpiod_module
        line = gpiod_module.line
        self._active = line.Value.ACTIVE
        self._inactive = line.Value.INACTIVE
        self.offset = offset
        if output:
            settings = gpiod_module.LineSettings(
                direction=line.Direction.OUTPUT,
                output_value=self._active if value else self._inactive,
            )
        else:
            settings = gpiod_module.LineSettings(direction=line.Direction.INPUT)
        self.request = gpiod_module.request_lines(
            chip, consumer="cupbearer", config={offset: settings}
        )

    def value(self, v=None):
        """Read the line (no argument) or drive it."""
        if v is None:
            return 1 if self.request.get_value(self.offset) == self._active else 0
        self.request.set_value(self.offset, self._active if v else self._inactive)
        return None

    __call__ = value

    def close(self):
        """Release the line."""
        self.request.release()
