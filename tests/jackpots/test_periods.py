"""High Hand qualifying periods on the property's clock (§ 637a.16(b)(1), § 637a.16(f)):
worked by hand for New York, a 6 a.m. gaming day and 60-minute periods, across both
daylight-saving changes of 2026 (no database)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from jackpots.domain.periods import period_at, periods_between

NY = {"time_zone": "America/New_York", "day_start_hour": 6, "minutes": 60}


def _utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


@pytest.mark.parametrize("moment,key,start,end", [
    # an ordinary hour: 14:30 EST is 19:30Z; the 14:00 period is 19:00Z-20:00Z
    (_utc(2026, 11, 20, 19, 30), "2026-11-20T14:00", _utc(2026, 11, 20, 19), _utc(2026, 11, 20, 20)),
    # 1 November 2026, clocks back at 2:00 EDT: 1:30 EDT (05:30Z) and 1:30 EST (06:30Z)
    # are both in the 1:00 period, which lasts two hours, 05:00Z to 07:00Z
    (_utc(2026, 11, 1, 5, 30), "2026-11-01T01:00", _utc(2026, 11, 1, 5), _utc(2026, 11, 1, 7)),
    (_utc(2026, 11, 1, 6, 30), "2026-11-01T01:00", _utc(2026, 11, 1, 5), _utc(2026, 11, 1, 7)),
    (_utc(2026, 11, 1, 7, 30), "2026-11-01T02:00", _utc(2026, 11, 1, 7), _utc(2026, 11, 1, 8)),
    # 8 March 2026, clocks forward at 2:00 EST: 1:30 EST is 06:30Z, 3:30 EDT is 07:30Z;
    # there is no 2:00 period
    (_utc(2026, 3, 8, 6, 30), "2026-03-08T01:00", _utc(2026, 3, 8, 6), _utc(2026, 3, 8, 7)),
    (_utc(2026, 3, 8, 7, 30), "2026-03-08T03:00", _utc(2026, 3, 8, 7), _utc(2026, 3, 8, 8)),
    # 5:59 a.m. EST belongs to the gaming day that began at 6 a.m. the day before
    (_utc(2026, 11, 20, 10, 59), "2026-11-20T05:00", _utc(2026, 11, 20, 10), _utc(2026, 11, 20, 11)),
])
def test_a_moment_falls_in_the_period_of_its_local_clock(moment, key, start, end) -> None:
    p = period_at(moment, **NY)
    assert (p.key, p.start, p.end) == (key, start, end)
    assert moment in p


def test_periods_follow_each_other_without_gap_across_the_change() -> None:
    """§ 637a.16(f): each period starts where the last ended; on the fall-back day the
    1:00 period is two hours, on the spring-forward day 2:00 never comes."""
    back = periods_between(_utc(2026, 11, 1, 4), _utc(2026, 11, 1, 8), **NY)
    assert [(p.key, p.start.hour, p.end.hour) for p in back] == [
        ("2026-11-01T00:00", 4, 5), ("2026-11-01T01:00", 5, 7), ("2026-11-01T02:00", 7, 8),
        ("2026-11-01T03:00", 8, 9)]
    forward = periods_between(_utc(2026, 3, 8, 5), _utc(2026, 3, 8, 8), **NY)
    assert [p.key for p in forward] == ["2026-03-08T00:00", "2026-03-08T01:00",
                                        "2026-03-08T03:00", "2026-03-08T04:00"]
    assert all(a.end == b.start for a, b in zip(back, back[1:]))


def test_a_day_that_does_not_divide_evenly_ends_its_last_period_at_the_next_day() -> None:
    """90-minute periods from 6 a.m. divide the day: the sixteenth is 4:30 to 6:00 a.m.
    Seven-hour periods do not: 6-13, 13-20, 20-3, and the last is 3 to 6 a.m., cut at
    the next gaming day's start (three hours)."""
    p = period_at(_utc(2026, 11, 21, 10, 0), time_zone="America/New_York",
                  day_start_hour=6, minutes=90)  # 5:00 a.m. EST
    assert (p.key, p.start, p.end) == ("2026-11-21T04:30", _utc(2026, 11, 21, 9, 30),
                                       _utc(2026, 11, 21, 11))
    p = period_at(_utc(2026, 11, 21, 10, 0), time_zone="America/New_York",
                  day_start_hour=6, minutes=420)  # seven hours: 6-13, 13-20, 20-3, 3-6
    assert (p.key, p.start, p.end) == ("2026-11-21T03:00", _utc(2026, 11, 21, 8),
                                       _utc(2026, 11, 21, 11))
