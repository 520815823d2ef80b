"""Advertise the dashboard on the local network as ``cupbearer.local`` (mDNS, python-zeroconf).

Optional at runtime: if zeroconf is missing or the network refuses multicast, the failure is logged
and the companion runs on without it (the tablet can still use the IP address printed at start).
"""

from __future__ import annotations

import logging
import socket

log = logging.getLogger(__name__)


def local_address() -> str:
    """This machine's LAN address (the one a default route would use), or 127.0.0.1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet is sent for a UDP connect
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


class Advertiser:
    """Registers ``<name>.local`` and an ``_http._tcp`` service; :meth:`close` withdraws them."""

    def __init__(self, name: str, port: int) -> None:
        self.name = name
        self.port = port
        self._zeroconf = None
        self._info = None

    def start(self) -> bool:
        """Advertise; returns False (and logs why) when it cannot."""
        try:
            from zeroconf import ServiceInfo, Zeroconf

            address = local_address()
            self._info = ServiceInfo(
                "_http._tcp.local.",
                f"Cupbearer ({self.name})._http._tcp.local.",
                addresses=[socket.inet_aton(address)],
                port=self.port,
                properties={"path": "/"},
                server=f"{self.name}.local.",
            )
            self._zeroconf = Zeroconf()
            self._zeroconf.register_service(self._info, allow_name_change=True)
            log.info("advertised http://%s.local:%s/ (%s)", self.name, self.port, address)
            return True
        except Exception as error:  # optional: any failure is logged, never fatal
            log.warning("mDNS advertisement failed (%s); use the IP address instead", error)
            self.close()
            return False

    def close(self) -> None:
        """Withdraw the advertisement (idempotent)."""
        if self._zeroconf is not None:
            try:
                if self._info is not None:
                    self._zeroconf.unregister_service(self._info)
                self._zeroconf.close()
            except Exception:
                log.debug("mDNS close failed", exc_info=True)
            self._zeroconf = None
