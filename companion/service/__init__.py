"""The companion's service: the current game, its journal, chance, subscribers, the virtual table.

:class:`Service` (in :mod:`companion.service.table`) is the one place with I/O wiring between the
pure core, the SQLite journal and the clients, each of its ideas in its own module (the
journaled table, seats and viewers, who may enter an action, messages, notices, the demo switch,
history); :mod:`companion.service.hub` fans snapshots out to
live clients; :mod:`companion.service.driver` plays the demo game when no hardware is configured;
:mod:`companion.service.hardware` and :mod:`companion.service.camera` (imported only when a camera
is asked for: OpenCV) feed the reader nodes and the overhead camera to the sensed session.
"""

from companion.service.driver import VirtualTable
from companion.service.hub import Closed, Hub, Subscriber
from companion.service.journaled import Table
from companion.service.table import Service

__all__ = ["Closed", "Hub", "Service", "Subscriber", "Table", "VirtualTable"]
