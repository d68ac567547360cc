"""Lunar Poker decisions and the order of settlement (589.11, 671a.11)."""

from __future__ import annotations

import pytest

from tables.domain.banked import Phase

from .drive import Table

QUALIFYING = "Ad Kh 5c 6h Tc"      # ace-king: the dealer qualifies
NOT_QUALIFYING = "Qh Js 4h 5s 7d"  # queen high: the dealer does not


def _round(hands: dict[int, str], dealer: str, game: str = "lunar-poker-589",
           supers: bool = False) -> Table:
    t = Table(game)
    for n in hands:
        t.wager(n, "ante", 1000)
        if supers or game == "lunar-poker-671a":
            t.wager(n, "super", 1000)
    t.deal(hands, dealer)
    return t


@pytest.mark.regulation("589.11(b)(2)")
def test_bet_is_exactly_twice_the_ante_589_11_b_2() -> None:
    """§ 589.11(b)(2): a Bet Wager equal to twice the Ante."""
    t = _round({1: "2c 2d 8h 9s Jc"}, QUALIFYING)
    t.refuse("bet_not_twice_ante", "decision", position=1, decision="bet", amount=1500)
    t.decide(1, "bet", amount=2000)
    assert t.state.positions[1].wagered["bet"] == 2000


@pytest.mark.parametrize("game", [
    pytest.param("lunar-poker-589", marks=pytest.mark.regulation("589.11(b)(3)")),
    pytest.param("lunar-poker-671a", marks=pytest.mark.regulation("671a.11(b)(3)"))])
@pytest.mark.parametrize("decision", ["buy", "exchange"])
def test_options_fee_equals_the_ante_589_11_b_3(game: str, decision: str) -> None:
    """§ 589.11(b)(3), § 671a.11(b)(3): an Options fee equal to the Ante (1,000) to buy a
    sixth card or to exchange; 500 or 2,000 is refused."""
    t = _round({1: "2c 2d 8h 9s Jc"}, QUALIFYING, game)
    t.refuse("options_fee_not_ante", "decision", position=1, decision=decision, amount=500)
    t.refuse("options_fee_not_ante", "decision", position=1, decision=decision, amount=2000)
    t.decide(1, decision)
    assert t.state.positions[1].wagered["options_fee"] == 1000


@pytest.mark.regulation("589.11(b)(2)")
@pytest.mark.parametrize("hand", ["As Ks Qs Js Ts", "5h 6h 7h 8h 9h", "Ac 2c 3c 4c 5c"])
def test_no_bet_on_a_dealt_royal_or_straight_flush_589_11_b_2(hand: str) -> None:
    """§ 589.11(b)(2): the player shall not place a Bet Wager but shall declare the hand."""
    t = _round({1: hand}, "Qd Jd 4d 3d 7d")
    t.refuse("instant_hand_no_bet", "decision", position=1, decision="bet")
    t.decide(1, "declare_instant")
    assert t.state.positions[1].decision == "instant"


@pytest.mark.regulation("671a.11(b)")
def test_instant_payout_needs_the_hand_671a_11_b() -> None:
    t = _round({1: "As Ks Qs Js 9d"}, QUALIFYING, "lunar-poker-671a")
    t.refuse("no_instant_hand", "decision", position=1, decision="declare_instant")


@pytest.mark.regulation("589.11(c)(2)(ii)")
def test_declaring_a_super_hand_needs_the_wager_and_the_hand_589_11_c_2() -> None:
    """§ 589.11(c)(2): a same colored five or better, declared."""
    t = _round({1: "2c 3d 5h 8s Ts", 2: "Ac Kd 5d 8c 9c"}, QUALIFYING)
    t.refuse("no_super_wager", "decision", position=1, decision="declare_super")
    u = _round({1: "2c 3d 5h 8s Ts"}, QUALIFYING, supers=True)
    u.refuse("no_super_hand", "decision", position=1, decision="declare_super")
    v = _round({1: "Ac Kd 5d 8c 9c"}, QUALIFYING, supers=True)
    v.decide(1, "declare_super")
    v.refuse("already_declared", "decision", position=1, decision="declare_super")
    assert v.events[-1]["data"] == {"position": 1, "declaration": "super", "hand": "ace_king"}


