"""The poker room's read models, each a projection of events (poker_room.projections):
the seats at each poker table, the table's state between hands, and the rake ledger.

Nothing here is written except by the projections: the events are the record
(``poker_table-<table id>`` for seats and time charges, ``round-<id>`` for a hand).
"""

from __future__ import annotations

import builtins

from django.db import models

from casino.models import Property
from tables.models import GameTable, Round


#: A reference to a tables row from a read model of this app: each app's projections are
#: dropped and rebuilt on their own (``rebuild_projections``), so the rows refer to tables
#: rows by id without a database constraint (a rebuilt table keeps its id).
LOOSE = {"on_delete": models.DO_NOTHING, "db_constraint": False}


class SeatStatus(models.TextChoices):
    #: dealt into the next hand
    PLAYING = "playing"
    #: seated, not dealt in (637a.8(b)); still assessed a per-player time charge
    SITTING_OUT = "sitting_out"
    #: stepped away during a hand, the floorperson recorded the stakes covered (637a.8(b)(6))
    AWAY = "away"


class PokerTable(models.Model):
    """A poker table between hands: the button, the Kill, the hand in progress, the
    minimum bet the players agreed to raise (637a.8(k)), the jackpot boxes attached
    (637a.2(e)). One row per poker table."""

    table = models.OneToOneField(GameTable, primary_key=True, related_name="poker",
                                 **LOOSE)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    kill_active = models.BooleanField(default=False)
    hands_dealt = models.PositiveIntegerField(default=0)
    current_hand = models.ForeignKey(Round, null=True, blank=True, related_name="+", **LOOSE)
    #: 637a.8(k): the minimum bet all players agreed to raise to (0: as posted)
    agreed_minimum_bet_cents = models.BigIntegerField(default=0)
    #: the last time-charge period assessed (its start), for the sweep
    time_charged_until = models.DateTimeField(null=True, blank=True)
    stream_version = models.PositiveIntegerField(default=0)
    #: 637a.2(e): the jackpot boxes attached to the table, fund name -> {"box": its tag,
    #: "kind"}; a hand pays into a fund only through its box here
    jackpot_boxes = models.JSONField(default=dict, db_default={})

    class Meta:
        ordering = ["table__name"]

    @builtins.property
    def stream_id(self) -> str:
        return f"poker_table-{self.table_id}"

    def __str__(self) -> str:
        return f"poker table {self.table_id}"


class Seat(models.Model):
    """A player at a seat (637a.8(a)-(b)): anonymous, or named with what a High Hand
    Tracking Slip needs (637a.16(f)(1)); the table stakes as of the last hand settled."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(GameTable, related_name="seats", **LOOSE)
    seat = models.PositiveSmallIntegerField()
    player_name = models.CharField(max_length=120, blank=True)
    player_phone = models.CharField(max_length=40, blank=True)
    #: the key the event seals the name and phone under (casino.personal_data): its
    #: erasure blanks them here
    personal_subject = models.UUIDField(null=True, blank=True, db_index=True)
    stack_cents = models.BigIntegerField()
    status = models.CharField(max_length=20, choices=SeatStatus.choices,
                              default=SeatStatus.PLAYING)
    #: 637a.8(b)(6): the stakes a floorperson recorded as covered while the player is away
    covered_cents = models.BigIntegerField(default=0)
    seated_at = models.DateTimeField()
    bought_in_cents = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="seat_once")]
        ordering = ["table", "seat"]

    @builtins.property
    def anonymous(self) -> bool:
        return not self.player_name

    def __str__(self) -> str:
        return f"{self.table_id} seat {self.seat}"


class RakeDay(models.Model):
    """The rake ledger of one poker table for one gaming day (637a.17): the rake and time
    charges that went into the drop box, by kind; the jackpot
    contributions that went into the table's payout boxes (637a.15(c), 637a.16(c)).
    A projection of the hand and time-charge events; ``rebuild_projections`` rebuilds it."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(GameTable, related_name="rake_days", **LOOSE)
    gaming_day = models.DateField()
    hands = models.PositiveIntegerField(default=0)
    percentage_rake_cents = models.BigIntegerField(default=0)
    incremental_rake_cents = models.BigIntegerField(default=0)
    #: assessed and placed in the rake area, not yet verified by a floorperson
    time_charges_pending_cents = models.BigIntegerField(default=0)
    #: verified by a floorperson and placed in the drop box (637a.17(b)(3)(v))
    time_charges_cents = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day"],
                                               name="rake_day_once")]
        ordering = ["gaming_day", "table"]

    @builtins.property
    def contributions(self) -> dict[str, int]:
        """{fund name: cents} put into the table's payout boxes this gaming day."""
        return dict(FundContributionDay.objects.filter(
            table_id=self.table_id, gaming_day=self.gaming_day).values_list("fund", "cents"))

    @builtins.property
    def rake_and_time_charges_cents(self) -> int:
        """The poker revenue placed in the drop box: the pot rake and the verified time
        charges (637a.17(b)(1)(ii), (2)(ii), (3)(v)). Not all the box holds: the cash of
        the chips sold at the table goes in too; what the count should find is finance's
        expected drop (``finance.domain.reconcile.TableDayFigures.expected_drop_cents``),
        computed there alone."""
        return (self.percentage_rake_cents + self.incremental_rake_cents
                + self.time_charges_cents)

    def __str__(self) -> str:
        return f"{self.table_id} {self.gaming_day}"


class FundContributionDay(models.Model):
    """What one table put into one jackpot fund's payout box in one gaming day (637a.15(c),
    637a.16(c)): part of the rake ledger, a projection of ``JackpotContributed``."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(GameTable, related_name="+", **LOOSE)
    gaming_day = models.DateField()
    fund = models.CharField(max_length=60)
    cents = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day", "fund"],
                                               name="fund_contribution_day_once")]
        ordering = ["gaming_day", "table", "fund"]


class TimeChargePeriod(models.Model):
    """One time-charge period at one table (637a.17(b)(3)): assessed once (the period's
    start is the key, so a task delivered twice assesses once), then verified."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(GameTable, related_name="+", **LOOSE)
    period_start = models.DateTimeField()
    gaming_day = models.DateField()
    charges = models.JSONField(default=dict)  # {seat: cents}
    total_cents = models.BigIntegerField(default=0)
    assessed_at = models.DateTimeField()
    verified_by = models.CharField(max_length=150, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "period_start"],
                                               name="time_charge_period_once")]
        ordering = ["period_start", "table"]
