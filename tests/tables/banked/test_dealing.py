"""The deal, recorded from a shoe or dealt from a deck, and the Lunar draws."""

from __future__ import annotations

import pytest

from tables.domain.banked import Phase

from .drive import Table, cards


def _lunar(players: int = 2, game: str = "lunar-poker-589") -> Table:
    t = Table(game)
    for n in range(1, players + 1):
        t.wager(n, "ante", 1000)
        if game == "lunar-poker-671a":
            t.wager(n, "super", 1000)
    return t


def test_recorded_deal_gives_each_ante_position_and_the_dealer_five_cards() -> None:
    t = _lunar()
    t.deal({1: "As Ks Qs Js 9d", 2: "2c 3c 4d 8h 9h"}, "Qh Jd 4c 5h 7s")
    assert t.state.phase is Phase.DECISIONS
    assert t.state.positions[1].dealt == tuple(cards("As Ks Qs Js 9d"))
    assert t.state.dealer_cards == tuple(cards("Qh Jd 4c 5h 7s"))


@pytest.mark.regulation("589.8(c)")
def test_lunar_dealer_last_card_is_the_face_up_card_589_8_c() -> None:
    """§ 589.8(c): "The last card of the dealer shall be turned face up"."""
    t = _lunar(1)
    t.do("no_more_bets")
    t.refuse("dealer_up_card_not_last", "deal", hands={"1": ["As", "Ks", "Qs", "Js", "9d"]},
             dealer=["Qh", "Jd", "4c", "5h", "7s"], dealer_face_up="Qh")
    t.do("deal", hands={"1": ["As", "Ks", "Qs", "Js", "9d"]}, dealer=["Qh", "Jd", "4c", "5h", "7s"],
         dealer_face_up="7s")
    assert t.state.dealer_up == cards("7s")[0]
    assert t.events[-1]["data"]["dealer_up_card"] == cards("7s")[0]


def test_hilo_dealer_cards_are_all_face_down_579_8_d() -> None:
    t = Table("five-card-hi-lo")
    t.wager(1, "ante", 500)
    t.do("no_more_bets")
    t.refuse("no_dealer_up_card", "deal", hands={"1": ["As", "Ks", "Qs", "Js", "9d"]},
             dealer=["Qh", "Jd", "4c", "5h", "7s"], dealer_face_up="7s")
    t.do("deal", hands={"1": ["As", "Ks", "Qs", "Js", "9d"]}, dealer=["Qh", "Jd", "4c", "5h", "7s"])
    assert t.state.dealer_up is None


@pytest.mark.parametrize(("hands", "dealer", "code"), [
    ({"1": "As Ks Qs Js", "2": "2c 3c 4d 8h 9h"}, "Qh Jd 4c 5h 7s", "wrong_card_count"),
    ({"1": "As Ks Qs Js 9d", "2": "2c 3c 4d 8h 9h"}, "Qh Jd 4c 5h", "wrong_card_count"),
    ({"1": "As Ks Qs Js 9d"}, "Qh Jd 4c 5h 7s", "wrong_card_count"),
    ({"1": "As Ks Qs Js 9d", "2": "As 3c 4d 8h 9h"}, "Qh Jd 4c 5h 7s", "duplicate_card"),
    ({"1": "As Ks Qs Js 9d", "2": "2c 3c 4d 8h Zz"}, "Qh Jd 4c 5h 7s", "invalid_card"),
    ({"1": "As Ks Qs Js 9d", "2": "2c 3c 4d 8h 9h", "3": "2d 3d 4h 8s 9s"},
     "Qh Jd 4c 5h 7s", "position_not_in_round"),
])
def test_recorded_deal_is_checked(hands: dict, dealer: str, code: str) -> None:
    t = _lunar()
    t.do("no_more_bets")
    t.refuse(code, "deal", hands={k: v.split() for k, v in hands.items()},
             dealer=dealer.split())


def test_deal_needs_no_more_bets_first_and_happens_once() -> None:
    t = _lunar(1)
    t.refuse("no_more_bets_first", "deal", hands={"1": ["As", "Ks", "Qs", "Js", "9d"]},
             dealer=["Qh", "Jd", "4c", "5h", "7s"])
    t.deal({1: "As Ks Qs Js 9d"}, "Qh Jd 4c 5h 7s")
    t.refuse("already_dealt", "deal", hands={"1": ["As", "Ks", "Qs", "Js", "9d"]},
             dealer=["Qh", "Jd", "4c", "5h", "7s"])


