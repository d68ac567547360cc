"""Lunar Poker (chapters 589 and 671a): ranking, qualification, Super Wager and instant
hands, the second Bet combination and the Ante/Bet settlement."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.domain.cards import CardError, parse_cards
from casino.domain.errors import DomainError
from tables.domain.hands import lunar
from tables.domain.hands.lunar import (
    LunarCategory, LunarError, Outcome, bet_payout, best_lunar, dealer_qualifies,
    describe_lunar, forced_dealer_discard, instant_payout_hand, lunar_category, lunar_value,
    settle_ante_and_bet, super_hand, super_hand_589, super_hand_671a,
)
from tables.domain.paytables import PayHand


def v(text: str) -> int:
    return lunar_value(parse_cards(text))


def cat(text: str) -> LunarCategory:
    return lunar_category(v(text))


# --- ranking: 589.6 / 671a.6 ------------------------------------------------------------

@pytest.mark.regulation("589.6(b)(10)")
def test_ace_king_is_a_hand_589_6_b_10():
    """§ 589.6(b)(10): an ace and a king (no pair) is the hand "ace-king"."""
    assert cat("As Kd 9c 5h 3h") is LunarCategory.ACE_KING
    assert describe_lunar(v("As Kd 9c 5h 3h")) == "Ace-king, nine kicker"


@pytest.mark.regulation("671a.6(b)(10)")
def test_ace_queen_high_is_no_hand_671a_6_b():
    """§ 671a.6(b): a hand with none of the ten hands listed is below ace-king."""
    assert cat("As Qd Jc 9h 8h") is LunarCategory.NO_HAND


@pytest.mark.regulation("589.6(b)(9)", "589.6(b)(10)")
def test_pair_of_deuces_beats_ace_king_589_6_b():
    """§ 589.6(b)(9)-(10): a pair ranks above ace-king."""
    assert v("2s 2d 5c 7h 9h") > v("As Kd Qc Jh 9h")


@pytest.mark.regulation("589.6(b)(1)", "589.6(b)(2)")
def test_royal_flush_is_its_own_category_589_6_b_1():
    """§ 589.6(b)(1)-(2): royal flush above the king-high straight flush."""
    assert cat("As Ks Qs Js Ts") is LunarCategory.ROYAL_FLUSH
    assert cat("Ks Qs Js Ts 9s") is LunarCategory.STRAIGHT_FLUSH
    assert v("As Ks Qs Js Ts") > v("Ks Qs Js Ts 9s")


@pytest.mark.regulation("589.6(a)", "589.6(b)(6)")
def test_wheel_is_the_lowest_straight_and_no_wrap_589_6_a():
    """§ 589.6(a), (b)(6): A-2-3-4-5 is the lowest straight; K-A-2-3-4 is not a straight."""
    assert cat("Ac 2d 3h 4s 5c") is LunarCategory.STRAIGHT
    assert v("2d 3h 4s 5c 6c") > v("Ac 2d 3h 4s 5c")
    assert cat("Kc Ad 2h 3s 4c") is LunarCategory.ACE_KING


@pytest.mark.regulation("589.6(c)")
def test_highest_card_not_in_the_other_hand_decides_589_6_c():
    """§ 589.6(c): A-K-9-5-3 beats A-K-9-5-2; same ranks in other suits tie."""
    assert v("As Kd 9c 5h 3h") > v("Ah Kc 9d 5s 2h")
    assert v("As Kd 9c 5h 3h") == v("Ah Kc 9d 5s 3c")


@pytest.mark.regulation("589.11(e)(1)", "589.11(e)(2)", "671a.11(f)(1)", "671a.11(f)(2)")
def test_dealer_qualifies_with_ace_king_or_better_589_11_e():
    """§ 589.11(e)(1), § 671a.11(f)(2): ace-king or better qualifies."""
    assert dealer_qualifies(v("As Kd 4c 3h 2d"))
    assert dealer_qualifies(v("2s 2d 5c 7h 9h"))
    assert not dealer_qualifies(v("As Qd Jc 9h 8h"))


@pytest.mark.regulation("589.11(e)(2)(ii)")
def test_forced_dealer_swaps_the_highest_card_589_11_e_2_ii():
    """§ 589.11(e)(2)(ii): the dealer discards the highest-ranking card."""
    assert forced_dealer_discard(parse_cards("As Qd Jc 9h 8h")) == parse_cards("As")[0]
    with pytest.raises(LunarError) as exc:
        forced_dealer_discard(parse_cards("As Kd 4c 3h 2d"))
    assert exc.value.code == "dealer_qualified"


@pytest.mark.regulation("589.11(d)(2)(ii)", "671a.11(d)(2)")
def test_best_five_of_six_after_buying_a_card_589_11_d_2_ii():
    """§ 589.11(d)(2)(ii): the player makes the best five of six cards."""
    value, five = best_lunar(parse_cards("2c 2d 5h 5s 9c 2h"))
    assert lunar_category(value) is LunarCategory.FULL_HOUSE
    assert sorted(five) == sorted(parse_cards("2c 2d 2h 5h 5s"))


# --- Super Wager and instant payout -----------------------------------------------------

@pytest.mark.regulation("589.6(d)(2)", "589.6(d)(5)")
def test_589_same_colored_straight_is_one_color_not_one_suit_589_6_d_2():
    """§ 589.6(d)(2): clubs and spades mixed (all black) in sequence."""
    assert super_hand_589(parse_cards("5c 6s 7c 8s 9c")) is PayHand.SAME_COLORED_STRAIGHT
    assert super_hand_589(parse_cards("5c 6h 7c 8s 9c")) is PayHand.STRAIGHT


@pytest.mark.regulation("589.11(c)(2)(ii)")
def test_589_straight_flush_counts_as_same_colored_straight_589_11_c_2_ii():
    """§ 589.11(c)(2)(ii)."""
    assert super_hand_589(parse_cards("Ks Qs Js Ts 9s")) is PayHand.SAME_COLORED_STRAIGHT
    assert super_hand_589(parse_cards("As Ks Qs Js Ts")) is PayHand.SAME_COLORED_STRAIGHT


@pytest.mark.regulation("589.6(d)(1)", "589.6(d)(3)", "589.6(d)(4)", "589.6(d)(6)", "589.6(d)(8)")
def test_589_super_hands_highest_first_589_6_d():
    """§ 589.6(d)(1), (3)-(6), (8)."""
    assert super_hand_589(parse_cards("9s 9d 9c 9h 2s")) is PayHand.FOUR_OF_A_KIND
    assert super_hand_589(parse_cards("9s 9d 9c 2h 2s")) is PayHand.FULL_HOUSE
    assert super_hand_589(parse_cards("As Ks 9s 5s 3s")) is PayHand.FLUSH
    assert super_hand_589(parse_cards("9s 9d 9c Ah Ks")) is PayHand.THREE_OF_A_KIND
    assert super_hand_589(parse_cards("2h 5d 9h Jd 4h")) is PayHand.SAME_COLORED_FIVE
    assert super_hand_589(parse_cards("2h 5d 9h Jd 4s")) is None


@pytest.mark.regulation("589.6(d)(7)")
def test_589_ace_king_is_an_ace_and_a_king_even_with_a_pair_589_6_d_7():
    """§ 589.6(d)(7), read with the example of § 589.11(e)(1)(ii) (A-A-K-8-9 holds an
    ace-king); one pair is not a Super Wager hand."""
    assert super_hand_589(parse_cards("As Kd 9c 5h 3h")) is PayHand.ACE_KING
    assert super_hand_589(parse_cards("As Ad Kc 8h 9h")) is PayHand.ACE_KING
    assert super_hand_589(parse_cards("As Ad Qc 8h 9h")) is None


@pytest.mark.regulation("589.6(d)(7)", "589.6(d)(8)")
def test_589_ace_king_outranks_same_colored_five_589_6_d():
    """§ 589.6(d)(7)-(8): an all-red ace-king pays as ace-king."""
    assert super_hand_589(parse_cards("Ah Kd 9h 5d 3h")) is PayHand.ACE_KING


@pytest.mark.regulation("671a.6(d)(1)", "671a.6(d)(2)")
def test_671a_five_picture_cards_671a_6_d_2():
    """§ 671a.6(d)(2): any five of kings, queens and jacks; it is listed above the full
    house, but four-of-a-kind stays above it (§ 671a.6(d)(1))."""
    assert super_hand_671a(parse_cards("Ks Qd Jc Kh Qs")) is PayHand.FIVE_PICTURE_CARDS
    assert super_hand_671a(parse_cards("Ks Kd Kc Qh Qs")) is PayHand.FIVE_PICTURE_CARDS
    assert super_hand_671a(parse_cards("Ks Kd Kc Kh Qs")) is PayHand.FOUR_OF_A_KIND
    assert super_hand_671a(parse_cards("Ks Qd Jc Th Qs")) is None


@pytest.mark.regulation("671a.6(d)(7)")
def test_671a_ace_king_queen_671a_6_d_7():
    """§ 671a.6(d)(7): an ace, king and queen in any suits; ace-king alone does not pay."""
    assert super_hand_671a(parse_cards("As Kd Qc 5h 2h")) is PayHand.ACE_KING_QUEEN
    assert super_hand_671a(parse_cards("As Kd 9c 5h 2h")) is None


@pytest.mark.regulation("671a.6(d)(4)", "671a.6(d)(5)", "671a.6(d)(8)")
def test_671a_flush_straight_and_same_colored_five_671a_6_d():
    """§ 671a.6(d)(4), (5), (8)."""
    assert super_hand_671a(parse_cards("As 9s 7s 5s 3s")) is PayHand.FLUSH
    assert super_hand_671a(parse_cards("5c 6h 7c 8s 9c")) is PayHand.STRAIGHT
    assert super_hand_671a(parse_cards("2h 5d 9h Jd 4h")) is PayHand.SAME_COLORED_FIVE


@pytest.mark.regulation("671a.6(d)(4)", "671a.6(d)(5)")
def test_671a_straight_flush_is_neither_flush_nor_straight_literally_671a_6_d_4_5():
    """§ 671a.6(d)(4)-(5): a flush is "not in consecutive order" and a straight is "more
    than one suit"; 671a has no rule like § 589.11(c)(2)(ii), so a straight flush pays as
    the next hand it is: same colored five, or ace-king-queen for a royal."""
    assert super_hand_671a(parse_cards("Ks Qs Js Ts 9s")) is PayHand.SAME_COLORED_FIVE
    assert super_hand_671a(parse_cards("As Ks Qs Js Ts")) is PayHand.ACE_KING_QUEEN


@pytest.mark.regulation("589.11(c)(1)", "671a.11(b)(2)")
def test_instant_payout_only_for_royal_or_straight_flush_589_11_c_1():
    """§ 589.11(c)(1), § 671a.11(b)(2)."""
    assert instant_payout_hand(parse_cards("As Ks Qs Js Ts")) is PayHand.ROYAL_FLUSH
    assert instant_payout_hand(parse_cards("5h 4h 3h 2h Ah")) is PayHand.STRAIGHT_FLUSH
    assert instant_payout_hand(parse_cards("9s 9d 9c 9h 2s")) is None


_COLOR_PRESERVING = [p for p in itertools.permutations(range(4))
                     if {p[0], p[3]} in ({0, 3}, {1, 2})]  # clubs0/spades3 black stay together

_hands5 = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


def _permute(cards, perm):
    return [(c & ~3) | perm[c & 3] for c in cards]


@pytest.mark.regulation("589.6(a)", "671a.6(a)")
@given(cards=_hands5, perm=st.permutations(range(4)))
def test_suits_are_equal_in_rank_589_6_a(cards, perm):
    """§ 589.6(a), § 671a.6(a): renaming suits never changes the Lunar value."""
    assert lunar_value(cards) == lunar_value(_permute(cards, perm))


@pytest.mark.regulation("589.6(d)", "671a.6(d)")
@given(cards=_hands5, perm=st.sampled_from(_COLOR_PRESERVING))
def test_super_hands_depend_on_colors_not_suit_names_589_6_d(cards, perm):
    """§ 589.6(d), § 671a.6(d): a suit renaming that keeps the colors keeps the hand."""
    moved = _permute(cards, perm)
    assert super_hand_589(cards) == super_hand_589(moved)
    assert super_hand_671a(cards) == super_hand_671a(moved)


# --- the second combination: 589.11(e)(1)(ii), 671a.11(f)(2)(ii) -----------------------

@pytest.mark.regulation("589.11(e)(1)(ii)", "589.12(c)")
def test_worked_example_pair_of_aces_and_ace_king_589_11_e_1_ii():
    """§ 589.11(e)(1)(ii): A-A-K-8-9 is paid for the pair of aces and for the ace-king;
    a $4 Bet: back $4, + $4 (pair, 1 to 1) + $4 (ace-king, 1 to 1) = $12."""
    payout = bet_payout(parse_cards("As Ah Kd 8c 9c"))
    assert payout.winning.category is LunarCategory.ONE_PAIR
    assert sorted(payout.winning.cards) == sorted(parse_cards("As Ah"))
    assert payout.second.category is LunarCategory.ACE_KING
    assert payout.bet_returned("589", 400) == 1200


@pytest.mark.regulation("671a.11(f)(2)(ii)", "671a.12(d)")
def test_worked_example_under_671a_671a_11_f_2_ii():
    """§ 671a.11(f)(2)(ii): the same example, and the same payout."""
    assert bet_payout(parse_cards("As Ah Kd 8c 9c")).bet_returned("671a", 400) == 1200


@pytest.mark.regulation("589.11(e)(1)(ii)", "589.12(c)")
def test_no_second_combination_when_every_card_is_in_the_winning_one():
    """§ 589.11(e)(1)(ii): aces and kings two pair — an ace-king would use only cards of
    the winning combination, and the nine makes nothing."""
    payout = bet_payout(parse_cards("As Ah Kd Kc 9c"))
    assert payout.winning.category is LunarCategory.TWO_PAIR
    assert payout.second is None
    assert payout.bet_returned("589", 400) == 1200  # back 4 + 2 to 1


@pytest.mark.regulation("589.11(e)(1)(ii)", "589.12(c)")
def test_two_pair_with_a_king_kicker_also_pays_ace_king_589_11_e_1_ii():
    """§ 589.11(e)(1)(ii): A-A-5-5-K — the king is outside the two pairs."""
    payout = bet_payout(parse_cards("As Ah 5d 5c Kc"))
    assert payout.second.category is LunarCategory.ACE_KING
    assert payout.bet_returned("589", 400) == 400 + 800 + 400


@pytest.mark.regulation("589.11(e)(1)(ii)")
def test_straight_uses_all_five_cards_so_no_second_589_11_e_1_ii():
    """§ 589.11(e)(1)(ii): a five-card straight leaves no card for a second combination."""
    assert bet_payout(parse_cards("Ts Jh Qd Kc Ac")).second is None


@pytest.mark.regulation("589.11(e)(1)(ii)", "589.12(c)")
def test_sixth_card_may_make_the_second_combination_589_11_e_1_ii():
    """§ 589.11(e)(1)(ii), last sentence: all six cards count for the second payout.
    7-7-7-7-K-K: four sevens win (20 to 1); the full house K-K-7-7-7 holds kings outside the
    winning combination (7 to 1). $4 Bet: 4 + 80 + 28 = $112."""
    payout = bet_payout(parse_cards("7s 7h 7d 7c Ks Kh"))
    assert payout.winning.category is LunarCategory.FOUR_OF_A_KIND
    assert payout.second.category is LunarCategory.FULL_HOUSE
    assert payout.bet_returned("589", 400) == 11200


@pytest.mark.regulation("671a.11(f)(2)(ii)", "671a.12(d)")
def test_bought_sixth_card_completes_an_ace_king_second_671a_11_f_2_ii():
    """§ 671a.11(f)(2)(ii): 9-9-9-K-2 plus a bought ace: three nines win (3 to 1) and the
    ace with the king is a second combination (1 to 1). $4 Bet: 4 + 12 + 4 = $20."""
    payout = bet_payout(parse_cards("9s 9h 9d Kc 2s As"))
    assert payout.winning.category is LunarCategory.THREE_OF_A_KIND
    assert payout.second.category is LunarCategory.ACE_KING
    assert payout.bet_returned("671a", 400) == 2000


@pytest.mark.regulation("589.11(e)(1)(ii)")
def test_two_pair_and_unpaired_cards_give_no_second_in_six_cards():
    """§ 589.11(e)(1)(ii): Q-Q-8-8-7-3 — no combination holds the 7 or the 3."""
    assert bet_payout(parse_cards("Qs Qh 8d 7c 3s 8h")).second is None


@pytest.mark.regulation("589.12(c)")
def test_no_bet_payout_below_ace_king():
    """§ 589.6(b)(10), § 589.12(c): nothing below ace-king is on the Bet paytable."""
    assert bet_payout(parse_cards("As Qd Jc 9h 8h")) is None


@pytest.mark.regulation("589.11(e)(1)(ii)")
@given(cards=st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True))
def test_second_combination_has_a_card_outside_the_winning_one(cards):
    """§ 589.11(e)(1)(ii): at least one card of the second combination is not in the
    winning combination; both are made of the player's cards."""
    payout = bet_payout(cards)
    if payout is None or payout.second is None:
        return
    assert set(payout.second.cards) - set(payout.winning.cards)
    assert set(payout.second.cards) <= set(cards)
    assert set(payout.winning.cards) <= set(payout.five)


