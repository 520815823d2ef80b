"""Firmware tests import the board's modules by their plain names, as the board does."""

import fw_paths  # noqa: F401  (puts firmware/lib and firmware/pi on sys.path)