@pytest.mark.regulation("589.8(c)")
def test_dealt_one_card_at_a_time_clockwise_then_the_dealer_589_8_c() -> None:
    """§ 589.8(c), § 589.9(b): one card at a time from the player farthest to the dealer's
    left, clockwise, then the dealer, until each has five."""
    t = _lunar(2)
    deck = list(range(52))
    t.do("no_more_bets")
    t.do("deal", deck=deck)
    assert t.state.positions[1].dealt == (0, 3, 6, 9, 12)
    assert t.state.positions[2].dealt == (1, 4, 7, 10, 13)
    assert t.state.dealer_cards == (2, 5, 8, 11, 14)
    assert t.state.dealer_up == 14
    assert t.state.next_card == 15


def test_dealt_in_stacks_from_an_automated_shoe_589_10_b() -> None:
    """§ 589.10(b), § 579.10(b): a stack of five to each player, then the dealer."""
    t = Table("five-card-hi-lo")
    t.wager(1, "ante", 500)
    t.wager(3, "ante", 500)
    t.do("no_more_bets")
    t.do("deal", deck=list(range(51, -1, -1)), method="stacks")
    assert t.state.positions[1].dealt == (51, 50, 49, 48, 47)
    assert t.state.positions[3].dealt == (46, 45, 44, 43, 42)
    assert t.state.dealer_cards == (41, 40, 39, 38, 37)


def test_deck_to_deal_from_must_be_a_whole_deck() -> None:
    t = _lunar(1)
    t.do("no_more_bets")
    t.refuse("wrong_card_count", "deal", deck=list(range(51)))
    t.refuse("duplicate_card", "deal", deck=[0, *range(51)])
    t.refuse("deal_mode_ambiguous", "deal", deck=list(range(52)), dealer=[1, 2, 3, 4, 5])


@pytest.mark.regulation("589.13(a)")
def test_a_card_found_face_up_is_not_dealt_589_13_a() -> None:
    """§ 589.13(a): the card may not be used in that round; the next card is."""
    t = _lunar(1)
    t.do("no_more_bets")
    t.do("report_irregularity", kind="card_face_up", card=1)
    t.do("deal", deck=list(range(52)))
    assert t.state.positions[1].dealt == (0, 3, 5, 7, 9)
    assert t.state.dealer_cards == (2, 4, 6, 8, 10)
    assert t.state.face_up_found == (1,)


@pytest.mark.regulation("589.13(a)")
def test_a_recorded_card_found_face_up_is_refused_589_13_a() -> None:
    t = _lunar(1)
    t.do("no_more_bets")
    t.do("report_irregularity", kind="card_face_up", card="9d")
    t.refuse("card_not_in_deck", "deal", hands={"1": ["As", "Ks", "Qs", "Js", "9d"]},
             dealer=["Qh", "Jd", "4c", "5h", "7s"])


# --- draws after an Options fee (589.11(d)(2), 671a.11(d)) ---------------------------------

def _drawing(decision: str = "buy", game: str = "lunar-poker-589") -> Table:
    t = _lunar(2, game)
    t.deal({1: "As Ks Qs Js 9d", 2: "2c 3c 4d 8h 9h"}, "Qh Jd 4c 5h 7s")
    t.decide(1, "bet")
    t.decide(2, decision)
    t.do("lock_decisions")
    return t


@pytest.mark.regulation("589.11(d)(2)(i)")
def test_buying_a_sixth_card_589_11_d_2_i_A() -> None:
    """§ 589.11(d)(2)(i)(A): the dealer deals one additional card."""
    t = _drawing("buy")
    t.refuse("buy_has_no_discard", "draw", position=2, discard=["2c"], cards=["Tc"])
    t.refuse("wrong_card_count", "draw", position=2, cards=["Tc", "Td"])
    t.do("draw", position=2, cards=["Tc"])
    assert t.state.positions[2].cards == tuple(cards("2c 3c 4d 8h 9h Tc"))


