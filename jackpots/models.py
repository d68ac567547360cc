"""The jackpot funds' read models (637a.15, 637a.16), each a projection of events that
rebuilds: the fund ledger per table and gaming day (the finance department's official
record of contributions, 637a.15(e), 637a.16(e)), each table's payout box with what it
should hold, and each fund's totals.

Rows name their table by id without a database constraint: a projection replays events
of tables that may since have been changed, and never fails on a reference.
"""

from __future__ import annotations

from django.db import models

from casino.models import Property

BAD_BEAT, HIGH_HAND = "bad_beat", "high_hand"
FUND_KINDS = [(BAD_BEAT, "Bad Beat payout (637a.15)"),
              (HIGH_HAND, "High Hand Jackpot payout (637a.16)")]


class Fund(models.Model):
    """A fund as the contributions name it: several tables and games may feed one."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=20, choices=FUND_KINDS)
    contributions_cents = models.BigIntegerField(default=0)
    contributions = models.BigIntegerField(default=0, help_text="how many pots paid in")
    first_contribution_at = models.DateTimeField(null=True)
    last_contribution_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["property", "name"], name="jackpots_fund_unique"),
            models.CheckConstraint(condition=models.Q(contributions_cents__gte=0),
                                   name="jackpots_fund_contributions_not_negative"),
        ]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class FundDay(models.Model):
    """A fund's contributions from one table on one gaming day (637a.15(e), 637a.16(e))."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    fund = models.CharField(max_length=60)
    kind = models.CharField(max_length=20, choices=FUND_KINDS)
    table_id = models.UUIDField()
    gaming_day = models.DateField()
    contributions_cents = models.BigIntegerField(default=0)
    contributions = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["property", "fund", "table_id", "gaming_day"],
                                    name="jackpots_fundday_unique"),
        ]
        ordering = ["gaming_day", "fund", "table_id"]


class PayoutBox(models.Model):
    """A table's payout box for a fund (637a.15(c), 637a.16(c)): what the contributions
    put in it, and so what a count should find there (nothing is counted out yet)."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    fund = models.CharField(max_length=60)
    kind = models.CharField(max_length=20, choices=FUND_KINDS)
    table_id = models.UUIDField()
    expected_cents = models.BigIntegerField(default=0)
    contributed_cents = models.BigIntegerField(default=0)
    last_contribution_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["property", "fund", "table_id"],
                                    name="jackpots_payoutbox_unique"),
        ]
        ordering = ["fund", "table_id"]
