"""How a report's cell is shown on its page: money as dollars and a date as a date (the
one way, casino.templatetags.casino_display), percents to two places, flags as a word a
reader sees at a glance."""

from __future__ import annotations

from typing import Any

from django import template

from casino.templatetags.casino_display import dollars, gaming_day, wall_clock

register = template.Library()


@register.filter
def cell(row: dict[str, Any] | None, column: Any) -> str:
    value = (row or {}).get(column.key)
    if column.kind == "flag":
        # no flag where no band is defined (a poker table, a game's or the property's
        # row): nothing, not a dash in the flag's red
        return "OUTSIDE BAND" if value is True else ("" if value in (None, False, "")
                                                     else str(value))
    if value is None or value == "":
        return "—"
    if column.kind == "money":
        return dollars(value)
    if column.kind == "date":
        return gaming_day(value)
    if column.kind == "time":
        return wall_clock(value)
    if column.kind == "percent":
        return f"{value:.2f} %"
    return str(value)


@register.filter
def negative(row: dict[str, Any] | None, column: Any) -> bool:
    value = (row or {}).get(column.key)
    return column.kind in ("money", "percent") and isinstance(value, int | float) and value < 0
