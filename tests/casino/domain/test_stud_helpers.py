"""Forced bet, first to act and odd chips (637a.10, 637a.12, 637a.14, 637a.19)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.domain.cards import CardError, DuplicateCardError, parse_card, parse_cards
from casino.domain.hands.stud import (
    StudError, StudGame, bring_in_seat, first_to_act, odd_chip_high, odd_chip_low,
)

C = parse_card


def test_stud_high_lowest_up_card_brings_in_by_suit_637a_10_d_1():
    """§ 637a.10(d)(1): lowest up card; two deuces → clubs is the lowest suit."""
    up = {1: C("2s"), 2: C("Kh"), 3: C("2c"), 4: C("2h")}
    assert bring_in_seat(up, StudGame.SEVEN_CARD_STUD_HIGH) == 3


def test_stud_high_ace_is_high_637a_10_d_1():
    """§ 637a.10(d)(1) with § 637a.6(a): an ace is never the lowest card here."""
    assert bring_in_seat({1: C("Ac"), 2: C("3s")}, "seven_card_stud_high") == 2


def test_stud_low_highest_up_card_king_of_spades_637a_10_d_2():
    """§ 637a.10(d)(2): highest up card, ace low (§ 637a.6(c)); kings → spades highest."""
    up = {1: C("Kd"), 2: C("Ks"), 3: C("As"), 4: C("Qs")}
    assert bring_in_seat(up, StudGame.SEVEN_CARD_STUD_LOW) == 2


def test_stud_high_low_split_ace_below_two_637a_10_d_3():
    """§ 637a.10(d)(3): highest up card with the ace below a two."""
    up = {1: C("As"), 2: C("2c"), 3: C("3d")}
    assert bring_in_seat(up, StudGame.SEVEN_CARD_STUD_HIGH_LOW) == 3


def test_stud_eight_or_better_ace_highest_637a_10_d_4():
    """§ 637a.10(d)(4): lowest up card, ace highest; deuces → diamonds below hearts."""
    up = {1: C("Ac"), 2: C("2h"), 3: C("2d")}
    assert bring_in_seat(up, StudGame.SEVEN_CARD_STUD_HIGH_LOW_8) == 3


def test_five_card_stud_lowest_up_card_637a_14_d():
    """§ 637a.14(d): lowest up card; threes → diamonds below hearts."""
    up = {1: C("3h"), 2: C("3d"), 5: C("Ac")}
    assert bring_in_seat(up, StudGame.FIVE_CARD_STUD) == 2


def test_first_to_act_highest_high_hand_showing_637a_10_f_1():
    """§ 637a.10(f)(1): a pair showing beats ace-king showing."""
    showing = {1: parse_cards("As Kd"), 2: parse_cards("4c 4h"), 3: parse_cards("Qs Js")}
    assert first_to_act(showing, StudGame.SEVEN_CARD_STUD_HIGH) == 2


def test_first_to_act_tie_goes_left_of_dealer_637a_10_f_3():
    """§ 637a.10(f)(3): equal hands showing — the one closest to the dealer's left;
    suits do not break this tie."""
    showing = {4: parse_cards("As Kd"), 2: parse_cards("Ac Kh"), 6: parse_cards("9c 8h")}
    assert first_to_act(showing, StudGame.SEVEN_CARD_STUD_HIGH) == 2


def test_first_to_act_stud_low_best_low_showing_637a_10_f_2():
    """§ 637a.10(f)(2): best low showing; 5-3 beats 6-2 (lower top card) and any pair."""
    showing = {1: parse_cards("6s 2d"), 2: parse_cards("5c 3h"), 3: parse_cards("Ac Ad")}
    assert first_to_act(showing, StudGame.SEVEN_CARD_STUD_LOW) == 2


def test_first_to_act_in_five_card_stud_637a_14_f():
    """§ 637a.14(f)(1)-(2): highest hand showing; ties to the dealer's left."""
    showing = {3: parse_cards("9s 9d"), 1: parse_cards("9c 9h"), 2: parse_cards("As Kd")}
    assert first_to_act(showing, StudGame.FIVE_CARD_STUD) == 1


