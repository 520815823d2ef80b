"""Debounce of one seat's tag set: raw inventories in, a steady set of present tags out.

Reads near the edge of an antenna's range flicker, and a stacked goblet may miss a token in one
inventory and see it in the next. A tag therefore joins the steady set after ``appear``
consecutive sightings and leaves it only after ``vanish`` consecutive inventories without it.
The companion still treats snapshots as sets and tolerates missed reads (tokens are conserved);
this only keeps the node from publishing every flicker.
"""


class Debouncer:
    """Per-seat hysteresis over inventories of UIDs (bytes)."""

    def __init__(self, appear=1, vanish=3):
        if appear < 1 or vanish < 1:
            raise ValueError("debounce: appear and vanish must be at least 1")
        self.appear = appear
        self.vanish = vanish
        self._seen = {}  # uid -> consecutive sightings while not yet steady
        self._missed = {}  # uid -> consecutive misses while steady
        self.steady = set()

    def update(self, uids):
        """Feed one inventory; returns True when the steady set changed."""
        current = set(bytes(u) for u in uids)
        changed = False
        for uid in current:
            self._missed.pop(uid, None)
            if uid not in self.steady:
                count = self._seen.get(uid, 0) + 1
                if count >= self.appear:
                    self._seen.pop(uid, None)
                    self.steady.add(uid)
                    changed = True
                else:
                    self._seen[uid] = count
        for uid in list(self._seen):
            if uid not in current:
                del self._seen[uid]
        for uid in list(self.steady):
            if uid not in current:
                count = self._missed.get(uid, 0) + 1
                if count >= self.vanish:
                    self._missed.pop(uid, None)
                    self.steady.discard(uid)
                    changed = True
                else:
                    self._missed[uid] = count
        return changed

    def clear(self):
        """Forget everything (a reader fault: the seat's state is unknown, not empty)."""
        self._seen = {}
        self._missed = {}
        changed = bool(self.steady)
        self.steady = set()
        return changed


def self_test():
    """Checks that run under MicroPython too; returns the number of checks."""
    d = Debouncer(appear=2, vanish=2)
    a = b"\x01\x02\x03\x04"
    assert not d.update([a])
    assert d.update([a]) and d.steady == {a}
    assert not d.update([])
    assert not d.update([a])
    assert not d.update([])
    assert d.update([]) and d.steady == set()
    return 6
