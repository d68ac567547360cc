"""Lunar Poker (chapter 671a), one test per play-describing subsection not cited
elsewhere. Expected amounts are worked out by hand from the regulation text."""

from __future__ import annotations

import json

import pytest

from tables.domain.banked import Phase, rebuild

from .drive import ORDERED_DECK, Table, ids, texts

GAME = "lunar-poker-671a"
# the drive options: table minimum 1,000, instant paytable A, Super Wagers on the dealer's
# and other players' hands offered


def _seated(*positions: int) -> Table:
    t = Table(GAME)
    for n in positions:
        t.wager(n, "ante", 1000)
        t.wager(n, "super", 1000)
    return t


@pytest.mark.regulation("671a.7(b)", "671a.12(b)")
def test_abandoned_671a_wagers_are_losing_wagers() -> None:
    """§ 671a.7(b): a player who leaves during the round: his wagers may be treated as
    losing wagers, the Super Wager on the dealer's hand included.

    Position 1 (Ante, Super, Super on the dealer 1,000 each, Bet 2,000) leaves after
    betting: all 5,000 lost. Position 2 declared A-K-Q (ace-king-queen, 5 to 1 under
    § 671a.12(b): 1,000 + 5,000 = 6,000 back on its Super), folded (Ante lost), and its
    1,000 Super on position 1's hand is lost because that hand was never declared.
    Wagered 5,000 + 3,000, returned 6,000: the house wins 2,000."""
    t = _seated(1, 2)
    t.wager(1, "super_dealer", 1000)
    t.wager(2, "super_on_1", 1000)
    t.deal({1: "2c 2d 8h 9s Jc", 2: "Ac Kd Qh 7s 3c"}, "9d 8d 5h 4c 2s")
    t.decide(1, "bet")
    t.do("report_irregularity", kind="abandoned", position=1)
    assert sorted(t.settled()) == [(1, "ante", "abandoned", 0), (1, "bet", "abandoned", 0),
                                   (1, "super", "abandoned", 0),
                                   (1, "super_dealer", "abandoned", 0)]
    t.decide(2, "declare_super")
    t.decide(2, "fold")
    t.do("lock_decisions")
    assert t.state.phase is Phase.CLOSED
    assert t.returned(1) == {"ante": 0, "super": 0, "super_dealer": 0, "bet": 0}
    assert t.returned(2) == {"ante": 0, "super": 6000, "super_on_1": 0}
    assert t.state.totals["house_win"] == 2000


@pytest.mark.regulation("671a.7(d)")
def test_no_671a_wager_made_increased_or_withdrawn_after_no_more_bets() -> None:
    """§ 671a.7(d): the Ante and Super Wagers are placed before "no more bets"; after it
    no wager may be made, increased or withdrawn — except the Bet Wager and Options fee
    of the decisions."""
    t = _seated(1, 2)
    t.do("no_more_bets")
    t.refuse("wager_after_no_more_bets", "place_wager", position=1, wager="super_dealer",
             amount=1000)
    t.refuse("wager_after_no_more_bets", "place_wager", position=2, wager="super_on_1",
             amount=1000)
    t.refuse("wager_after_no_more_bets", "place_wager", position=3, wager="ante",
             amount=1000)
    t.refuse("wager_after_no_more_bets", "withdraw_wager", position=1, wager="super")
    t.do("deal", hands={"1": texts("2c 2d 8h 9s Jc"), "2": texts("Ac Kd 5d 8c 9c")},
         dealer=texts("Qh Js 4h 5s 7d"))
    t.refuse("wager_after_no_more_bets", "place_wager", position=1, wager="super_dealer",
             amount=1000)
    t.decide(1, "bet")
    t.decide(2, "buy")
    assert t.state.positions[1].wagered == {"ante": 1000, "super": 1000, "bet": 2000}
    assert t.state.positions[2].wagered == {"ante": 1000, "super": 1000,
                                            "options_fee": 1000}


@pytest.mark.regulation("671a.8(b)")
def test_671a_no_card_leaves_the_manual_shoe_before_no_more_bets() -> None:
    """§ 671a.8(b): the dealer announces "no more bets" and begins dealing."""
    t = _seated(1)
    t.refuse("no_more_bets_first", "deal", hands={"1": texts("As Ks Qs Js 9d")},
             dealer=texts("Qh Jd 4c 5h 7s"))
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK)
    assert t.state.positions[1].dealt == ()
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK)
    assert t.types()[-2:] == ["NoMoreBets", "CardsDealt"]


