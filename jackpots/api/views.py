"""The jackpot funds' reads: each fund with its payout boxes, and its ledger by table and
gaming day (637a.15(c)-(e), 637a.16(c)-(e))."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.api.commands import EmptyInput, command
from casino.domain.errors import DomainError
from casino.roles import Role, roles_required
from jackpots import selectors, services
from jackpots.services import counts, discontinue

TAG = "jackpots"
#: who reads the funds: the poker floor and its supervisor, the cage and count team,
#: finance (the official record) and compliance
FUND_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.CASHIER,
                Role.COUNT_TEAM, Role.FINANCE, Role.COMPLIANCE)
#: the longest span one ledger read covers
MAX_DAYS = 366


class BadRange(DomainError):
    code = "invalid_gaming_day"


class BoxOut(serializers.Serializer):
    table = serializers.UUIDField(source="table_id")
    expected_cents = serializers.IntegerField(
        help_text="what the box should hold: the contributions not yet counted out")
    contributed_cents = serializers.IntegerField()
    last_contribution_at = serializers.DateTimeField(allow_null=True)


class FundRowOut(serializers.Serializer):
    fund = serializers.CharField(source="name")
    kind = serializers.CharField()
    contributions_cents = serializers.IntegerField()
    contributions = serializers.IntegerField(help_text="how many pots paid in")
    paid_cents = serializers.IntegerField(help_text="Bad Beat payouts paid (637a.15(g))")
    committed_cents = serializers.IntegerField(help_text="verified payouts not yet paid")
    record_cents = serializers.IntegerField(
        help_text="the official record's current amount: paid in less paid out and owed")
    displayed_cents = serializers.IntegerField(
        allow_null=True, help_text="the amount shown to patrons (637a.15(b), (h))")
    displayed_at = serializers.DateTimeField(allow_null=True)
    display_pending = serializers.BooleanField(
        help_text="a Bad Beat was verified: the display is pending adjustment (637a.15(f)(1))")
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
    contributions = serializers.IntegerField(source="fund.contributions",
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
    shares = serializers.ListField(child=serializers.DictField())
    verified_by = serializers.CharField()
    decided_at = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField()
    paid_by = serializers.CharField()
    paid_at = serializers.DateTimeField(allow_null=True)
    paid_where = serializers.CharField()
    payees = serializers.ListField(child=serializers.DictField())


class LedgerRowOut(serializers.Serializer):
    gaming_day = serializers.DateField()
    table = serializers.UUIDField(source="table_id")
    contributions_cents = serializers.IntegerField()
    contributions = serializers.IntegerField()


class LedgerOut(serializers.Serializer):
    fund = serializers.CharField()
    first = serializers.DateField()
    last = serializers.DateField()
    total_cents = serializers.IntegerField()
    rows = LedgerRowOut(many=True)


FIRST = OpenApiParameter("first", str, description="YYYY-MM-DD; default: today's gaming day")
LAST = OpenApiParameter("last", str, description="YYYY-MM-DD; default: the first day")


def _date(request: Request, key: str, default: date) -> date:
    text = request.query_params.get(key)
    if not text:
        return default
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise BadRange(f"{key} is a date, YYYY-MM-DD", field=key) from None


class Funds(APIView):
    """Every jackpot fund of the property, with each table's payout box."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(responses={200: FundOut(many=True)}, tags=[TAG],
                   operation_id="jackpot_funds_list")
    def get(self, request: Request) -> Response:
        return Response(FundOut(selectors.funds(actor_of(request.user)), many=True).data)


class FundLedger(APIView):
    """A fund's contributions by table and gaming day (the official record)."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(parameters=[FIRST, LAST], responses={200: LedgerOut}, tags=[TAG],
                   operation_id="jackpot_fund_ledger")
    def get(self, request: Request, name: str) -> Response:
        actor = actor_of(request.user)
        first = _date(request, "first", actor.gaming_day())
        last = _date(request, "last", first)
        if last < first or last - first > timedelta(days=MAX_DAYS):
            raise BadRange(f"last is on or after first, at most {MAX_DAYS} days on",
                           field="last")
        rows: list[Any] = selectors.fund_ledger(actor, name, first, last)
        return Response(LedgerOut({"fund": name, "first": first, "last": last,
                                   "total_cents": sum(r.contributions_cents for r in rows),
                                   "rows": rows}).data)


class Hits(APIView):
    """The fund's Bad Beat hands: held for verification, verified, rejected, paid."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(responses={200: HitOut(many=True)}, tags=[TAG],
                   operation_id="bad_beat_hits_list")
    def get(self, request: Request, name: str) -> Response:
        return Response(HitOut(selectors.hits(actor_of(request.user), name), many=True).data)


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


bad_beat_verify_view = command(
    services.bad_beat_verify, roles=services.VERIFYING, input=HandIn, output=HitOut,
    id_arg="fund", tag=TAG,
    doc="The poker shift supervisor verifies a Bad Beat hand (637a.15(f)); the payout and "
        "its shares are fixed, and the display shows it pending adjustment.")
