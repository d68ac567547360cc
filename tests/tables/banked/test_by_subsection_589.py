"""Lunar Poker (chapter 589), one test per play-describing subsection not cited elsewhere.
Expected values are worked out by hand from the regulation text."""

from __future__ import annotations

import json

import pytest

from tables.domain.banked import Phase, rebuild

from .drive import ORDERED_DECK, Table, cards, ids, texts

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


MANUAL = {"dealing_method": "manual-shoe", "shuffler": "none"}
HAND = {"dealing_method": "hand", "shuffler": "automated"}
AUTO = {"dealing_method": "automated-shoe", "shuffler": "automated"}


def _antes(equipment: dict[str, str], *positions: int) -> Table:
    t = Table(GAME, equipment=equipment)
    for n in positions:
        t.wager(n, "ante", 1000)
    t.do("no_more_bets")
    return t


@pytest.mark.regulation("589.8(c)")
def test_manual_shoe_one_card_at_a_time_to_ante_positions_then_the_dealer() -> None:
    """§ 589.8(c): from the player farthest to the dealer's left, clockwise, one card at
    a time to each player with an Ante (positions 2 and 4; 1, 3 and 5 empty) and to the
    dealer until each has five; the dealer's last card face up. Ordered deck, three takers
    a pass: position 2 gets the 1st, 4th, ... cards (2c 2s 3h 4d 5c), position 4 the 2nd,
    5th, ... (2d 3c 3s 4h 5d), the dealer 2h 3d 4c 4s 5h, the 5h face up."""
    t = _antes(MANUAL, 2, 4)
    (dealt,) = t.do("deal", deck=ORDERED_DECK, placed_by="dealer",
                    card_hand="closest_to_shoe")  # attested: 589.8(a), (b)
    assert dealt["data"]["method"] == "by_card"
    assert sorted(t.state.positions) == [2, 4]
    assert t.state.positions[2].dealt == ids("2c 2s 3h 4d 5c")
    assert t.state.positions[4].dealt == ids("2d 3c 3s 4h 5d")
    assert t.state.dealer_cards == ids("2h 3d 4c 4s 5h")
    assert t.state.dealer_up == ids("5h")[0]


@pytest.mark.regulation("589.9(b)")
def test_dealt_from_the_hand_top_card_one_at_a_time_dealer_last_card_up() -> None:
    """§ 589.9(b): the top card of the deck, one at a time clockwise from the player
    farthest to the dealer's left with an Ante, then the dealer, until each has five; the
    dealer's last card face up. Antes at 1, 3 and 5, ordered deck: four takers a pass, so
    position 1 gets the clubs 2 to 6, position 3 the diamonds, position 5 the hearts, the
    dealer the spades with the 6s face up. Stacks are refused when dealt by hand."""
    t = _antes(HAND, 1, 3, 5)
    t.refuse("deal_method_mismatch", "deal", deck=ORDERED_DECK, method="stacks")
    (dealt,) = t.do("deal", deck=ORDERED_DECK)
    assert dealt["data"]["method"] == "by_card"
    assert t.state.positions[1].dealt == ids("2c 3c 4c 5c 6c")
    assert t.state.positions[3].dealt == ids("2d 3d 4d 5d 6d")
    assert t.state.positions[5].dealt == ids("2h 3h 4h 5h 6h")
    assert t.state.dealer_cards == ids("2s 3s 4s 5s 6s")
    assert t.state.dealer_up == ids("6s")[0]


@pytest.mark.regulation("589.10(b)")
def test_automated_shoe_stacks_clockwise_then_five_to_the_dealer() -> None:
    """§ 589.10(b): the first stack to the player farthest to the dealer's left with an
    Ante, the next stacks clockwise to the other Ante positions, then a stack of five to
    the dealer, whose last card is turned face up. Antes at 3 and 5, ordered deck:
    position 3 gets 2c 2d 2h 2s 3c, position 5 3d 3h 3s 4c 4d, the dealer 4h 4s 5c 5d 5h
    with the 5h up. One card at a time is refused at an automated shoe."""
    t = _antes(AUTO, 3, 5)
    t.refuse("deal_method_mismatch", "deal", deck=ORDERED_DECK, method="by_card")
    (dealt,) = t.do("deal", deck=ORDERED_DECK)
    assert dealt["data"]["method"] == "stacks"
    assert t.state.positions[3].dealt == ids("2c 2d 2h 2s 3c")
    assert t.state.positions[5].dealt == ids("3d 3h 3s 4c 4d")
    assert t.state.dealer_cards == ids("4h 4s 5c 5d 5h")
    assert t.state.dealer_up == ids("5h")[0]


@pytest.mark.regulation("589.11(f)")
def test_each_589_hand_can_be_reconstructed_from_the_record() -> None:
    """§ 589.11(f): after settlement the cards are removed so that each hand can be
    reconstructed in a question or dispute. From the events alone (through JSON):
    position 1 was dealt 2c 7d 9h Ks Kd, paid the Options fee, exchanged 2c 7d 9h for
    Kh 4s 5c (three kings) and bet 2,000; position 2 folded Qs Js 8c 6h 4d; the dealer's
    Ac Kc 8s 6d 3h qualifies with an ace-king. Three kings win: Ante 1,000 returned, Bet
    3 to 1 (§ 589.12(c)): 2,000 + 6,000 = 8,000, no second combination (4 and 5 make
    nothing). Wagered 4,000 + 1,000, returned 9,000: the house wins -4,000."""
    t = Table(GAME)
    t.wager(1, "ante", 1000)
    t.wager(2, "ante", 1000)
    t.do("no_more_bets")
    t.do("deal", hands={"1": texts("2c 7d 9h Ks Kd"), "2": texts("Qs Js 8c 6h 4d")},
         dealer=texts("Ac Kc 8s 6d 3h"))
    t.do("decision", position=1, decision="exchange")
    t.do("decision", position=2, decision="fold")
    t.do("lock_decisions")
    t.do("draw", position=1, discard=texts("2c 7d 9h"), cards=texts("Kh 4s 5c"))
    t.do("decision", position=1, decision="bet")
    assert t.state.phase is Phase.CLOSED

    s = rebuild(json.loads(json.dumps(t.events)))
    one, two = s.positions[1], s.positions[2]
    assert one.dealt == ids("2c 7d 9h Ks Kd")
    assert set(one.discards) == set(ids("2c 7d 9h"))
    assert set(one.cards) == set(ids("Ks Kd Kh 4s 5c"))
    assert two.dealt == ids("Qs Js 8c 6h 4d")
    assert s.dealer_cards == ids("Ac Kc 8s 6d 3h")
    assert one.returned == {"ante": 1000, "options_fee": 0, "bet": 8000}
    assert two.returned == {"ante": 0}
    assert s.totals == {"wagered": 5000, "returned": 9000, "house_win": -4000}


@pytest.mark.regulation("589.9(a)(3)")
def test_no_card_dealt_from_the_hand_before_no_more_bets() -> None:
    """§ 589.9(a)(3): dealt from the dealer's hand, "no more bets" is announced before
    any card is dealt: the deal is refused before it, nothing recorded, and a wager is
    refused after it."""
    t = Table(GAME, equipment=HAND)
    t.wager(1, "ante", 1000)
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK)
    t.do("no_more_bets")
    t.refuse("wager_after_no_more_bets", "place_wager", position=2, wager="ante",
             amount=1000)
    t.do("deal", deck=ORDERED_DECK)
    assert t.types()[-2:] == ["NoMoreBets", "CardsDealt"]
