"""The gaming day: a casino's accounting day starts at a fixed local hour, not midnight."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo


def gaming_day_of(moment: datetime, *, time_zone: str, start_hour: int) -> date:
    """The gaming day a moment belongs to: local time shifted back by the start hour.

    With a 6 a.m. start, 05:59 local on the 2nd belongs to the gaming day of the 1st.
    """
    if moment.tzinfo is None:
        raise ValueError("gaming_day_of needs an aware datetime")
    local = moment.astimezone(ZoneInfo(time_zone))
    return (local - timedelta(hours=start_hour)).date()