# --- settlement -------------------------------------------------------------------------

@pytest.mark.regulation("589.11(e)(1)(ii)")
def test_winning_player_gets_ante_back_and_bet_paid_589_11_e_1_ii():
    """§ 589.11(e)(1)(ii): Ante returned (not paid), Bet paid; $2 Ante, $4 Bet."""
    s = settle_ante_and_bet("589", parse_cards("As Ah Kd 8c 9c"),
                            parse_cards("Qs Qh 4d 3c 2s"), 200, 400)
    assert s.outcome is Outcome.PLAYER_WINS
    assert (s.ante_returned, s.bet_returned) == (200, 1200)


@pytest.mark.regulation("589.11(e)(1)(i)")
def test_dealer_higher_takes_ante_and_bet_589_11_e_1_i():
    s = settle_ante_and_bet("589", parse_cards("As Kh 9d 8c 4c"),
                            parse_cards("2s 2h 4d 3c 5s"), 200, 400)
    assert s.outcome is Outcome.DEALER_WINS
    assert (s.ante_returned, s.bet_returned) == (0, 0)


@pytest.mark.regulation("671a.6(c)", "671a.11(f)(2)(iii)")
def test_equal_hands_push_589_11_e_1_iii():
    s = settle_ante_and_bet("671a", parse_cards("As Kh 9d 8c 4c"),
                            parse_cards("Ad Kc 9s 8h 4d"), 200, 400)
    assert s.outcome is Outcome.TIE
    assert (s.ante_returned, s.bet_returned) == (200, 400)


