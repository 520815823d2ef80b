"""The rulebook sentences the engine quotes when it refuses or warns about an action.

Every :class:`~companion.core.errors.IllegalAction` and every ``rule_warning`` event names one of
these sentences, so a player sees the rule in the rulebook's own words.
"""

from __future__ import annotations

POISON_PILE = (
    "Shuffle the poison cards, draw three, and form a pile. Return the rest to the box without "
    "looking at them."
)
DEAL = (
    "the Host House shuffles all the Toast cards and deals them one by one face down to all Houses."
)
DEAL_THREE = (
    "In a 3 players game, deal 12 cards to each player. The 4 remaining cards are set aside face "
    "down."
)
REVEAL = (
    "The Host House reveals the top card of the poison pile and places it face up for everyone to "
    "see."
)
HOST = (
    "The player who most recently poisoned someone (or randomly if there is no evidence) becomes "
    "the Host House and receives the invitation tile."
)
WELCOME = "Each House chooses three cards from its hand and places them face up in front of itself."
LEAD = (
    "The player holding the invitation tile plays one of their cards in front of any House "
    "(including their own) and places the invitation tile on top to mark the lead suit."
)
FOLLOW = (
    "In clockwise order, the rest of the Houses play one of their cards in front of any House "
    "(including their own) if that House does not yet have a card in front of it."
)
FOLLOW_SUIT = (
    "If a House has cards of the lead suit, it must play one of them. If this is not possible, any "
    "card may be played."
)
PRIVATE_FEAST = "In this variant, players may only play cards in front of their own House."
ORDER = "The game is played over three rounds. Each round has four phases"
CHANCE = (
    "Chance events (the poison pile, a random first Host and the deals) happen only when the game "
    "calls for them."
)
