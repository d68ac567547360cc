"""The ten Lunar Poker hands in the chapters' order (589.6(b), 671a.6(b)) and the ace's
place in a straight (589.6(a), 671a.6(a)), with the chapters' own examples.

The two chapters print the same ranking; the product ranks both with one function, so
each example is checked once and cited for both."""

from __future__ import annotations

import pytest

from casino.domain.cards import parse_cards
from tables.domain.hands.lunar import LunarCategory as C
from tables.domain.hands.lunar import lunar_category, lunar_value

#: (b)(1) to (b)(10), each hand's highest and lowest example as the paragraph names it
#: (with kickers of our choosing where the paragraph names none), highest first.
CHAPTER_ORDER = [
    ("As Ks Qs Js Ts", C.ROYAL_FLUSH),     # (1) ace, king, queen, jack and 10 of a suit
    ("Kh Qh Jh Th 9h", C.STRAIGHT_FLUSH),  # (2) K-Q-J-10-9 the highest straight flush
    ("5d 4d 3d 2d Ad", C.STRAIGHT_FLUSH),  # (2) A-2-3-4-5 the lowest
    ("Ac Ad Ah As Kc", C.FOUR_OF_A_KIND),  # (3) four aces the highest
    ("2c 2d 2h 2s 3c", C.FOUR_OF_A_KIND),  # (3) four 2s the lowest
    ("Ac Ad Ah Kc Kd", C.FULL_HOUSE),      # (4) three aces and two kings the highest
    ("2c 2d 2h 3c 3d", C.FULL_HOUSE),      # (4) three 2s and two 3s the lowest
    ("Ah Kh Qh Jh 9h", C.FLUSH),           # (5) A-K-Q-J-9 the highest flush
    ("2s 3s 4s 5s 7s", C.FLUSH),           # (5) 2-3-4-5-7 the lowest
    ("As Kd Qh Jc Ts", C.STRAIGHT),        # (6) A-K-Q-J-10 the highest straight
    ("Ac 2d 3h 4s 5c", C.STRAIGHT),        # (6) A-2-3-4-5 the lowest
    ("Ac Ad Ah Kc Qd", C.THREE_OF_A_KIND),  # (7) three aces the highest
    ("2c 2d 2h 3s 4c", C.THREE_OF_A_KIND),  # (7) three 2s the lowest
    ("Ac Ad Kc Kd Qh", C.TWO_PAIR),        # (8) two aces and two kings the highest
    ("3c 3d 2c 2d 4h", C.TWO_PAIR),        # (8) two 3s and two 2s the lowest
    ("Ac Ad Kh Qs Jc", C.ONE_PAIR),        # (9) two aces the highest pair
    ("2c 2d 3h 4s 6c", C.ONE_PAIR),        # (9) two 2s the lowest
    ("As Kd Qc Jh 9h", C.ACE_KING),        # (10) an ace and a king
    ("Ac Kd 2h 3s 4c", C.ACE_KING),        # (10) with the lowest other cards
    ("Ac Qd Jh 9s 8c", C.NO_HAND),         # none of the ten hands
]


@pytest.mark.regulation("589.6(b)", "671a.6(b)")
def test_the_ten_hands_rank_in_the_chapters_order() -> None:
    """§ 589.6(b)(1)-(10), § 671a.6(b)(1)-(10): each example is the hand its paragraph
    names, and every hand of a paragraph outranks every hand of the next one (the lowest
    of each against the highest of the next)."""
    for text, category in CHAPTER_ORDER:
        assert lunar_category(lunar_value(parse_cards(text))) is category, text
    values = [lunar_value(parse_cards(text)) for text, _ in CHAPTER_ORDER]
    for (higher, _), (lower, _), a, b in zip(CHAPTER_ORDER, CHAPTER_ORDER[1:], values,
                                             values[1:]):
        assert a > b, f"{higher} should outrank {lower}"


@pytest.mark.regulation("671a.6(a)")
def test_671a_ace_ends_a_straight_but_never_wraps() -> None:
    """§ 671a.6(a): an ace completes a straight or straight flush with a 2, 3, 4 and 5,
    but not another sequence — the chapter's example Q-K-A-2-3 is no straight (it is an
    ace-king), nor in one suit a straight flush (it is a flush)."""
    assert lunar_category(lunar_value(parse_cards("Ah 2c 3d 4s 5h"))) is C.STRAIGHT
    assert lunar_category(lunar_value(parse_cards("Ah 2h 3h 4h 5h"))) is C.STRAIGHT_FLUSH
    assert lunar_category(lunar_value(parse_cards("Qc Kd Ah 2s 3c"))) is C.ACE_KING
    assert lunar_category(lunar_value(parse_cards("Qh Kh Ah 2h 3h"))) is C.FLUSH
    # the ace is high above the king in every other use: A-high flush above K-high
    assert lunar_value(parse_cards("Ah 9h 7h 5h 3h")) > lunar_value(parse_cards("Kh Qh Jh 9h 7h"))


@pytest.mark.regulation("589.6(a)", "671a.6(a)")
def test_all_suits_are_equal_in_rank() -> None:
    """§ 589.6(a), § 671a.6(a): the same ranks in other suits tie, whatever the suits."""
    assert lunar_value(parse_cards("As Kd 9c 5h 3h")) == lunar_value(
        parse_cards("Ac Kh 9s 5d 3d"))
    assert lunar_value(parse_cards("Ts Jh Qd Kc Ac")) == lunar_value(
        parse_cards("Th Jd Qc Ks As"))
