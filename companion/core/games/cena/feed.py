"""Which of Cena's events each viewer may see in the live feed.

Every event is public but one: a ``rule_warning`` for not following suit ("If a House has cards
of the lead suit, it must play one of them") tells that the House still holds a card of the lead
suit, which its hand hides ("deals them one by one face down"). Only that House sees it. Nothing
else names a hand card before it is played: ``dealt`` gives the hand size, ``welcome_chosen`` only
the House, ``welcome_revealed`` the cards once every House has placed them face up, ``played`` and
``trick_won`` the cards on the table, ``round_scored`` how many cards were won.
"""

from __future__ import annotations

from typing import Any

from companion.core.game import Viewer
from companion.core.games.cena import rules


def events_for(events: list[dict[str, Any]], viewer: Viewer) -> list[dict[str, Any]]:
    """The events of ``events`` that ``viewer`` may see (a House's revoke only by that House)."""
    return [event for event in events if _visible(event, viewer)]


def _visible(event: dict[str, Any], viewer: Viewer) -> bool:
    if event.get("event") == "rule_warning" and event.get("rule") == rules.FOLLOW_SUIT:
        return viewer.is_seat and viewer.index == event.get("house")
    return True