def test_first_to_act_eight_or_better_uses_high_hand_637a_10_f_1():
    """§ 637a.10(f)(1): the split games look at the high hand showing."""
    showing = {1: parse_cards("As 2d"), 2: parse_cards("Kc Kh")}
    assert first_to_act(showing, StudGame.SEVEN_CARD_STUD_HIGH_LOW_8) == 2


def test_odd_chip_high_goes_to_highest_card_by_suit_637a_10_i_3_ii():
    """§ 637a.10(i)(3)(ii), (iv): tied A-K-Q-J-9 hands — the ace of spades wins the chip."""
    hands = {1: parse_cards("Ah Kh Qd Jc 9c"), 2: parse_cards("As Kd Qc Jd 9d")}
    assert odd_chip_high(hands) == 2


def test_odd_chip_high_omaha_637a_12_k_2_ii():
    """§ 637a.12(k)(2)(ii): same rule in Omaha (unless the Rules Submission names another)."""
    hands = {5: parse_cards("Kd Kh 7c 7d 2s"), 3: parse_cards("Ks Kc 7h 7s 2d")}
    assert odd_chip_high(hands) == 3


def test_odd_chip_low_goes_to_lowest_card_by_suit_637a_10_i_3_iii():
    """§ 637a.10(i)(3)(iii), (iv): tied 5-4-3-2-A lows — the lowest card is an ace in both;
    the lowest-ranking by suit is the ace of clubs."""
    hands = {1: parse_cards("5s 4s 3s 2s As"), 2: parse_cards("5h 4h 3h 2h Ac")}
    assert odd_chip_low(hands) == 2


def test_odd_chip_low_five_card_omaha_637a_19_k_2_iii():
    """§ 637a.19(k)(2)(iii): the same rule in Five-card Omaha."""
    hands = {1: parse_cards("8d 6c 4c 3d 2h"), 2: parse_cards("8c 6d 4d 3c 2d")}
    assert odd_chip_low(hands) == 2


def test_no_players_is_refused():
    """§ 637a.14(d): a Forced Bet needs at least one player's up card."""
    with pytest.raises(StudError) as exc:
        bring_in_seat({}, StudGame.FIVE_CARD_STUD)
    assert exc.value.code == "no_players"


@given(cards=st.lists(st.integers(0, 51), min_size=2, max_size=8, unique=True),
       game=st.sampled_from(list(StudGame)))
def test_bring_in_is_the_extreme_card_637a_10_d(cards, game):
    """§ 637a.10(d), § 637a.14(d): the chosen seat holds the lowest (or highest) card in
    the game's order, suits breaking rank ties."""
    up = dict(enumerate(cards, start=1))
    seat = bring_in_seat(up, game)
    low_ace = game in (StudGame.SEVEN_CARD_STUD_LOW, StudGame.SEVEN_CARD_STUD_HIGH_LOW)

    def order(c):
        r = c >> 2
        return ((0 if r == 12 else r + 1) if low_ace else r, c & 3)

    picks = max if low_ace else min
    assert up[seat] == picks(cards, key=order)


def test_odd_chip_high_holdem_tie_sharing_board_cards_637a_12_k_2_ii():
    """§ 637a.12(k)(2)(ii), (iv): tied hands share board cards; that is not a duplicate.
    Board A♠ K♠ 9♦ 5♣ 2♥ is in both hands except one card each: seat 1 plays Q♥, seat 2 Q♣.
    The A♠ is in both hands, so it cannot decide; the K♠ neither; the queens do:
    Q♥ (hearts) beats Q♣ (clubs), so seat 1 gets the chip."""
    hands = {1: parse_cards("As Ks Qh 9d 5c"), 2: parse_cards("As Ks Qc 9d 5c")}
    assert odd_chip_high(hands) == 1


