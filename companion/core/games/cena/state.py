"""A game of Cena in play: poison pile, deals, Welcome, the Feast's tricks, scoring, three rounds.

Phases, in the rulebook's order (docs/cena.md lists the actions and events):

``poisons`` (chance, once: "Shuffle the poison cards, draw three, and form a pile") -> ``host``
(chance, once, only with option ``host: "random"``: "or randomly if there is no evidence") -> per
round:
``deal`` (chance: "all cards are shuffled again", hands secret) -> ``reveal`` (the Host House
reveals the top poison) -> ``welcome`` (each House, clockwise from the Host, chooses three face-up
cards; shown once all have chosen) -> ``feast`` (tricks until the hands are empty; the round is
scored by itself) -> the next round, or ``over`` after the last.

Actions carry no seat: the actor is :meth:`CenaState.to_move`. In :attr:`Mode.RECORDING` a card
that does not follow suit, or (Private feast) lies in front of another House, is applied with a
``rule_warning`` event; what the state cannot represent is refused in both modes.

Each action is read at the door, :meth:`CenaState.apply`, into a frozen value (:mod:`.actions`:
every shape checked there, ``wire()`` its JSON); the rules below take the typed values. The data
and its queries are the model's (:mod:`.model`); the views (:mod:`.views`) read the model and are
handed the legal actions, so they import no rule.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from companion.core.errors import IllegalAction
from companion.core.game import Action, Event, GameState, Mode, Viewer
from companion.core.games.cena import rules
from companion.core.games.cena.actions import (
    CenaAction,
    Deal,
    FirstHost,
    Play,
    Poisons,
    RevealPoison,
    Welcome,
    parse,
)
from companion.core.games.cena.alliances import (
    Played,
    combined,
    next_leader,
    trick_winner,
)
from companion.core.games.cena.cards import (
    DECK,
    WELCOME_CARDS,
    Card,
    hand_size,
    parse_card,
    set_aside_size,
    sort_key,
)
from companion.core.games.cena.model import CenaModel, Phase
from companion.core.games.cena.options import PILE
from companion.core.games.cena.poisons import POISONS
from companion.core.games.cena.scoring import round_scores, winners
from companion.core.games.cena.views import alternatives, build_view, events_for

PHASES: dict[type[CenaAction], Phase] = {
    Poisons: Phase.POISONS,
    FirstHost: Phase.HOST,
    Deal: Phase.DEAL,
    RevealPoison: Phase.REVEAL,
    Welcome: Phase.WELCOME,
    Play: Phase.FEAST,
}
"""The phase table: each action (:mod:`.actions`) and the phase it belongs to."""


class CenaState(CenaModel, GameState):
    """A game of Cena; see the module docstring for the phases."""

    # -- the interface -------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action for the House to move (empty at chance nodes and at the end)."""
        if self.phase == Phase.REVEAL:
            return [RevealPoison().wire()]
        if self.phase == Phase.WELCOME:
            house = self.to_move()
            assert isinstance(house, int)
            hand = self.hands[house]
            return [Welcome(c).wire() for c in combinations(hand, WELCOME_CARDS)]
        if self.phase == Phase.FEAST:
            mover = self.to_move()
            assert isinstance(mover, int)
            return [
                Play(parse_card(card, "card"), house).wire()
                for card in self.playable(mover)
                for house in self.open_houses(mover)
            ]
        return []

    def playable(self, house: int) -> list[str]:
        """The cards ``house`` may play now: all, or those of the lead suit when it has any."""
        hand = self.hands[house]
        if self.lead_suit is None:
            return list(hand)
        following = [name for name in hand if parse_card(name, "card").suit == self.lead_suit]
        return following or list(hand)

    def open_houses(self, house: int) -> list[int]:
        """Houses ``house`` may play in front of: those without a card (only its own: Private)."""
        if self.options.private_feast and self.table[house] is None:
            return [house]
        # Only after a recorded Private feast breach can a House find its own place taken: it
        # then plays where a place is free, so the trick can still end.
        return [h for h, played in enumerate(self.table) if played is None]

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw the poison pile or a random first Host at setup, or deal the Toast cards."""
        if self.phase == Phase.POISONS:
            return Poisons(tuple(rng.sample(list(self.options.poison_cards), PILE))).wire()
        if self.phase == Phase.HOST:
            return FirstHost(rng.randrange(self.num_seats)).wire()
        if self.phase == Phase.DEAL:
            deck = [card.name for card in DECK]
            rng.shuffle(deck)
            n, size = self.num_seats, hand_size(self.num_seats)
            # "deals them one by one face down to all Houses", then sets the rest aside.
            hands = tuple(tuple(sorted(deck[h : n * size : n], key=sort_key)) for h in range(n))
            return Deal(hands, tuple(sorted(deck[n * size :], key=sort_key))).wire()
        raise IllegalAction("no chance event is due", rule=rules.CHANCE)

    def is_over(self) -> bool:
        """True once the last round is scored."""
        return self.phase == Phase.OVER

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see: public, host (the same, no hands) or a seat (its own hand)."""
        mine = viewer.is_seat and self.to_move() == viewer.index
        return build_view(self, viewer, self.legal_actions() if mine else [])

    def hidden_alternatives(self, action: Action, viewer: Viewer) -> list[Action]:
        """Other pile draws, deals and Welcome choices ``viewer`` could not tell apart."""
        return alternatives(self, action, viewer)

    def reveals_hidden(self, action: Action) -> bool:
        """The Host's poison reveal, and the last Welcome choice (all choices are then shown)."""
        if not isinstance(action, Mapping):
            return False
        kind = action.get("type")
        if kind == "reveal_poison":
            return self.phase == Phase.REVEAL
        return kind == "welcome" and self.phase == Phase.WELCOME and self.is_last_welcome

    SECRET_FIELDS = {"poisons": ("pile",), "deal": ("hands", "set_aside"), "welcome": ("cards",)}
    """The pile's order, the hands, a House's Welcome choice (shown when all have chosen)."""

    def visible_events(self, events: list[Event], viewer: Viewer) -> list[Event]:
        """All public but a recorded revoke, told only to its House (:func:`.views.events_for`)."""
        return events_for(events, viewer)

    def entry_refusal(self, action: Action, viewer: Viewer, mode: Mode) -> tuple[str, str] | None:
        """A House's cards are its own: the Host enters no play and no Welcome choice, whose
        refusal ("does not hold", "must follow suit") would tell what a hand holds."""
        if viewer.is_seat or not isinstance(action, Mapping):
            return None
        if action.get("type") in ("play", "welcome"):
            return ("a House's cards are in its hand: it plays them from its phone", rules.DEAL)
        return None

    # -- applying actions ----------------------------------------------------------------------

    def apply(self, action: Action, mode: Mode = Mode.ENFORCING) -> list[Event]:
        """Apply one action (validated first: a refused action leaves the state unchanged).

        Its shape is checked first (:func:`.actions.parse`: MalformedInput naming the field),
        then its phase (IllegalAction), then the rule of its type, which takes the typed value.
        """
        act = parse(action, houses=self.num_seats)
        if self.phase != PHASES[type(act)]:
            raise IllegalAction(
                f"{act.TYPE} is not possible now (the round is at {self.phase})", rule=rules.ORDER
            )
        return getattr(self, f"_{act.TYPE}")(act, mode)

    def _poisons(self, act: Poisons, mode: Mode) -> list[Event]:
        pile = list(act.pile)
        if len(pile) != PILE or len(set(pile)) != PILE:
            raise IllegalAction("the pile is three different Poison cards", rule=rules.POISON_PILE)
        if not set(pile) <= set(self.options.poison_cards):
            raise IllegalAction(
                "the pile holds a Poison card this table did not shuffle", rule=rules.POISON_PILE
            )
        self.pile = list(pile)
        # Setup step 4 follows the pile (step 3): with no evidence, the first Host is drawn.
        self.phase = Phase.HOST if self.host is None else Phase.DEAL
        return [{"event": "poison_pile", "cards": PILE}]

    def _first_host(self, act: FirstHost, mode: Mode) -> list[Event]:
        house = act.house
        self.host = self.leader = house  # "becomes the Host House and receives the invitation"
        self.phase = Phase.DEAL
        return [{"event": "host_drawn", "house": house}]

    def _deal(self, act: Deal, mode: Mode) -> list[Event]:
        hands, aside = act.hands, act.set_aside
        size = hand_size(self.num_seats)
        everything = [name for hand in hands for name in hand] + list(aside)
        if (
            any(len(hand) != size for hand in hands)
            or len(aside) != set_aside_size(self.num_seats)
            or sorted(everything) != sorted(card.name for card in DECK)
        ):
            raise IllegalAction(
                f"each House is dealt {size} cards and every Toast card is dealt or set aside once",
                rule=rules.DEAL_THREE if self.num_seats == 3 else rules.DEAL,
            )
        self.hands = [sorted(hand, key=sort_key) for hand in hands]
        self.set_aside = sorted(aside, key=sort_key)
        self.won = [[] for _ in range(self.num_seats)]
        self.tricks = [0] * self.num_seats
        self.chosen, self.faces = {}, None
        self.trick, self.last_trick, self.last_winner = 0, None, None
        self.phase = Phase.REVEAL
        return [{"event": "dealt", "round": self.round + 1, "hand_size": size}]

    def _reveal_poison(self, act: RevealPoison, mode: Mode) -> list[Event]:
        top = self.pile.pop(0)
        self.revealed.append(top)
        self.phase = Phase.WELCOME
        return [{"event": "poison_revealed", "round": self.round + 1, **POISONS[top].to_json()}]

    def _welcome(self, act: Welcome, mode: Mode) -> list[Event]:
        house = self.to_move()
        assert isinstance(house, int)
        cards = act.cards
        if len(cards) != WELCOME_CARDS or len(set(cards)) != WELCOME_CARDS:
            raise IllegalAction("choose three different cards", rule=rules.WELCOME)
        if not set(cards) <= set(self.hands[house]):
            raise IllegalAction("the Welcome cards come from the House's hand", rule=rules.WELCOME)
        self.chosen[house] = sorted(cards, key=sort_key)
        events: list[Event] = [{"event": "welcome_chosen", "house": house}]
        if len(self.chosen) == self.num_seats:
            # Simultaneous choices: all shown at once (docs/rules-notes.md, "Cena", Welcome).
            self.faces = [list(self.chosen[h]) for h in range(self.num_seats)]
            self.chosen = {}
            self.leader = self.host  # "The Host House leads the first trick."
            self.phase = Phase.FEAST
            events.append({"event": "welcome_revealed", "faces": copy.deepcopy(self.faces)})
        return events

    def _play(self, act: Play, mode: Mode) -> list[Event]:
        mover = self.to_move()
        assert isinstance(mover, int)
        card, house = act.card, act.house
        leading = self.lead_suit is None
        sentence = rules.LEAD if leading else rules.FOLLOW
        if card.name not in self.hands[mover]:
            message = f"{self.seat_name(mover)} does not hold {card.label}"
            raise IllegalAction(message, rule=sentence)
        if self.table[house] is not None:
            message = f"{self.seat_name(house)} already has a card in front of it"
            raise IllegalAction(message, rule=sentence)
        broken = []
        who = self.seat_name(mover)
        if house not in self.open_houses(mover):
            where = self.seat_name(house)
            broken.append((f"{who} played in front of {where}", rules.PRIVATE_FEAST))
        if card.name not in self.playable(mover):
            lead = str(self.lead_suit).capitalize()
            broken.append((f"{who} has {lead} but played {card.label}", rules.FOLLOW_SUIT))
        if broken and mode is Mode.ENFORCING:
            message, rule = broken[0]
            raise IllegalAction(message, rule=rule)
        events: list[Event] = [
            {"event": "rule_warning", "house": mover, "message": message, "rule": rule}
            for message, rule in broken
        ]
        self.hands[mover].remove(card.name)
        if self.faces is not None and card.name in self.faces[mover]:
            self.faces[mover].remove(card.name)
        self.table[house] = Played(card, mover, self.plays_in_trick)
        if leading:
            self.lead_suit = card.suit  # the invitation tile "marks the lead suit"
        events.append({"event": "played", "house": mover, "card": card.name, "before": house})
        if self.plays_in_trick == self.num_seats:
            events += self._end_trick()
        return events

    def _end_trick(self) -> list[Event]:
        assert self.lead_suit is not None
        orientation = self.options.orientation
        winner = trick_winner(self.table, self.leader, self.lead_suit, orientation)
        # The lead card gives its suit to one alliance beside it: some alliance has the suit.
        assert winner is not None
        cards = [played.card.name for played in self.table if played is not None]
        self.trick += 1
        self.last_trick = {
            "trick": self.trick,
            "leader": self.leader,
            "lead_suit": self.lead_suit,
            "table": [
                {"house": h, "card": p.card.name, "played_by": p.by, "order": p.order}
                for h, p in enumerate(self.table)
                if p is not None
            ],
            "alliances": [
                _name(combined(a, self.table, orientation)) for a in range(self.num_seats)
            ],
            "winner": winner,
        }
        # "collect all cards from the trick and place them face down on top of the winning
        # alliance card. The House to the left of the winning alliance card ... leads".
        self.won[winner].extend(cards)
        self.tricks[winner] += 1
        self.last_winner = winner
        self.leader = next_leader(winner, self.num_seats)
        self.table = [None] * self.num_seats
        self.lead_suit = None
        events: list[Event] = [
            {"event": "trick_won", "trick": self.trick, "alliance": winner, "cards": cards}
        ]
        if not any(self.hands):
            events += self._score_round()
        return events

    def _score_round(self) -> list[Event]:
        poison = POISONS[self.revealed[self.round]]
        won = [[parse_card(name, "won") for name in cards] for cards in self.won]
        houses = round_scores(won, [poison], self.last_winner)
        self.scores.append({"round": self.round + 1, "poison": poison.number, "houses": houses})
        events: list[Event] = [{"event": "round_scored", **copy.deepcopy(self.scores[-1])}]
        self.round += 1
        # "the House to the left of the current Host House becomes the Host House".
        self.host = (self.host + 1) % self.num_seats
        self.faces = None
        if self.round == self.options.rounds:
            totals = self.totals()
            self.result = {
                "winners": winners(totals),
                "totals": totals,
                "rounds": [[h["points"] for h in s["houses"]] for s in self.scores],
            }
            self.phase = Phase.OVER
            events.append({"event": "game_over", **copy.deepcopy(self.result)})
        else:
            self.phase = Phase.DEAL
        return events


def _name(card: Card | None) -> str | None:
    return None if card is None else card.name
