"""Omaha and Five-card Omaha showdown hands (637a.12, 637a.19).

Each hand is exactly two of the player's hole cards (four in Omaha, 637a.12(k); five in
Five-card Omaha, 637a.19(k)) and exactly three of the five community cards. The high and
the eight-or-better low may use different five-card groupings, and an ace may count high
in one and low in the other (637a.12(m), 637a.19(l)(2)).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from casino.domain.cards import Card, CardCountError, check_cards
from casino.domain.hands.high import _fast5
from casino.domain.hands.lowball import a5_value5, qualifies_eight


def _check(hole: Sequence[Card], board: Sequence[Card]) -> None:
    if len(hole) not in (4, 5) or len(board) != 5:
        raise CardCountError(f"Omaha needs 4 or 5 hole cards and 5 board cards, "
                             f"got {len(hole)} and {len(board)}")
    check_cards(list(hole) + list(board))


def _fives(hole: Sequence[Card], board: Sequence[Card]):
    for two in itertools.combinations(hole, 2):
        for three in itertools.combinations(board, 3):
            yield two + three


def omaha_high_five(hole: Sequence[Card], board: Sequence[Card]
                    ) -> tuple[int, tuple[Card, ...]]:
    """Best high value using two hole and three board cards, and those five cards."""
    _check(hole, board)
    best_v, best_f = -1, ()
    for five in _fives(tuple(hole), tuple(board)):
        v = _fast5(five)
        if v > best_v:
            best_v, best_f = v, five
    return best_v, best_f


def omaha_high(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """Omaha high value (637a.12(k)(1), 637a.19(k))."""
    return omaha_high_five(hole, board)[0]


def omaha_low8_five(hole: Sequence[Card], board: Sequence[Card]
                    ) -> tuple[int, tuple[Card, ...]] | None:
    """Best eight-or-better A-5 low (value, five cards) under the two-plus-three rule, or
    ``None`` when no grouping qualifies (637a.12(l), 637a.19(l)(1))."""
    _check(hole, board)
    best: tuple[int, tuple[Card, ...]] | None = None
    for five in _fives(tuple(hole), tuple(board)):
        v = a5_value5([c >> 2 for c in five])
        if qualifies_eight(v) and (best is None or v > best[0]):
            best = (v, five)
    return best


def omaha_low8(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    """Omaha eight-or-better low value, or ``None`` when there is no qualifying low."""
    found = omaha_low8_five(hole, board)
    return None if found is None else found[0]


def omaha_hilo8(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, int | None]:
    """``(high value, low value or None)`` for Omaha High-low Split Eight or Better."""
    return omaha_high(hole, board), omaha_low8(hole, board)
