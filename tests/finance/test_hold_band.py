"""The expected band of a banked table's day (:mod:`finance.domain.hold_band`,
:mod:`finance.hold_band`).

Every expected figure is worked by hand (the working is in the comments): from a made-up
paytable small enough for paper, and from the 579.12(d) Poker Bonus Paytable A with the
textbook five-card category counts. None is computed by the code under test. The domain
tests need no database (``-m "not database"``).
"""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest

from finance.domain.hold_band import (
    Band,
    HoldBandError,
    UnitFigures,
    combine,
    exact_paytable,
    outside,
    round_half_away,
    unit_figures,
    unit_figures_of,
    wager_band,
)
from finance.hold_band import table_day_band, unit_for
from tables.domain.paytable_math import exact_figures
from tables.models import GameTable
from tests.tables import conftest as _tables

# the tables app's fixtures (real services, events appended), shared as the jackpots do
staff = _tables.staff
crew = _tables.crew
put_rules_in_effect = _tables.put_rules_in_effect
open_table = _tables.open_table
ready_deck = _tables.ready_deck
deck_in_play = _tables.deck_in_play

N = 2_598_960  # C(52, 5)

# A made-up paytable over 10 equally likely hands: one pays 4 to 1 (5 back per unit), two
# pay 1 to 1 (2 back), seven lose. Net X per unit: +4 (p 1/10), +1 (p 2/10), -1 (p 7/10).
#   E[X]   = (4 + 2 - 7) / 10 = -1/10               → house edge 1/10
#   E[X²]  = (16 + 2 + 7) / 10 = 25/10
#   Var[X] = 25/10 - (1/10)² = 250/100 - 1/100 = 249/100
TINY = [(1, 5), (2, 2)]


def tiny() -> UnitFigures:
    return unit_figures("made-up", TINY, 10)


# --- one unit ---------------------------------------------------------------------------

def test_made_up_paytable_edge_and_variance_worked_on_paper() -> None:
    u = tiny()
    assert u.house_edge == Fraction(1, 10)
    assert u.variance == Fraction(249, 100)


def test_poker_bonus_paytable_a_edge_from_the_regulation_579_12_d() -> None:
    """§ 579.12(d) Paytable A, judged on the player's five cards (§ 579.11(j)(2)), with the
    textbook counts (pairs of 7s or better: 8 of the 13 pair ranks, 1,098,240 × 8/13).

    Returned per unit (X to 1 → X + 1), count × returned:
      royal 4 × 251 = 1,004; straight flush 36 × 51 = 1,836; quads 624 × 26 = 16,224;
      full house 3,744 × 16 = 59,904; flush 5,108 × 11 = 56,188; straight 10,200 × 9 =
      91,800; trips 54,912 × 6 = 329,472; two pair 123,552 × 4 = 494,208; 7s+ 675,840 × 2
      = 1,351,680. Sum 2,402,316, so the house keeps 2,598,960 - 2,402,316 = 196,644.
    """
    u = unit_figures_of(exact_figures("579-poker-bonus-A"))
    assert u.house_edge == Fraction(196_644, N)


def test_poker_bonus_paytable_a_variance_from_the_regulation_579_12_d() -> None:
    """§ 579.12(d) Paytable A. Σ count × X² over the paying lines:
      4 × 250² = 250,000; 36 × 50² = 90,000; 624 × 25² = 390,000; 3,744 × 15² = 842,400;
      5,108 × 10² = 510,800; 10,200 × 8² = 652,800; 54,912 × 5² = 1,372,800;
      123,552 × 3² = 1,111,968; 675,840 × 1² = 675,840 → 5,896,608.
    Paying hands 874,020, so 1,724,940 lose one unit each (X² = 1): E[X²] = 7,621,548 / N.
    """
    u = unit_figures_of(exact_figures("579-poker-bonus-A"))
    assert u.variance == Fraction(7_621_548, N) - Fraction(196_644, N) ** 2
    assert u.sd == pytest.approx(1.710793, abs=1e-6)


def test_an_instant_payout_is_not_a_wager_of_its_own_589_12_a() -> None:
    """§ 589.12(a): paid on the Ante; the Ante has no exact figure, so neither has it."""
    with pytest.raises(HoldBandError, match="extra payout on the Ante"):
        unit_figures_of(exact_figures("589-instant-A"))


def test_lines_counting_more_hands_than_there_are_are_refused() -> None:
    with pytest.raises(HoldBandError, match="more hands"):
        unit_figures("bad", [(8, 2), (3, 5)], 10)


# --- a day's band -------------------------------------------------------------------------

