"""The jackpot funds' read models (637a.15, 637a.16), each a projection of events that
rebuilds: the fund ledger per table and gaming day (the finance department's official
record of contributions, 637a.15(e), 637a.16(e)), each table's payout box with what it
should hold, and each fund's totals.

Rows name their table by id without a database constraint: a projection replays events
of tables that may since have been changed, and never fails on a reference.
"""

from __future__ import annotations

import builtins

from django.db import models

from casino.models import Property

BAD_BEAT, HIGH_HAND = "bad_beat", "high_hand"
#: the kinds of personal data the funds hold (casino.personal_data): a High Hand slip's
#: player and payee (the slip's name and phone, 637a.16(f)(1)); a Bad Beat payout's payees
#: (637a.15(g))
SLIP_PERSONAL_DATA, PAYOUT_PERSONAL_DATA = "high_hand_slip", "bad_beat_payout"
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
    #: Bad Beat payouts paid out of the fund (637a.15(g))
    # (db defaults: the follower inserts rows with SQL of its own)
    paid_cents = models.BigIntegerField(default=0, db_default=0)
    #: verified Bad Beat payouts not yet paid (owed already)
    committed_cents = models.BigIntegerField(default=0, db_default=0)
    #: the amount shown to patrons, as finance last adjusted it with a witness
    #: (637a.15(b), (h); 637a.16(b), (g)); null until the first adjustment
    displayed_cents = models.BigIntegerField(null=True)
    displayed_at = models.DateTimeField(null=True)
    #: 637a.15(f)(1): a Bad Beat was verified and the display is not adjusted yet
    display_pending = models.BooleanField(default=False, db_default=False)
    #: an adjustment begun by finance waits for its floorperson witness
    adjustment_waiting_cents = models.BigIntegerField(null=True)
    #: who began it and when (the witness is another person, 637a.15(h)(1))
    adjustment_started_by = models.CharField(max_length=150, blank=True, default="",
                                             db_default="")
    adjustment_started_at = models.DateTimeField(null=True)
    #: 637a.15(i): a fund discontinued, its balance transferred to another fund
    discontinued = models.BooleanField(default=False, db_default=False)
    discontinued_to = models.CharField(max_length=60, blank=True, db_default="")
    transferred_in_cents = models.BigIntegerField(default=0, db_default=0)
    transferred_out_cents = models.BigIntegerField(default=0, db_default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["property", "name"], name="jackpots_fund_unique"),
            models.CheckConstraint(condition=models.Q(contributions_cents__gte=0),
                                   name="jackpots_fund_contributions_not_negative"),
        ]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @builtins.property  # (``property`` is the field here)
    def record_cents(self) -> int:
        """The official record's current payout amount: paid in (and transferred in),
        less paid out, owed and transferred out."""
        return (self.held_in_cents - self.paid_cents - self.committed_cents)

    @builtins.property
    def held_in_cents(self) -> int:
        """What came into the fund: contributions and transfers in, less transfers out."""
        return (self.contributions_cents + self.transferred_in_cents
                - self.transferred_out_cents)

    @builtins.property
    def stream_id(self) -> str:
        return fund_stream_id(self.property_id, self.name)


def fund_stream_id(property_id: int, name: str) -> str:
    """The fund's own stream: the decisions on it (hits, payouts, the displayed amount)."""
    return f"jackpot_fund-{property_id}-{name}"


HIT_STATES = [("held", "held for verification"), ("verified", "verified"),
              ("rejected", "rejected"), ("paid", "paid")]