@pytest.mark.regulation("589.11(e)(2)(i)", "589.12(d)")
def test_589_dealer_not_qualifying_pays_ante_even_money_589_12_d():
    """§ 589.11(e)(2)(i), § 589.12(d): Bet returned, Ante paid 1 to 1."""
    s = settle_ante_and_bet("589", parse_cards("Ts Jh Qd Kc Ac"),
                            parse_cards("As Qh 8d 4c 2s"), 200, 400)
    assert s.outcome is Outcome.DEALER_DOES_NOT_QUALIFY
    assert (s.ante_returned, s.bet_returned) == (400, 400)


@pytest.mark.regulation("589.11(e)(2)(ii)")
def test_589_forced_dealer_still_not_qualifying_returns_both_589_11_e_2_ii_a():
    s = settle_ante_and_bet("589", parse_cards("Ts Jh Qd Kc Ac"),
                            parse_cards("Js Qh 8d 4c 2s"), 200, 400, dealer_was_forced=True)
    assert (s.ante_returned, s.bet_returned) == (200, 400)


@pytest.mark.regulation("671a.11(f)(1)", "671a.12(c)")
def test_671a_dealer_not_qualifying_straight_pays_four_to_one_671a_12_c():
    """§ 671a.11(f)(1), § 671a.12(c): straight or better 4 to 1, else 1 to 1."""
    straight = settle_ante_and_bet("671a", parse_cards("Ts Jh Qd Kc Ac"),
                                   parse_cards("As Qh 8d 4c 2s"), 200, 400)
    assert (straight.ante_returned, straight.bet_returned) == (1000, 400)
    pair = settle_ante_and_bet("671a", parse_cards("Ts Th Qd Kc 2c"),
                               parse_cards("As Qh 8d 4c 2s"), 200, 400)
    assert (pair.ante_returned, pair.bet_returned) == (400, 400)