def test_one_decision_per_position_and_no_decision_before_the_deal() -> None:
    t = Table("lunar-poker-589")
    t.wager(1, "ante", 1000)
    t.refuse("cards_not_dealt", "decision", position=1, decision="fold")
    t.deal({1: "2c 2d 8h 9s Jc"}, QUALIFYING)
    t.refuse("position_not_in_round", "decision", position=2, decision="fold")
    t.refuse("unknown_decision", "decision", position=1, decision="play")
    t.decide(1, "fold")
    t.refuse("decision_already_made", "decision", position=1, decision="bet")


@pytest.mark.regulation("589.11(c)")
def test_lock_waits_for_every_decision_589_11_c() -> None:
    """§ 589.11(c): after all players have folded, bet or paid an Options fee."""
    t = _round({1: "2c 2d 8h 9s Jc", 2: "3c 3d 8c 9h Js"}, QUALIFYING)
    t.decide(1, "bet")
    err = t.refuse("decisions_pending", "lock_decisions")
    assert "position 2" in err.message


@pytest.mark.regulation("589.11(a)(3)")
def test_no_change_after_all_decisions_are_locked_in_589_11_a_3() -> None:
    """§ 589.11(a)(3): no amending a decision after "all decisions are locked in"."""
    t = _round({1: "2c 2d 8h 9s Jc", 2: "3c 3d 8c 9h Js"}, QUALIFYING)
    t.decide(1, "bet")
    t.decide(2, "buy")
    t.do("lock_decisions")
    t.refuse("decisions_locked", "decision", position=1, decision="fold")
    t.refuse("no_options_fee", "draw", position=1, cards=["Ah"])
    t.refuse("draw_first", "decision", position=2, decision="bet")


@pytest.mark.regulation("589.11(c)(1)(i)", "589.11(c)(2)(i)", "589.11(c)(2)(ii)", "589.12(a)",
                        "589.12(b)")
def test_instant_and_super_settled_clockwise_after_the_lock_589_11_c() -> None:
    """§ 589.11(c)(1)-(2): instant payout (§ 589.12(a)), then the Super Wager
    (§ 589.12(b)), player by player."""
    t = _round({1: "As Ks Qs Js Ts", 2: "2c 2d 8h 9s Jc"}, "Qd Jd 4d 5d 7d", supers=True)
    t.decide(1, "declare_instant")
    t.decide(1, "declare_super")
    t.decide(2, "fold")
    t.do("lock_decisions")
    assert t.settled()[:3] == [
        (1, "ante", "instant_payout", 1000 * 1501),  # 589.12(a) Paytable A: 1,500 to 1
        (1, "super", "won", 1000 * 151),  # same-colored straight, 150 to 1 (589.12(b))
        (2, "super", "lost", 0),  # not declared: 589.11(c)(2)(i)
    ]


@pytest.mark.regulation("589.11(c)(1)(i)")
def test_undeclared_royal_flush_gets_no_instant_payout_589_11_c_1_i() -> None:
    """§ 589.11(c)(1)(i): not declared before any other cards are dealt: not eligible."""
    t = _round({1: "As Ks Qs Js Ts"}, QUALIFYING)
    t.decide(1, "fold")
    t.do("lock_decisions")
    assert t.settled() == [(1, "ante", "lost", 0)]
    assert t.state.phase is Phase.CLOSED


