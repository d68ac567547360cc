"""The jackpots' API (637a.15, 637a.16): the reads (funds with their boxes, ledgers,
hits, slips, counts, display checks, reports), each naming its roles. The commands are
declared in :mod:`jackpots.commands`; inputs and outputs in
:mod:`jackpots.api.serializers`."""

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
from casino.api.downloads import csv_download
from casino.roles import Role, roles_required
from jackpots import selectors
from jackpots.reports import gaming_day_span
from jackpots.api.serializers import (
    CountOut,
    DisplayCheckOut,
    FundOut,
    HitOut,
    LedgerOut,
    PeriodReportOut,
    ReportOut,
    SlipOut,
)


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


class Slips(APIView):
    """The fund's High Hand Tracking Slips, period by period (637a.16(f))."""

    permission_classes = [roles_required(*FUND_READERS)]

    @extend_schema(parameters=[OpenApiParameter("period", str,
                                                description="a period's local start")],
                   responses={200: SlipOut(many=True)}, operation_id="high_hand_slips_list")
    def get(self, request: Request, name: str) -> Response:
        rows = selectors.slips(actor_of(request.user), name, request.query_params.get("period"))
        return Response(SlipOut(rows, many=True, context={"request": request}).data)


#: a count is read by those who take part in it too
COUNT_READERS = FUND_READERS + (Role.DEALER, Role.SECURITY)


class Counts(APIView):
    """The fund's box counts, newest first, each with its chain of custody."""

    permission_classes = [roles_required(*COUNT_READERS)]

    @extend_schema(responses={200: CountOut(many=True)}, operation_id="jackpot_counts_list")
    def get(self, request: Request, name: str) -> Response:
        return Response(CountOut(selectors.counts(actor_of(request.user), name),
                                 many=True, context={"request": request}).data)


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
        from jackpots import reports

        actor = actor_of(request.user)
        first, last = gaming_day_span(request.query_params, actor.gaming_day())
        by_period = request.query_params.get("by") == "period"
        report = (reports.period_report if by_period else reports.fund_report)(
            actor, name, first, last)
        if request.query_params.get("as") == "csv":
            columns, rows = (reports.periods_csv_table if by_period else reports.csv_table)(
                report)
            return csv_download(columns, rows, time_zone=actor.property.time_zone,
                                filename=f"{name}-{first.isoformat()}-{last.isoformat()}.csv")
        if by_period:
            return Response(PeriodReportOut(report, context={"request": request}).data)
        return Response(ReportOut(report, context={"request": request}).data)
