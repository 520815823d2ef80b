"""The rulebook sentences the engine quotes when it refuses or warns about an action.

Every :class:`~companion.core.errors.IllegalAction` and every ``rule_warning`` event names one of
these sentences, so a player sees the rule in the rulebook's own words.
"""

from __future__ import annotations

TURNS = (
    "Starting with the player to the Host's left, each player in turn may perform up to two "
    "actions from the following list"
)
POUR = (
    "Secretly place one of the tokens from behind your screen into any Goblet (not just your own)."
)
PEEK = "Look into Your Goblet to see which tokens are in it"
ROTATE = "Move all of the Goblets one place in the same direction, clockwise or widdershins"
SWAP = "Exchange Your Goblet for that of another player."
TOAST = (
    "You can only perform this action as your first (and only) action on your turn, and only if "
    "you have no Wine tokens left behind your screen at the beginning of your turn."
)
PASS = "You can pass without performing an action."
TOAST_PHASE = (
    "Starting with the player to the left of the Toast Caller and proceeding clockwise, each "
    "player may perform one last action. The Toast Caller will be the last one to perform this "
    "final action."
)
NO_ABILITY_IN_TOAST_PHASE = (
    "Unless the Ability specifically says otherwise, you CANNOT use your Character Ability "
    "during the Toast Phase."
)
COURSE_START = (
    "Starting with the Host and going clockwise, each player that has a Character Ability which "
    'can be used "At the beginning of each Course" may choose to use their Abilities now.'
)
BEFORE_DRINKING = (
    "starting with the player to the left of the Toast Caller and going clockwise, each player "
    'that has a Character Ability which can be used "Before Drinking" [...] may use their '
    "Abilities."
)
REVEAL = (
    "Then, each player takes the Goblet in front of them, no matter the color of its Coaster, "
    "and reveals its contents"
)
OVERRIDE = "Character abilities override the rules!"
ONCE_PER_COURSE = "This Ability may be used once per Course."
OWN_CARD = "Each player may only use the Ability of their own face-up Character card."
WINETASTER_NO_TOAST = "The Winetaster cannot TOAST."
NOBLE_NO_PEEK = "The Noble cannot PEEK."
NOBLE_TOASTS_FIRST = (
    "At the beginning of each turn, check if there are any Wine tokens behind your screen. If "
    "not, the Noble may decide to play before their Winetaster to TOAST."
)
ONE_ACTION_EACH = "Each player of a pair only gets to perform 1 action each turn."
FREE_PEEK = (
    "During the Toast phase, when their turn comes, each Winetaster can perform 1 free Peek "
    "action before the Noble performs the final action."
)
INITIAL_POUR = (
    "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens so that the total number of "
    "tokens is equal to the number of Goblets"
)
CHANCE = "Chance events (deals and random pours) happen only when the game calls for them."
GAME_OVER = "At the end of the third Course, the game is over"
