"""Standard high poker ranking of five cards (637a.6(a)-(b), 589.6(a), 671a.6(a), 579.6(a)).

A hand's *value* is an ``int``: a larger value is a better hand and equal values tie.
``value >> 20`` is the :class:`Category`; the low 20 bits hold up to five ranks (four bits
each, most significant first) in the order they are compared: the paired ranks by size of
group, then the kickers. The ace counts high, and low only in the five-high straight
(wheel); there is no wrap-around.

:func:`best_high` / :func:`best_high_five` take the best five of 5-7 cards (637a.10(i),
637a.11(k)). Five-card values come from two small tables keyed on the base-5 sum of the
ranks (no flush) or the rank bitmask (flush), built once from :func:`_high5_unchecked`,
which stays the reference. :mod:`.fast` evaluates whole numpy arrays of hands.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from functools import cache

from casino.domain.cards import RANK_NAMES, RANK_PLURALS, Card, CardCountError, check_cards


class Category(IntEnum):
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").capitalize()


CATEGORY_SHIFT = 20
_WHEEL = (12, 3, 2, 1, 0)


def _pack(category: Category, ranks: Sequence[int]) -> int:
    v = 0
    for r in ranks:
        v = (v << 4) | r
    v <<= 4 * (5 - len(ranks))
    return (int(category) << CATEGORY_SHIFT) | v


def _straight_high(desc_unique: Sequence[int]) -> int | None:
    """High card of a straight from five distinct ranks in descending order, else None."""
    if len(desc_unique) != 5:
        return None
    if desc_unique[0] - desc_unique[4] == 4:
        return desc_unique[0]
    if tuple(desc_unique) == _WHEEL:
        return 3  # five-high: the ace plays low (637a.6(b))
    return None


def high5(cards: Sequence[Card]) -> int:
    """Value of exactly five distinct cards under the standard high ranking."""
    if len(cards) != 5:
        raise CardCountError(f"a high hand is five cards, got {len(cards)}")
    return _fast5(check_cards(cards))


#: ``5 ** rank`` per card: the sum over a hand identifies its rank multiset (no rank
#: appears more than four times, so base-5 digits never carry).
_P5 = tuple(5 ** (c >> 2) for c in range(52))
#: ``1 << rank`` per card: for a flush (five distinct ranks) the sum is the rank mask.
_BIT = tuple(1 << (c >> 2) for c in range(52))


@cache
def _lookup5() -> tuple[dict[int, int], dict[int, int]]:
    """Values of every five-card rank multiset (non-flush) and every flush rank mask.

    Built once from :func:`_high5_unchecked` (6,175 + 1,287 entries, a few milliseconds),
    so the lookups can never disagree with the reference ranking.
    """
    plain: dict[int, int] = {}
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if ranks[0] == ranks[4]:
            continue  # five of a kind: not in a 52-card deck
        cards = [(r << 2) | (i & 3) for i, r in enumerate(ranks)]  # never all one suit
        plain[sum(5 ** r for r in ranks)] = _high5_unchecked(cards)
    flush: dict[int, int] = {}
    for ranks in itertools.combinations(range(13), 5):
        flush[sum(1 << r for r in ranks)] = _high5_unchecked([(r << 2) | 3 for r in ranks])
    return plain, flush


def _fast5(cards: Sequence[Card]) -> int:
    """Table lookup equivalent of :func:`_high5_unchecked` (no checks)."""
    plain, flush = _lookup5()
    a, b, c, d, e = cards
    if (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3):
        return flush[_BIT[a] + _BIT[b] + _BIT[c] + _BIT[d] + _BIT[e]]
    return plain[_P5[a] + _P5[b] + _P5[c] + _P5[d] + _P5[e]]


def best_high(cards: Sequence[Card]) -> int:
    """Value of the best five of 5, 6 or 7 distinct cards (637a.10(i), 637a.11(k))."""
    return best_high_five(cards)[0]


def best_high_five(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best five-card high value of 5-7 cards and the five cards making it.

    When several fives tie, the first in input order is returned.
    """
    if len(cards) not in (5, 6, 7):
        raise CardCountError(f"a best-five high hand takes 5, 6 or 7 cards, got {len(cards)}")
    check_cards(cards)
    best_v, best_f = -1, ()
    for five in itertools.combinations(cards, 5):
        v = _fast5(five)
        if v > best_v:
            best_v, best_f = v, five
    return best_v, tuple(best_f)


def _high5_unchecked(cards: Sequence[Card]) -> int:
    ranks = [c >> 2 for c in cards]
    flush = len({c & 3 for c in cards}) == 1
    counts = Counter(ranks)
    # order by (group size, rank) descending: quads/trips/pairs before kickers
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    ordered = [r for r, _ in groups]
    shape = tuple(n for _, n in groups)
    if shape == (1, 1, 1, 1, 1):
        top = _straight_high(ordered)
        if top is not None:
            return _pack(Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT, [top])
        return _pack(Category.FLUSH if flush else Category.HIGH_CARD, ordered)
    if shape == (4, 1):
        return _pack(Category.FOUR_OF_A_KIND, ordered)
    if shape == (3, 2):
        return _pack(Category.FULL_HOUSE, ordered)
    if shape == (3, 1, 1):
        return _pack(Category.THREE_OF_A_KIND, ordered)
    if shape == (2, 2, 1):
        return _pack(Category.TWO_PAIR, ordered)
    return _pack(Category.ONE_PAIR, ordered)


def category_of(value: int) -> Category:
    return Category(value >> CATEGORY_SHIFT)


def ranks_of(value: int) -> list[int]:
    """The packed ranks of a value, most significant first (unused slots dropped)."""
    cat = category_of(value)
    n = {Category.STRAIGHT: 1, Category.STRAIGHT_FLUSH: 1, Category.FOUR_OF_A_KIND: 2,
         Category.FULL_HOUSE: 2, Category.THREE_OF_A_KIND: 3, Category.TWO_PAIR: 3,
         Category.ONE_PAIR: 4}.get(cat, 5)
    return [(value >> (4 * (4 - i))) & 0xF for i in range(n)]


def is_royal(value: int) -> bool:
    return category_of(value) is Category.STRAIGHT_FLUSH and ranks_of(value)[0] == 12


def describe_high(value: int) -> str:
    """A description a floorperson would say: "Full house, kings over fives"."""
    cat = category_of(value)
    r = ranks_of(value)
    if cat is Category.STRAIGHT_FLUSH:
        return "Royal flush" if r[0] == 12 else f"Straight flush, {RANK_NAMES[r[0]]} high"
    if cat is Category.FOUR_OF_A_KIND:
        return f"Four of a kind, {RANK_PLURALS[r[0]]}"
    if cat is Category.FULL_HOUSE:
        return f"Full house, {RANK_PLURALS[r[0]]} over {RANK_PLURALS[r[1]]}"
    if cat is Category.FLUSH:
        return f"Flush, {RANK_NAMES[r[0]]} high"
    if cat is Category.STRAIGHT:
        return f"Straight, {RANK_NAMES[r[0]]} high"
    if cat is Category.THREE_OF_A_KIND:
        return f"Three of a kind, {RANK_PLURALS[r[0]]}"
    if cat is Category.TWO_PAIR:
        return f"Two pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}"
    if cat is Category.ONE_PAIR:
        return f"One pair, {RANK_PLURALS[r[0]]}"
    return f"High card, {RANK_NAMES[r[0]]}"