def test_day_band_of_the_made_up_paytable() -> None:
    """25 wagers, 500.00 in all (20.00 each): expected 50,000 × 1/10 = 5,000 cents.
    Variance 249/100 × 50,000² / 25 = 249,000,000 cents², sd 15,779.73; at z = 3 the
    half-width is 47,339.20: low -42,339.20 → -42,339, high 52,339.20 → 52,339."""
    b = wager_band(tiny(), wagered_cents=50_000, wagers=25)
    assert b.variance == 249_000_000
    assert (b.expected_win_cents, b.low_cents, b.high_cents, b.z) == (5000, -42339, 52339, 3.0)


def test_a_smaller_z_narrows_the_band() -> None:
    """z = 1: half-width 15,779.73 → low -10,779.73 → -10,780, high 20,779.73 → 20,780."""
    b = wager_band(tiny(), wagered_cents=50_000, wagers=25, z=1)
    assert (b.low_cents, b.high_cents) == (-10780, 20780)


def test_a_day_without_the_wager_has_a_zero_band() -> None:
    b = wager_band(tiny(), wagered_cents=0, wagers=0)
    assert (b.expected_win_cents, b.low_cents, b.high_cents) == (0, 0, 0)


def test_money_without_a_wager_is_refused() -> None:
    with pytest.raises(HoldBandError):
        wager_band(tiny(), wagered_cents=100, wagers=0)


@pytest.mark.parametrize("z", [0, -1, float("nan"), True, "3"])
def test_z_must_be_a_positive_number(z: object) -> None:
    with pytest.raises(HoldBandError, match="z must be"):
        wager_band(tiny(), wagered_cents=100, wagers=1, z=z)  # type: ignore[arg-type]


def _two_bands() -> tuple[Band, Band]:
    # the 50,000 / 25 day above, and 100.00 in 4 wagers: expected 1,000, variance
    # 249/100 × 10,000² / 4 = 62,250,000 (sd 7,889.87, half the first one's)
    return (wager_band(tiny(), wagered_cents=50_000, wagers=25),
            wager_band(tiny(), wagered_cents=10_000, wagers=4))


def test_independent_wagers_add_their_variances() -> None:
    """5,000 + 1,000 = 6,000; 249,000,000 + 62,250,000 = 311,250,000, sd 17,642.28,
    × 3 = 52,926.84: low -46,926.84 → -46,927, high 58,926.84 → 58,927."""
    b = combine(_two_bands())
    assert b.variance == 311_250_000
    assert (b.expected_win_cents, b.low_cents, b.high_cents) == (6000, -46927, 58927)


def test_wagers_on_the_same_hands_add_their_standard_deviations_671a_7_c_3() -> None:
    """§ 671a.7(c)(3), § 671a.12(b): a Super on another player's hand moves with that
    player's own. sd 15,779.73 + 7,889.87 = 23,669.60 (1.5 × the first), × 3 = 71,008.80:
    low -65,008.80 → -65,009, high 77,008.80 → 77,009; variance 2.25 × 249,000,000."""
    b = combine(_two_bands(), same_hands=True)
    assert (b.expected_win_cents, b.low_cents, b.high_cents) == (6000, -65009, 77009)
    assert float(b.variance) == pytest.approx(560_250_000)


def test_bands_at_different_z_are_not_combined() -> None:
    a = wager_band(tiny(), wagered_cents=100, wagers=1, z=2)
    b = wager_band(tiny(), wagered_cents=100, wagers=1, z=3)
    with pytest.raises(HoldBandError, match="different z"):
        combine([a, b])


def test_outside_counts_the_ends_as_inside() -> None:
    b = wager_band(tiny(), wagered_cents=50_000, wagers=25)  # -42,339 .. 52,339
    assert not outside(-42339, b) and not outside(52339, b) and not outside(0, b)
    assert outside(-42340, b) and outside(52340, b)


@pytest.mark.parametrize("x, cents", [(Fraction(5, 2), 3), (Fraction(-5, 2), -3),
                                      (Fraction(12, 5), 2), (Fraction(-12, 5), -2),
                                      (Fraction(0), 0)])
def test_cents_round_half_away_from_zero(x: Fraction, cents: int) -> None:
    assert round_half_away(x) == cents


# --- which paytable a wager is paid by ------------------------------------------------------