@pytest.mark.regulation("589.11(b)(2)")
def test_bet_must_be_twice_the_ante_589_11_b_2():
    with pytest.raises(LunarError) as exc:
        settle_ante_and_bet("589", parse_cards("Ts Th Qd Kc 2c"),
                            parse_cards("As Qh 8d 4c 2s"), 200, 300)
    assert exc.value.code == "bet_not_twice_ante"


@pytest.mark.regulation("671a.11(f)(1)")
def test_forcing_the_dealer_is_not_a_671a_option():
    """§ 671a.1: the Options fee buys cards only; no force (unlike § 589.11(e)(2))."""
    with pytest.raises(LunarError) as exc:
        settle_ante_and_bet("671a", parse_cards("Ts Th Qd Kc 2c"),
                            parse_cards("As Qh 8d 4c 2s"), 200, 400, dealer_was_forced=True)
    assert exc.value.code == "force_not_offered"


# --- input checks -----------------------------------------------------------------------

@pytest.mark.parametrize("ante, bet", [(0, 0), (-200, -400), (True, 2), (200, 400.0),
                                       (200.0, 400), ("200", 400), (None, 400)])
def test_ante_and_bet_must_be_positive_whole_cents_589_11_b_2(ante, bet):
    """§ 589.11(b)(2), § 671a.11(b)(2): an Ante Wager and a Bet of twice it — amounts of
    money, so positive whole cents (no bool, float or text). Dealer's 2-2 beats the
    player's ace-king, which would have settled 400.0 or True without complaint."""
    with pytest.raises(DomainError) as exc:
        settle_ante_and_bet("589", parse_cards("As Kh 9d 8c 4c"),
                            parse_cards("2s 2h 4d 3c 5s"), ante, bet)
    assert exc.value.code == "invalid_wager"


