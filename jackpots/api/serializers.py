"""The jackpots API's inputs and outputs (jackpots.api.views)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino.api.fields import LocalDateTimeField, caller_time_zone
from jackpots import services
from jackpots.domain.periods import period_name
from jackpots.services import counts


class ShareOut(serializers.Serializer):
    """A Bad Beat payout share (637a.15(b)(3)): the event's ``cents`` as ``amount_cents``."""

    share = serializers.CharField()
    seat = serializers.IntegerField()
    amount_cents = serializers.IntegerField(source="cents")


class PayeeOut(ShareOut):
    """A Bad Beat share as paid (637a.15(g)), with who was paid and their identification."""

    name = serializers.CharField(
        required=False, help_text='"erased" once the payout\'s personal data is (after its '
                                  "retention period, or on the player's request)")
    identification = serializers.CharField(required=False, help_text='"erased" likewise')


class PeriodField(serializers.CharField):
    """A High Hand qualifying period (637a.16(b)(1)) named by its local start with the
    property's offset, ``2026-11-25T20:00:00-05:00`` (never a naive local string); the
    inputs take it so, or by the local start alone as before."""

    def to_representation(self, value: Any) -> str:
        return period_name(str(value), time_zone=caller_time_zone(self.context))


class CountKeyField(PeriodField):
    """A count's key (the field reads the whole count): what it is for follows from why it
    was opened — a High Hand period's end (637a.16(d)) names its period as
    :class:`PeriodField` does; a Bad Beat fund's daily count (637a.15(d)) keeps its gaming
    day as a date; a count opened by hand has none."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", **kwargs)

    def to_representation(self, value: Any) -> str | None:
        key = value.key or None
        if key is None or value.reason != counts.PERIOD_END:
            return key
        return super().to_representation(key)


PERIOD_HELP = ("the qualifying period, named by its local start with the property's offset "
               "(as the period inputs take it)")


class BoxOut(serializers.Serializer):
    table = serializers.UUIDField(source="table_id")
    table_name = serializers.CharField()
    expected_cents = serializers.IntegerField(
        help_text="what the box should hold: the contributions not yet counted out")
    contributed_cents = serializers.IntegerField()
    last_contribution_at = serializers.DateTimeField(allow_null=True)


class FundRowOut(serializers.Serializer):
    fund = serializers.CharField(source="name")
    kind = serializers.CharField()
    contributions_cents = serializers.IntegerField()
    # a count, so not ``contributions``: that key holds [{fund, amount_cents}] everywhere
    contributions_count = serializers.IntegerField(source="contributions",
                                                   help_text="how many pots paid in")
    paid_cents = serializers.IntegerField(help_text="Bad Beat payouts paid (637a.15(g))")
    committed_cents = serializers.IntegerField(help_text="verified payouts not yet paid")
    record_cents = serializers.IntegerField(
        help_text="the official record's current amount: paid in less paid out and owed")
    displayed_cents = serializers.IntegerField(
        allow_null=True, help_text="the amount shown to patrons (637a.15(b), (h))")
    displayed_at = serializers.DateTimeField(allow_null=True)
    display_pending = serializers.BooleanField(
        help_text="a payout was fixed from the fund (a Bad Beat verified, a High Hand "
                  "period closed with its awards): the display is pending adjustment until "
                  "finance adjusts it (637a.15(f)(1); for a High Hand award the room's "
                  "rule, so the display stays the current amount, 637a.16(b))")
    adjustment_waiting_cents = serializers.IntegerField(
        allow_null=True, help_text="an adjustment begun by finance, waiting for its witness")
    discontinued = serializers.BooleanField(help_text="637a.15(i)")
    discontinued_to = serializers.CharField()
    transferred_in_cents = serializers.IntegerField()
    transferred_out_cents = serializers.IntegerField()


class FundOut(FundRowOut):
    fund = serializers.CharField(source="fund.name")
    kind = serializers.CharField(source="fund.kind")
    contributions_cents = serializers.IntegerField(source="fund.contributions_cents")
    contributions_count = serializers.IntegerField(source="fund.contributions",
                                                   help_text="how many pots paid in")
    paid_cents = serializers.IntegerField(source="fund.paid_cents")
    committed_cents = serializers.IntegerField(source="fund.committed_cents")
    record_cents = serializers.IntegerField(source="fund.record_cents")
    displayed_cents = serializers.IntegerField(source="fund.displayed_cents", allow_null=True)
    displayed_at = serializers.DateTimeField(source="fund.displayed_at", allow_null=True)
    display_pending = serializers.BooleanField(source="fund.display_pending")
    adjustment_waiting_cents = serializers.IntegerField(
        source="fund.adjustment_waiting_cents", allow_null=True)
    discontinued = serializers.BooleanField(source="fund.discontinued")
    discontinued_to = serializers.CharField(source="fund.discontinued_to")
    transferred_in_cents = serializers.IntegerField(source="fund.transferred_in_cents")
    transferred_out_cents = serializers.IntegerField(source="fund.transferred_out_cents")
    boxes = BoxOut(many=True)


class HitOut(serializers.Serializer):
    hand_id = serializers.UUIDField()
    fund = serializers.CharField()
    table = serializers.UUIDField(source="table_id")
    gaming_day = serializers.DateField()
    state = serializers.CharField(help_text="held, verified, rejected or paid")
    losing_seat = serializers.IntegerField()
    losing_hand = serializers.CharField()
    winning_seat = serializers.IntegerField()
    winning_hand = serializers.CharField()
    players_dealt = serializers.ListField(child=serializers.IntegerField())
    pot_cents = serializers.IntegerField()
    qualified_at = serializers.DateTimeField()
    amount_cents = serializers.IntegerField(allow_null=True)
    shares = ShareOut(many=True, help_text="the posted shares (637a.15(b)(3)): {share, seat, "
                                           "amount_cents}")
    verified_by = serializers.CharField()
    decided_at = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField()
    paid_by = serializers.CharField()
    paid_at = serializers.DateTimeField(allow_null=True)
    paid_where = serializers.CharField()
    payees = PayeeOut(many=True)


class LedgerRowOut(serializers.Serializer):
    gaming_day = serializers.DateField()
    table = serializers.UUIDField(source="table_id")
    table_name = serializers.CharField()
    contributions_cents = serializers.IntegerField()
    contributions_count = serializers.IntegerField(source="contributions",
                                                   help_text="how many pots paid in")


class LedgerOut(serializers.Serializer):
    fund = serializers.CharField()
    first = serializers.DateField()
    last = serializers.DateField()
    total_cents = serializers.IntegerField()
    rows = LedgerRowOut(many=True)


class HandIn(serializers.Serializer):
    hand_id = serializers.CharField(max_length=64)


class RejectIn(HandIn):
    reason = serializers.CharField(max_length=2000)


class PayeeIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=10)
    # blank is let through to the service, which answers identification_required
    name = serializers.CharField(max_length=120, allow_blank=True)
    identification = serializers.CharField(
        max_length=120, allow_blank=True,
        help_text="the player's identification presented (its kind and number)")


class PayIn(HandIn):
    payees = PayeeIn(many=True)
    where = serializers.ChoiceField(choices=services.PLACES, default="table")


class SlipOut(serializers.Serializer):
    period = PeriodField(help_text=PERIOD_HELP)
    period_start = LocalDateTimeField(help_text="the period's start, local with its offset")
    period_end = LocalDateTimeField(help_text="the period's end, local with its offset")
    slip = serializers.IntegerField()
    table = serializers.UUIDField(source="table_id")
    table_name = serializers.CharField()
    seat = serializers.IntegerField()
    hand = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    player_name = serializers.CharField(
        help_text='"erased" once the slip\'s personal data is (after its retention period, '
                  "or on the player's request)")
    player_phone = serializers.CharField(help_text='"erased" likewise')
    dealer = serializers.CharField()
    dealer_credential = serializers.CharField()
    verified_by = serializers.CharField()
    verified_credential = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    award_cents = serializers.IntegerField(allow_null=True)
    paid_at = serializers.DateTimeField(allow_null=True)
    uncollected = serializers.BooleanField(
        help_text="not collected within the posted time: gone by the posted procedure "
                  "(637a.16(i))")


class PlayerIn(serializers.Serializer):
    name = serializers.CharField(max_length=120, allow_blank=True)
    phone = serializers.CharField(max_length=40, allow_blank=True)


class RecordIn(serializers.Serializer):
    table_id = serializers.CharField(max_length=64)
    seat = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField(max_length=3), max_length=7,
                                  help_text="the hand's 5 to 7 cards, as codes")
    player = PlayerIn()
    dealer = serializers.CharField(max_length=150, help_text="the dealer's login")
    hand_id = serializers.UUIDField(required=False, allow_null=True, default=None)


class RecordOut(serializers.Serializer):
    period = PeriodField(help_text=PERIOD_HELP)
    period_end = LocalDateTimeField(help_text="the period's end, local with its offset")
    slip = serializers.IntegerField()
    table = serializers.CharField()
    seat = serializers.IntegerField()
    hand = serializers.CharField()


class CloseIn(serializers.Serializer):
    period = serializers.CharField(
        max_length=32, help_text="the period as the slips name it (its local start with the "
                                 "offset, 2026-11-25T20:00:00-05:00) or its local start "
                                 "alone (2026-11-25T20:00)")


class AwardOut(serializers.Serializer):
    """A High Hand award fixed at the period's close (637a.16(g)-(h))."""

    slip = serializers.IntegerField()
    seat = serializers.IntegerField()
    table_id = serializers.CharField()
    amount_cents = serializers.IntegerField(source="cents")
    collect_by = serializers.DateTimeField(
        help_text="to be collected by: the posted time limit (637a.16(b)(6))")