def test_odd_chip_high_shared_top_card_excludes_hands_without_it_637a_12_k_2_ii():
    """§ 637a.12(k)(2)(ii), (iv): board A♠ Q♣ J♣ T♣ 2♥; three tied ace-high straights:
    seat 1 (K♥ 3♦) A♠ K♥ Q♣ J♣ T♣, seat 2 (K♠ 4♦) A♠ K♠ Q♣ J♣ T♣, seat 3 (A♥ K♦)
    A♥ K♦ Q♣ J♣ T♣. The highest card by suit is the board's A♠, held by seats 1 and 2;
    seat 3 (A♥) is out. Between seats 1 and 2 the next cards decide: K♠ beats K♥."""
    hands = {1: parse_cards("As Kh Qc Jc Tc"), 2: parse_cards("As Ks Qc Jc Tc"),
             3: parse_cards("Ah Kd Qc Jc Tc")}
    assert odd_chip_high(hands) == 2


def test_odd_chip_high_undecided_when_the_board_plays_637a_12_k_2_ii():
    """§ 637a.12(k)(2)(ii): both tied hands are the same five board cards — no card
    decides, so the player specified in the Rules Submission gets the excess."""
    board = parse_cards("As Kd Qh Jc 9c")
    with pytest.raises(StudError) as exc:
        odd_chip_high({1: board, 2: list(board)})
    assert exc.value.code == "odd_chip_undecided"
    assert "Rules Submission" in exc.value.message


def test_odd_chip_low_omaha_tie_sharing_board_cards_637a_12_k_2_iii():
    """§ 637a.12(k)(2)(iii), (iv): the low 8-5-3-2-A with A♦ 3♠ 8♥ from the board in both
    hands; the lowest card A♦ is shared, so the next lowest decides: 2♣ (seat 2) is lower
    by suit than 2♥ (seat 1)."""
    hands = {1: parse_cards("Ad 2h 3s 5h 8h"), 2: parse_cards("Ad 2c 3s 5d 8h")}
    assert odd_chip_low(hands) == 2


def test_odd_chip_low_undecided_637a_19_k_2_iii():
    """§ 637a.19(k)(2)(iii): identical low hands — the Rules Submission's player."""
    low = parse_cards("Ad 2h 3s 5h 8h")
    with pytest.raises(StudError) as exc:
        odd_chip_low({4: low, 7: low})
    assert exc.value.code == "odd_chip_undecided"


def test_odd_chip_high_wheel_ace_plays_low_637a_6_a():
    """§ 637a.6(a), (b)(6) with § 637a.10(i)(3)(ii): in tied five-high straights the ace
    plays low, so the highest card is the five; 5♠ beats 5♣ although the other hand has
    the A♠."""
    hands = {1: parse_cards("Ac 5s 4h 3d 2c"), 2: parse_cards("As 5c 4d 3h 2d")}
    assert odd_chip_high(hands) == 1


def test_odd_chip_high_checks_each_hand_637a_10_i_3_ii():
    """§ 637a.10(i)(3)(ii): a hand holding the same card twice is still refused."""
    with pytest.raises(DuplicateCardError) as exc:
        odd_chip_high({1: parse_cards("As As Kd Qc Jd", unique=False),
                       2: parse_cards("Ah Kc Qd Jc Th")})
    assert exc.value.code == "duplicate_card"


def test_unknown_stud_game_is_a_domain_error_637a_10_d():
    """§ 637a.10(d), § 637a.14(d): only the listed Stud games have a Forced Bet rule."""
    with pytest.raises(StudError) as exc:
        bring_in_seat({1: C("2s")}, "razz-ish")
    assert exc.value.code == "unknown_stud_game"
    with pytest.raises(StudError) as exc2:
        first_to_act({1: parse_cards("As Kd")}, ["not", "a", "game"])
    assert exc2.value.code == "unknown_stud_game"


@pytest.mark.parametrize("bad", [52, -1, "As", True])
def test_raw_card_values_are_checked_637a_6_a(bad):
    """§ 637a.6(a): thirteen ranks in four suits — card numbers 0-51 only."""
    with pytest.raises(CardError) as exc:
        bring_in_seat({1: C("2s"), 2: bad}, StudGame.SEVEN_CARD_STUD_HIGH)
    assert exc.value.code == "invalid_card"
    with pytest.raises(CardError):
        odd_chip_low({1: parse_cards("5s 4s 3s 2s") + [bad], 2: parse_cards("5h 4h 3h 2h Ac")})
