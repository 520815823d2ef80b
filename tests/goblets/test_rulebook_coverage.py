"""The bar of issue 2: every rule of the rulebook has a test whose docstring quotes it.

``RULES`` holds every rule-bearing sentence of "Raise Your Goblets" (../shared/rules/
raise-your-goblets.txt), copied verbatim in the rulebook's order, section by section. Two edits
only: a bullet's leading "- " and a list item's trailing ";" or ":" are dropped, and a leading
"Note:" or "Then," is dropped where the rest of the sentence is what a test can quote. A rule
is covered when its whitespace-normalised text appears in the docstring of at least one test
function under ``tests/goblets`` (the files are parsed with ``ast``, not imported).

``EXCLUDED`` lists the rulebook's other sentences, each with the reason it carries no rule
(flavour jokes in italics, play advice, headings that only announce a list). Headings, the
table of contents and the Houses' descriptions and mottos (flavour) are not sentences of play and
are left out of both lists; the six House names are rules (the Houses in play).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent

RULES: dict[str, list[str]] = {
    "Ingredients": [
        "6 Goblets (with 6 Coaster rings in 6 colors)",
        "21 Character cards",
        "6 Player Screens",
        "52 plastic tokens: 21 Wine (red) | 15 Poison (black) | 14 Antidote (white) | "
        "1 Unicorn Antidote (blue) | 1 Ogre Poison (green)",
        "6 Target cards",
        "6 Winetaster cards",
    ],
    "Setting the Table": [
        '(if you are playing with 2-3 or 7-12 players instead, see "Desserts", page 5)',
        "Place 1 Goblet per player in a circle in the middle of the table.",
        'The Goblet in front of you is "Your Goblet", but all players must keep all Goblets at '
        "arms length at all times (a.k.a. \"The Arm's Length Rule\"), so that they can't see "
        "what's inside.",
        "Each player receives a screen, which represents their House.",
        "Put all of the unused screens back in the box.",
        "Each player also receives the Coaster ring of the same color as their House and "
        "attaches it to the base of the Goblet in front of them.",
        "Check the Target cards: take the ones corresponding to the Houses in play and put them "
        "in a stack.",
        "Put all of the unused Target cards back in the box.",
        "Shuffle the Character cards and deal 1 to each player, who reads its effects out loud "
        "to the other players.",
        "Put all of the Wine, Poison, Antidote, Ogre Poison and Unicorn Antidote tokens on the "
        "table, in a common pool.",
        '"Your Goblet" is always the one in front of you, regardless of the color of its ring.',
        "The colored rings are just a way to help you keep track of each single goblet during "
        "the game.",
    ],
    "Appetizers": [
        'A game of Raise Your Goblets is made up of 3 "Courses", i.e. rounds.',
        "Each player should take the Goblet with the Coaster ring that matches their House and "
        "place it in front of them.",
        "Each player takes 3 Wine, 2 Poison, and 2 Antidote tokens from the pool and puts them "
        "behind their screen.",
        "Take 1 Antidote and 2 Poison tokens, plus enough Wine tokens so that the total number "
        "of tokens is equal to the number of Goblets (so, if you're playing with 5 Goblets, you "
        "need 1 Antidote, 2 Poison, and 2 Wine tokens).",
        'Then randomly "pour" 1 token into each of the Goblets.',
        "The player who most recently called a toast (in game or otherwise) is the Host.",
        "The Host randomly deals 1 Target card to each player.",
        "This will be their Target for the round, i.e. the player they want to poison.",
        "Starting with the Host and proceeding clockwise, each player looks at their Target "
        "card, then places it face up in front of their screen so that it is easily visible to "
        "all players.",
        "Since you can't target yourself, if your Target card shows your own House, swap your "
        "Target card with the player to your left.",
        "Starting with the Host and going clockwise, each player that has a Character Ability "
        'which can be used "At the beginning of each Course" may choose to use their Abilities '
        "now.",
        "You start each Course with 3 Wine, 2 Poison and 2 Antidote tokens.",
        "Depending on the number of Goblets, take these tokens, and randomly and secretly pour "
        "them into the Goblets.",
    ],
    "Main Course": [
        "Each of the 3 Courses is made up of several rounds of actions, performed by the "
        "players in turn.",
        "A Course ends when one of the players Calls a Toast.",
        "Starting with the player to the Host's left, each player in turn may perform up to two "
        "actions from the following list",
        "Secretly place one of the tokens from behind your screen into any Goblet (not just "
        "your own).",
        "Look into Your Goblet to see which tokens are in it (this is an exception to The Arm's "
        "Length Rule).",
        "Move all of the Goblets one place in the same direction, clockwise or widdershins "
        "(that's to say, left or right).",
        "Exchange Your Goblet for that of another player.",
        "Call the Toast!",
        "The Course ends immediately: proceed to The Toast (see next page).",
        "You can only perform this action as your first (and only) action on your turn, and "
        "only if you have no Wine tokens left behind your screen at the beginning of your turn.",
        "You can pass without performing an action.",
        "You CAN perform the same action twice in the same turn",
        "You CAN perform one or zero actions",
        "Character abilities override the rules!",
    ],
    "The Toast": [
        'When the Toast is called, the regular turns end and a special "Toast Phase" begins.',
        "Starting with the player to the left of the Toast Caller and proceeding clockwise, "
        "each player may perform one last action.",
        "The Toast Caller will be the last one to perform this final action.",
        "Once the final actions have been performed, starting with the player to the left of "
        "the Toast Caller and going clockwise, each player that has a Character Ability which "
        'can be used "Before Drinking" (i.e., before revealing the contents of Your Goblet) may '
        "use their Abilities.",
        "Unless the Ability specifically says otherwise, you CANNOT use your Character Ability "
        "during the Toast Phase.",
        "each player takes the Goblet in front of them, no matter the color of its Coaster, and "
        "reveals its contents",
        "For each Antidote token in Your Goblet, remove 1 Poison token.",
        "If after this Your Goblet still contains at least 1 Poison token, you have been poisoned.",
        "If there are no more Poison tokens left, you have survived.",
        "Leftover Antidote tokens (if any) have no other effect.",
        "Wine tokens have no effect on whether you survive or get poisoned!",
        "1 VP | if you survived",
        "1 VP | if your Target has been poisoned",
        "+1 VP | extra if you achieved both of the above goals",
        "1 VP | if you have the most Wine tokens in Your Goblet (no matter if you survived or "
        "not; if there's a tie, no one receives this bonus VP)",
        "Some Character abilities change the scoring rules for their player (you apply their "
        "effect instead of the normal scoring).",
        'The bonus VP for "Most Wine tokens" though is NEVER affected; the single player with '
        "the most Wine tokens in Their Goblet will always receive 1 VP.",
        "Keep your VPs hidden behind your screen.",
        "After the points have been awarded, the current Course ends.",
        "All players must discard any tokens they still have behind their screens.",
        "start the next Course by repeating the steps described in Appetizers, page 3.",
        "At the end of the third Course, the game is over: the player with the most Victory "
        "Points is the winner!",
        "In case of a tie, take 1 Goblet for each tied player.",
        "The Host takes 1 Wine token plus a number of Poison tokens so that the total is equal "
        "to the number of tied players, and randomly pours 1 into each Goblet.",
        "Starting from the last Toast Caller and proceeding clockwise, each tied player chooses "
        "1 Goblet and reveals its contents.",
        "The surviving player is the winner!",
    ],
    "Desserts": [
        "Below you can find a couple of optional rules for expert players, and different game "
        "modes for games with less than 4 or more than 6 players.",
    ],
    "Raise Your Memory": [
        "At the beginning of the game, remove the Coaster rings from the Goblets.",
    ],
    "Raise your Goblets Legacy": [
        "If you are poisoned, discard your Character card and draw a new one for the next Course.",
    ],
    "Russian Goblette": [
        "With less than 4 players, the rules are mostly the same as normal, with the following "
        "changes",
        "Play without Character cards and Goblet rings.",
        "Place all 6 Goblets in a row, in the middle of the table, at Arm's Length from all "
        "players.",
        "Players take turns performing 1 single action.",
        "All actions work like in a normal game, except for ROTATE (you can't Rotate in a 2-3 "
        "player game) and SWAP (when you Swap, you can swap the position of any two Goblets: no "
        'player has "Their Goblet").',
        'After the Toast, the player to the left of the Toast Caller "drinks" any one of the '
        "Goblets and reveals its contents: If they are poisoned, they are eliminated for the "
        "Course.",
        "If not, they keep the contents of the Goblet in front of them.",
        "The next player then chooses a Goblet, and so on, until there is only one survivor "
        "(who wins the round), or until all of the Goblets have been chosen.",
        "In case of 2 or more surviving players, the surviving player with the most Wine tokens "
        "in front of them is the winner of the Course.",
        "If there's a tie, all tied players win the Course.",
        "Every time you win a Course, you gain 1 VP.",
        "The first player to obtain 3 VPs is the winner.",
        "If there's a tie, all tied players share the victory.",
    ],
    "Winetasters": [
        "With more than 6 players, you will play in pairs as a Noble and their Winetaster.",
        "The rules are mostly the same as normal, with the following changes",
        'Each pair is considered a single "player", with the exception that the Noble and the '
        "Winetaster each receive 1 Character card.",
        'With an odd number of players, the "extra" player participates as a regular player of '
        "the 4-6 players version of the game.",
        "The Noble sits to the left of their Winetaster.",
        "Only the Nobles are allowed to keep their Character card face up.",
        "The Winetasters have to turn it facedown.",
        "They won't be able to use their special ability for this Course.",
        "Randomly deal 1 Winetaster card to each Winetaster.",
        "Put the unused ones aside, if any, without looking at them.",
        "each Winetaster secretly looks at their card.",
        "If they are Loyal, they will have to help their Noble Survive.",
        "If they are a Traitor, they will have to try to poison their own Noble.",
        "But the Noble won't know if they can trust their Winetaster or not!",
        "Each pair takes their turn together.",
        "When their turn comes, the Winetaster always plays before the Noble, unless the Noble "
        "TOASTS.",
        "Each player of a pair only gets to perform 1 action each turn.",
        'The "extra" player, if any, gets to perform 2 actions, as usual.',
        "The Winetaster cannot TOAST.",
        "The Noble cannot PEEK.",
        "If allowed to by their Noble, the Winetaster can use the ability on their Noble's "
        "Character card.",
        "At the beginning of each turn, check if there are any Wine tokens behind your screen.",
        "If not, the Noble may decide to play before their Winetaster to TOAST.",
        "If the Noble decides not to, the pair plays as normal (the Winetaster first, then the "
        "Noble).",
        "During the Toast phase, when their turn comes, each Winetaster can perform 1 free Peek "
        "action before the Noble performs the final action.",
        'The "extra" player, if any, still gets to perform 1 final action only, since they '
        "don't have the risk of having a Traitor on their team.",
        "During the scoring phase, a Loyal Winetaster will get the same number of VPs as their "
        "Noble.",
        "A Traitor Winetaster, instead, will get 3 VPs if their Noble is poisoned, or 0 VPs if "
        "their Noble survives.",
        "After each Course, each player who was a Noble will play as the Winetaster for the "
        "player to their left in the next Course.",
        "Flip your Character cards face up or down, accordingly.",
        'With an odd number of players, the "extra" player will play as the Noble with the '
        'player to their right, while the player to their left will be the new "extra" player.',
        "Start a new Course by following the modified Appetizers procedure.",
        "You don't need to keep your VPs behind the screen.",
        "Each player has to make sure to keep their own VPs in front of themselves.",
    ],
    "Otravian Noble Houses": [
        "House De Miceti",
        "House McToadery",
        "House Aconitiers",
        "House Wespendorf",
        "House Van Visser",
        "House Arañeros",
    ],
}
"""Every rule-bearing sentence of the rulebook, verbatim, by section."""

FLAVOUR = "flavour text in italics: a joke or story with no effect on play"
ADVICE = "play advice: says what a player might want to do, not what the rules allow"
EXCLUDED: dict[str, str] = {
    "47 VP tokens (in 2 denominations)": (
        "physical change for counting VP; the engine counts VP as integers and the rulebook "
        "never runs out of VP tokens"
    ),
    "Follow these steps to prepare for each Course:": "announces the list of steps (each a rule)",
    "A public declaration of the reasons for the impending revenge is not mandatory, but it is "
    "highly appreciated.": FLAVOUR + " (explicitly 'not mandatory')",
    "Obviously, make sure you're subtle about what you're putting in!": FLAVOUR,
    '"Testing the bouquet" of your wine is a great way to take a sneaky peak!': FLAVOUR,
    "The original Otravian tradition required absolute silence while rotating.": FLAVOUR,
    "It also required actual dying when poisoned.": FLAVOUR,
    "We can turn a blind eye for the sake of this game.": FLAVOUR,
    "Certainly, to exchange one's Goblets is a sign of utter trust and respect.": FLAVOUR,
    "Or something along these lines.": FLAVOUR,
    "Please note that:": "announces the list of notes (each a rule)",
    "A useful suggestion: during this phase of the game, each player will have their own "
    "schemes and will try to bring them to completion.": ADVICE,
    "Hence, the goblets will move around quite a lot.": ADVICE,
    "To make things easier for your first few games, try to keep track of 2 goblets: the "
    "poisoned one for your Target, and the safe one for yourself.": ADVICE,
    "You score:": "announces the scoring table (each row a rule)",
    "I hate ties.": FLAVOUR,
    "Just try to remember where you put that Ogre Poison after having poured it yourself.": (
        FLAVOUR
    ),
    "But please don't tear the cards, they did you no harm.": FLAVOUR,
    "Why do you hate them?": FLAVOUR,
    "Ah. Why would I only want to kill my old enemies?": FLAVOUR,
    "How about I just kill everybody?": FLAVOUR,
    "Would that work?": FLAVOUR,
    "After all, today's friends are just tomorrow's enemies.": FLAVOUR,
    "Please take a sip from my Goblet and tell me if it is safe to pass to my neighbour.": (
        FLAVOUR
    ),
}
"""The rulebook's sentences that carry no rule, each with the reason."""


