"""How a report's cell is shown on its page: money as dollars (the one money format,
casino.domain.money), percents to two places, flags as a word a reader sees at a glance."""

from __future__ import annotations

from typing import Any

from django import template

from finance.templatetags.finance_money import money

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
        return money(value)
    if column.kind == "percent":
        return f"{value:.2f} %"
    return str(value)


@register.filter
def negative(row: dict[str, Any] | None, column: Any) -> bool:
    value = (row or {}).get(column.key)
    return column.kind in ("money", "percent") and isinstance(value, int | float) and value < 0