bad_beat_reject_view = command(
    services.bad_beat_reject, roles=services.VERIFYING, input=RejectIn, output=HitOut,
    id_arg="fund", tag=TAG,
    doc="The poker shift supervisor rejects a hand held as a Bad Beat, with the reason.")
bad_beat_pay_view = command(
    services.bad_beat_pay, roles=services.PAYING, input=PayIn, output=HitOut,
    id_arg="fund", tag=TAG,
    doc="A verified Bad Beat paid at the table or the cage, each share against the "
        "player's identification (637a.15(g)).")
display_adjust_view = command(
    services.display_adjust, roles=services.ADJUSTING, input=EmptyInput,
    output=FundRowOut, id_arg="fund", tag=TAG,
    doc="Finance begins adjusting the displayed amount to the official record "
        "(637a.15(h)(1)); a floorperson witnesses it.")
display_witness_view = command(
    services.display_witness, roles=services.WITNESSING, input=EmptyInput,
    output=FundRowOut, id_arg="fund", tag=TAG,
    doc="The floorperson in whose presence the display was adjusted signs for it "
        "(637a.15(h)(1)-(2)).")


class SlipOut(serializers.Serializer):
    period = serializers.CharField()
    period_start = serializers.DateTimeField()
    period_end = serializers.DateTimeField()
    slip = serializers.IntegerField()
    table = serializers.UUIDField(source="table_id")
    table_name = serializers.CharField()
    seat = serializers.IntegerField()
    hand = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    player_name = serializers.CharField()
    player_phone = serializers.CharField()
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


class Slips(APIView):
    """The fund's High Hand Tracking Slips, period by period (637a.16(f))."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(parameters=[OpenApiParameter("period", str,
                                                description="a period's local start")],
                   responses={200: SlipOut(many=True)}, tags=[TAG],
                   operation_id="high_hand_slips_list")
    def get(self, request: Request, name: str) -> Response:
        rows = selectors.slips(actor_of(request.user), name, request.query_params.get("period"))
        return Response(SlipOut(rows, many=True).data)


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
    period = serializers.CharField()
    period_end = serializers.DateTimeField()
    slip = serializers.IntegerField()
    table = serializers.CharField()
    seat = serializers.IntegerField()
    hand = serializers.CharField()


class CloseIn(serializers.Serializer):
    period = serializers.CharField(max_length=20)


class CloseOut(serializers.Serializer):
    period = serializers.CharField()
    amount_cents = serializers.IntegerField()
    hand = serializers.CharField()
    awards = serializers.ListField(child=serializers.DictField())


class AwardPayIn(CloseIn):
    slip = serializers.IntegerField(min_value=1)
    name = serializers.CharField(max_length=120, allow_blank=True)
    identification = serializers.CharField(max_length=120, allow_blank=True)


class AwardPaidOut(serializers.Serializer):
    period = serializers.CharField()
    slip = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    name = serializers.CharField()
    identification = serializers.CharField()


high_hand_record_view = command(
    services.high_hand_record, roles=services.RECORDING, input=RecordIn, output=RecordOut,
    id_arg="fund", tag=TAG, created=True,
    doc="A floorperson records a full house or better, or a higher hand, on the period's "
        "High Hand Tracking Slip (637a.16(f)).")
high_hand_close_view = command(
    services.high_hand_period_close, roles=services.CLOSING, input=CloseIn, output=CloseOut,
    id_arg="fund", tag=TAG,
    doc="Close an ended High Hand period: the pooled amount to the highest hand "
        "(637a.16(g)-(h)); the beat task closes each period as it ends.")
high_hand_pay_view = command(
    services.high_hand_pay, roles=services.PAYING, input=AwardPayIn, output=AwardPaidOut,
    id_arg="fund", tag=TAG,
    doc="A High Hand award paid at the cage against valid identification (637a.16(h)).")


#: a count is read by those who take part in it too
COUNT_READERS = FUND_READERS + (Role.DEALER, Role.SECURITY)


class CountOut(serializers.Serializer):
    count_id = serializers.UUIDField()
    fund = serializers.CharField()
    place = serializers.CharField(help_text="table (637a.15(d)(1)) or cage ((d)(2))")
    reason = serializers.CharField(help_text="daily, period_end or manual")
    key = serializers.CharField()
    state = serializers.CharField(help_text="open, witnessed, accounted, at_cage, verified, "
                                            "explained or closed")
    opened_at = serializers.DateTimeField()
    compliance_notified_at = serializers.DateTimeField(allow_null=True)
    boxes = serializers.ListField(child=serializers.DictField())
    expected_cents = serializers.IntegerField()
    counted_cents = serializers.IntegerField(allow_null=True)
    variance_cents = serializers.IntegerField(allow_null=True)
    explanation = serializers.CharField()
    steps = serializers.ListField(child=serializers.DictField(),
                                  help_text="the chain of custody: who, role, credential, when")
    reminders = serializers.IntegerField()
    escalated_at = serializers.DateTimeField(allow_null=True)


class Counts(APIView):
    """The fund's box counts, newest first, each with its chain of custody."""

    permission_classes = [roles_required(*COUNT_READERS)]

    @extend_schema(responses={200: CountOut(many=True)}, tags=[TAG],
                   operation_id="jackpot_counts_list")
    def get(self, request: Request, name: str) -> Response:
        return Response(CountOut(selectors.counts(actor_of(request.user), name),
                                 many=True).data)


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


