"""High Hand qualifying periods on the property's clock (637a.16(b)(1), (f)-(h)).

Periods of the posted length run on the local wall clock from the start of each gaming
day: with 60 minutes and a 6 a.m. gaming day, 6:00-7:00, 7:00-8:00, ... 5:00-6:00 local.
The day's last period ends at the next gaming day's start (shorter when the day does not
divide evenly). On a daylight-saving day the wall clock decides: when clocks go back, the
hour from 1:00 to 2:00 is lived twice and is one period of two hours of real time; when
they go forward, the missing hour's period is skipped (it has no real time). Each period
is named by its local start (``2026-11-01T01:00``) and runs over the UTC instants
``[start, end)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class Period:
    key: str            # local wall-clock start, minutes precision
    start: datetime     # UTC
    end: datetime       # UTC

    def __contains__(self, moment: datetime) -> bool:
        return self.start <= moment < self.end


def _utc(wall: datetime, tz: ZoneInfo) -> datetime:
    """A local wall time as a UTC instant (the first of two when it is lived twice)."""
    return wall.replace(tzinfo=tz, fold=0).astimezone(timezone.utc)


def period_at(moment: datetime, *, time_zone: str, day_start_hour: int, minutes: int
              ) -> Period:
    """The qualifying period that ``moment`` (aware) falls in."""
    if moment.tzinfo is None:
        raise ValueError("period_at needs an aware datetime")
    if minutes < 1:
        raise ValueError("a period lasts at least a minute")
    tz = ZoneInfo(time_zone)
    local = moment.astimezone(tz).replace(tzinfo=None)
    day_start = local.replace(hour=day_start_hour, minute=0, second=0, microsecond=0)
    if local < day_start:
        day_start -= timedelta(days=1)
    next_day = day_start + timedelta(days=1)
    step = timedelta(minutes=minutes)
    k = int((local - day_start) // step)
    wall = day_start + k * step
    end_wall = min(wall + step, next_day)
    start, end = _utc(wall, tz), _utc(end_wall, tz)
    # the moment is in the period of its wall time; when that wall time was lived twice
    # (clocks went back), the period spans both, from its first start to its last end
    if end <= start or moment.astimezone(timezone.utc) >= end:
        end = end_wall.replace(tzinfo=tz, fold=1).astimezone(timezone.utc)
    return Period(key=wall.strftime("%Y-%m-%dT%H:%M"), start=start, end=end)


def periods_between(first: datetime, last: datetime, *, time_zone: str,
                    day_start_hour: int, minutes: int, limit: int = 1000) -> list[Period]:
    """The periods from the one ``first`` falls in to the one ``last`` falls in."""
    out: list[Period] = []
    p = period_at(first, time_zone=time_zone, day_start_hour=day_start_hour,
                  minutes=minutes)
    while p.start <= last and len(out) < limit:
        out.append(p)
        p = period_at(p.end, time_zone=time_zone, day_start_hour=day_start_hour,
                      minutes=minutes)
    return out


def period_name(key: str, *, time_zone: str) -> str:
    """How an answer names a period: its local start with the property's offset
    (``2026-11-01T01:00`` → ``2026-11-01T01:00:00-04:00``; a start lived twice, when the
    clocks go back, is its first instant). Never a naive local string (issue 22)."""
    wall = datetime.fromisoformat(key)
    return wall.replace(tzinfo=ZoneInfo(time_zone), fold=0).isoformat()


def period_key(text: str, *, time_zone: str) -> str:
    """A period as an input names it — as the answers do (its local start with its offset)
    or by its key (the local start, ``2026-11-25T20:00``) — as its key. Text that is
    neither is returned as given: no period has it, and the service says so."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return text
    if moment.tzinfo is None:
        return text
    return moment.astimezone(ZoneInfo(time_zone)).strftime("%Y-%m-%dT%H:%M")
