"""The rules reference cards: each game's turn summary in its rulebook's own words.

Every line on a card is quoted verbatim from the game's rulebook (../shared/rules/, named by
``Card.rulebook``), under the rulebook's own headings and terms, so the card cannot disagree
with the book: tests/web/test_rule_cards.py finds every quote in the rulebook's text. A ``Term``
pairs the rulebook's name for a thing (an action, a verdict, a score, a Poison card) with its
rule. ``folded`` sections (the variants, Cena's list of Poison cards) start closed on the page,
so the turn itself fits a phone's first screens.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """A named rule: the rulebook's word for it, its sentence(s), and ``also``: further
    sentences of the same rule quoted from elsewhere in its paragraph."""

    name: str
    rule: str
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """One of the rulebook's headings and the lines quoted under it, in the rulebook's order."""

    heading: str
    lines: tuple[str | Term, ...]
    folded: bool = False


@dataclass(frozen=True)
class Card:
    """A game's reference card: its title, the rulebook quoted and the sections."""

    title: str
    rulebook: str
    sections: tuple[Section, ...]

    def quotes(self) -> list[str]:
        """Every piece of rulebook text on the card (headings, names and rules)."""
        out: list[str] = []
        for section in self.sections:
            out.append(section.heading)
            for line in section.lines:
                out.extend(
                    (line.name, line.rule, *line.also) if isinstance(line, Term) else (line,)
                )
        return out


GOBLETS = Card(
    title="Raise Your Goblets",
    rulebook="raise-your-goblets.txt",
    sections=(
        Section(
            "Appetizers (Course Setup)",
            (
                'A game of Raise Your Goblets is made up of 3 "Courses", i.e. rounds.',
                "You start each Course with 3 Wine, 2 Poison and 2 Antidote tokens.",
            ),
        ),
        Section(
            "Main Course (Gameplay)",
            (
                "A Course ends when one of the players Calls a Toast.",
                "Starting with the player to the Host's left, each player in turn may perform up "
                "to two actions from the following list:",
                Term(
                    "Pour",
                    "Secretly place one of the tokens from behind your screen into any Goblet "
                    "(not just your own).",
                ),
                Term(
                    "Peek",
                    "Look into Your Goblet to see which tokens are in it (this is an exception "
                    "to The Arm's Length Rule).",
                ),
                Term(
                    "Rotate",
                    "Move all of the Goblets one place in the same direction, clockwise or "
                    "widdershins (that's to say, left or right).",
                ),
                Term("Swap", "Exchange Your Goblet for that of another player."),
                Term(
                    "Toast",
                    "Call the Toast! The Course ends immediately",
                    also=(
                        "You can only perform this action as your first (and only) action on "
                        "your turn, and only if you have no Wine tokens left behind your screen "
                        "at the beginning of your turn.",
                    ),
                ),
                Term("Pass", "You can pass without performing an action."),
                "You CAN perform the same action twice in the same turn;",
                "You CAN perform one or zero actions;",
                "Character abilities override the rules!",
            ),
        ),
        Section(
            "The Toast (End of the Course)",
            (
                "Starting with the player to the left of the Toast Caller and proceeding "
                "clockwise, each player may perform one last action. The Toast Caller will be "
                "the last one to perform this final action.",
                "For each Antidote token in Your Goblet, remove 1 Poison token. If after this "
                "Your Goblet still contains at least 1 Poison token, you have been poisoned. If "
                "there are no more Poison tokens left, you have survived.",
                "Wine tokens have no effect on whether you survive or get poisoned!",
            ),
        ),
        Section(
            "You score:",
            (
                Term("1 VP", "if you survived"),
                Term("1 VP", "if your Target has been poisoned"),
                Term("+1 VP", "extra if you achieved both of the above goals"),
                Term(
                    "1 VP",
                    "if you have the most Wine tokens in Your Goblet (no matter if you survived "
                    "or not; if there's a tie, no one receives this bonus VP)",
                ),
                "At the end of the third Course, the game is over: the player with the most "
                "Victory Points is the winner!",
            ),
        ),
        Section(
            "Russian Goblette (2 and 3 players)",
            (
                "Players take turns performing 1 single action. All actions work like in a "
                "normal game, except for ROTATE (you can't Rotate in a 2-3 player game) and SWAP "
                "(when you Swap, you can swap the position of any two Goblets: no player has "
                '"Their Goblet").',
                'After the Toast, the player to the left of the Toast Caller "drinks" any one '
                "of the Goblets and reveals its contents: If they are poisoned, they are "
                "eliminated for the Course.",
                "Every time you win a Course, you gain 1 VP. The first player to obtain 3 VPs is "
                "the winner.",
            ),
            folded=True,
        ),
        Section(
            "Winetasters (7 to 12 players)",
            (
                "Each pair takes their turn together. When their turn comes, the Winetaster "
                "always plays before the Noble, unless the Noble TOASTS.",
                "Each player of a pair only gets to perform 1 action each turn.",
                "The Winetaster cannot TOAST.",
                "The Noble cannot PEEK.",
                "During the Toast phase, when their turn comes, each Winetaster can perform 1 "
                "free Peek action before the Noble performs the final action.",
            ),
            folded=True,
        ),
    ),
)