@pytest.mark.regulation("589.11(d)(2)(i)", "589.12(c)")
def test_straight_flush_drawn_in_an_exchange_is_paid_on_the_bet_589_11_d_2():
    """§ 589.11(d)(2)(i)(B): after exchanging cards the player may Bet; a straight flush
    made by the draw (here 9h 8h 7h 6h 5h in the final five) is paid on the Bet at
    50 to 1 (§ 589.12(c)), not refused as an instant-payout hand: dealer A-K-4-3-2
    qualifies, $2 Ante returned, $4 Bet returns 400 x 51 = 20,400 cents."""
    s = settle_ante_and_bet("589", parse_cards("9h 8h 7h 6h 5h"),
                            parse_cards("As Kd 4d 3c 2s"), 200, 400)
    assert s.outcome is Outcome.PLAYER_WINS
    assert (s.ante_returned, s.bet_returned) == (200, 20400)


@pytest.mark.regulation("589.11(c)(1)", "589.11(d)(2)(iii)", "589.12(c)")
def test_straight_flush_made_with_a_bought_sixth_card_may_bet_589_11_d_2():
    """§ 589.11(c)(1) limits the instant payout to the first five cards, and
    § 589.11(d)(2)(iii) lets a player who bought a sixth card place the Bet: 9h 8h 7h 6h 2c
    plus a bought 5h is a straight flush on the Bet. Dealer A-K-4-3-2 qualifies
    (ace-king); $2 Ante returned, $4 Bet paid 50 to 1 (§ 589.12(c)) = 400 × 51 = 20,400
    cents; the 2c forms no second combination."""
    s = settle_ante_and_bet("589", parse_cards("9h 8h 7h 6h 2c 5h"),
                            parse_cards("As Kd 4d 3c 2s"), 200, 400)
    assert s.outcome is Outcome.PLAYER_WINS
    assert (s.ante_returned, s.bet_returned) == (200, 20400)