@pytest.mark.regulation("671a.11(c)(1)")
def test_supers_on_a_hand_follow_its_own_super_671a_11_c_1() -> None:
    """§ 671a.11(c)(1): the player's losing Super Wager first, then the others on it."""
    t = Table("lunar-poker-671a")
    for n in (1, 2, 3):
        t.wager(n, "ante", 1000)
        t.wager(n, "super", 1000)
    t.wager(3, "super_on_1", 1000)
    t.wager(2, "super_on_1", 1000)
    t.deal({1: "2c 2d 8h 9s Jc", 2: "3c 3d 8c 9h Js", 3: "4d 4h 8d 9d Jh"}, QUALIFYING)
    for n in (1, 2, 3):
        t.decide(n, "bet")
    t.do("lock_decisions")
    assert [(n, w) for n, w, _, _ in t.settled()[:5]] == [
        (1, "super"), (2, "super_on_1"), (3, "super_on_1"), (2, "super"), (3, "super")]


@pytest.mark.regulation("589.11(d)(1)", "589.11(d)(2)(i)")
def test_folded_antes_interleave_with_draws_589_11_d_1() -> None:
    """§ 589.11(d): clockwise, folded Antes collected as the dealer reaches them."""
    t = _round({1: "2c 3c 4d 8h 9h", 2: "5d 6d 7c Tc Jd"}, NOT_QUALIFYING)
    t.decide(1, "buy")
    t.decide(2, "fold")
    t.do("lock_decisions")
    assert t.settled() == [(1, "options_fee", "collected", 0)]
    t.do("draw", position=1, cards=["Ts"])
    t.decide(1, "bet")
    assert t.settled()[1] == (2, "ante", "lost", 0)
    assert t.state.phase is Phase.FORCING  # 589.11(e)(2): queen high does not qualify


@pytest.mark.regulation("671a.11(c)(1)", "671a.11(c)(4)", "671a.11(d)")
def test_671a_folded_antes_go_with_the_supers_671a_11_c_4() -> None:
    """§ 671a.11(c)(4): folded Antes are collected before any Options fee (d)."""
    t = _round({1: "2c 3c 4d 8h 9h", 2: "5d 6d 7c Tc Jd"}, NOT_QUALIFYING, "lunar-poker-671a")
    t.decide(1, "buy")
    t.decide(2, "fold")
    t.do("lock_decisions")
    assert [(n, w) for n, w, _, _ in t.settled()] == [
        (1, "super"), (2, "super"), (2, "ante"), (1, "options_fee")]


@pytest.mark.regulation("671a.11(d)(4)")
def test_fold_after_the_draw_forfeits_the_ante_671a_11_d_4() -> None:
    """§ 671a.11(d)(4)."""
    t = _round({1: "2c 3c 4d 8h 9h"}, QUALIFYING, "lunar-poker-671a")
    t.decide(1, "exchange")
    t.do("lock_decisions")
    t.do("draw", position=1, discard=["2c", "3c"], cards=["Jc", "Qd"])
    t.decide(1, "fold")
    assert t.settled()[-1] == (1, "ante", "lost", 0)
    assert t.state.phase is Phase.CLOSED
    t.refuse("round_closed", "decision", position=1, decision="bet")


@pytest.mark.regulation("589.11(e)(1)", "589.12(c)")
def test_showdown_goes_counterclockwise_from_the_dealers_right_589_11_e_1() -> None:
    """§ 589.11(e)(1): starting with the player farthest to the dealer's right; a pair
    wins the Bet 1 to 1 (§ 589.12(c))."""
    t = _round({1: "2c 2d 8h 9s Jc", 2: "3c 3d 8c 9h Js", 3: "4d 4h 8d 9d Jh"}, QUALIFYING)
    for n in (1, 2, 3):
        t.decide(n, "bet")
    t.do("lock_decisions")
    assert [(n, w) for n, w, _, _ in t.settled()] == [
        (3, "ante"), (3, "bet"), (2, "ante"), (2, "bet"), (1, "ante"), (1, "bet")]
    assert t.returned(1) == {"ante": 1000, "bet": 4000}  # one pair, 1 to 1


