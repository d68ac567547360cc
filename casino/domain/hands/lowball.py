"""Low-hand rankings: A-5 lowball, the eight-or-better qualifier and 2-7 lowball.

Every value here is an ``int`` where a LARGER value is a BETTER low hand, so that all the
project's rankings sort the same way. A value is ``LOW_TOP - badness``: the *badness* is
packed like :mod:`.high` values (category << 20 | ranks in nibbles, most significant first)
but in the low game's own rank order, and a smaller badness is a better low (637a.6(d):
the low ranking is the inverse of the high ranking).

* A-5 (637a.6(c)-(d), 637a.20(k)(4)): the ace is the lowest card; straights and flushes
  are not considered; pairs and the like count against the hand. Best hand 5-4-3-2-A.
* Eight-or-better (637a.10(j), 637a.12(l), 637a.19(l)(1)): an A-5 low with no pair, three
  or four of a kind and no 9, 10, jack, queen or king.
* 2-7 (637a.6(c), 637a.20(k)(3)): the ace is high only; straights, flushes and pairs count
  against the hand (A-2-3-4-5 is ace-high, not a straight). Best hand 7-5-4-3-2 not all of
  one suit.

For five to seven cards the best five count (637a.10(i): a five-card hand from seven).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from casino.domain.cards import Card, CardCountError, check_cards
from casino.domain.hands.high import Category

LOW_TOP = 1 << 24
_SHIFT = 20

#: A-5 display characters in A-5 order (ace lowest) and 2-7 order (ace highest).
_A5_CHARS = "A23456789TJQK"
_STD_CHARS = "23456789TJQKA"
_A5_NAMES = ("ace", "deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "jack", "queen", "king")
_A5_PLURALS = ("aces", "deuces", "threes", "fours", "fives", "sixes", "sevens", "eights",
               "nines", "tens", "jacks", "queens", "kings")
_STD_NAMES = _A5_NAMES[1:] + _A5_NAMES[:1]
_STD_PLURALS = _A5_PLURALS[1:] + _A5_PLURALS[:1]


def _a5_rank(r: int) -> int:
    """Standard rank (0 = deuce .. 12 = ace) to A-5 order (0 = ace .. 12 = king)."""
    return 0 if r == 12 else r + 1


def _groups(ranks: Sequence[int]) -> tuple[Category, list[int]]:
    """Category ignoring straights/flushes and the ranks in comparison order."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    ordered = [r for r, _ in groups]
    shape = tuple(n for _, n in groups)
    cat = {(1, 1, 1, 1, 1): Category.HIGH_CARD, (2, 1, 1, 1): Category.ONE_PAIR,
           (2, 2, 1): Category.TWO_PAIR, (3, 1, 1): Category.THREE_OF_A_KIND,
           (3, 2): Category.FULL_HOUSE, (4, 1): Category.FOUR_OF_A_KIND}.get(shape)
    if cat is None:
        raise CardCountError(f"not a five-card hand: ranks {sorted(ranks)}")
    return cat, ordered


def _pack(cat: Category, ranks: Sequence[int]) -> int:
    v = 0
    for r in ranks:
        v = (v << 4) | r
    v <<= 4 * (5 - len(ranks))
    return (int(cat) << _SHIFT) | v


def _unpack(badness: int) -> tuple[Category, list[int]]:
    cat = Category(badness >> _SHIFT)
    n = {Category.STRAIGHT: 1, Category.STRAIGHT_FLUSH: 1, Category.FOUR_OF_A_KIND: 2,
         Category.FULL_HOUSE: 2, Category.THREE_OF_A_KIND: 3, Category.TWO_PAIR: 3,
         Category.ONE_PAIR: 4}.get(cat, 5)
    return cat, [(badness >> (4 * (4 - i))) & 0xF for i in range(n)]


# ----------------------------------------------------------------------------

_A5_MEMO: dict[tuple[int, ...], int] = {}


def a5_value5(ranks: Sequence[int]) -> int:
    """A-5 value of five standard ranks (0 = deuce .. 12 = ace); suits never matter."""
    key = tuple(sorted(ranks))
    v = _A5_MEMO.get(key)
    if v is None:
        cat, ordered = _groups([_a5_rank(r) for r in key])
        v = _A5_MEMO[key] = LOW_TOP - _pack(cat, ordered)
    return v


def _cards_in(cards: Sequence[Card], sizes: Sequence[int], what: str) -> None:
    if len(cards) not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise CardCountError(f"{what} takes {want} cards, got {len(cards)}")
    check_cards(cards)


