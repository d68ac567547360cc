"""How a person reads an instant: the property's wall-clock time with its zone's
abbreviation ("Nov 25, 2026, 6:10 AM EST"), never UTC unlabelled, never a naive string.
The one way every page, printable, CSV and text field shows a time; the API's own
timestamps are ISO 8601 with their offset (``iso_with_offset``)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo


def _local(moment: datetime, time_zone: str) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a time shown to a person must be aware (it has no zone)")
    return moment.astimezone(ZoneInfo(time_zone))


def _clock(local: datetime) -> str:
    hour = local.hour % 12 or 12
    return f"{hour}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'} {local.tzname()}"


def format_wall_clock(moment: datetime, *, time_zone: str) -> str:
    """``Nov 25, 2026, 6:10 AM EST``: date, time and the zone's abbreviation."""
    local = _local(moment, time_zone)
    return f"{format_date(local.date())}, {_clock(local)}"


def format_time_of_day(moment: datetime, *, time_zone: str) -> str:
    """``6:10 AM EST``: for a page that already names the day."""
    return _clock(_local(moment, time_zone))


def format_date(day: date) -> str:
    """``Nov 25, 2026``: a gaming day or any calendar date."""
    return f"{day.strftime('%b')} {day.day}, {day.year}"


def format_period(start: datetime, end: datetime, *, time_zone: str) -> str:
    """``Nov 25, 2026, 6:00 AM EST – Nov 26, 2026, 6:00 AM EST``."""
    return (f"{format_wall_clock(start, time_zone=time_zone)} – "
            f"{format_wall_clock(end, time_zone=time_zone)}")


def iso_with_offset(moment: datetime, *, time_zone: str) -> str:
    """``2026-11-25T06:10:00-05:00``: ISO 8601 in the property's zone, offset included,
    to the second (what a person or a spreadsheet reads; the fraction of a second a
    recorded event carries is noise there)."""
    return _local(moment, time_zone).isoformat(timespec="seconds")
