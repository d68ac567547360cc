"""The gaming day: a casino's accounting day starts at a fixed local hour, not midnight."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo


def gaming_day_of(moment: datetime, *, time_zone: str, start_hour: int) -> date:
    """The gaming day a moment belongs to: local time shifted back by the start hour.

    With a 6 a.m. start, 05:59 local on the 2nd belongs to the gaming day of the 1st.
    """
    if moment.tzinfo is None:
        raise ValueError("gaming_day_of needs an aware datetime")
    local = moment.astimezone(ZoneInfo(time_zone))
    return (local - timedelta(hours=start_hour)).date()


def gaming_day_bounds(day: date, *, time_zone: str, start_hour: int) -> tuple[datetime, datetime]:
    """The instants (aware, UTC) a gaming day starts and ends: its start hour on its own
    date and on the next, local time. Across a daylight-saving change the day is 23 or
    25 hours long."""
    zone = ZoneInfo(time_zone)

    def start(d: date) -> datetime:
        return datetime(d.year, d.month, d.day, start_hour, tzinfo=zone).astimezone(UTC)

    return start(day), start(day + timedelta(days=1))
