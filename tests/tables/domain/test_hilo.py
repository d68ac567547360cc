"""Five Card Hi-Lo (chapter 579): points, settings, win/lose/tie and the bonus hands."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.domain.cards import CardError, parse_cards
from casino.domain.errors import DomainError
from tables.domain.hands.hilo import (
    HiLoSettingError, Result, ante_bonus_hand, ante_play_result, dealer_setting,
    distinct_setting_totals, legal_settings, point_value, poker_bonus_hand, settle_ante_play,
    tie_wager_hand, validate_setting,
)
from tables.domain.paytables import PayHand, total_returned

P = parse_cards
_hands5 = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@pytest.mark.regulation("579.6(a)")
def test_point_values_579_6_a():
    """§ 579.6(a): face value, J/Q/K 10, ace 11 high and 1 low."""
    assert [point_value(c, in_low=False) for c in P("2c 9d Th Js Qc Kd")] == \
        [2, 9, 10, 10, 10, 10]
    ace = P("As")[0]
    assert point_value(ace, in_low=False) == 11
    assert point_value(ace, in_low=True) == 1


@pytest.mark.regulation("579.11(d)")
def test_worked_example_a_j_10_9_2_579_11_d():
    """§ 579.11(d): J-10-9 high = 29 and A-2 low = 3."""
    dealt = P("As Jd Th 9c 2c")
    s = validate_setting(dealt, P("Jd Th 9c"), P("As 2c"))
    assert s.totals == (29, 3)
    assert s in legal_settings(dealt)


@pytest.mark.regulation("579.11(d)")
def test_ace_may_also_stay_high_579_11_d():
    """§ 579.11(d): "up to one" ace low — keeping it high (A-J-10 = 31, 9-2 = 11) is legal."""
    dealt = P("As Jd Th 9c 2c")
    assert distinct_setting_totals(dealt) == [(31, 11), (29, 3)]


@pytest.mark.regulation("579.11(d)")
def test_two_aces_low_is_refused_579_11_d():
    with pytest.raises(HiLoSettingError) as exc:
        validate_setting(P("As Ad Kc Qh Js"), P("Kc Qh Js"), P("As Ad"))
    assert exc.value.code == "hilo_two_aces_low"


@pytest.mark.regulation("579.11(d)")
def test_higher_card_in_the_low_hand_is_refused_579_11_d():
    """§ 579.11(d): the three higher-value cards go high; the 9 may not sit low under a 2."""
    with pytest.raises(HiLoSettingError) as exc:
        validate_setting(P("As Jd Th 9c 2c"), P("Jd Th 2c"), P("9c As"))
    assert exc.value.code == "hilo_low_card_above_high"


@pytest.mark.regulation("579.6(a)", "579.11(d)")
def test_ace_counts_where_it_is_placed_579_6_a():
    """§ 579.6(a), § 579.11(d): A-K-5-4-3 — the ace low counts 1, so K-5-4 / A-3 is legal
    (19 and 4); the ace high counts 11, so A-5-4 high with the king low is refused."""
    dealt = P("As Kd 5h 4c 3c")
    assert validate_setting(dealt, P("Kd 5h 4c"), P("As 3c")).totals == (19, 4)
    with pytest.raises(HiLoSettingError) as exc:
        validate_setting(dealt, P("As 5h 4c"), P("Kd 3c"))
    assert exc.value.code == "hilo_low_card_above_high"


@pytest.mark.regulation("579.11(d)")
def test_wrong_hand_sizes_and_foreign_cards_are_refused_579_11_d():
    dealt = P("As Jd Th 9c 2c")
    with pytest.raises(HiLoSettingError) as sizes:
        validate_setting(dealt, P("As Jd Th 9c"), P("2c"))
    assert sizes.value.code == "hilo_wrong_hand_sizes"
    with pytest.raises(HiLoSettingError) as foreign:
        validate_setting(dealt, P("Jd Th 9c"), P("As 3c"))
    assert foreign.value.code == "hilo_cards_not_dealt"


@pytest.mark.regulation("579.11(e)")
def test_dealer_keeps_aces_high_579_11_e():
    """§ 579.11(e): A-J-10-9-2 — the dealer sets A-J-10 = 31 high, 9-2 = 11 low."""
    assert dealer_setting(P("As Jd Th 9c 2c")).totals == (31, 11)


@pytest.mark.regulation("579.11(e)", "579.6(a)")
def test_dealer_with_four_aces_puts_one_low_579_11_e():
    """§ 579.11(e), § 579.6(a): four aces and a king — A-A-A = 33 high, A-K = 1 + 10 low."""
    assert dealer_setting(P("As Ad Ah Ac Kc")).totals == (33, 11)


@pytest.mark.regulation("579.11(g)(1)")
def test_win_needs_higher_high_and_lower_low_579_11_g_1():
    assert ante_play_result((29, 3), (28, 4)) is Result.WIN


@pytest.mark.regulation("579.11(g)(2)")
def test_lose_when_high_not_higher_and_low_not_lower_579_11_g_2():
    """§ 579.11(g)(2): ties on both hands lose."""
    assert ante_play_result((28, 4), (28, 4)) is Result.LOSE
    assert ante_play_result((27, 5), (28, 4)) is Result.LOSE


@pytest.mark.regulation("579.11(g)(3)")
def test_tie_when_one_hand_wins_579_11_g_3():
    """§ 579.11(g)(3)(i) higher high, low tied or higher; (ii) high tied or lower, lower low."""
    assert ante_play_result((30, 4), (28, 4)) is Result.TIE
    assert ante_play_result((30, 9), (28, 4)) is Result.TIE
    assert ante_play_result((28, 3), (28, 4)) is Result.TIE
    assert ante_play_result((20, 3), (28, 4)) is Result.TIE


@pytest.mark.regulation("579.12(a)", "579.11(g)")
def test_settle_ante_and_play_579_12_a():
    """§ 579.11(b), § 579.12(a): Play = Ante; both paid 1 to 1 on a win, returned on a tie."""
    assert settle_ante_play((29, 3), (28, 4), 500) == (1000, 1000)
    assert settle_ante_play((30, 4), (28, 4), 500) == (500, 500)
    assert settle_ante_play((28, 4), (28, 4), 500) == (0, 0)


@pytest.mark.regulation("579.11(j)(1)", "579.12(c)")
def test_tie_wager_hands_579_12_c():
    """§ 579.11(j)(1), § 579.12(c): both tie 20 to 1, one tie 4 to 1."""
    assert tie_wager_hand((28, 4), (28, 4)) is PayHand.BOTH_HANDS_TIE
    assert tie_wager_hand((28, 5), (28, 4)) is PayHand.HIGH_HANDS_TIE
    assert tie_wager_hand((30, 4), (28, 4)) is PayHand.LOW_HANDS_TIE
    assert tie_wager_hand((30, 5), (28, 4)) is None
    assert total_returned("579-tie", PayHand.BOTH_HANDS_TIE, 500) == 10500


@pytest.mark.regulation("579.11(h)")
def test_ante_bonus_hands_579_11_h():
    """§ 579.11(h), § 579.12(b): three or more aces among the five cards."""
    assert ante_bonus_hand(P("As Ad Ah Ac 2c")) is PayHand.FOUR_ACES_AND_A_DEUCE
    assert ante_bonus_hand(P("As Ad Ah Ac Kc")) is PayHand.FOUR_ACES
    assert ante_bonus_hand(P("As Ad Ah 2c Kc")) is PayHand.THREE_ACES
    assert ante_bonus_hand(P("As Ad 2h 2c Kc")) is None


@pytest.mark.regulation("579.12(b)")
def test_ante_bonus_pays_for_one_on_the_ante_579_12_b():
    """§ 579.12(b) Paytable A: four aces and one 2, 1,000 for 1 on a $5 Ante = $5,000."""
    hand = ante_bonus_hand(P("As Ad Ah Ac 2c"))
    assert total_returned("579-ante-bonus-A", hand, 500) == 500_000


@pytest.mark.regulation("579.6(b)(9)", "579.7(e)(2)", "579.11(j)(2)")
def test_poker_bonus_pair_threshold_depends_on_the_paytable_579_6_b_9():
    """§ 579.6(b)(9), § 579.7(e)(2): sevens pay on A (7s or better), sixes only on B."""
    sevens, sixes = P("7s 7d Kh 4c 2c"), P("6s 6d Kh 4c 2c")
    assert poker_bonus_hand(sevens, "579-poker-bonus-A") is PayHand.PAIR_OF_SEVENS_OR_BETTER
    assert poker_bonus_hand(sixes, "579-poker-bonus-A") is None
    assert poker_bonus_hand(sixes, "579-poker-bonus-B") is PayHand.PAIR_OF_SIXES_OR_BETTER
    assert poker_bonus_hand(P("5s 5d Kh 4c 2c"), "579-poker-bonus-B") is None


@pytest.mark.regulation("579.6(c)")
def test_poker_bonus_ranks_the_five_cards_579_11_j_2():
    """§ 579.6(b)(1)-(8), (c): royal, wheel straight, no wrap-around."""
    assert poker_bonus_hand(P("As Ks Qs Js Ts")) is PayHand.ROYAL_FLUSH
    assert poker_bonus_hand(P("Ac 2d 3h 4s 5c")) is PayHand.STRAIGHT
    assert poker_bonus_hand(P("Qc Kd Ah 2s 3c")) is None
    assert poker_bonus_hand(P("9c 9d 4h 4s 3c")) is PayHand.TWO_PAIR


@pytest.mark.regulation("579.11(d)")
@given(cards=_hands5)
def test_every_listed_setting_validates_579_11_d(cards):
    settings = legal_settings(cards)
    assert settings  # every hand can be set
    for s in settings:
        assert validate_setting(cards, s.high, s.low) == s
        assert s.high_total >= s.low_total


@pytest.mark.regulation("579.11(e)")
@given(cards=_hands5)
def test_dealer_setting_is_always_a_legal_setting_579_11_e(cards):
    s = dealer_setting(cards)
    assert validate_setting(cards, s.high, s.low) == s


@pytest.mark.regulation("579.11(d)")
@given(cards=_hands5)
def test_a_player_has_one_or_two_choices_of_totals_579_11_d(cards):
    """§ 579.11(d): the only free choice is whether one ace goes low."""
    totals = distinct_setting_totals(cards)
    has_ace = any(c >> 2 == 12 for c in cards)
    four_aces = sum(1 for c in cards if c >> 2 == 12) == 4
    assert len(totals) == (2 if has_ace and not four_aces else 1)


# --- input checks -----------------------------------------------------------------------

@pytest.mark.parametrize("ante", [0, -500, 500.0, "500", True, None])
def test_ante_must_be_positive_whole_cents_579_11_b(ante):
    """§ 579.11(b): the Ante (and the equal Play) is money: positive whole cents. 30/4
    against 28/4 is a tie (§ 579.11(g)(3)), which used to hand the value back as given."""
    with pytest.raises(DomainError) as exc:
        settle_ante_play((30, 4), (28, 4), ante)
    assert exc.value.code == "invalid_wager"


@pytest.mark.parametrize("totals", [(29.7, 3), ("29", "3"), (29,), (29, 3, 1), None,
                                    (True, 3), "29"])
def test_totals_must_be_a_setting_or_two_whole_numbers_579_11_g(totals):
    """§ 579.11(g): the result compares the high and low point totals — two whole numbers
    (29.7 used to be truncated to 29, a missing total was an IndexError)."""
    for call in (lambda: settle_ante_play(totals, (28, 4), 500),
                 lambda: ante_play_result((28, 4), totals),
                 lambda: tie_wager_hand(totals, (28, 4))):
        with pytest.raises(DomainError) as exc:
            call()
        assert exc.value.code == "invalid_setting"


def test_poker_bonus_needs_a_poker_bonus_paytable_579_12_d():
    """§ 579.12(d): the Poker Bonus is ranked against Poker Bonus Paytable A or B only; the
    Tie Wager table of § 579.12(c) silently found no pair line before."""
    for name in ("579-tie", "589-bet", "579-poker-bonus-Z"):
        with pytest.raises(DomainError) as exc:
            poker_bonus_hand(P("7s 7d Kh 4c 2c"), name)
        assert exc.value.code == "unknown_paytable"


def test_setting_hands_must_be_lists_of_cards_579_11_d():
    """§ 579.11(d): a setting is a three-card high hand and a two-card low hand."""
    dealt = P("As Jd Th 9c 2c")
    with pytest.raises(HiLoSettingError):
        validate_setting(dealt, None, P("As 2c"))
    with pytest.raises(HiLoSettingError):
        validate_setting(dealt, P("Jd Th 9c"), 7)
    with pytest.raises(CardError) as exc:
        validate_setting(dealt, ["Jd", "Th", "9c"], P("As 2c"))
    assert exc.value.code == "invalid_card"


@pytest.mark.parametrize("bad", [52, -1, "As"])
def test_raw_card_values_are_checked_579_6_a(bad):
    """§ 579.6(a): point values are given to the 52 cards only (52 used to score 10)."""
    four = P("As Jd Th 9c")
    for call in (lambda: point_value(bad, in_low=False), lambda: dealer_setting(four + [bad]),
                 lambda: legal_settings(four + [bad]), lambda: ante_bonus_hand(four + [bad]),
                 lambda: poker_bonus_hand(four + [bad])):
        with pytest.raises(CardError) as exc:
            call()
        assert exc.value.code == "invalid_card"