TRIBUNAL = Card(
    title="The Gods Will Have Blood",
    rulebook="the-gods-will-have-blood.txt",
    sections=(
        Section(
            "How the Game is Won",
            (
                "To win, you must have maximum Reputation (marked with a * on the vine) and no "
                "remaining Accused Cards.",
                "However, if either Legitimacy or Reputation ever occupies the bottom space on "
                "its vine, you will lose. You will also lose if you are instructed to remove a "
                "white cube from the Judgment Pool and there are none (a hardening of the "
                "heart).",
            ),
        ),
        Section(
            "How the Game is Played",
            (
                "Each turn, read the description provided on the top Accused Card for clues "
                "regarding the substance of the charges and what impact may result from either "
                "verdict. You must then decide on your verdict. After choosing a verdict, you "
                "will draw two cubes (one at a time) from the judgment pool to determine the "
                "fate of the accused.",
                "If either drawn cube matches your verdict, that judgment passes. If neither "
                "cube matches, judgment will be in favor of the drawn verdict.",
                Term(
                    "If Guilty",
                    "turn the Accused Card over and carry out the effects noted under the "
                    "guillotine icon in order. Then, place the Accused Card among the discarded "
                    "and return the drawn cubes to the Judgment Pool.",
                ),
                Term(
                    "If Not Guilty",
                    "turn the Accused Card over and carry out the effects under the not-guilty "
                    "icon on the card in order. Then place the Accused Card among the 12 set "
                    "aside during setup. Finally, return all missing red cubes to the Momentum "
                    "Box and return the other drawn cubes to the Judgment Pool.",
                ),
                "The wild token (blue) is counted as a favorable verdict, but it is only "
                'returned to the Judgment Pool if the Legitimacy Marker is in the "W" space on '
                "its vine.",
            ),
        ),
        Section(
            "Momentum",
            (
                "Momentum marks the passage of consecutive guilty sentences. Momentum is "
                "cumulative. Each time Momentum is added, red cubes are taken from the Momentum "
                "Box and added to the Judgement Pool, increasing the likelihood of a guilty "
                "verdict in future proceedings.",
                "If the Momentum Box becomes empty, divide the Accused Deck into two "
                "approximately even stacks. For the rest of the game, you will hear two cases "
                "at a time and assign a single judgment for both defendants.",
                "If the Momentum Box is empty when instructed to add momentum, lower Legitimacy "
                "one space for each cube you are unable to add.",
            ),
        ),
    ),
)

CENA = Card(
    title="Cena",
    rulebook="cena.txt",
    sections=(
        Section(
            "How to Play",
            ("The game is played over three rounds. Each round has four phases:",),
        ),
        Section(
            "I. Setup",
            (
                "The Host House reveals the top card of the poison pile and places it face up "
                "for everyone to see. This card indicates the penalty that will be applied at "
                "the end of the current round.",
            ),
        ),
        Section(
            "II. Welcome",
            (
                "Each House chooses three cards from its hand and places them face up in front "
                "of itself. These cards are still considered part of its hand and may be played "
                "normally during the feast.",
            ),
        ),
        Section(
            "III. Feast",
            (
                "The Host House leads the first trick.",
                "The player holding the invitation tile plays one of their cards in front of "
                "any House (including their own) and places the invitation tile on top to mark "
                "the lead suit.",
                "In clockwise order, the rest of the Houses play one of their cards in front of "
                "any House (including their own) if that House does not yet have a card in "
                "front of it. If a House has cards of the lead suit, it must play one of them. "
                "If this is not possible, any card may be played.",
            ),
        ),
        Section(
            "Who wins the trick",
            (
                "The trick is not won by a House, but by an alliance between two Houses.",
                "The alliance with the highest value in the lead suit wins the trick.",
                "In case of a tie, the alliance that was completed last wins.",
                "If multiple alliances are completed simultaneously, the winning one is the "
                "Alliance furthest, clockwise, from the House that led the trick.",
                "The House to the left of the winning alliance card receives the invitation "
                "tile and leads the next trick.",
            ),
        ),
        Section(
            "IV. Scoring",
            (
                "Once all cards have been played, each House scores the cards won by its two "
                "alliances.",
                "Each card is worth 1 point.",
                "Then apply the penalty from the poison card revealed in this round and "
                "subtract the corresponding points. The score may be negative (life is tough).",
                "After three rounds have been played, the House with the most points wins.",
            ),
        ),
        Section(
            "Variants",
            (
                Term(
                    "Private feast",
                    "In this variant, players may only play cards in front of their own House.",
                ),
                Term("Single course", "If you want a shorter game, you may play only one round."),
            ),
            folded=True,
        ),
        Section(
            "Poison Cards",
            (
                Term("Mandragora officinarum", "Each card with value 6 subtracts 10 points."),
                Term("Arsenicum", "Each beer card subtracts 4 points."),
                Term("Lytta vesicatoria", "Each odd-valued mead card subtracts 8 points."),
                Term("Taxus baccata", "Each card with value 3 or 8 subtracts 5 points."),
                Term(
                    "Atropa belladona",
                    "Each wine or cider card with value 7 subtracts 20 points.",
                ),
                Term(
                    "Aconitum napellus",
                    "The alliance that wins the last trick subtracts 25 points.",
                ),
                Term(
                    "Compostum mercuriale",
                    "The alliance with the most cards won scores 0 points.",
                ),
                Term(
                    "Conium maculatum",
                    "Each House calculates the difference between the cards won by its alliances "
                    "and subtracts 2 points for each point of difference.",
                ),
            ),
            folded=True,
        ),
    ),
)

CARDS: dict[str, Card] = {"goblets": GOBLETS, "tribunal": TRIBUNAL, "cena": CENA}
"""Each game's card, by the game's registry name."""