@pytest.mark.parametrize("game, options, wager, paytable", [
    # § 589.7(c)(2), § 589.12(b): the Super paytable the Rules Submission chose
    ("lunar-poker-589", {"super_wager_offered": True, "super_paytable": "B"}, "super",
     "589-super-B"),
    ("lunar-poker-589", {"super_wager_offered": False, "super_paytable": None}, "super", None),
    # § 671a.12(b): one paytable for the Super on any hand
    ("lunar-poker-671a", {}, "super", "671a-super"),
    ("lunar-poker-671a", {}, "super_dealer", "671a-super"),
    ("lunar-poker-671a", {}, "super_on", "671a-super"),
    # § 579.12(d): Poker Bonus A or B
    ("five-card-hi-lo", {"poker_bonus_paytable": "B"}, "poker_bonus", "579-poker-bonus-B"),
    # decisions or the dealer's hand decide these: no exact figures
    ("lunar-poker-589", {"instant_paytable": "A"}, "ante", None),
    ("lunar-poker-671a", {}, "bet", None),
    ("lunar-poker-589", {}, "options_fee", None),
    ("five-card-hi-lo", {"ante_bonus_paytable": "A"}, "ante", None),
    ("five-card-hi-lo", {"tie_wager_offered": True}, "tie", None),
    ("five-card-hi-lo", {}, "play", None),
    ("holdem", {}, "ante", None),
])
def test_exact_paytable_of_a_wager(game: str, options: dict, wager: str,
                                   paytable: str | None) -> None:
    assert exact_paytable(game, options, wager) == paytable


def test_unit_figures_are_kept_per_paytable() -> None:
    """The enumeration runs once per paytable and process."""
    unit_for.cache_clear()
    first = unit_for("579-poker-bonus-A")
    assert unit_for("579-poker-bonus-A") is first
    assert unit_for.cache_info().hits == 1


def test_a_poker_table_has_no_band() -> None:
    """§ 637a: the house banks nothing at poker."""
    assert table_day_band(GameTable(game="holdem"), None) is None  # type: ignore[arg-type]


# --- the reader, on a table's results (database) --------------------------------------------

@pytest.mark.django_db
def test_hilo_day_band_covers_the_poker_bonus_only_579_12_d(crew, open_table,
                                                           deck_in_play) -> None:
    """§ 579.12(d) Paytable A (the example Rules Submission), one round: Ante, Tie and
    Poker Bonus 10.00 each; K-Q-9-3-2 plays against J-10-8-6-4 and wins both hands
    (§ 579.11(g)(1)); no pair, so the Poker Bonus is lost (house +1,000), the Tie too.

    Band over the Poker Bonus alone, one wager of 1,000: expected 1,000 × 196,644 / N =
    75.66 → 76; sd 1,000 × 1.710793 = 1,710.79, × 3 = 5,132.38: low -5,056.72 → -5,057,
    high 5,208.04 → 5,208. The Ante, Play and Tie have no figures.
    """
    from tables.services import banked, rounds

    d = crew["dealer"]
    table = open_table("five-card-hi-lo")
    deck = deck_in_play(table)
    rid = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk).pk
    for wager in ("ante", "tie", "poker_bonus"):
        banked.round_place_wager(actor=d, round_id=rid, position=1, wager=wager, amount=1000)
    banked.round_no_more_bets(actor=d, round_id=rid)
    banked.round_deal(actor=d, round_id=rid, hands={"1": ["Ks", "Qd", "9c", "3h", "2d"]},
                      dealer=["Jh", "Tc", "8s", "6d", "4c"])
    banked.round_decide(actor=d, round_id=rid, position=1, decision="play")
    banked.round_set_hands(actor=d, round_id=rid, position=1, high=["Ks", "Qd", "9c"],
                           low=["3h", "2d"])
    banked.round_lock_decisions(actor=d, round_id=rid)
    banked.round_close_banked(actor=d, round_id=rid)
    day = d.gaming_day()

    band = table_day_band(table, day)

    assert band == {"expected_win_cents": 76, "low_cents": -5057, "high_cents": 5208,
                    "wagers": ["poker_bonus"], "without_figures": ["ante", "play", "tie"],
                    "paytables": {"poker_bonus": "579-poker-bonus-A"}, "z": 3.0,
                    "win_cents": 1000, "outside": False}
    # z = 0.01: 75.66 ± 17.11 → 59 .. 93, and the house won 1,000
    assert table_day_band(table, day, z=0.01)["outside"] is True
    assert table_day_band(table, day - timedelta(days=1)) is None  # no rounds that day


@pytest.mark.slow
@pytest.mark.parametrize("paytable", ["589-super-A", "589-super-B", "589-super-C",
                                      "671a-super", "579-poker-bonus-A", "579-poker-bonus-B"])
def test_the_kept_unit_figures_are_the_paytable_maths(paytable: str) -> None:
    """§ 589.11, § 671a.11, § 579.12: the figures a report reads without enumerating the
    hands are exactly those worked out from every one of the 2,598,960 hands."""
    from finance.domain.hold_band import KEPT_UNITS
    from finance.hold_band import computed_unit

    assert KEPT_UNITS[paytable] == computed_unit(paytable)
