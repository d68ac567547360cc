"""The jackpots' API (637a.15, 637a.16): the reads (funds with their boxes, ledgers,
hits, slips, counts, display checks, reports) and one view per command, each naming its
roles; inputs and outputs in :mod:`jackpots.api.serializers`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.api.commands import EmptyInput, command
from casino.roles import Role, roles_required
from jackpots import selectors, services
from jackpots.reports import gaming_day_span
from jackpots.api.serializers import (
    AwardPaidOut,
    AwardPayIn,
    BoxIn,
    CloseIn,
    CloseOut,
    CountIdIn,
    CountOpenIn,
    CountOut,
    DiscontinueIn,
    DisplayCheckOut,
    ExplainIn,
    FundOut,
    FundRowOut,
    HandIn,
    HitOut,
    LedgerOut,
    PayIn,
    PeriodReportOut,
    RecordIn,
    RecordOut,
    RejectIn,
    ReportOut,
    SlipOut,
    StepOut,
    TotalIn,
)
from jackpots.services import counts, discontinue


#: who reads the funds: the poker floor and its supervisor, the cage and count team,
#: finance (the official record) and compliance
FUND_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.CASHIER,
                Role.COUNT_TEAM, Role.FINANCE, Role.COMPLIANCE)


FIRST = OpenApiParameter("first", str, description="YYYY-MM-DD; default: today's gaming day")


LAST = OpenApiParameter("last", str, description="YYYY-MM-DD; default: the first day")


class Funds(APIView):
    """Every jackpot fund of the property, with each table's payout box."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(responses={200: FundOut(many=True)}, operation_id="jackpot_funds_list")
    def get(self, request: Request) -> Response:
        return Response(FundOut(selectors.funds(actor_of(request.user)), many=True).data)


class FundLedger(APIView):
    """A fund's contributions by table and gaming day (the official record)."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(parameters=[FIRST, LAST], responses={200: LedgerOut},
                   operation_id="jackpot_fund_ledger")
    def get(self, request: Request, name: str) -> Response:
        actor = actor_of(request.user)
        first, last = gaming_day_span(request.query_params, actor.gaming_day())
        rows: list[Any] = selectors.fund_ledger(actor, name, first, last)
        return Response(LedgerOut({"fund": name, "first": first, "last": last,
                                   "total_cents": sum(r.contributions_cents for r in rows),
                                   "rows": rows}).data)


class Hits(APIView):
    """The fund's Bad Beat hands: held for verification, verified, rejected, paid."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(responses={200: HitOut(many=True)}, operation_id="bad_beat_hits_list")
    def get(self, request: Request, name: str) -> Response:
        return Response(HitOut(selectors.hits(actor_of(request.user), name), many=True).data)


bad_beat_verify_view = command(
    services.bad_beat_verify, roles=services.VERIFYING, input=HandIn, output=HitOut,
    id_arg="fund",
    doc="The poker shift supervisor verifies a Bad Beat hand (637a.15(f)); the payout and "
        "its shares are fixed, and the display shows it pending adjustment.")


bad_beat_reject_view = command(
    services.bad_beat_reject, roles=services.VERIFYING, input=RejectIn, output=HitOut,
    id_arg="fund",
    doc="The poker shift supervisor rejects a hand held as a Bad Beat, with the reason.")


bad_beat_pay_view = command(
    services.bad_beat_pay, roles=services.PAYING, input=PayIn, output=HitOut,
    id_arg="fund",
    doc="A verified Bad Beat paid at the table or the cage, each share against the "
        "player's identification (637a.15(g)).")


display_adjust_view = command(
    services.display_adjust, roles=services.ADJUSTING, input=EmptyInput,
    output=FundRowOut, id_arg="fund",
    doc="Finance begins adjusting the displayed amount to the official record "
        "(637a.15(h)(1)); a floorperson witnesses it.")


display_witness_view = command(
    services.display_witness, roles=services.WITNESSING, input=EmptyInput,
    output=FundRowOut, id_arg="fund",
    doc="The floorperson in whose presence the display was adjusted signs for it "
        "(637a.15(h)(1)-(2)).")


