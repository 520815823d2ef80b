"""The Host's inputs on a sensed table, read from the request and handed to its session.

``{"input": "start_course" | "pass" | "reveal" | "confirm" | "confirm_all" | "fix_layout" |
"settle" | "pick", "seat": i, "place": p, "counts": {kind: n}, "layout": {place: Goblet name},
"source": "readers" | "camera"}``: each input's fields are checked here (a precise 400 naming the
field), then the sensed table (:class:`~companion.service.sensing.SensingBridge`) acts. A Toast is
the caller's own; ``settle`` and ``pick`` answer a disagreement of the readers and the camera.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.checks import whole
from companion.core.errors import IllegalAction, MalformedInput

TOAST_RULE = (
    "Call the Toast! [...] only if you have no Wine tokens left behind your screen at the "
    "beginning of your turn."
)


def host_input(sensed: Any, data: Mapping[str, Any]) -> None:
    """Hand the Host's input ``data`` to ``sensed`` (a SensingBridge), its fields checked."""
    kind = data.get("input")
    if kind == "start_course":
        sensed.start_course()
    elif kind == "toast":
        # Whether the caller still has Wine is behind their screen: a Toast the Host entered
        # would have the engine say so (a rule warning), so only the caller's phone calls it.
        raise IllegalAction("a player calls the Toast from their own phone", rule=TOAST_RULE)
    elif kind == "pass":
        sensed.end_turn(whole(data.get("seat"), "seat", "must be a seat number"))
    elif kind == "reveal":
        sensed.reveal()
    elif kind == "confirm":
        counts = data.get("counts")
        if counts is not None and not isinstance(counts, Mapping):
            raise MalformedInput("must be an object {kind: count}", field="counts")
        sensed.confirm(data.get("place"), counts)
    elif kind == "confirm_all":
        sensed.confirm_all()
    elif kind == "settle":
        sensed.settle(data.get("source"))
    elif kind == "pick":
        sensed.pick(data.get("place"), data.get("source"))
    elif kind == "fix_layout":
        layout = data.get("layout")
        if not isinstance(layout, Mapping):
            raise MalformedInput("must be an object {place: goblet}", field="layout")
        sensed.fix_layout(layout)
    else:
        raise MalformedInput(f"unknown input {kind!r}", field="input")
