"""Badugi rankings (637a.21(k)) with the ace low, and with the ace high for Badeucey
(637a.20(l)(1)); Badacey (637a.20(l)(2)) uses the ace-low ranking.

A Badugi hand is a set of cards of different suits *and* different ranks (637a.21(k)(1)).
Four such cards beat any three, three beat any two, two beat one (637a.21(k)(2)-(4)).
Between hands of the same size, the lower highest card wins, then the next, and so on
(637a.6(c) ranks; 637a.6(e) for ties); equal hands tie (637a.21(k)(5)).

Value: ``size << 13 | (8191 - mask)`` where ``mask`` has bit ``r`` set for each rank in
the hand in low order (ace low: 0 = ace .. 12 = king; ace high: 0 = deuce .. 12 = ace).
For two same-size sets of distinct ranks, comparing the masks as numbers is comparing the
highest card first, then the next, so a LARGER value is a BETTER hand.

Four cards are the Badugi deal (637a.21(f)); Badeucey and Badacey are five-card Triple
Draw games where "four of the player's five cards" make the Badugi (637a.20(l)), so five
cards are accepted too and the best Badugi of any of them counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from casino.domain.cards import Card, CardCountError, check_cards

_A5_CHARS = "A23456789TJQK"
_STD_CHARS = "23456789TJQKA"
_SIZE_WORDS = {4: "Four", 3: "Three", 2: "Two", 1: "One"}


def _rank(c: Card, ace_low: bool) -> int:
    r = c >> 2
    if not ace_low:
        return r
    return 0 if r == 12 else r + 1


def badugi_value(cards: Sequence[Card], *, ace_low: bool = True) -> int:
    """Value of the best Badugi among 4 (or, for Badeucey/Badacey, 5) cards."""
    return badugi_best(cards, ace_low=ace_low)[0]


def badugi_best(cards: Sequence[Card], *, ace_low: bool = True
                ) -> tuple[int, tuple[Card, ...]]:
    """The best Badugi value and the cards that make it (largest set first, then lowest)."""
    if len(cards) not in (4, 5):
        raise CardCountError(f"a Badugi hand is 4 cards (5 in Badeucey/Badacey), "
                             f"got {len(cards)}")
    check_cards(cards)
    best: tuple[int, tuple[Card, ...]] = (0, ())
    for n in range(min(4, len(cards)), 0, -1):
        for sub in itertools.combinations(cards, n):
            if len({c & 3 for c in sub}) != n or len({c >> 2 for c in sub}) != n:
                continue  # two cards share a suit or a rank (637a.21(k)(1))
            mask = sum(1 << _rank(c, ace_low) for c in sub)
            v = (n << 13) | (8191 - mask)
            if v > best[0]:
                best = (v, sub)
        if best[0]:
            break  # a bigger set always beats a smaller one (637a.21(k)(2)-(4))
    return best


def size_of(value: int) -> int:
    """Number of cards in the Badugi (1-4)."""
    return value >> 13


def ranks_of(value: int) -> list[int]:
    """The Badugi's ranks highest first, in the ranking's own order (see module doc)."""
    mask = 8191 - (value & 8191)
    return [r for r in range(12, -1, -1) if mask >> r & 1]


def describe_badugi(value: int, *, ace_low: bool = True) -> str:
    """E.g. 'Four-card Badugi, 4-3-2-A' or 'Three-card hand, 7-5-2'."""
    n = size_of(value)
    chars = _A5_CHARS if ace_low else _STD_CHARS
    cards = "-".join(chars[r] for r in ranks_of(value))
    if n == 4:
        return f"Four-card Badugi, {cards}"
    return f"{_SIZE_WORDS[n]}-card hand, {cards}"
