"""``{{ cents|money }}``: the one money format (casino.domain.money) on finance's pages;
a figure not there yet (None) shows as a dash."""

from __future__ import annotations

from typing import Any

from django import template

from casino.domain.money import format_money

register = template.Library()


@register.filter
def money(cents: Any) -> str:
    if cents is None or cents == "" or not isinstance(cents, int) or isinstance(cents, bool):
        return "—"
    return format_money(cents)