class CloseOut(serializers.Serializer):
    period = PeriodField(help_text=PERIOD_HELP)
    amount_cents = serializers.IntegerField()
    hand = serializers.CharField()
    awards = AwardOut(many=True)


class AwardPayIn(CloseIn):
    slip = serializers.IntegerField(min_value=1)
    name = serializers.CharField(max_length=120, allow_blank=True)
    identification = serializers.CharField(max_length=120, allow_blank=True)


class AwardPaidOut(serializers.Serializer):
    period = PeriodField(help_text=PERIOD_HELP)
    slip = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    name = serializers.CharField()
    identification = serializers.CharField()


class CountOut(serializers.Serializer):
    count_id = serializers.UUIDField()
    fund = serializers.CharField()
    place = serializers.CharField(help_text="table (637a.15(d)(1)) or cage ((d)(2))")
    reason = serializers.CharField(help_text="daily, period_end or manual")
    key = CountKeyField(allow_null=True, help_text="what the count is for: a Bad Beat "
                        "fund's gaming day (YYYY-MM-DD), or a High Hand period named by its "
                        "local start with the property's offset")
    state = serializers.CharField(help_text="open, witnessed, accounted, at_cage, verified, "
                                            "explained or closed")
    opened_at = serializers.DateTimeField()
    gaming_day = serializers.DateField(help_text="the gaming day the count was opened in")
    compliance_notified_at = serializers.DateTimeField(allow_null=True)
    boxes = serializers.ListField(
        child=serializers.DictField(), source="named_boxes",
        help_text="each box: its table (table_id, table_name) and expected_cents")
    expected_cents = serializers.IntegerField()
    counted_cents = serializers.IntegerField(allow_null=True)
    variance_cents = serializers.IntegerField(allow_null=True)
    explanation = serializers.CharField()
    steps = serializers.ListField(child=serializers.DictField(),
                                  help_text="the chain of custody: who, role, credential, when")
    reminders = serializers.IntegerField()
    escalated_at = serializers.DateTimeField(allow_null=True)