@pytest.mark.regulation("671a.8(c)")
def test_671a_deals_one_at_a_time_to_ante_positions_dealer_last_card_up() -> None:
    """§ 671a.8(c): one card at a time, clockwise from the player farthest to the
    dealer's left, to each player who placed an Ante and to the dealer, until each has
    five; the dealer's last card is turned face up. Antes at 1 and 3 (2, 4, 5 empty),
    deck 0, 1, 2, ... top first: three takers per pass."""
    t = _seated(1, 3)
    t.do("no_more_bets")
    t.do("deal", deck=list(range(52)))
    assert sorted(t.state.positions) == [1, 3]
    assert t.state.positions[1].dealt == (0, 3, 6, 9, 12)
    assert t.state.positions[3].dealt == (1, 4, 7, 10, 13)
    assert t.state.dealer_cards == (2, 5, 8, 11, 14)
    assert t.state.dealer_up == 14


@pytest.mark.regulation("671a.9(b)")
def test_671a_dealt_from_the_hand_top_card_first_dealer_last_card_up() -> None:
    """§ 671a.9(b): the top card of the deck, one at a time clockwise, then the dealer;
    the dealer's last card is turned face up. Antes at 2, 4 and 5 with the ordered deck
    2c 2d 2h 2s 3c ...: position 2 gets the clubs 2 to 6, position 4 the diamonds,
    position 5 the hearts, the dealer the spades, and the 6s is the face-up card. A
    recorded deal naming another dealer card as the face-up one is refused."""
    t = _seated(2, 4, 5)
    t.do("no_more_bets")
    t.refuse("dealer_up_card_not_last", "deal",
             hands={"2": texts("2c 3c 4c 5c 6c"), "4": texts("2d 3d 4d 5d 6d"),
                    "5": texts("2h 3h 4h 5h 6h")},
             dealer=texts("2s 3s 4s 5s 6s"), dealer_face_up="2s")
    t.do("deal", deck=ORDERED_DECK)
    assert t.state.positions[2].dealt == ids("2c 3c 4c 5c 6c")
    assert t.state.positions[4].dealt == ids("2d 3d 4d 5d 6d")
    assert t.state.positions[5].dealt == ids("2h 3h 4h 5h 6h")
    assert t.state.dealer_cards == ids("2s 3s 4s 5s 6s")
    assert t.state.dealer_up == ids("6s")[0]


@pytest.mark.regulation("671a.10(a)(2)")
def test_671a_automated_shoe_dispenses_no_stack_before_no_more_bets() -> None:
    """§ 671a.10(a): prior to the shoe dispensing any stacks of cards, the dealer
    announces "no more bets"."""
    t = _seated(2)
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK, method="stacks")
    assert t.state.positions[2].dealt == ()
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK, method="stacks")
    assert t.state.phase is Phase.DECISIONS


@pytest.mark.regulation("671a.10(b)")
def test_671a_stacks_go_clockwise_then_the_dealer_whose_last_card_is_up() -> None:
    """§ 671a.10(b): the first stack to the player farthest to the dealer's left with an
    Ante, clockwise to the others, then a stack of five to the dealer, whose last card is
    turned face up. Antes at 2 and 4, ordered deck: position 2 gets 2c 2d 2h 2s 3c,
    position 4 gets 3d 3h 3s 4c 4d, the dealer 4h 4s 5c 5d 5h, face up 5h."""
    t = _seated(2, 4)
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK, method="stacks")
    assert t.state.positions[2].dealt == ids("2c 2d 2h 2s 3c")
    assert t.state.positions[4].dealt == ids("3d 3h 3s 4c 4d")
    assert t.state.dealer_cards == ids("4h 4s 5c 5d 5h")
    assert t.state.dealer_up == ids("5h")[0]