def a5_low(cards: Sequence[Card]) -> int:
    """Best A-5 low value of the best five of 5..7 cards (637a.6(c)-(d), 637a.20(k)(4))."""
    return a5_low_five(cards)[0]


def a5_low_five(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """Best A-5 low value and the five cards that make it."""
    _cards_in(cards, (5, 6, 7), "an A-5 low hand")
    return max(((a5_value5([c >> 2 for c in five]), five)
                for five in itertools.combinations(cards, 5)), key=lambda vf: vf[0])


#: The worst eight-or-better low, 8-7-6-5-4: every qualifying value is at least this.
A5_EIGHT_MIN = LOW_TOP - _pack(Category.HIGH_CARD, [7, 6, 5, 4, 3])


def qualifies_eight(value: int | None) -> bool:
    """True when an A-5 value has no pair and nothing above an eight (637a.10(j))."""
    return value is not None and value >= A5_EIGHT_MIN


def a5_eight(cards: Sequence[Card]) -> int | None:
    """Best eight-or-better low of 5..7 cards, or ``None`` when none qualifies."""
    v = a5_low(cards)
    return v if qualifies_eight(v) else None


def describe_a5(value: int) -> str:
    """'8-6-4-2-A low' or 'One pair, aces (4-3-2-A-A)' style text for an A-5 value."""
    cat, ranks = _unpack(LOW_TOP - value)
    return _describe(cat, ranks, _A5_CHARS, _A5_NAMES, _A5_PLURALS)


def _describe(cat: Category, ranks: list[int], chars: str, names: Sequence[str],
              plurals: Sequence[str]) -> str:
    if cat is Category.HIGH_CARD:
        return "-".join(chars[r] for r in ranks) + " low"
    if cat is Category.STRAIGHT_FLUSH:
        return f"Straight flush, {names[ranks[0]]} high"
    if cat is Category.STRAIGHT:
        return f"Straight, {names[ranks[0]]} high"
    if cat is Category.FLUSH:
        return "Flush, " + "-".join(chars[r] for r in ranks)
    if cat is Category.ONE_PAIR:
        return f"One pair, {plurals[ranks[0]]}, " + "-".join(chars[r] for r in ranks[1:])
    if cat is Category.TWO_PAIR:
        return f"Two pair, {plurals[ranks[0]]} and {plurals[ranks[1]]}"
    if cat is Category.THREE_OF_A_KIND:
        return f"Three of a kind, {plurals[ranks[0]]}"
    if cat is Category.FULL_HOUSE:
        return f"Full house, {plurals[ranks[0]]} over {plurals[ranks[1]]}"
    return f"Four of a kind, {plurals[ranks[0]]}"


# ---------------------------------------------------------------------------- 2-7

def d27_value5(ranks: Sequence[int], *, flush: bool) -> int:
    """2-7 value of five standard ranks; ``flush`` says whether they are all one suit.

    The ace is high only (637a.20(k)(3)(i)), so A-5-4-3-2 is no straight.
    """
    cat, ordered = _groups(ranks)
    if cat is Category.HIGH_CARD:
        straight = ordered[0] - ordered[4] == 4
        if straight:
            cat, ordered = (Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT), ordered[:1]
        elif flush:
            cat = Category.FLUSH
    return LOW_TOP - _pack(cat, ordered)


def d27_low(cards: Sequence[Card]) -> int:
    """Best 2-7 low value of the best five of 5..7 cards (637a.20(k)(3))."""
    return d27_low_five(cards)[0]


def d27_low_five(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    _cards_in(cards, (5, 6, 7), "a 2-7 low hand")
    return max(((d27_value5([c >> 2 for c in five], flush=len({c & 3 for c in five}) == 1),
                 five) for five in itertools.combinations(cards, 5)), key=lambda vf: vf[0])


def describe_d27(value: int) -> str:
    """'7-5-4-3-2 low' / 'Straight, six high' style text for a 2-7 value."""
    cat, ranks = _unpack(LOW_TOP - value)
    return _describe(cat, ranks, _STD_CHARS, _STD_NAMES, _STD_PLURALS)


def category_of_low(value: int) -> Category:
    """The high-poker category the low hand falls in (HIGH_CARD for a no-pair low)."""
    return Category((LOW_TOP - value) >> _SHIFT)


def describe(value: int, kind: str = "a5") -> str:
    """Describe a low value; ``kind`` is ``"a5"`` or ``"27"``."""
    return describe_a5(value) if kind == "a5" else describe_d27(value)
