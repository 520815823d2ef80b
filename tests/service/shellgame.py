"""A tiny hidden-information game for the service's and the web's tests ("shellgame").

Cups stand one per seat; a chance action pours one secret token into each; players take turns
pouring tokens from their own secret supply into any cup (the cup is public, the token is not),
rotating the cups, peeking into their own cup, passing or (after the first round) calling the
toast, which reveals every cup. Token UIDs are hex, like real tags, so a leak test can search for
them byte by byte.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import IllegalAction, MalformedInput
from companion.core.game import CHANCE, Game, GameState, Mode, Viewer

KINDS = ("wine", "poison", "antidote")


def uid(seat: int, index: int) -> str:
    """A tag-like UID for token ``index`` of ``seat`` (seat 9 is the initial pour)."""
    return f"C0FFEE{seat:02X}{index:02X}"


class ShellState(GameState):
    """The state of a shell game."""

    def __init__(self, seats: int, hidden_vp: bool = False) -> None:
        self.seats = seats
        self.cups: list[list[str]] = [[] for _ in range(seats)]
        self.supply = {s: [uid(s, i) for i in range(4)] for s in range(seats)}
        self.kind = {uid(s, i): KINDS[i % 3] for s in range(seats) for i in range(4)}
        self.kind.update({uid(9, i): KINDS[i % 3] for i in range(seats)})
        self.turn = -1  # -1: the initial pour (chance) is due
        self.revealed = False
        self.peeked: dict[int, list[str]] = {}
        self.log: list[dict[str, Any]] = []
        self.actions = 0

    @property
    def num_seats(self) -> int:
        return self.seats

    def to_move(self):
        if self.revealed:
            return None
        if self.turn < 0:
            return CHANCE
        return self.turn % self.seats

    def legal_actions(self):
        seat = self.to_move()
        if seat is None or seat is CHANCE:
            return []
        actions: list[dict[str, Any]] = [{"type": "pass", "seat": seat}]
        actions.append({"type": "rotate", "seat": seat})
        actions.append({"type": "peek", "seat": seat})
        for token in self.supply[seat]:
            for cup in range(self.seats):
                actions.append({"type": "pour", "seat": seat, "cup": cup, "token": token})
        if self.turn >= self.seats:
            actions.append({"type": "toast", "seat": seat})
        return actions

    def sample_chance(self, rng):
        tokens = [uid(9, i) for i in range(self.seats)]
        rng.shuffle(tokens)
        return {"type": "initial_pour", "cups": tokens}

    def apply(self, action, mode=Mode.ENFORCING):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedInput("an action is an object with a type", field="type")
        if self.turn < 0:
            if action["type"] != "initial_pour":
                raise IllegalAction("the cups are filled first", rule="initial pour")
            for cup, token in enumerate(action["cups"]):
                self.cups[cup].append(token)
            self.turn = 0
            self.log.append({"event": "initial_pour"})
            return [{"event": "initial_pour"}]
        if action not in self.legal_actions():
            raise IllegalAction(f"not legal now: {action['type']}", rule="only the seat to move")
        seat = action["seat"]
        kind = action["type"]
        if kind == "pour":
            self.supply[seat].remove(action["token"])
            self.cups[action["cup"]].append(action["token"])
            event = {"event": "pour", "seat": seat, "cup": action["cup"]}
        elif kind == "rotate":
            self.cups = [self.cups[-1], *self.cups[:-1]]
            event = {"event": "rotate", "seat": seat}
        elif kind == "peek":
            self.peeked[seat] = sorted(self.kind[t] for t in self.cups[seat])
            event = {"event": "peek", "seat": seat}
        elif kind == "toast":
            self.revealed = True
            event = {"event": "toast", "seat": seat}
        else:
            event = {"event": "pass", "seat": seat}
        self.turn += 1
        self.actions += 1
        self.log.append(event)
        return [event]

    def is_over(self):
        return self.revealed

    def outcome(self):
        poisoned = [
            seat for seat, cup in enumerate(self.cups) if any(self.kind[t] == "poison" for t in cup)
        ]
        return {
            "poisoned": poisoned,
            "winners": [s for s in range(self.seats) if s not in poisoned],
        }

    def view(self, viewer: Viewer):
        data: dict[str, Any] = {
            "seats": self.seats,
            "to_move": self.to_move() if self.to_move() is not CHANCE else "chance",
            "cup_sizes": [len(c) for c in self.cups],
            "log": list(self.log),
            "revealed": self.revealed,
        }
        if self.revealed:
            data["contents"] = [[[t, self.kind[t]] for t in cup] for cup in self.cups]
            data["outcome"] = self.outcome()
        if viewer.is_seat:
            data["supply"] = list(self.supply[viewer.index])
            data["peeked"] = self.peeked.get(viewer.index)
        return data

    def hidden_alternatives(self, action, viewer):
        if action.get("type") != "pour" or viewer == Viewer.seat(action["seat"]):
            return []
        return [
            {**action, "token": token}
            for token in self.supply[action["seat"]]
            if token != action["token"]
        ]

    def reveals_hidden(self, action):
        return action.get("type") == "toast"


class ShellGame(Game):
    """Registry entry for the shell game."""

    name = "shellgame"

    def new_state(self, options):
        seats = options.get("players", 3)
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 4:
            raise MalformedInput("must be 2 to 4", field="players")
        return ShellState(seats)


GAME = ShellGame()
"""Not registered globally (the conformance suite plays registered games): tests hand it in."""
