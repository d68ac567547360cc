"""Between hands: where the button starts and how it moves (637a.11(c), 637a.12(c),
637a.13(c), 637a.19(c), 637a.20(c), 637a.21(c)), and the time charges of 637a.17(b)(3)
(:func:`poker_room.domain.rake.time_charge_event`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.domain.cards import rank_of, suit_of
from poker_room.domain.errors import PokerError


def initial_button(seats: Sequence[int], cards: Mapping[int, int] | None = None) -> int:
    """The button at the start of play: the first player to the dealer's right (the
    highest seat, seats being numbered from the dealer's left), or, when a card was dealt
    to each player, the player with the highest card (by rank, then suit)."""
    if not seats:
        raise PokerError("no players", code="too_few_players")
    if cards is None:
        return max(seats)
    if any(s not in cards for s in seats):
        raise PokerError("deal one card to every player for the button",
                         code="invalid_button_draw", field="cards")
    return max(seats, key=lambda s: (rank_of(cards[s]), suit_of(cards[s])))


def next_button(seats: Sequence[int], button: int) -> int:
    """The next seat clockwise after ``button`` among the occupied ``seats``."""
    ordered = sorted(seats)
    later = [s for s in ordered if s > button]
    return later[0] if later else ordered[0]