def normalise(text: str) -> str:
    """Collapse every run of whitespace to one space."""
    return re.sub(r"\s+", " ", text).strip()


def docstrings() -> list[tuple[str, str]]:
    """(file::test name, normalised docstring) of every test function under tests/goblets."""
    found = []
    for path in sorted(HERE.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                doc = ast.get_docstring(node)
                if doc and path.name != Path(__file__).name:
                    found.append((f"{path.name}::{node.name}", normalise(doc)))
    return found


def all_rules() -> list[str]:
    """Every rule sentence, normalised, in rulebook order."""
    return [normalise(rule) for rules in RULES.values() for rule in rules]


def test_every_rule_sentence_is_quoted_by_a_test_docstring():
    """The bar of issue 2: "Every rule of the rulebook has a test whose docstring quotes the
    sentence it checks." """
    docs = docstrings()
    assert len(docs) > 100  # the parse found the suite
    missing = [rule for rule in all_rules() if not any(rule in doc for _, doc in docs)]
    assert missing == [], "rule sentences no test docstring quotes:\n" + "\n".join(missing)


def test_rule_and_excluded_lists_are_distinct_and_reasoned():
    """No sentence is both a rule and excluded, none is listed twice, every exclusion has a
    reason."""
    rules = all_rules()
    assert len(rules) == len(set(rules))
    assert not set(rules) & {normalise(s) for s in EXCLUDED}
    assert all(reason.strip() for reason in EXCLUDED.values())
    assert (len(rules), len(EXCLUDED)) == (127, 24)  # a sentence dropped by mistake shows here