@pytest.mark.regulation("671a.11(a)(3)", "671a.11(c)")
def test_671a_no_decision_amended_after_all_decisions_are_locked_in() -> None:
    """§ 671a.11(a): after "all decisions are locked in" a player may not amend a fold,
    nor increase, decrease or place a Bet Wager or Options fee — except the fold or Bet
    after a draw."""
    t = _seated(1, 2, 3)
    t.deal({1: "2c 3d 5h 8s Tc", 2: "4c 6d 7h 9s Jc", 3: "Ac Kd 5d 8c 9c"},
           "Qh Js 4h 5s 7d")
    t.decide(1, "fold")
    t.decide(2, "bet")
    t.decide(3, "buy")
    t.do("lock_decisions")
    t.refuse("position_folded", "decision", position=1, decision="bet")
    t.refuse("decisions_locked", "decision", position=1, decision="buy")
    t.refuse("decisions_locked", "decision", position=2, decision="fold")
    t.refuse("decisions_locked", "decision", position=2, decision="bet", amount=4000)
    t.refuse("decisions_locked", "decision", position=2, decision="exchange")
    t.refuse("draw_first", "decision", position=3, decision="bet")
    t.do("draw", position=3, cards=["Ks"])
    t.decide(3, "bet")  # the decision after the draw is allowed
    assert t.state.positions[1].wagered == {"ante": 1000, "super": 1000}
    assert t.state.positions[2].wagered["bet"] == 2000
    assert t.state.positions[3].wagered["bet"] == 2000


@pytest.mark.regulation("671a.11(g)", "671a.12(d)")
def test_each_671a_hand_can_be_reconstructed_from_the_record() -> None:
    """§ 671a.11(g): the cards are removed so that each hand can be reconstructed.

    From the events alone (through JSON): position 1 was dealt 2c 7d 9h Ks Kd, exchanged
    2c 7d 9h for Kh 4s 5c (three kings) and bet 2,000; position 2 folded Qs Js 8c 6h 4d;
    the dealer's Ac Kc 8s 6d 3h qualifies with an ace-king. Three kings beat it: Ante
    1,000 returned, Bet paid 3 to 1 (§ 671a.12(d)): 2,000 + 6,000 = 8,000; no second
    combination (no other pair, no ace-king). Neither first five is a Super hand, so
    both Supers are lost. Wagered 5,000 + 2,000, returned 9,000: house wins -2,000."""
    t = _seated(1, 2)
    t.deal({1: "2c 7d 9h Ks Kd", 2: "Qs Js 8c 6h 4d"}, "Ac Kc 8s 6d 3h")
    t.decide(1, "exchange")
    t.decide(2, "fold")
    t.do("lock_decisions")
    t.do("draw", position=1, discard=["2c", "7d", "9h"], cards=["Kh", "4s", "5c"])
    t.decide(1, "bet")
    assert t.state.phase is Phase.CLOSED

    s = rebuild(json.loads(json.dumps(t.events)))
    one, two = s.positions[1], s.positions[2]
    assert one.dealt == ids("2c 7d 9h Ks Kd")
    assert set(one.discards) == set(ids("2c 7d 9h"))
    assert set(one.cards) == set(ids("Ks Kd Kh 4s 5c"))
    assert two.dealt == ids("Qs Js 8c 6h 4d")
    assert s.dealer_cards == ids("Ac Kc 8s 6d 3h")
    assert one.returned == {"ante": 1000, "super": 0, "options_fee": 0, "bet": 8000}
    assert two.returned == {"ante": 0, "super": 0}
    assert s.totals == {"wagered": 7000, "returned": 9000, "house_win": -2000}


@pytest.mark.regulation("671a.13(e)")
def test_671a_shuffler_jam_reshuffles_and_the_wagers_stand() -> None:
    """§ 671a.13(e): the automated shuffler jams: the cards are reshuffled; nothing says
    the round is void, so every wager stays as placed and the deal goes ahead."""
    t = _seated(1, 2)
    t.wager(1, "super_dealer", 1000)
    t.do("report_irregularity", kind="shuffler_jam")
    assert t.events[-1] == {"type": "IrregularityRecorded",
                            "data": {"kind": "shuffler_jam", "cite": "671a.13(e)",
                                     "action": "reshuffle"}}
    assert t.state.void is None and t.state.phase is Phase.BETTING
    assert t.state.positions[1].wagered == {"ante": 1000, "super": 1000,
                                            "super_dealer": 1000}
    assert t.settled() == []
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK)
    assert t.state.phase is Phase.DECISIONS


@pytest.mark.regulation("671a.9(a)(3)")
def test_671a_no_card_dealt_from_the_hand_before_no_more_bets() -> None:
    """§ 671a.9(a)(3): dealt from the dealer's hand (an automated shuffler at the table,
    (a)(1)), "no more bets" comes before any card is dealt."""
    t = Table(GAME, equipment={"dealing_method": "hand", "shuffler": "automated"})
    t.wager(1, "ante", 1000)
    t.wager(1, "super", 1000)
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK)
    assert t.state.positions[1].dealt == ()
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK)
    assert t.types()[-2:] == ["NoMoreBets", "CardsDealt"]
    assert t.state.method == "by_card"
