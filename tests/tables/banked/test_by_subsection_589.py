"""Lunar Poker (chapter 589), one test per play-describing subsection not cited elsewhere.
Expected values are worked out by hand from the regulation text."""

from __future__ import annotations

import pytest

from .drive import ORDERED_DECK, Table, cards, texts

GAME = "lunar-poker-589"


@pytest.mark.regulation("589.8(b)")
def test_dealer_announces_no_more_bets_then_deals_from_the_manual_shoe() -> None:
    """§ 589.8(b): the dealer announces "no more bets" and begins dealing: no card comes
    out of the shoe while bets are still open, and the announcement comes right before
    the deal."""
    t = Table(GAME)
    t.wager(1, "ante", 1000)
    t.wager(2, "ante", 1000)
    t.refuse("no_more_bets_first", "deal",
             hands={"1": texts("As Ks Qs Js 9d"), "2": texts("2c 3c 4d 8h 9h")},
             dealer=texts("Qh Jd 4c 5h 7s"))
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK)
    assert all(p.dealt == () for p in t.state.positions.values())
    t.do("no_more_bets")
    t.do("deal", hands={"1": texts("As Ks Qs Js 9d"), "2": texts("2c 3c 4d 8h 9h")},
         dealer=texts("Qh Jd 4c 5h 7s"))
    assert t.types()[-2:] == ["NoMoreBets", "CardsDealt"]
    assert t.state.positions[2].dealt == tuple(cards("2c 3c 4d 8h 9h"))


@pytest.mark.regulation("589.10(a)(2)")
def test_automated_shoe_dispenses_no_stack_before_no_more_bets() -> None:
    """§ 589.10(a): prior to the shoe dispensing any stacks of cards, the dealer
    announces "no more bets". Afterwards the first stack (2c 2d 2h 2s 3c of the ordered
    deck) goes to the only position with an Ante."""
    t = Table(GAME)
    t.wager(4, "ante", 1000)
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK, method="stacks")
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK, method="stacks")
    assert t.state.positions[4].dealt == tuple(cards("2c 2d 2h 2s 3c"))
    assert t.state.dealer_cards == tuple(cards("3d 3h 3s 4c 4d"))
