"""Who may enter an action now: the checks made before anything is journaled.

A seat acts on its own turn only and always plays enforcing (a draw by hand is its move too); the
Host enters events by hand in the game's mode (recording when sensors read the table), each asked
of the game first (``GameState.entry_refusal``: what the Host may not enter for a player); the
public tablet never acts. An action made in an earlier game, or by the demo in a person's game,
is refused. Every refusal names its rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, HOST, Mode, Viewer
from companion.service.demo import DEMO_RULE
from companion.service.journaled import Table
from companion.store.journal import UNDO

TURN_RULE = "Each player acts only on their own turn."
PUBLIC_RULE = "The public tablet shows the table; only a seat or the Host acts."
GAME_CHANGED_RULE = "An action belongs to the game it was made in; a new game has started."


def check_shape(action: Any) -> None:
    """Refuse what is no action: not a JSON object with a string type, or a journal undo."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise MalformedInput("an action is a JSON object with a string type", field="type")
    if action["type"] == UNDO:
        raise MalformedInput("a journal undo has its own request", field="type")


def admit(
    table: Table,
    action: Mapping[str, Any],
    by: Viewer,
    *,
    mode: Mode | None,
    game_mode: Mode,
    sensed: bool,
    game_id: int | None,
    actor: str | None,
) -> tuple[Mode, tuple[int, str] | None]:
    """The mode ``action`` is applied in for ``by``, and the draw by hand now due (None: none),
    or IllegalAction naming the rule that refuses it (see :meth:`Service.act` for the
    arguments; ``game_mode``: the game's own mode)."""
    if game_id is not None and game_id != table.record.id:
        raise IllegalAction(f"game {game_id} is over", rule=GAME_CHANGED_RULE)
    if actor == "demo" and not table.record.is_demo:
        raise IllegalAction("this game is a person's", rule=DEMO_RULE)
    mover = table.state.to_move()
    drawn = table.state.hand_draw() if mover is CHANCE else None
    if by.is_seat:
        turn = drawn[0] if drawn is not None else mover
        if turn != by.index:
            raise IllegalAction(not_your_turn(table, turn), rule=TURN_RULE)
        return Mode.ENFORCING, drawn
    if by == HOST:
        mode = mode or game_mode
        if not sensed and actor is None:  # the Host's own hand, a player's too
            refused = table.state.entry_refusal(dict(action), HOST, mode)
            if refused is not None:
                raise IllegalAction(refused[0], rule=refused[1])
        return mode, drawn
    raise IllegalAction("the public view cannot act", rule=PUBLIC_RULE)


def not_your_turn(table: Table, mover: Any) -> str:
    """Who acts now, for a refusal: "Anna · De Miceti is to act" (or a deal, or nobody)."""
    if mover is CHANCE:
        return "the cards or tokens are being dealt"
    if not isinstance(mover, int) or table.seats is None:
        return "nobody acts now"
    return f"{table.seats.label(mover)} is to act"
