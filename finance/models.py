"""Finance's read models, each a projection of the finance events (``finance.projections``)
that ``rebuild_projections`` drops and rebuilds: a table's gaming day (tray slips, chip
sales, fills and credits, the drop box and its count), the exceptions found by the
reconciliation, and each gaming day's close with the figures it froze.

Rows name their table by id without a database constraint (as the other apps' read
models do): a projection replays events of tables that may since have changed.
"""

from __future__ import annotations

import builtins

from django.db import models

from casino.models import Property

LOOSE = {"on_delete": models.DO_NOTHING, "db_constraint": False}


class TableDay(models.Model):
    """One table's gaming day: the folded state of its finance stream and the figures the
    reports read (every amount in cents; ``None``: not signed or counted yet)."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey("tables.GameTable", related_name="+", **LOOSE)
    gaming_day = models.DateField()
    opener_cents = models.BigIntegerField(null=True)
    closer_cents = models.BigIntegerField(null=True)
    chip_sales_cents = models.BigIntegerField(default=0)
    fills_cents = models.BigIntegerField(default=0)
    credits_cents = models.BigIntegerField(default=0)
    open_slips = models.PositiveIntegerField(default=0)
    drop_state = models.CharField(max_length=20, default="in_play")
    drop_counted_cents = models.BigIntegerField(null=True)
    #: the figures the gaming day's close froze (finance.figures.frozen), and what of
    #: this table was still open then
    frozen = models.JSONField(null=True)
    open_at_close = models.JSONField(default=list)
    #: when each item's last step was recorded (the console's "waiting for me" says
    #: since when): ``{"slip:<id>": iso, "inventory:opener": iso, "drop": iso}``
    step_times = models.JSONField(default=dict)
    #: the folded state (finance.domain.table_day.TableDayState) at ``stream_version``
    state = models.JSONField(default=dict)
    stream_version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day"],
                                               name="finance_table_day_once")]
        ordering = ["gaming_day", "table"]

    @builtins.property
    def stream_id(self) -> str:
        return table_day_stream(self.table_id, self.gaming_day)

    def __str__(self) -> str:
        return f"{self.table_id} {self.gaming_day}"


def table_day_stream(table_id: object, gaming_day: object) -> str:
    return f"finance_table_day-{table_id}-{gaming_day}"


def gaming_day_stream(property_id: object, gaming_day: object) -> str:
    return f"finance_gaming_day-{property_id}-{gaming_day}"


class FinanceException(models.Model):
    """A variance beyond the tolerance, or negative poker revenue: explained by finance,
    signed off by a second person (finance or compliance)."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    exception_id = models.UUIDField(unique=True)
    table = models.ForeignKey("tables.GameTable", related_name="+", **LOOSE)
    gaming_day = models.DateField()
    figure = models.CharField(max_length=20)          # drop | tray | poker_revenue
    expected_cents = models.BigIntegerField()
    counted_cents = models.BigIntegerField()
    variance_cents = models.BigIntegerField()
    state = models.CharField(max_length=20, default="open")  # open|explained|signed_off
    explanation = models.TextField(blank=True)
    explained_by = models.CharField(max_length=150, blank=True)
    explained_at = models.DateTimeField(null=True)
    signed_off_by = models.CharField(max_length=150, blank=True)
    signed_off_at = models.DateTimeField(null=True)
    recorded_at = models.DateTimeField()
    #: found by a count that came in after the gaming day was closed (an adjustment)
    after_close = models.BooleanField(default=False)

    class Meta:
        ordering = ["gaming_day", "recorded_at"]


class GamingDay(models.Model):
    """A property's gaming day as finance closes it: what was still open at the last
    look, and once closed the figures frozen by ``GamingDayClosed``."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    state = models.CharField(max_length=20, default="open")   # open | held | closed
    open_items = models.JSONField(default=list)
    figures = models.JSONField(default=dict)
    closed_at = models.DateTimeField(null=True)
    closed_by = models.CharField(max_length=150, blank=True)
    with_open_items = models.BooleanField(default=False)
    stream_version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["property", "gaming_day"],
                                               name="finance_gaming_day_once")]
        ordering = ["-gaming_day"]

    @builtins.property
    def stream_id(self) -> str:
        return gaming_day_stream(self.property_id, self.gaming_day)