def test_unknown_rulebook_is_a_domain_error_589_11_e_2_671a_11_f_1():
    """§ 589.11(e)(2) vs § 671a.11(f)(1): the settlement depends on the chapter, and
    chapters 589 and 671a are the only Lunar Poker rulebooks."""
    with pytest.raises(LunarError) as exc:
        settle_ante_and_bet("590", parse_cards("As Kh 9d 8c 4c"),
                            parse_cards("2s 2h 4d 3c 5s"), 200, 400)
    assert exc.value.code == "unknown_rulebook"
    with pytest.raises(LunarError) as exc2:
        super_hand(["589"], parse_cards("As Kh 9d 8c 4c"))
    assert exc2.value.code == "unknown_rulebook"
    payout = bet_payout(parse_cards("As Ah Kd 8c 9c"))
    with pytest.raises(LunarError) as exc3:
        payout.bet_returned(None, 400)
    assert exc3.value.code == "unknown_rulebook"


@pytest.mark.parametrize("bad", [52, -1, "As"])
def test_raw_card_values_are_checked_589_6_a(bad):
    """§ 589.6(a): thirteen ranks in four suits — card numbers 0-51 only (52 used to be an
    IndexError, -1 was silently scored as a spade ace)."""
    four = parse_cards("Kh 9d 8c 4c")
    for call in (lambda: lunar_value(four + [bad]), lambda: best_lunar(four + [bad]),
                 lambda: instant_payout_hand(four + [bad]),
                 lambda: super_hand_589(four + [bad]),
                 lambda: settle_ante_and_bet("671a", parse_cards("As Kh 9d 8c 4c"),
                                             parse_cards("2s 2h 4d 3c") + [bad], 200, 400)):
        with pytest.raises(CardError) as exc:
            call()
        assert exc.value.code == "invalid_card"


def test_invariant_guards_survive_python_o(monkeypatch):
    """§ 589.11(e)(1)(ii): a winning Bet always has its combination; if that ever broke,
    the guard must still fire under ``python -O`` (an explicit error, not ``assert``)."""
    monkeypatch.setattr(lunar, "combination_of_five", lambda cards: None)
    with pytest.raises(RuntimeError):
        bet_payout(parse_cards("As Ah Kd 8c 9c"))
    monkeypatch.undo()
    monkeypatch.setattr(lunar, "bet_payout", lambda cards: None)
    with pytest.raises(RuntimeError):
        settle_ante_and_bet("589", parse_cards("As Ah Kd 8c 9c"),
                            parse_cards("Qs Qh 4d 3c 2s"), 200, 400)