@pytest.mark.regulation("589.11(d)(2)(i)")
@pytest.mark.parametrize("discard", [["2c"], []])
def test_an_exchange_is_two_to_five_cards_589_11_d_2_i_B(discard: list[str]) -> None:
    """§ 589.11(d)(2)(i)(B), § 671a.11(d)(1)(ii): between two and five cards."""
    t = _drawing("exchange")
    t.refuse("exchange_count", "draw", position=2, discard=discard, cards=["Tc"][:len(discard)])


@pytest.mark.regulation("671a.11(d)(1)(ii)")
def test_an_exchange_replaces_the_discards_671a_11_d_1_ii() -> None:
    t = _drawing("exchange", "lunar-poker-671a")
    t.refuse("card_not_in_hand", "draw", position=2, discard=["2c", "As"], cards=["Tc", "Td"])
    t.refuse("card_already_dealt", "draw", position=2, discard=["2c", "3c"],
             cards=["Tc", "Qh"])  # the dealer's queen
    t.refuse("wrong_card_count", "draw", position=2, discard=["2c", "3c"], cards=["Tc"])
    t.do("draw", position=2, discard=["2c", "3c"], cards=["Tc", "Td"])
    assert t.state.positions[2].cards == tuple(cards("4d 8h 9h Tc Td"))
    assert t.state.positions[2].discards == tuple(cards("2c 3c"))
    t.refuse("already_drawn", "draw", position=2, discard=["4d", "8h"], cards=["Kc", "Kd"])


def test_discarded_cards_do_not_come_back_the_same_round() -> None:
    t = _drawing("exchange")
    t.do("draw", position=2, discard=["2c", "3c"], cards=["Tc", "Td"])
    t.decide(2, "bet")
    # the dealer qualifies? Qh Jd 4c 5h 7s does not: the 589 forcing answers follow
    t.decide(1, "no_force")
    t.decide(2, "force_dealer")
    t.refuse("card_already_dealt", "draw_dealer", card="2c")


@pytest.mark.regulation("589.11(d)", "589.11(d)(2)(iii)")
def test_draws_go_clockwise_589_11_d() -> None:
    """§ 589.11(d): beginning with the player to the dealer's left, clockwise."""
    t = _lunar(3)
    t.deal({1: "As Ks Qs Js 9d", 2: "2c 3c 4d 8h 9h", 3: "2d 3d 5s 8s Th"}, "Qh Jd 4c 5h 7s")
    t.decide(1, "exchange")
    t.decide(2, "fold")
    t.decide(3, "buy")
    t.do("lock_decisions")
    t.refuse("out_of_turn", "draw", position=3, cards=["Tc"])
    t.refuse("position_folded", "draw", position=2, cards=["Tc"])
    t.do("draw", position=1, discard=["9d", "As"], cards=["Ts", "Ad"])
    t.refuse("out_of_turn", "draw", position=3, cards=["Tc"])  # 1 must fold or bet first
    t.decide(1, "bet")
    t.do("draw", position=3, cards=["Tc"])


@pytest.mark.regulation("589.11(d)(2)(i)")
def test_dealt_mode_draws_come_from_the_deck() -> None:
    t = _lunar(1)
    t.do("no_more_bets")
    t.do("deal", deck=list(range(52)))
    t.decide(1, "exchange")
    t.do("lock_decisions")
    t.refuse("cards_not_expected", "draw", position=1, discard=[0, 2], cards=[40, 41])
    t.do("draw", position=1, discard=[0, 2])  # the position holds 0, 2, 4, 6, 8
    assert t.state.positions[1].cards == (4, 6, 8, 10, 11)
    assert t.state.next_card == 12


def test_no_draw_before_the_lock_or_in_hilo() -> None:
    t = _lunar(1)
    t.deal({1: "As Ks Qs Js 9d"}, "Qh Jd 4c 5h 7s")
    t.decide(1, "buy")
    t.refuse("not_drawing", "draw", position=1, cards=["Tc"])
    h = Table("five-card-hi-lo")
    h.wager(1, "ante", 500)
    h.deal({1: "As Ks Qs Js 9d"}, "Qh Jd 4c 5h 7s")
    h.refuse("no_draw_in_game", "draw", position=1, cards=["Tc"])
