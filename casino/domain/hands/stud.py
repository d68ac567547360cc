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

from collections.abc import Mapping, Sequence
from enum import StrEnum

from casino.domain.cards import ACE, Card, check_cards
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


def _stud_game(game: StudGame | str) -> StudGame:
    """The :class:`StudGame` named by ``game``; anything else is a StudError."""
    try:
        return StudGame(game)
    except (ValueError, TypeError):
        raise StudError(f"unknown stud game {game!r}; expected one of: "
                        + ", ".join(g.value for g in StudGame),
                        code="unknown_stud_game") from None


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
    check_cards(up_cards.values())
    g = _stud_game(game)
    if g in (StudGame.SEVEN_CARD_STUD_LOW, StudGame.SEVEN_CARD_STUD_HIGH_LOW):
        return max(up_cards, key=lambda s: (_low_rank(up_cards[s]), _suit(up_cards[s])))
    return min(up_cards, key=lambda s: (_high_rank(up_cards[s]), _suit(up_cards[s])))


def _rank_groups(ranks: Sequence[int]) -> list[tuple[int, int]]:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    return sorted(((n, r) for r, n in counts.items()), reverse=True)


def _showing_high_key(cards: Sequence[Card]) -> tuple:
    # fewer than five cards: only pairs, trips and quads count (no straights or flushes),
    # group size first, then the ranks by group (637a.6(b), (e))
    groups = _rank_groups([_high_rank(c) for c in cards])
    return tuple(n for n, _ in groups), tuple(r for _, r in groups)


def _showing_low_key(cards: Sequence[Card]) -> tuple:
    # 637a.6(c)-(d): the inverse of the high order with the ace low; a hand without pairs
    # beats any paired hand, then the lower top card wins. Larger key = better low.
    groups = _rank_groups([_low_rank(c) for c in cards])
    return (tuple(-n for n, _ in groups), tuple(-r for _, r in groups))


def first_to_act(showing: Mapping[Seat, Sequence[Card]], game: StudGame | str) -> Seat:
    """The seat that must bet or check first on the later streets.

    637a.10(f)(1)-(2), 637a.14(f)(1): the highest-ranking high hand showing (Seven-card
    Stud High, both High-low Split games, Five-card Stud) or the highest-ranking low hand
    showing (Seven-card Stud Low). Suits do not break ties here: 637a.10(f)(3) and
    637a.14(f)(2) give it to the tied player closest to the dealer's left (lowest seat).
    """
    _check_seats(showing)
    check_cards([c for cs in showing.values() for c in cs])
    return first_to_act_unchecked(showing, _stud_game(game))


def first_to_act_unchecked(showing: Mapping[Seat, Sequence[Card]], game: StudGame) -> Seat:
    """:func:`first_to_act` for cards already known valid (the poker engine's own)."""
    key = _showing_low_key if game is StudGame.SEVEN_CARD_STUD_LOW else _showing_high_key
    # the lowest seat among the best: seats in order, first strictly better one kept
    best_seat, best = None, None
    for s in sorted(showing):
        k = key(showing[s])
        if best is None or k > best:
            best_seat, best = s, k
    return best_seat


def _odd_chip(tied_hands: Mapping[Seat, Sequence[Card]], key, half: str) -> Seat:
    """The seat whose hand wins the odd chip when each hand's cards are ordered best
    first by ``key`` (larger is better).

    The best card decides. Hands of a Hold'em or Omaha tie (and a Stud tie over a common
    card, 637a.10(h)) can share cards: when the deciding card is held by several of the
    tied hands, those hands go on to their next card by the same rule, and so on. When the
    hands still cannot be told apart, no card decides and the excess goes to the player
    named in the Rules Submission (637a.12(k)(2)(ii)-(iii), 637a.19(k)(2)(ii)-(iii)).
    """
    _check_seats(tied_hands)
    ordered = {s: sorted((key(c, cs) for c in cs), reverse=True)
               for s, cs in ((s, check_cards(cs)) for s, cs in tied_hands.items())}
    contenders = list(ordered)
    depth = 0
    while True:
        cards = {s: ordered[s][depth] for s in contenders if depth < len(ordered[s])}
        if not cards:
            raise StudError(
                f"no card decides the odd chip of the tied {half} hands (seats "
                f"{', '.join(str(s) for s in contenders)} hold the same cards); the excess "
                "goes to the player specified in the certificate holder's Rules Submission "
                "under § 601a.2", code="odd_chip_undecided")
        best = max(cards.values())
        contenders = [s for s, k in cards.items() if k == best]
        if len(contenders) == 1:
            return contenders[0]
        depth += 1


_WHEEL_RANKS = frozenset({ACE, 0, 1, 2, 3})


def _odd_chip_high_key(c: Card, hand: Sequence[Card]) -> tuple[int, int]:
    r = _high_rank(c)
    if r == ACE and len(hand) == 5 and {_high_rank(x) for x in hand} == _WHEEL_RANKS:
        r = -1  # five-high straight: the ace plays low (637a.6(a), (b)(2), (b)(6))
    return r, _suit(c)


def _odd_chip_low_key(c: Card, hand: Sequence[Card]) -> tuple[int, int]:
    return -_low_rank(c), -_suit(c)


def odd_chip_high(tied_hands: Mapping[Seat, Sequence[Card]]) -> Seat:
    """Odd chip of a tied high half: the player with the highest card by suit.

    637a.10(i)(3)(ii), 637a.12(k)(2)(ii), 637a.19(k)(2)(ii). Pass each tied player's
    five-card high hand. The tied hands hold the same ranks, so the highest card (ace high,
    637a.6(a)) is compared by rank then suit (spades > hearts > diamonds > clubs). In a
    five-high straight the ace plays low (637a.6(a)), so the five is that hand's highest
    card. When the highest card is a board card shared by several tied hands, their next
    highest cards decide, and so on; when nothing decides, a StudError
    ``odd_chip_undecided`` says the Rules Submission's named recipient applies. (Omaha
    rooms may name another recipient in the Rules Submission in any case; that is the
    caller's choice.)
    """
    return _odd_chip(tied_hands, _odd_chip_high_key, "high")


def odd_chip_low(tied_hands: Mapping[Seat, Sequence[Card]]) -> Seat:
    """Odd chip of a tied low half: the player with the lowest low card by suit.

    637a.10(i)(3)(iii), 637a.12(k)(2)(iii), 637a.19(k)(2)(iii). Pass each tied player's
    five-card low hand. The lowest card (ace low, 637a.6(c)) is compared by rank then suit;
    the lowest-ranking card by suit is the clubs one (suits rank spades > hearts > diamonds
    > clubs), so A♣ beats A♠ for the odd chip. A lowest card shared by several tied hands
    (a board card) passes the decision to their next lowest cards, as for the high half.
    """
    return _odd_chip(tied_hands, _odd_chip_low_key, "low")
