"""The firmware's pin interface on a Raspberry Pi, over the GPIO character device (libgpiod 2).

``GpiodPin`` is callable like a MicroPython ``machine.Pin``: ``pin(0)`` drives it, ``pin()``
reads it. Lines are requested through the ``gpiod`` Python bindings (v2 API,
``gpiod.request_lines``) on ``chip``, by default the 40-pin header's chip found by its label
(:func:`header_chip`).

Which ``/dev/gpiochipN`` is the header has changed under users: on a Pi 5 it was
``gpiochip4`` until Raspberry Pi's kernel 6.6.45 and is ``gpiochip0`` since (raspberrypi/linux
PR #6144 gives ``pinctrl-rp1`` the alias gpiochip0 and moves the SoC's chips to 10 and up, so
there is no gpiochip4 any more). The chip's label has not changed: ``pinctrl-rp1`` on a Pi 5,
``pinctrl-bcm2711`` on a Pi 4, ``pinctrl-bcm2835`` on earlier Pis (``gpiodetect`` lists them).
"""

HEADER_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
FALLBACK_CHIP = "/dev/gpiochip0"


def chip_paths():
    """Every GPIO character device: ``/dev/gpiochip*``."""
    import glob

    return sorted(glob.glob("/dev/gpiochip*"))


def header_chip(gpiod_module=None, paths=None):
    """The path of the GPIO chip whose label is a Pi header's (``HEADER_LABELS``).

    Looks at ``paths`` (default: :func:`chip_paths`) through gpiod's ``Chip(path)
    .get_info().label``; a chip that cannot be opened is skipped. With none labelled as a
    header (not a Pi, or a label this code does not know), ``/dev/gpiochip0``.
    """
    if gpiod_module is None:
        import gpiod as gpiod_module
    if paths is None:
        paths = chip_paths()
    found = {}
    for path in paths:
        try:
            with gpiod_module.Chip(path) as chip:
                found.setdefault(chip.get_info().label, path)
        except OSError:
            continue
    for label in HEADER_LABELS:
        if label in found:
            return found[label]
    return FALLBACK_CHIP


class GpiodPin:
    """One GPIO line, output (chip select, reset) or input (PN5180 BUSY)."""

    def __init__(self, offset, output=True, value=1, chip=None, gpiod_module=None):
        if gpiod_module is None:
            import gpiod as gpiod_module
        if chip is None:
            chip = header_chip(gpiod_module)
        self.chip = chip
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
