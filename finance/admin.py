"""Read-only admin views of finance's read models: table days, exceptions and gaming days,
each of the viewer's property only. Every change goes through the API and its services
(events in the table day's or the gaming day's stream)."""

from __future__ import annotations

from django.contrib import admin

from casino.admin import ReadOnlyAdmin
from finance.models import FinanceException, GamingDay, TableDay


@admin.register(TableDay)
class TableDayAdmin(ReadOnlyAdmin):
    list_display = ("gaming_day", "table_id", "opener_cents", "closer_cents",
                    "chip_sales_cents", "fills_cents", "credits_cents", "open_slips",
                    "drop_state", "drop_counted_cents")
    list_filter = ("drop_state",)
    date_hierarchy = "gaming_day"


@admin.register(FinanceException)
class FinanceExceptionAdmin(ReadOnlyAdmin):
    list_display = ("gaming_day", "table_id", "figure", "expected_cents", "counted_cents",
                    "variance_cents", "state", "explained_by", "signed_off_by", "after_close")
    list_filter = ("state", "figure", "after_close")
    date_hierarchy = "gaming_day"


@admin.register(GamingDay)
class GamingDayAdmin(ReadOnlyAdmin):
    list_display = ("gaming_day", "state", "closed_at", "closed_by", "with_open_items")
    list_filter = ("state",)