class CountOpenIn(serializers.Serializer):
    place = serializers.ChoiceField(choices=[counts.TABLE, counts.CAGE], default=counts.CAGE)


class CountIdIn(serializers.Serializer):
    count_id = serializers.CharField(max_length=64)


class BoxIn(CountIdIn):
    table_id = serializers.CharField(max_length=64)
    counted_cents = serializers.IntegerField()


class TotalIn(CountIdIn):
    counted_cents = serializers.IntegerField()


class ExplainIn(CountIdIn):
    explanation = serializers.CharField(max_length=2000, allow_blank=True)


class StepOut(serializers.Serializer):
    count_id = serializers.CharField()


class DiscontinueIn(serializers.Serializer):
    transfer_to = serializers.CharField(max_length=60,
                                        help_text="the fund the balance is transferred to")


class DisplayCheckOut(serializers.Serializer):
    gaming_day = serializers.DateField()
    passed = serializers.BooleanField()
    reason = serializers.CharField(help_text="not_adjusted or pending_not_adjusted")
    detail = serializers.CharField()
    displayed_cents = serializers.IntegerField(allow_null=True)
    record_cents = serializers.IntegerField()
    checked_at = serializers.DateTimeField()


class ReportRowOut(serializers.Serializer):
    gaming_day = serializers.DateField()
    opening_cents = serializers.IntegerField()
    contributions_cents = serializers.IntegerField()
    transfers_in_cents = serializers.IntegerField()
    payouts_cents = serializers.IntegerField()
    transfers_out_cents = serializers.IntegerField()
    closing_cents = serializers.IntegerField()
    counted_cents = serializers.IntegerField(help_text="taken from the boxes to the cage")
    tables = serializers.IntegerField(help_text="tables that paid in")


class ReportOut(serializers.Serializer):
    fund = serializers.CharField()
    kind = serializers.CharField()
    first = serializers.DateField()
    last = serializers.DateField()
    displayed_cents = serializers.IntegerField(allow_null=True)
    rows = ReportRowOut(many=True)


class PeriodLineOut(serializers.Serializer):
    """A High Hand period's line of the ledger by period (637a.16(g)-(i))."""

    period = PeriodField(help_text=PERIOD_HELP)
    period_start = LocalDateTimeField(allow_null=True)
    period_end = LocalDateTimeField(allow_null=True)
    hand = serializers.CharField()
    pooled_cents = serializers.IntegerField()
    awarded_cents = serializers.IntegerField()
    paid_cents = serializers.IntegerField()
    uncollected_cents = serializers.IntegerField()
    counted_cents = serializers.IntegerField()


class PeriodReportOut(serializers.Serializer):
    fund = serializers.CharField()
    kind = serializers.CharField()
    first = serializers.DateField()
    last = serializers.DateField()
    rows = PeriodLineOut(many=True)
