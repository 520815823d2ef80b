"""The Host's demo switch: whether the demo table may play its attract-mode games now.

The switch exists once a demo driver runs (:meth:`DemoSwitch.offer`). It is kept across restarts
in the journal's settings; never set, it is on exactly when the table has played nothing but the
demo's games (a fresh table shows the demo; a table people played waits for the Host).
"""

from __future__ import annotations

from companion.store.journal import JournalStore

DEMO_RULE = "The demo table plays only its own games; a game a person starts is theirs alone."


class DemoSwitch:
    """The demo switch of one table's journal."""

    def __init__(self, store: JournalStore) -> None:
        self.store = store
        self.available = False
        """True once a demo driver runs (without hardware): the Host's demo switch exists."""
        self._on: bool | None = None

    def offer(self) -> None:
        """A demo driver runs: the switch exists."""
        self.available = True

    @property
    def on(self) -> bool:
        """True while the demo table may play (False while no demo driver runs)."""
        if not self.available:
            return False
        if self._on is None:
            stored = self.store.setting("demo")
            if stored is not None:
                self._on = stored == "on"
            else:
                latest = self.store.games()
                self._on = not latest or latest[0].is_demo
        return self._on

    def switch(self, on: bool) -> None:
        """Turn the switch on or off (kept in the journal's settings)."""
        self.store.set_setting("demo", "on" if on else "off")
        self._on = on