class Slips(APIView):
    """The fund's High Hand Tracking Slips, period by period (637a.16(f))."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(parameters=[OpenApiParameter("period", str,
                                                description="a period's local start")],
                   responses={200: SlipOut(many=True)}, operation_id="high_hand_slips_list")
    def get(self, request: Request, name: str) -> Response:
        rows = selectors.slips(actor_of(request.user), name, request.query_params.get("period"))
        return Response(SlipOut(rows, many=True, context={"request": request}).data)


high_hand_record_view = command(
    services.high_hand_record, roles=services.RECORDING, input=RecordIn, output=RecordOut,
    id_arg="fund", created=True,
    doc="A floorperson records a full house or better, or a higher hand, on the period's "
        "High Hand Tracking Slip (637a.16(f)).")


high_hand_close_view = command(
    services.high_hand_period_close, roles=services.CLOSING, input=CloseIn, output=CloseOut,
    id_arg="fund",
    doc="Close an ended High Hand period: the pooled amount to the highest hand "
        "(637a.16(g)-(h)); the beat task closes each period as it ends.")


high_hand_pay_view = command(
    services.high_hand_pay, roles=services.PAYING, input=AwardPayIn, output=AwardPaidOut,
    id_arg="fund",
    doc="A High Hand award paid at the cage against valid identification (637a.16(h)).")


#: a count is read by those who take part in it too
COUNT_READERS = FUND_READERS + (Role.DEALER, Role.SECURITY)


class Counts(APIView):
    """The fund's box counts, newest first, each with its chain of custody."""

    permission_classes = [roles_required(*COUNT_READERS)]

    @extend_schema(responses={200: CountOut(many=True)}, operation_id="jackpot_counts_list")
    def get(self, request: Request, name: str) -> Response:
        return Response(CountOut(selectors.counts(actor_of(request.user), name),
                                 many=True, context={"request": request}).data)


def _count_view(service: Any, roles: tuple, input: type, doc: str) -> Any:
    return command(service, roles=roles, input=input, output=StepOut, id_arg="fund",
                   doc=doc)


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


fund_discontinue_view = command(
    discontinue.fund_discontinue, roles=discontinue.PROPOSING, input=DiscontinueIn,
    output=FundRowOut, id_arg="fund",
    doc="Finance proposes discontinuing the fund, its balance to another fund of the same "
        "kind (637a.15(i)).")


fund_discontinue_approve_view = command(
    discontinue.fund_discontinue_approve, roles=discontinue.APPROVING, input=EmptyInput,
    output=FundRowOut, id_arg="fund",
    doc="Compliance approves the discontinuance; the balance is transferred (637a.15(i)).")


class DisplayChecks(APIView):
    """The daily checks of the fund's displayed amount, newest first (637a.15(h))."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(responses={200: DisplayCheckOut(many=True)},
                   operation_id="jackpot_display_checks_list")
    def get(self, request: Request, name: str) -> Response:
        return Response(DisplayCheckOut(selectors.display_checks(actor_of(request.user), name),
                                        many=True).data)


AS = OpenApiParameter("as", str, description="csv for the CSV file")


BY = OpenApiParameter("by", str, description="day (default) or period (a High Hand fund's "
                                             "ledger by qualifying period)")


#: the report's two shapes: by gaming day (every day of the span a row, so never empty) or,
#: with ``by=period``, by High Hand qualifying period; one or the other, never both
REPORT_RESPONSE = OpenApiResponse(
    PolymorphicProxySerializer(component_name="JackpotFundReport",
                               serializers=[ReportOut, PeriodReportOut],
                               resource_type_field_name=None),
    description="by=day (the default): the ledger by gaming day (ReportOut); by=period: "
                "a High Hand fund's ledger by qualifying period (PeriodReportOut); with "
                "as=csv the same as a CSV file")


class FundReport(APIView):
    """The fund ledger by gaming day (637a.15(e), 637a.16(e)): JSON, or CSV with
    ``?as=csv``; the printable page is /jackpots/report/{fund}/."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(parameters=[FIRST, LAST, AS, BY], responses={200: REPORT_RESPONSE},
                   operation_id="jackpot_fund_report")
    def get(self, request: Request, name: str) -> Any:
        from django.http import HttpResponse

        from jackpots import reports

        actor = actor_of(request.user)
        first, last = gaming_day_span(request.query_params, actor.gaming_day())
        by_period = request.query_params.get("by") == "period"
        report = (reports.period_report if by_period else reports.fund_report)(
            actor, name, first, last)
        if request.query_params.get("as") == "csv":
            text = (reports.periods_as_csv if by_period else reports.as_csv)(
                report, time_zone=actor.property.time_zone)
            response = HttpResponse(text, content_type="text/csv")
            response["Content-Disposition"] = (
                f'attachment; filename="{name}-{first.isoformat()}-{last.isoformat()}.csv"')
            return response
        if by_period:
            return Response(PeriodReportOut(report, context={"request": request}).data)
        return Response(ReportOut(report, context={"request": request}).data)
