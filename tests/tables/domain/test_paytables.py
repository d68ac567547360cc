"""Paytables of 589.12, 671a.12 and 579.12 as data, and the cents they return."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.paytables import (
    PAYTABLES, Odds, OddsKind, PayHand, PaytableError, WagerError, get_paytable,
    total_returned,
)


def _odds(table: str) -> dict[str, str]:
    return {h.value: str(o) for h, o in get_paytable(table).lines}


@pytest.mark.regulation("589.12(a)")
def test_589_instant_paytables_a_to_h_as_written():
    """§ 589.12(a): royal flush / straight flush for paytables A-H."""
    expected = {"A": ("1,500", "500"), "B": ("1,500", "400"), "C": ("1,500", "300"),
                "D": ("1,200", "400"), "E": ("1,200", "300"), "F": ("1,000", "300"),
                "G": ("800", "300"), "H": ("600", "300")}
    for letter, (rf, sf) in expected.items():
        assert _odds(f"589-instant-{letter}") == {"royal_flush": f"{rf} to 1",
                                                  "straight_flush": f"{sf} to 1"}


@pytest.mark.regulation("589.12(b)")
def test_589_super_paytables_differ_only_in_trips_and_ace_king():
    """§ 589.12(b): A 8/6, B 8/5, C 7/6 for three-of-a-kind / ace-king; the rest equal."""
    common = {"four_of_a_kind": "250 to 1", "same_colored_straight": "150 to 1",
              "full_house": "100 to 1", "flush": "60 to 1", "straight": "30 to 1",
              "same_colored_five": "2 to 1"}
    for letter, trips, ak in (("A", 8, 6), ("B", 8, 5), ("C", 7, 6)):
        assert _odds(f"589-super-{letter}") == {
            **common, "three_of_a_kind": f"{trips} to 1", "ace_king": f"{ak} to 1"}


@pytest.mark.regulation("589.6(d)")
def test_589_super_lines_in_the_order_of_589_6_d():
    """§ 589.6(d): the eligible hands, highest first."""
    assert [h.value for h in get_paytable("589-super-A").hands] == [
        "four_of_a_kind", "same_colored_straight", "full_house", "flush", "straight",
        "three_of_a_kind", "ace_king", "same_colored_five"]


@pytest.mark.regulation("589.12(c)", "671a.12(d)")
def test_bet_paytables_589_and_671a():
    """§ 589.12(c) and § 671a.12(d): the same Bet Wager odds."""
    expected = {"royal_flush": "100 to 1", "straight_flush": "50 to 1",
                "four_of_a_kind": "20 to 1", "full_house": "7 to 1", "flush": "5 to 1",
                "straight": "4 to 1", "three_of_a_kind": "3 to 1", "two_pair": "2 to 1",
                "one_pair": "1 to 1", "ace_king": "1 to 1"}
    assert _odds("589-bet") == expected
    assert _odds("671a-bet") == expected


@pytest.mark.regulation("589.12(d)")
def test_589_ante_pays_one_to_one():
    """§ 589.12(d)."""
    assert total_returned("589-ante", PayHand.WIN, 2500) == 5000


@pytest.mark.regulation("671a.12(a)", "671a.12(b)")
def test_671a_instant_and_super_paytables_as_written():
    """§ 671a.12(a) A-C and § 671a.12(b)."""
    assert _odds("671a-instant-A") == {"royal_flush": "1,500 to 1",
                                       "straight_flush": "250 to 1"}
    assert _odds("671a-instant-B") == {"royal_flush": "1,000 to 1",
                                       "straight_flush": "300 to 1"}
    assert _odds("671a-instant-C") == {"royal_flush": "1,000 to 1",
                                       "straight_flush": "250 to 1"}
    assert _odds("671a-super") == {
        "four_of_a_kind": "200 to 1", "five_picture_cards": "150 to 1",
        "full_house": "100 to 1", "flush": "60 to 1", "straight": "30 to 1",
        "three_of_a_kind": "8 to 1", "ace_king_queen": "5 to 1", "same_colored_five": "2 to 1"}


@pytest.mark.regulation("671a.12(c)")
def test_671a_ante_when_dealer_does_not_qualify():
    """§ 671a.12(c): 1 to 1, or 4 to 1 with a straight or better; $10 Ante."""
    assert total_returned("671a-ante-no-qualify", PayHand.WIN, 1000) == 2000
    assert total_returned("671a-ante-no-qualify", PayHand.STRAIGHT_OR_BETTER, 1000) == 5000


@pytest.mark.regulation("579.12(b)")
def test_579_ante_bonus_paytables_are_for_one():
    """§ 579.12(b): A-D, written "for 1"."""
    expected = {"A": (1000, 100, 10), "B": (500, 50, 5), "C": (200, 50, 5), "D": (100, 50, 5)}
    for letter, (a4d, a4, a3) in expected.items():
        table = get_paytable(f"579-ante-bonus-{letter}")
        assert [(h.value, o.amount, o.kind) for h, o in table.lines] == [
            ("four_aces_and_a_deuce", a4d, OddsKind.FOR), ("four_aces", a4, OddsKind.FOR),
            ("three_aces", a3, OddsKind.FOR)]


@pytest.mark.regulation("579.12(c)", "579.12(d)")
def test_579_tie_and_poker_bonus_paytables():
    """§ 579.12(c) and § 579.12(d)."""
    assert _odds("579-tie") == {"both_hands_tie": "20 to 1", "high_hands_tie": "4 to 1",
                                "low_hands_tie": "4 to 1"}
    assert _odds("579-poker-bonus-A") == {
        "royal_flush": "250 to 1", "straight_flush": "50 to 1", "four_of_a_kind": "25 to 1",
        "full_house": "15 to 1", "flush": "10 to 1", "straight": "8 to 1",
        "three_of_a_kind": "5 to 1", "two_pair": "3 to 1",
        "pair_of_sevens_or_better": "1 to 1"}
    assert _odds("579-poker-bonus-B") == {
        "royal_flush": "500 to 1", "straight_flush": "100 to 1", "four_of_a_kind": "40 to 1",
        "full_house": "15 to 1", "flush": "8 to 1", "straight": "6 to 1",
        "three_of_a_kind": "4 to 1", "two_pair": "3 to 1",
        "pair_of_sixes_or_better": "1 to 1"}


@pytest.mark.regulation("579.12(a)")
def test_579_ante_and_play_pay_one_to_one():
    """§ 579.12(a)."""
    assert total_returned("579-ante-play", PayHand.WIN, 1500) == 3000


@pytest.mark.regulation("589.12(c)")
def test_to_one_returns_the_wager_plus_x_times_it():
    """§ 589.12(c): a $10 Bet on a full house at 7 to 1 hands back $80."""
    assert total_returned("589-bet", PayHand.FULL_HOUSE, 1000) == 8000


@pytest.mark.regulation("579.12(b)")
def test_for_one_returns_x_times_the_wager_in_total():
    """§ 579.12(b): three aces on Paytable A, 10 for 1 on a $5 Ante: $50."""
    assert total_returned("579-ante-bonus-A", PayHand.THREE_ACES, 500) == 5000
    assert Odds(10, OddsKind.FOR).winnings(500) == 4500


@pytest.mark.regulation("589.12(b)")
def test_hand_not_on_the_table_returns_nothing():
    """§ 589.12(b): one pair is not a Super Wager hand."""
    assert total_returned("589-super-A", PayHand.ONE_PAIR, 1000) == 0
    assert total_returned("589-super-A", None, 1000) == 0


@pytest.mark.parametrize("wager", [10.5, -100, True, "100"])
def test_wager_must_be_whole_non_negative_cents(wager):
    """§ 589.12, § 671a.12, § 579.12 amounts are paid in integer cents; no floats."""
    with pytest.raises(WagerError) as exc:
        total_returned("589-bet", PayHand.FLUSH, wager)
    assert exc.value.code == "invalid_wager"


def test_unknown_paytable_has_a_stable_code():
    """§ 589.12(b) has Super Wager paytables A-C only."""
    with pytest.raises(PaytableError) as exc:
        get_paytable("589-super-Z")
    assert exc.value.code == "unknown_paytable"


def test_paytables_are_frozen():
    """§ 589.12(c): the posted odds are data nobody can change at run time."""
    table = get_paytable("589-bet")
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        PAYTABLES["x"] = table  # type: ignore[index]


@given(wager=st.integers(min_value=0, max_value=10**9),
       name=st.sampled_from(sorted(PAYTABLES)), data=st.data())
def test_total_returned_is_integer_cents_and_matches_the_odds_form(wager, name, data):
    """"X to 1" → (X + 1) × wager; "X for 1" → X × wager (§ 589.12, § 671a.12, § 579.12)."""
    table = PAYTABLES[name]
    hand, odds = data.draw(st.sampled_from(table.lines))
    got = total_returned(table, hand, wager)
    assert isinstance(got, int)
    factor = odds.amount + 1 if odds.kind is OddsKind.TO else odds.amount
    assert got == factor * wager


@pytest.mark.parametrize("name", [["589-bet"], {"589-bet": 1}, None, 589, b"589-bet"])
def test_paytable_name_must_be_a_known_string_589_12_c(name):
    """§ 589.12(c): paytables are looked up by name; a list (unhashable) or a number is
    no paytable name, and the refusal keeps its stable code."""
    with pytest.raises(PaytableError) as exc:
        get_paytable(name)
    assert exc.value.code == "unknown_paytable"


def test_total_returned_without_a_table_579_12_a():
    """§ 579.12(a): a payout needs its paytable; None is refused, not an AttributeError."""
    with pytest.raises(PaytableError) as exc:
        total_returned(None, PayHand.WIN, 500)
    assert exc.value.code == "unknown_paytable"
    # a Paytable object or its name both work: 1 to 1 on $5 returns $10
    assert total_returned(get_paytable("579-ante-play"), PayHand.WIN, 500) == 1000
    assert total_returned("579-ante-play", PayHand.WIN, 500) == 1000
