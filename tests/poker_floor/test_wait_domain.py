"""The estimated wait's arithmetic (poker_floor.domain.wait), without a database: every
expected value worked by hand from the Erlang distribution's closed form."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from poker_floor.domain.wait import (
    Fact, Turnover, WaitRange, erlang_cdf, erlang_quantile, estimated_waits, open_at,
    open_minutes, openings, turnover, wait_range)

NOON = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


# --- the distribution ------------------------------------------------------------------

def test_erlang_cdf_of_one_opening_is_the_exponential():
    # 1 - e^{-0.5·2} = 1 - e^{-1} = 0.632121
    assert erlang_cdf(2.0, 1, 0.5) == pytest.approx(0.632121, abs=1e-6)


def test_erlang_cdf_of_two_openings():
    # 1 - e^{-x}(1 + x) at x = 1: 1 - 2/e = 0.264241
    assert erlang_cdf(1.0, 2, 1.0) == pytest.approx(0.264241, abs=1e-6)


def test_erlang_cdf_of_three_openings():
    # 1 - e^{-x}(1 + x + x²/2) at x = 2: 1 - 5e^{-2} = 0.323324
    assert erlang_cdf(4.0, 3, 0.5) == pytest.approx(0.323324, abs=1e-6)


def test_erlang_cdf_is_zero_at_time_zero():
    assert erlang_cdf(0.0, 4, 1.0) == 0.0


def test_erlang_cdf_of_a_long_list_does_not_underflow():
    # Poisson(1000) ≥ 1000 is a little over a half (its median is ≈ 1000.33); a naive
    # e^{-1000} is 0.0 in floating point and would make it 1.
    assert 0.49 < erlang_cdf(1000.0, 1000, 1.0) < 0.53


def test_quantile_of_the_first_in_line_is_minus_log_of_the_rest_over_the_rate():
    # k = 1: t = -ln(1 - p)/r; p = 0.2, r = 0.5: 0.223144/0.5 = 0.446287
    assert erlang_quantile(0.2, 1, 0.5) == pytest.approx(0.446287, abs=1e-5)
    # p = 0.8: 1.609438/0.5 = 3.218876
    assert erlang_quantile(0.8, 1, 0.5) == pytest.approx(3.218876, abs=1e-5)


def test_quantile_of_the_second_in_line_inverts_the_closed_form():
    # 1 - e^{-x}(1 + x) = 1 - 2/e at x = 1
    assert erlang_quantile(1 - 2 / math.e, 2, 1.0) == pytest.approx(1.0, abs=1e-5)


def test_quantile_above_the_mean_is_found():
    # 1 - e^{-x}(1 + x) at x = 3: 1 - 4e^{-3} = 0.800852 (above the mean of 2)
    assert erlang_quantile(0.800852, 2, 1.0) == pytest.approx(3.0, abs=1e-4)


def test_quantile_refuses_a_probability_of_one():
    with pytest.raises(ValueError):
        erlang_quantile(1.0, 1, 1.0)


# --- the range -------------------------------------------------------------------------

def test_range_of_the_first_in_line_in_whole_minutes():
    # 0.446 .. 3.219 minutes: to the nearest, 0 .. 3
    assert wait_range(1, 0.5) == WaitRange(1, 0, 3)


def test_range_of_the_second_in_line_in_whole_minutes():
    # Erlang(2, 1): 1 - e^{-x}(1+x) = 0.2 at x = 0.8244, = 0.8 at x = 2.9943
    # (e^{-0.8244}·1.8244 = 0.8000, e^{-2.9943}·3.9943 = 0.2000); at r = 1/4 a minute the
    # times are 4× those: 3.30 .. 11.98, to the nearest 3 .. 12
    assert wait_range(2, 0.25) == WaitRange(2, 3, 12)


def test_range_of_a_very_short_wait_ends_at_one_minute_at_least():
    # r = 10 a minute: 0.022 .. 0.161 minutes
    assert wait_range(1, 10.0) == WaitRange(1, 0, 1)


def test_range_as_the_selectors_dict():
    assert WaitRange(3, 5, 17).as_dict() == {"position": 3, "low_minutes": 5,
                                             "high_minutes": 17}


# --- which leavings are openings for the list ------------------------------------------

def leave(at: datetime, table: str = "poker_table-a", kind: str = "PlayerLeft") -> Fact:
    return Fact(kind, table, at, {"seat": 1})


def moved(at: datetime, why: str, entry: str | None = None) -> Fact:
    return Fact("PlayerMoved", "waitlist-w", at, {"why": why, "entry": entry})


def test_every_player_leaving_or_removed_is_an_opening():
    assert openings([leave(NOON), leave(NOON), leave(NOON, kind="PlayerRemoved")]) == 3


def test_a_must_move_leaves_one_opening_for_the_list():
    # a main-game seat opens (1), the must-move player leaves the feeder (2) for it: the
    # list gets the feeder's seat, one opening
    assert openings([leave(NOON), leave(NOON, "poker_table-b"), moved(NOON, "must_move")]) == 1


def test_a_table_change_called_from_the_list_leaves_two_openings():
    # a seat opens at a (1) and goes to the change entry, in line; the seat it leaves at
    # b (2) goes to the next in line
    assert openings([leave(NOON), leave(NOON, "poker_table-b"),
                     moved(NOON, "table_change", entry="e1")]) == 2


def test_a_player_moved_from_a_broken_table_leaves_no_seat():
    # two seats opened at a; the broken table b's two players left it (2 leavings) for
    # them: the two seats of a were the openings, b's are gone
    facts = [leave(NOON), leave(NOON), leave(NOON, "poker_table-b"),
             leave(NOON, "poker_table-b"), moved(NOON, "table_broken"),
             moved(NOON, "table_broken")]
    assert openings(facts) == 2


def test_a_broken_tables_player_called_from_the_list_leaves_no_seat():
    facts = [leave(NOON), leave(NOON, "poker_table-b"),
             moved(NOON, "table_broken", entry="e1")]
    assert openings(facts) == 1


def test_a_table_opened_by_lot_is_no_rate_of_openings():
    draw = [{"entry": "e1", "seat": 4}, {"entry": "e2", "seat": 7}]
    assert openings([Fact("TableOpenedByLot", "waitlist-w", NOON, {"draw": draw})]) == 0


def test_openings_are_never_negative():
    assert openings([moved(NOON, "table_broken")]) == 0


# --- the minutes tables were open ------------------------------------------------------

def test_a_table_open_all_window_counts_the_window():
    assert open_minutes(True, [], NOON - minutes(180), NOON, NOON) == 180


def test_a_table_opened_in_the_window_counts_from_its_opening():
    assert open_minutes(True, [(NOON - minutes(40), True)], NOON - minutes(180), NOON,
                        NOON) == 40


def test_a_table_closed_in_the_window_counts_until_its_closing():
    assert open_minutes(False, [(NOON - minutes(30), False)], NOON - minutes(180), NOON,
                        NOON) == 150


def test_a_past_window_is_measured_as_the_table_was_then():
    # open at 10:00, closed at 11:30, open again at 12:30 (now): the window 9:00-11:00
    # saw it open from 10:00, 60 minutes
    changes = [(NOON - minutes(120), True), (NOON - minutes(30), False),
               (NOON + minutes(30), True)]
    assert open_minutes(True, changes, NOON - minutes(180), NOON - minutes(60),
                        NOON + minutes(30)) == 60


def test_whether_open_at_a_past_moment():
    changes = [(NOON - minutes(30), False), (NOON + minutes(30), True)]
    assert open_at(True, changes, NOON) is False
    assert open_at(True, changes, NOON - minutes(60)) is True
    assert open_at(True, changes, NOON + minutes(60)) is True


# --- the rate and the estimate ---------------------------------------------------------

TABLES = {"table-a": ("poker_table-a", True), "table-b": ("poker_table-b", True)}


def test_turnover_counts_openings_per_open_table_minute():
    facts = [leave(NOON - minutes(10 * n)) for n in range(12)]
    measured = turnover(facts, tables=TABLES, since=NOON - minutes(180), until=NOON,
                        present=NOON)
    assert measured == Turnover(openings=12, table_minutes=360, tables_open=2)
    # 12 openings in 360 table-minutes, 2 tables open: 12/360·2 = 1/15 a minute
    assert measured.rate_per_minute == pytest.approx(1 / 15)


def test_turnover_ignores_leavings_after_the_moment_and_at_other_tables():
    facts = [leave(NOON - minutes(5)), leave(NOON + minutes(5)),
             leave(NOON - minutes(5), "poker_table-other")]
    measured = turnover(facts, tables=TABLES, since=NOON - minutes(180), until=NOON,
                        present=NOON + minutes(10))
    assert measured.openings == 1


def test_turnover_knows_a_table_opened_after_the_moment_was_closed_then():
    facts = [Fact("TableOpened", "table-b", NOON + minutes(5), {})]
    measured = turnover(facts, tables=TABLES, since=NOON - minutes(180), until=NOON,
                        present=NOON + minutes(10))
    assert (measured.table_minutes, measured.tables_open) == (180, 1)


def test_estimate_for_each_position():
    measured = Turnover(openings=45, table_minutes=180, tables_open=1)
    # 45/180·1 = 1/4 a minute: position 1 is 0.89 .. 6.44 min (k = 1: -ln(0.8)·4,
    # -ln(0.2)·4), position 2 is 3 .. 12 (above)
    assert estimated_waits(measured, 2, min_openings=10) == [WaitRange(1, 1, 6),
                                                             WaitRange(2, 3, 12)]


def test_estimate_is_unknown_below_the_minimum_openings():
    measured = Turnover(openings=9, table_minutes=180, tables_open=1)
    assert estimated_waits(measured, 3, min_openings=10) == [None, None, None]


def test_estimate_is_unknown_with_no_table_open():
    measured = Turnover(openings=40, table_minutes=180, tables_open=0)
    assert estimated_waits(measured, 2, min_openings=10) == [None, None]
