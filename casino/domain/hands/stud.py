"""Stud and split-pot helpers of chapter 637a: who makes the Forced Bet, who acts first,
and who gets the odd chip of a tied half.

Seats are ints numbered clockwise from the dealer's left (seat 1 is the first seat to the
dealer's left), so "the player closest to the left of the dealer" (637a.10(f)(3),
637a.14(f)(2)) is the lowest seat number among the tied players.

Suits rank spades > hearts > diamonds > clubs for these purposes only (637a.10(d),
637a.10(i)(3)(iv), 637a.12(k)(2)(iv), 637a.19(k)(2)(iv)); with the card encoding of
:mod:`casino.domain.cards` a larger suit number is the higher suit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from enum import StrEnum

from casino.domain.cards import ACE, Card, check_unique
from casino.domain.errors import DomainError

Seat = int


class StudError(DomainError):
    code = "stud_invalid"


class StudGame(StrEnum):
    SEVEN_CARD_STUD_HIGH = "seven_card_stud_high"
    SEVEN_CARD_STUD_LOW = "seven_card_stud_low"
    SEVEN_CARD_STUD_HIGH_LOW = "seven_card_stud_high_low"
    SEVEN_CARD_STUD_HIGH_LOW_8 = "seven_card_stud_high_low_eight_or_better"
    FIVE_CARD_STUD = "five_card_stud"


def _high_rank(c: Card) -> int:
    """Rank with the ace high (637a.6(a)): deuce 0 … ace 12."""
    return c >> 2


def _low_rank(c: Card) -> int:
    """Rank with the ace low (637a.6(c)): ace 0, deuce 1 … king 12."""
    r = c >> 2
    return 0 if r == ACE else r + 1


def _suit(c: Card) -> int:
    return c & 3


def _check_seats(cards_by_seat: Mapping[Seat, object]) -> None:
    if not cards_by_seat:
        raise StudError("no players to compare", code="no_players")


def bring_in_seat(up_cards: Mapping[Seat, Card], game: StudGame | str) -> Seat:
    """The seat that makes the Forced Bet from each player's up card.

    637a.10(d): Seven-card Stud High — lowest up card (ace high); Low — highest up card
    (ace low, so the king is highest); High-low Split — highest up card with the ace below
    the two; High-low Split Eight or Better — lowest up card with the ace highest.
    637a.14(d): Five-card Stud — lowest up card. Equal ranks are ordered by suit, spades
    highest and clubs lowest, so the lowest card is e.g. the 2 of clubs.
    """
    _check_seats(up_cards)
    check_unique(up_cards.values())
    g = StudGame(game)
    if g in (StudGame.SEVEN_CARD_STUD_LOW, StudGame.SEVEN_CARD_STUD_HIGH_LOW):
        return max(up_cards, key=lambda s: (_low_rank(up_cards[s]), _suit(up_cards[s])))
    return min(up_cards, key=lambda s: (_high_rank(up_cards[s]), _suit(up_cards[s])))


def _showing_high_key(cards: Sequence[Card]) -> tuple:
    # fewer than five cards: only pairs, trips and quads count (no straights or flushes),
    # group size first, then the ranks by group (637a.6(b), (e))
    counts = Counter(_high_rank(c) for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return tuple(n for _, n in groups), tuple(r for r, _ in groups)


def _showing_low_key(cards: Sequence[Card]) -> tuple:
    # 637a.6(c)-(d): the inverse of the high order with the ace low; a hand without pairs
    # beats any paired hand, then the lower top card wins. Larger key = better low.
    counts = Counter(_low_rank(c) for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return (tuple(-n for _, n in groups), tuple(-r for r, _ in groups))


def first_to_act(showing: Mapping[Seat, Sequence[Card]], game: StudGame | str) -> Seat:
    """The seat that must bet or check first on the later streets.

    637a.10(f)(1)-(2), 637a.14(f)(1): the highest-ranking high hand showing (Seven-card
    Stud High, both High-low Split games, Five-card Stud) or the highest-ranking low hand
    showing (Seven-card Stud Low). Suits do not break ties here: 637a.10(f)(3) and
    637a.14(f)(2) give it to the tied player closest to the dealer's left (lowest seat).
    """
    _check_seats(showing)
    check_unique([c for cs in showing.values() for c in cs])
    key = _showing_low_key if StudGame(game) is StudGame.SEVEN_CARD_STUD_LOW \
        else _showing_high_key
    best = max(key(cs) for cs in showing.values())
    return min(s for s, cs in showing.items() if key(cs) == best)


def odd_chip_high(tied_hands: Mapping[Seat, Sequence[Card]]) -> Seat:
    """Odd chip of a tied high half: the player with the highest card by suit.

    637a.10(i)(3)(ii), 637a.12(k)(2)(ii), 637a.19(k)(2)(ii). Pass each tied player's
    five-card high hand. The tied hands hold the same ranks, so the highest card (ace high,
    637a.6(a)) is compared by rank then suit (spades > hearts > diamonds > clubs).
    (Omaha rooms may name another recipient in the Rules Submission; that is the caller's
    choice.)
    """
    _check_seats(tied_hands)
    check_unique([c for cs in tied_hands.values() for c in cs])
    return max(tied_hands,
               key=lambda s: max((_high_rank(c), _suit(c)) for c in tied_hands[s]))


def odd_chip_low(tied_hands: Mapping[Seat, Sequence[Card]]) -> Seat:
    """Odd chip of a tied low half: the player with the lowest low card by suit.

    637a.10(i)(3)(iii), 637a.12(k)(2)(iii), 637a.19(k)(2)(iii). Pass each tied player's
    five-card low hand. The lowest card (ace low, 637a.6(c)) is compared by rank then suit;
    the lowest-ranking card by suit is the clubs one (suits rank spades > hearts > diamonds
    > clubs), so A♣ beats A♠ for the odd chip.
    """
    _check_seats(tied_hands)
    check_unique([c for cs in tied_hands.values() for c in cs])
    return min(tied_hands,
               key=lambda s: min((_low_rank(c), _suit(c)) for c in tied_hands[s]))
