"""Read-only admin views of the jackpots: funds, ledgers, boxes, hits, slips, counts and
display checks, each of the viewer's property only. Every change goes through the API and
its services (events in the fund's stream)."""

from __future__ import annotations

from django.contrib import admin

from casino.admin import ReadOnlyAdmin
from jackpots.models import (
    BadBeatHit,
    DisplayCheck,
    Fund,
    FundCount,
    FundDay,
    HighHandSlip,
    PayoutBox,
)


@admin.register(Fund)
class FundAdmin(ReadOnlyAdmin):
    list_display = ("name", "kind", "contributions_cents", "paid_cents", "committed_cents",
                    "displayed_cents", "display_pending", "discontinued")
    list_filter = ("kind", "discontinued")


@admin.register(FundDay)
class FundDayAdmin(ReadOnlyAdmin):
    list_display = ("gaming_day", "fund", "table_id", "contributions_cents",
                    "contributions_counted")
    list_filter = ("fund",)
    date_hierarchy = "gaming_day"

    @admin.display(description="Contributions (count)", ordering="contributions")
    def contributions_counted(self, obj: FundDay) -> int:
        # beside the amount, also "Contributions": a count, said so
        return obj.contributions


@admin.register(PayoutBox)
class PayoutBoxAdmin(ReadOnlyAdmin):
    list_display = ("fund", "table_id", "expected_cents", "contributed_cents",
                    "last_contribution_at")
    list_filter = ("fund",)


@admin.register(BadBeatHit)
class BadBeatHitAdmin(ReadOnlyAdmin):
    list_display = ("hand_id", "fund", "state", "losing_seat", "winning_seat", "amount_cents",
                    "qualified_at", "verified_by", "paid_by")
    list_filter = ("state", "fund")


@admin.register(HighHandSlip)
class HighHandSlipAdmin(ReadOnlyAdmin):
    list_display = ("period", "slip", "fund", "table_name", "seat", "hand", "dealer",
                    "verified_by", "award_cents", "paid_at", "uncollected")
    list_filter = ("fund",)


@admin.register(FundCount)
class FundCountAdmin(ReadOnlyAdmin):
    list_display = ("opened_at", "fund", "place", "reason", "state", "expected_cents",
                    "counted_cents", "variance_cents", "reminders", "escalated_at")
    list_filter = ("state", "fund", "place")


@admin.register(DisplayCheck)
class DisplayCheckAdmin(ReadOnlyAdmin):
    list_display = ("gaming_day", "fund", "passed", "reason", "displayed_cents",
                    "record_cents")
    list_filter = ("passed", "fund")