@pytest.mark.regulation("671a.11(e)(2)", "671a.11(f)(2)(i)", "671a.12(b)")
def test_super_on_the_dealers_hand_before_the_antes_671a_11_e() -> None:
    """§ 671a.11(e), § 671a.11(f): the Super Wagers on the dealer's hand (§ 671a.12(b)),
    then the Antes and Bets."""
    t = Table("lunar-poker-671a")
    t.wager(1, "ante", 1000)
    t.wager(1, "super", 1000)
    t.wager(1, "super_dealer", 1000)
    t.deal({1: "2c 2d 8h 9s Jc"}, "4s 4c 4h 9c 2h")  # the dealer: three fours
    t.decide(1, "bet")
    t.do("lock_decisions")
    assert t.settled() == [(1, "super", "lost", 0), (1, "super_dealer", "won", 9000),
                           (1, "ante", "lost", 0), (1, "bet", "lost", 0)]


@pytest.mark.regulation("589.11(e)(2)")
def test_forcing_only_when_the_dealer_does_not_qualify_589_11_e_2() -> None:
    """§ 589.11(e)(2): the option to force exists when the dealer does not qualify."""
    t = _round({1: "2c 2d 8h 9s Jc"}, QUALIFYING)
    t.decide(1, "bet")
    t.do("lock_decisions")
    t.refuse("round_closed", "lock_decisions")
    t.refuse("force_not_available", "decision", position=1, decision="force_dealer")


@pytest.mark.regulation("671a.11(f)(1)")
def test_no_forcing_under_671a() -> None:
    """§ 671a.1: the Options fee only draws cards; § 671a.11(f)(1)."""
    t = _round({1: "2c 2d 8h 9s Jc"}, NOT_QUALIFYING, "lunar-poker-671a")
    t.decide(1, "bet")
    t.do("lock_decisions")
    assert t.state.phase is Phase.CLOSED
    t.refuse("force_not_offered", "decision", position=1, decision="force_dealer")


@pytest.mark.regulation("589.11(e)(2)(i)", "589.11(e)(2)(ii)", "589.12(d)")
def test_forcers_pay_a_fee_equal_to_the_ante_589_11_e_2_ii() -> None:
    """§ 589.11(e)(2)(ii): non-forcers settled (Ante 1 to 1, § 589.12(d)), then the fees
    collected, then the draw."""
    t = _round({1: "2c 2d 8h 9s Jc", 2: "3c 3d 8c 9h Js", 3: "4d 5h 8d 9d Jh"},
               "Qh Tc 4h 6s 7d")
    t.decide(1, "bet")
    t.decide(2, "bet")
    t.decide(3, "fold")
    t.do("lock_decisions")
    t.refuse("position_folded", "decision", position=3, decision="force_dealer")
    t.refuse("options_fee_not_ante", "decision", position=1, decision="force_dealer",
             amount=2000)
    t.decide(1, "force_dealer")
    t.refuse("decision_already_made", "decision", position=1, decision="no_force")
    before = len(t.events)
    t.decide(2, "no_force")
    assert t.types(t.events[before:]) == ["DecisionMade", "WagerSettled", "WagerSettled",
                                          "WagerSettled", "DealerForced"]
    assert t.settled()[-3:] == [(2, "ante", "won", 2000), (2, "bet", "push", 2000),
                                (1, "force_fee", "collected", 0)]
    t.refuse("wrong_dealer_discard", "draw_dealer", card="Ac", discard="Tc")
    t.do("draw_dealer", card="Ac", discard="Qh")  # A T 7 6 4: still no ace-king
    assert t.settled()[-2:] == [(1, "ante", "push", 1000), (1, "bet", "push", 2000)]
    assert t.state.phase is Phase.CLOSED


@pytest.mark.regulation("589.11(e)(2)(ii)")
def test_the_dealer_draws_only_when_forced() -> None:
    t = _round({1: "2c 2d 8h 9s Jc"}, NOT_QUALIFYING)
    t.decide(1, "bet")
    t.refuse("dealer_not_forced", "draw_dealer", card="Ac")
