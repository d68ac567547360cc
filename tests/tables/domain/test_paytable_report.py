"""Paytable mathematics and ``manage.py paytable_report``.

Expected numbers are worked by hand from the chapters and the standard five-card
distribution, never taken from the code under test.
"""

from __future__ import annotations

import io
import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from casino.domain.hands.fast import high_batch
from tables.domain.hands.hilo import (
    ante_bonus_hand, dealer_setting, distinct_setting_totals, poker_bonus_hand,
)
from tables.domain.hands.lunar import (
    bet_payout, dealer_qualifies, instant_payout_hand, lunar_value, settle_ante_and_bet,
    super_hand_589, super_hand_671a,
)
from tables.domain.paytable_math import (
    TOTAL_HANDS, category_counts, exact_figures, hilo_rounds, lunar_rounds,
    lunar_second_ak_batch, pay_lines, simulate,
)
from tables.domain.paytables import get_paytable

N = 2_598_960


def _sample(seed: int, n: int, k: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    return np.argsort(keys, axis=1)[:, :k].astype(np.uint8)


def test_there_are_2598960_five_card_hands():
    """§ 589.3(a), § 579.3: one 52-card deck, so C(52, 5) five-card hands."""
    assert TOTAL_HANDS == comb(52, 5) == N


def test_category_counts_match_the_standard_distribution_589_6_b():
    """§ 589.6(b) / § 579.6(b) categories over all hands: the textbook counts."""
    assert category_counts() == {
        "straight_flush": 40, "royal_flush": 4, "four_of_a_kind": 624, "full_house": 3744,
        "flush": 5108, "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552,
        "one_pair": 1098240, "high_card": 1302540}


def test_instant_payout_hit_frequency_and_value_589_12_a():
    """§ 589.12(a) Paytable A: 4 royals at 1,500 to 1 and 36 straight flushes at 500 to 1;
    hit frequency 40 / 2,598,960, royal 4 / 2,598,960."""
    f = exact_figures("589-instant-A")
    assert f.hit_frequency == Fraction(40, N)
    assert {line.hand.value: line.count for line in f.lines} == {"royal_flush": 4,
                                                                 "straight_flush": 36}
    assert f.bonus_per_unit == Fraction(4 * 1500 + 36 * 500, N)
    assert f.rtp is None  # an extra payout on the Ante, not a wager of its own
    assert f.seconds < 10


def test_671a_instant_paytable_b_671a_12_a():
    """§ 671a.12(a) Paytable B: 1,000 to 1 and 300 to 1."""
    assert exact_figures("671a-instant-B").bonus_per_unit == Fraction(4 * 1000 + 36 * 300, N)


def test_ante_bonus_rtp_contribution_worked_by_hand_579_12_b():
    """§ 579.11(h), § 579.12(b) Paytable A, "for 1" = X times the Ante:
    four aces + a deuce: 4 hands (the deuce's suit); four aces + another card: 48 - 4 = 44;
    three aces: C(4,3) x C(48,2) = 4 x 1,128 = 4,512."""
    f = exact_figures("579-ante-bonus-A")
    assert [line.count for line in f.lines] == [4, 44, 4512]
    assert f.hit_frequency == Fraction(4 + 44 + 4512, N)
    assert f.bonus_per_unit == Fraction(4 * 1000 + 44 * 100 + 4512 * 10, N)


def test_poker_bonus_rtp_worked_by_hand_579_12_d():
    """§ 579.12(d) Paytable A: RTP = Σ count × (X + 1) / total. Pairs of 7s or better are
    8 of the 13 pair ranks: 1,098,240 × 8 / 13 = 675,840 hands."""
    counts_odds = [(4, 250), (36, 50), (624, 25), (3744, 15), (5108, 10), (10200, 8),
                   (54912, 5), (123552, 3), (675840, 1)]
    expected = Fraction(sum(n * (x + 1) for n, x in counts_odds), N)
    f = exact_figures("579-poker-bonus-A")
    assert [line.count for line in f.lines] == [n for n, _ in counts_odds]
    assert f.rtp == expected
    assert f.house_edge == 1 - expected
    assert f.hit_frequency == Fraction(sum(n for n, _ in counts_odds), N)


def test_589_same_colored_straight_count_589_6_d_2():
    """§ 589.6(d)(2), § 589.11(c)(2)(ii): 10 rank sequences x 2 colors x (2^5 - 2) ways to
    use both suits of the color = 600, plus the 40 straight flushes; the other straights
    are 10,200 - 600 = 9,600."""
    lines = {line.hand.value: line.count for line in exact_figures("589-super-A").lines}
    assert lines["same_colored_straight"] == 10 * 2 * (2 ** 5 - 2) + 40
    assert lines["straight"] == 10200 - 600
    assert lines["four_of_a_kind"] == 624
    assert lines["flush"] == 5108


def test_671a_five_picture_cards_count_671a_6_d_2():
    """§ 671a.6(d)(2): C(12, 5) = 792 hands of J/Q/K, less the 3 x 8 four-of-a-kinds;
    the full houses among them (3 x 4 x 2 x 6 = 144) leave the full-house line."""
    lines = {line.hand.value: line.count for line in exact_figures("671a-super").lines}
    assert lines["five_picture_cards"] == comb(12, 5) - 3 * 8
    assert lines["full_house"] == 3744 - 144


@pytest.mark.parametrize("name, scalar", [
    ("589-super-A", super_hand_589),
    ("671a-super", super_hand_671a),
    ("589-instant-A", instant_payout_hand),
    ("579-ante-bonus-A", ante_bonus_hand),
    ("579-poker-bonus-A", lambda c: poker_bonus_hand(c, "579-poker-bonus-A")),
    ("579-poker-bonus-B", lambda c: poker_bonus_hand(c, "579-poker-bonus-B")),
])
def test_vectorised_classification_matches_the_scalar_rules(name, scalar):
    """§ 589.6(d), § 671a.6(d), § 579.6(b), § 579.11(h): the enumeration and the scalar
    functions the tables use agree hand for hand (random hands plus rare ones)."""
    rare = [[48, 44, 40, 36, 32], [47, 43, 39, 35, 31], [44, 45, 46, 47, 40],
            [36, 41, 46, 39, 44], [48, 49, 50, 51, 0], [48, 49, 50, 0, 4], [12, 17, 22, 27, 32]]
    cards = np.vstack([_sample(7, 20000, 5), np.array(rare, dtype=np.uint8)])
    idx = pay_lines(name, cards)
    hands = get_paytable(name).hands
    got = [None if i < 0 else hands[i] for i in idx]
    want = [scalar([int(c) for c in row]) for row in cards]
    assert got == want


def test_vectorised_second_ace_king_matches_bet_payout_589_11_e_1_ii():
    """§ 589.11(e)(1)(ii): with five cards the second combination is an ace-king."""
    cards = _sample(11, 20000, 5)
    fast = lunar_second_ak_batch(cards, high_batch(cards))
    for row, flag in zip(cards, fast):
        payout = bet_payout([int(c) for c in row])
        assert flag == (payout is not None and payout.second is not None)


@pytest.mark.parametrize("rulebook", ["589", "671a"])
def test_lunar_simulation_rounds_match_the_scalar_settlement(rulebook):
    """§ 589.11 / § 671a.11 settlement of the documented strategy, vectorised vs scalar."""
    deals = _sample(3, 4000, 10)
    net, staked = lunar_rounds(rulebook, deals)
    instant = get_paytable(f"{rulebook}-instant-A")
    for row, n, s in zip(deals, net, staked):
        player, dealer = [int(c) for c in row[:5]], [int(c) for c in row[5:]]
        hand = instant_payout_hand(player)
        if hand is not None:
            assert (n, s) == (instant.odds_for(hand).amount, 1)
        elif dealer_qualifies(lunar_value(player)):
            res = settle_ante_and_bet(rulebook, player, dealer, 1, 2)
            assert (n, s) == (res.ante_returned + res.bet_returned - 3, 3)
        else:
            assert (n, s) == (-1, 1)


def test_hilo_simulation_settings_are_legal_579_11_d_e():
    """§ 579.11(d)-(e): the simulated player's totals are a legal choice and the dealer's
    are those of the dealer's setting."""
    deals = _sample(5, 3000, 10)
    ph, pl, dh, dl, _ = hilo_rounds(deals)
    for i, row in enumerate(deals):
        player, dealer = [int(c) for c in row[:5]], [int(c) for c in row[5:]]
        assert (ph[i], pl[i]) in distinct_setting_totals(player)
        assert (dh[i], dl[i]) == dealer_setting(dealer).totals


def test_simulation_is_reproducible_by_seed_and_reports_a_confidence_interval():
    """§ 579.12(c) Tie Wager, simulated: the same seed gives the same figures."""
    a = simulate("579-tie", rounds=5000, seed=42)
    b = simulate("579-tie", rounds=5000, seed=42)
    c = simulate("579-tie", rounds=5000, seed=43)
    assert a.mean_net == b.mean_net
    assert a.mean_net != c.mean_net
    assert a.ci95[0] < float(a.mean_net) < a.ci95[1]
    assert a.house_edge == -float(a.mean_net)


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("paytable_report", *args, "--no-progress", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_report_json_for_one_table():
    """§ 579.12(b) Paytable A through the command, as an exact fraction in JSON."""
    data = json.loads(_run("--table", "579-ante-bonus-A", "--json"))
    (table,) = data["exact"]
    assert data["simulated"] == []
    assert table["table"] == "579-ante-bonus-A"
    assert Fraction(table["bonus_per_unit"]["fraction"]) == \
        Fraction(4 * 1000 + 44 * 100 + 4512 * 10, N)
    assert table["hit_frequency"]["fraction"] == str(Fraction(4560, N))


def test_report_human_table_for_a_simulation():
    """§ 589.11(e), § 589.12(c)-(d): the Ante+Bet simulation prints its strategy."""
    text = _run("--table", "589-ante-bet", "--rounds", "3000", "--seed", "1")
    assert "589-ante-bet" in text and "3,000" in text and "strategy:" in text


def test_report_human_table_writes_the_edge_as_the_submission_does_and_flags_it():
    """§ 589.12(b) Paytable B (8 to 1 trips, 5 to 1 ace-king, "an ace-king" read by the
    letter of § 589.6(d)(7)) pays back more than is wagered: its line shows the house
    edge as the Rules Submission's page writes it, -38.934 % (worked by hand in
    tests/tables/test_rules_house_edge.py), flagged; § 579.12(d) Paytable A's 7.566 %
    (worked by hand there too) is not."""
    (super_b,) = [line for line in _run("--table", "589-super-B").splitlines()
                  if line.startswith("589-super-B ")]
    assert "-38.934 %" in super_b and super_b.endswith("negative house edge")
    (bonus_a,) = [line for line in _run("--table", "579-poker-bonus-A").splitlines()
                  if line.startswith("579-poker-bonus-A ")]
    assert "7.566 %" in bonus_a and "negative" not in bonus_a


@pytest.mark.parametrize("args, code", [
    (["--table", "no-such-table"], "unknown_paytable"),
    (["--rounds", "0"], "invalid_rounds"),
    (["--rounds", "many"], "invalid_rounds"),
    (["--seed", "-1"], "invalid_seed"),
])
def test_report_bad_option_is_a_one_line_coded_error(args, code):
    """Bad options stop with ``code: message`` (DESIGN.md §5 error convention)."""
    with pytest.raises(CommandError) as exc:
        _run(*args)
    message = str(exc.value)
    assert message.startswith(f"{code}: ")
    assert "\n" not in message