def _count_view(service: Any, roles: tuple, input: type, doc: str) -> Any:
    return command(service, roles=roles, input=input, output=StepOut, id_arg="fund",
                   tag=TAG, doc=doc)


count_open_view = _count_view(counts.count_open, counts.OPENING, CountOpenIn,
                              "Open a count of the fund's payout boxes at a closed table or "
                              "in the cage (637a.15(d), 637a.16(d)).")
count_box_view = _count_view(counts.count_box, counts.DEALER_COUNTS + counts.CASHIERS, BoxIn,
                             "One box counted: by the dealer at a closed table, by a "
                             "cashier at the cage (637a.15(d)(1), (e)).")
count_witness_view = _count_view(counts.count_witness, counts.WITNESSES, CountIdIn,
                                 "The floorperson who watched the table count signs it "
                                 "(637a.15(d)(1)).")
count_account_view = _count_view(counts.count_account, counts.WITNESSES, CountIdIn,
                                 "A floorperson accounts for every locked box going to "
                                 "the cage (637a.15(d)(2)).")
count_carry_view = _count_view(counts.count_carry, counts.CARRIERS, CountIdIn,
                               "Security carries the container or boxes to the cage "
                               "(637a.15(d)(1)-(2)).")
count_verify_view = _count_view(counts.count_verify, counts.CASHIERS, TotalIn,
                                "A cashier verifies the count at the cage (637a.15(e)); a "
                                "difference from what the boxes should hold is a variance.")
variance_explain_view = _count_view(counts.variance_explain, counts.EXPLAINING, ExplainIn,
                                    "Finance explains a count's variance.")
variance_sign_off_view = _count_view(counts.variance_sign_off, counts.SIGNING_OFF, CountIdIn,
                                     "A second person signs off the explained variance.")


class DiscontinueIn(serializers.Serializer):
    transfer_to = serializers.CharField(max_length=60,
                                        help_text="the fund the balance is transferred to")


fund_discontinue_view = command(
    discontinue.fund_discontinue, roles=discontinue.PROPOSING, input=DiscontinueIn,
    output=FundRowOut, id_arg="fund", tag=TAG,
    doc="Finance proposes discontinuing the fund, its balance to another fund of the same "
        "kind (637a.15(i)).")
fund_discontinue_approve_view = command(
    discontinue.fund_discontinue_approve, roles=discontinue.APPROVING, input=EmptyInput,
    output=FundRowOut, id_arg="fund", tag=TAG,
    doc="Compliance approves the discontinuance; the balance is transferred (637a.15(i)).")


class DisplayCheckOut(serializers.Serializer):
    gaming_day = serializers.DateField()
    passed = serializers.BooleanField()
    reason = serializers.CharField(help_text="not_adjusted or pending_not_adjusted")
    detail = serializers.CharField()
    displayed_cents = serializers.IntegerField(allow_null=True)
    record_cents = serializers.IntegerField()
    checked_at = serializers.DateTimeField()


class DisplayChecks(APIView):
    """The daily checks of the fund's displayed amount, newest first (637a.15(h))."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(responses={200: DisplayCheckOut(many=True)}, tags=[TAG],
                   operation_id="jackpot_display_checks_list")
    def get(self, request: Request, name: str) -> Response:
        return Response(DisplayCheckOut(selectors.display_checks(actor_of(request.user), name),
                                        many=True).data)


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


AS = OpenApiParameter("as", str, description="csv for the CSV file")
BY = OpenApiParameter("by", str, description="day (default) or period (a High Hand fund's "
                                             "ledger by qualifying period)")


class FundReport(APIView):
    """The fund ledger by gaming day (637a.15(e), 637a.16(e)): JSON, or CSV with
    ``?as=csv``; the printable page is /jackpots/report/{fund}/."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(parameters=[FIRST, LAST, AS, BY], responses={200: ReportOut}, tags=[TAG],
                   operation_id="jackpot_fund_report")
    def get(self, request: Request, name: str) -> Any:
        from django.http import HttpResponse

        from jackpots import reports

        actor = actor_of(request.user)
        first = _date(request, "first", actor.gaming_day())
        last = _date(request, "last", first)
        if last < first or last - first > timedelta(days=MAX_DAYS):
            raise BadRange(f"last is on or after first, at most {MAX_DAYS} days on",
                           field="last")
        by_period = request.query_params.get("by") == "period"
        report = (reports.period_report if by_period else reports.fund_report)(
            actor, name, first, last)
        if request.query_params.get("as") == "csv":
            text = (reports.periods_as_csv if by_period else reports.as_csv)(report)
            response = HttpResponse(text, content_type="text/csv")
            response["Content-Disposition"] = (
                f'attachment; filename="{name}-{first.isoformat()}-{last.isoformat()}.csv"')
            return response
        if by_period:
            return Response(report)
        return Response(ReportOut(report).data)
