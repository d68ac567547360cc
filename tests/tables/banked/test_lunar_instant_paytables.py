"""The instant payout on the Ante paid from the paytable the Rules Submission selects:
every paytable of § 589.12(a) (A-H) and § 671a.12(a) (A-C), settled in a round. The
odds below are copied from the chapters' tables, not from the product's paytables."""

from __future__ import annotations

import pytest

from tables.domain.banked import Phase

from .drive import Table

ANTE = 1000
ROYAL = "As Ks Qs Js Ts"
STRAIGHT_FLUSH = "5h 6h 7h 8h 9h"
DEALER = "Qd Jc 4d 3c 7d"

#: § 589.12(a): royal flush, straight flush ("X to 1") by paytable
CH589 = {"A": (1500, 500), "B": (1500, 400), "C": (1500, 300), "D": (1200, 400),
         "E": (1200, 300), "F": (1000, 300), "G": (800, 300), "H": (600, 300)}
#: § 671a.12(a)
CH671A = {"A": (1500, 250), "B": (1000, 300), "C": (1000, 250)}


def _instant_round(game: str, letter: str) -> Table:
    t = Table(game, instant_paytable=letter)
    for n in (1, 2):
        t.wager(n, "ante", ANTE)
        if game == "lunar-poker-671a":
            t.wager(n, "super", ANTE)
    t.deal({1: ROYAL, 2: STRAIGHT_FLUSH}, DEALER)
    t.decide(1, "declare_instant")
    t.decide(2, "declare_instant")
    t.do("lock_decisions")
    return t


@pytest.mark.regulation("589.12(a)", "589.11(c)(1)(i)")
@pytest.mark.parametrize("letter", sorted(CH589))
def test_589_instant_payout_from_the_selected_paytable(letter: str) -> None:
    """§ 589.12(a), § 589.11(c)(1)(i): a royal flush and a straight flush in the first
    five, declared: each Ante of 1,000 returned with X times it, X from the selected
    paytable (Paytable D: 1,000 + 1,200,000 and 1,000 + 400,000)."""
    royal, straight_flush = CH589[letter]
    t = _instant_round("lunar-poker-589", letter)
    assert t.returned(1)["ante"] == ANTE + royal * ANTE
    assert t.returned(2)["ante"] == ANTE + straight_flush * ANTE
    assert t.state.phase is Phase.CLOSED  # no Super, cards collected (589.11(c)(1)(ii))


@pytest.mark.regulation("671a.12(a)", "671a.11(c)(3)")
@pytest.mark.parametrize("letter", sorted(CH671A))
def test_671a_instant_payout_from_the_selected_paytable(letter: str) -> None:
    """§ 671a.12(a), § 671a.11(c)(3): as above under 671a's three paytables (Paytable B:
    1,000 + 1,000,000 for the royal flush, 1,000 + 300,000 for the straight flush); the
    Super Wagers were not declared and are collected (§ 671a.11(c)(1))."""
    royal, straight_flush = CH671A[letter]
    t = _instant_round("lunar-poker-671a", letter)
    assert t.returned(1) == {"ante": ANTE + royal * ANTE, "super": 0}
    assert t.returned(2) == {"ante": ANTE + straight_flush * ANTE, "super": 0}
    assert t.state.phase is Phase.CLOSED
