"""The one way a page or printable shows money and time (``{% load casino_display %}``):

* ``{{ cents|dollars }}`` → ``$1,234.56`` (casino.domain.money); nothing yet (None) → "—".
* ``{{ moment|wall_clock }}`` → ``Nov 25, 2026, 6:10 AM EST`` in the property's zone;
  ``{{ moment|time_of_day }}`` → ``6:10 AM EST``; ``{{ day|gaming_day }}`` → ``Nov 25, 2026``.

The zone is the one Django has active for the request (casino.display_zone activates the
viewer's property's zone); an ISO string is read as the instant it names.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django import template
from django.utils import timezone

from casino.domain.money import format_money
from casino.domain.wall_clock import format_date, format_time_of_day, format_wall_clock

register = template.Library()

NOTHING = "—"


def _instant(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str) and value:
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return None
        return parsed if parsed.tzinfo is not None else None
    return None


def _zone() -> str:
    return timezone.get_current_timezone_name()


@register.filter
def dollars(cents: Any) -> str:
    if cents is None or cents == "" or not isinstance(cents, int) or isinstance(cents, bool):
        return NOTHING
    return format_money(cents)


@register.filter
def wall_clock(value: Any) -> str:
    moment = _instant(value)
    return NOTHING if moment is None else format_wall_clock(moment, time_zone=_zone())


@register.filter
def time_of_day(value: Any) -> str:
    moment = _instant(value)
    return NOTHING if moment is None else format_time_of_day(moment, time_zone=_zone())


@register.filter
def gaming_day(value: Any) -> str:
    if isinstance(value, datetime):
        return format_date(value.date())
    if isinstance(value, date):
        return format_date(value)
    if isinstance(value, str) and value:
        try:
            return format_date(date.fromisoformat(value[:10]))
        except ValueError:
            return value
    return NOTHING
