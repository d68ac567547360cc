"""``casino/domain/wall_clock.py`` worked by hand: the one way a person is shown an
instant (the property's clock, America/New_York here, with its zone's abbreviation) and
the API's ISO 8601 with its offset. Every expected string below was written from the
calendar (EST is UTC-5, EDT UTC-4; in 2026 summer time starts Sunday Mar 8 at 2 AM and
ends Sunday Nov 1 at 2 AM), never computed by the code under test."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from casino.domain.wall_clock import (format_date, format_period, format_time_of_day,
                                      format_wall_clock, iso_with_offset)

NY = "America/New_York"


def _utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=timezone.utc)


@pytest.mark.parametrize(("moment", "shown"), [
    (_utc(2026, 11, 25, 5, 30), "12:30 AM EST"),   # half past midnight: 12, not 0
    (_utc(2026, 11, 25, 17, 30), "12:30 PM EST"),  # half past noon: PM
    (_utc(2026, 11, 25, 5, 0), "12:00 AM EST"),    # midnight
    (_utc(2026, 11, 25, 17, 0), "12:00 PM EST"),   # noon
    (_utc(2026, 11, 25, 11, 10), "6:10 AM EST"),   # no leading zero on the hour
    (_utc(2026, 11, 26, 4, 59), "11:59 PM EST"),   # the evening before, still Nov 25
    (_utc(2026, 7, 4, 16, 5), "12:05 PM EDT"),     # summer: UTC-4
])
def test_time_of_day_is_twelve_hour_with_the_zone(moment: datetime, shown: str) -> None:
    assert format_time_of_day(moment, time_zone=NY) == shown


def test_the_repeated_hour_in_november_is_told_apart_by_its_zone() -> None:
    """Nov 1, 2026: the clock goes from 1:59 AM EDT back to 1:00 AM EST, so 1:30 AM
    happens twice; the abbreviation says which."""
    assert format_wall_clock(_utc(2026, 11, 1, 5, 30), time_zone=NY) == (
        "Nov 1, 2026, 1:30 AM EDT")
    assert format_wall_clock(_utc(2026, 11, 1, 6, 30), time_zone=NY) == (
        "Nov 1, 2026, 1:30 AM EST")
    assert iso_with_offset(_utc(2026, 11, 1, 5, 30), time_zone=NY) == (
        "2026-11-01T01:30:00-04:00")
    assert iso_with_offset(_utc(2026, 11, 1, 6, 30), time_zone=NY) == (
        "2026-11-01T01:30:00-05:00")


def test_the_skipped_hour_in_march_is_never_shown() -> None:
    """Mar 8, 2026: 1:59 AM EST is followed one minute later by 3:00 AM EDT; no instant
    reads 2:xx AM."""
    assert format_wall_clock(_utc(2026, 3, 8, 6, 59), time_zone=NY) == (
        "Mar 8, 2026, 1:59 AM EST")
    assert format_wall_clock(_utc(2026, 3, 8, 7, 0), time_zone=NY) == (
        "Mar 8, 2026, 3:00 AM EDT")
    assert format_time_of_day(_utc(2026, 3, 8, 7, 30), time_zone=NY) == "3:30 AM EDT"


def test_the_date_is_the_local_one() -> None:
    """01:30 UTC on Nov 26 is still the evening of Nov 25 in New York."""
    assert format_wall_clock(_utc(2026, 11, 26, 1, 30), time_zone=NY) == (
        "Nov 25, 2026, 8:30 PM EST")
    assert format_wall_clock(_utc(2026, 11, 26, 1, 30), time_zone="Asia/Tokyo") == (
        "Nov 26, 2026, 10:30 AM JST")


def test_format_date_reads_as_a_person_writes_it() -> None:
    assert format_date(date(2026, 11, 25)) == "Nov 25, 2026"
    assert format_date(date(2026, 3, 8)) == "Mar 8, 2026"  # no leading zero


@pytest.mark.parametrize(("moment", "iso"), [
    (_utc(2026, 7, 4, 16, 0), "2026-07-04T12:00:00-04:00"),   # summer: EDT
    (_utc(2026, 11, 25, 11, 10), "2026-11-25T06:10:00-05:00"),  # winter: EST
    (_utc(2026, 11, 25, 11, 10, 7).replace(microsecond=654_321),
     "2026-11-25T06:10:07-05:00"),  # to the second: the fraction is dropped
])
def test_iso_with_offset_carries_the_property_offset(moment: datetime, iso: str) -> None:
    assert iso_with_offset(moment, time_zone=NY) == iso


@pytest.mark.parametrize("shown", [
    lambda m: format_wall_clock(m, time_zone=NY),
    lambda m: format_time_of_day(m, time_zone=NY),
    lambda m: iso_with_offset(m, time_zone=NY),
    lambda m: format_period(m, m, time_zone=NY),
])
def test_a_naive_datetime_is_refused(shown) -> None:  # noqa: ANN001
    """A time with no zone could be read in any zone: refused, never guessed."""
    with pytest.raises(ValueError, match="aware"):
        shown(datetime(2026, 11, 25, 6, 10))


def test_format_period_is_a_gaming_day_from_start_to_end() -> None:
    """The gaming day Nov 25, 2026 (6 AM to 6 AM, the default start hour)."""
    assert format_period(_utc(2026, 11, 25, 11, 0), _utc(2026, 11, 26, 11, 0),
                         time_zone=NY) == (
        "Nov 25, 2026, 6:00 AM EST – Nov 26, 2026, 6:00 AM EST")
    # a period across the March change: each end with its own abbreviation
    assert format_period(_utc(2026, 3, 7, 11, 0), _utc(2026, 3, 8, 10, 0),
                         time_zone=NY) == (
        "Mar 7, 2026, 6:00 AM EST – Mar 8, 2026, 6:00 AM EDT")