class BadBeatHit(models.Model):
    """A hand that met the posted Bad Beat rules at the showdown (637a.15(f)): held for
    the poker shift supervisor's verification, then verified or rejected, then paid."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    hand_id = models.UUIDField(unique=True)
    fund = models.CharField(max_length=60)
    table_id = models.UUIDField()
    gaming_day = models.DateField()
    losing_seat = models.PositiveSmallIntegerField()
    losing_hand = models.CharField(max_length=100)
    winning_seat = models.PositiveSmallIntegerField()
    winning_hand = models.CharField(max_length=100)
    players_dealt = models.JSONField(default=list)
    payout_shares_bp = models.JSONField(default=dict)
    pot_cents = models.BigIntegerField(default=0)
    state = models.CharField(max_length=20, choices=HIT_STATES, default="held")
    qualified_at = models.DateTimeField()
    amount_cents = models.BigIntegerField(null=True)
    shares = models.JSONField(default=list)
    verified_by = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True)
    reason = models.CharField(max_length=2000, blank=True)
    paid_by = models.CharField(max_length=150, blank=True)
    paid_at = models.DateTimeField(null=True)
    paid_where = models.CharField(max_length=20, blank=True)
    #: each share as paid, with the payee's name and identification (637a.15(g)), which
    #: the event holds sealed (casino.personal_data); "erased" once the payout's key is
    payees = models.JSONField(default=list)
    #: the payout's personal-data subject (its key seals the payees' details)
    payees_subject = models.UUIDField(null=True, blank=True, db_index=True)
    personal_erased = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["-qualified_at"]


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


class HighHandSlip(models.Model):
    """One line of a period's High Hand Tracking Slip (637a.16(f)(1)-(5)): the hand, the
    player, the table and seat, the dealer and the verifying floorperson; the award once
    the period closes (637a.16(h)). The player's name and phone are for the slip and the
    payout, never for a board. The events hold them sealed under a key of the slip's own
    (``personal_subject``, :mod:`casino.personal_data`), with the payee's identification
    at the cage; once the key is erased they read "erased" here (``personal_erased``)."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    fund = models.CharField(max_length=60)
    period = models.CharField(max_length=20, help_text="local start, YYYY-MM-DDTHH:MM")
    period_start = models.DateTimeField()
    period_end = models.DateTimeField()
    slip = models.PositiveIntegerField()
    table_id = models.UUIDField()
    table_name = models.CharField(max_length=100)
    seat = models.PositiveSmallIntegerField()
    hand = models.CharField(max_length=100)
    value = models.BigIntegerField()
    cards = models.JSONField(default=list)
    player_name = models.CharField(max_length=120)
    player_phone = models.CharField(max_length=40)
    dealer = models.CharField(max_length=150)
    dealer_credential = models.CharField(max_length=50)
    verified_by = models.CharField(max_length=150)
    verified_credential = models.CharField(max_length=50, blank=True)
    recorded_at = models.DateTimeField()
    award_cents = models.BigIntegerField(null=True)
    #: the posted time limit to collect the award (637a.16(b)(6)), set when it is awarded
    collect_by = models.DateTimeField(null=True)
    paid_at = models.DateTimeField(null=True)
    paid_identification = models.CharField(max_length=120, blank=True)
    #: 637a.16(i): not collected within the posted time; gone by the posted procedure
    uncollected = models.BooleanField(default=False)
    #: the slip's personal-data subject (its key seals the player's details)
    personal_subject = models.UUIDField(null=True, blank=True, db_index=True)
    personal_erased = models.BooleanField(default=False, db_default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["property", "fund", "period", "slip"],
                                    name="jackpots_highhandslip_unique"),
        ]
        ordering = ["period_start", "slip"]


class FundCount(models.Model):
    """A count of a fund's payout boxes (637a.15(d)-(e), 637a.16(d)-(e)): where, what the
    boxes should hold and what was counted, each step of the chain of custody with the
    person, role and credential, the variance and its sign-off."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    count_id = models.UUIDField(unique=True)
    fund = models.CharField(max_length=60)
    place = models.CharField(max_length=10)
    reason = models.CharField(max_length=20)
    key = models.CharField(max_length=40, blank=True)
    state = models.CharField(max_length=20, default="open")
    opened_at = models.DateTimeField()
    compliance_notified_at = models.DateTimeField(null=True)
    boxes = models.JSONField(default=list)
    expected_cents = models.BigIntegerField(default=0)
    counted_cents = models.BigIntegerField(null=True)
    variance_cents = models.BigIntegerField(null=True)
    explanation = models.TextField(blank=True)
    steps = models.JSONField(default=list)
    reminders = models.PositiveIntegerField(default=0)
    escalated_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["-opened_at"]


class DisplayCheck(models.Model):
    """The daily check of a fund's displayed amount (637a.15(h)): passed, or an exception
    for finance (not adjusted during the day, or still pending after a verified Bad
    Beat)."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    fund = models.CharField(max_length=60)
    gaming_day = models.DateField()
    passed = models.BooleanField()
    reason = models.CharField(max_length=40, blank=True)
    detail = models.CharField(max_length=200, blank=True)
    displayed_cents = models.BigIntegerField(null=True)
    record_cents = models.BigIntegerField()
    checked_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["property", "fund", "gaming_day"],
                                               name="jackpots_displaycheck_unique")]
        ordering = ["-gaming_day", "fund"]
