"""The finance API's reads — a table's gaming day, the exceptions, a gaming day's
reconciliation, the reports. The commands are declared in :mod:`finance.commands`; inputs
and outputs in :mod:`finance.api.serializers`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.api.downloads import csv_download
from casino.roles import roles_required
from finance import selectors, services
from finance.api.serializers import (
    ExceptionOut,
    ReconciliationOut,
    TableDayOut,
)
from finance.services.common import day_of
from jackpots.reports import gaming_day_span

FIRST = OpenApiParameter("first", str, description="YYYY-MM-DD; default: today's gaming day")
LAST = OpenApiParameter("last", str, description="YYYY-MM-DD; default: the first day")


class TableDayView(APIView):
    """A table's gaming day: the tray slips, chip sales, fills and credits, the drop."""

    permission_classes = [roles_required(*services.READERS)]
    #: a day in the path that is not a date, or one still to come
    problem_codes = {400: ["invalid_gaming_day"]}

    @extend_schema(responses={200: TableDayOut}, operation_id="finance_table_day")
    def get(self, request: Request, pk: str, day: str) -> Response:
        actor = actor_of(request.user)
        return Response(TableDayOut(selectors.table_day(actor, pk, day_of(actor, day))).data)


class Exceptions(APIView):
    """Every exception of the span, open and closed, with its explanation and sign-off."""

    permission_classes = [roles_required(*services.READERS)]

    @extend_schema(parameters=[FIRST, LAST], responses={200: ExceptionOut(many=True)},
                   operation_id="finance_exceptions")
    def get(self, request: Request) -> Response:
        actor = actor_of(request.user)
        first, last = gaming_day_span(request.query_params, actor.gaming_day())
        return Response(ExceptionOut(selectors.exceptions(actor, first, last), many=True).data)


class Reconciliation(APIView):
    """A gaming day's reconciliation: each table's figures (expected from the events,
    counted), the exceptions, what is open; after the close, the adjustments since."""

    permission_classes = [roles_required(*services.READERS)]
    #: a day in the path that is not a date, or one still to come
    problem_codes = {400: ["invalid_gaming_day"]}

    @extend_schema(responses={200: ReconciliationOut}, operation_id="finance_gaming_day")
    def get(self, request: Request, day: str) -> Response:
        actor = actor_of(request.user)
        # the time_zone: the day's start and end on its property's clock
        return Response(ReconciliationOut(
            selectors.reconciliation(actor, day_of(actor, day)),
            context={"time_zone": actor.property.time_zone}).data)


AS = OpenApiParameter("as", str, description="csv: the report as a CSV download")


class ReportView(APIView):
    """A finance report for a span of gaming days (JSON, or CSV with ``?as=csv``); the
    printable page is /finance/reports/{name}/. Names: master-game (``version``
    preliminary or final), statistical, poker-revenue, jackpot-funds, exceptions."""

    permission_classes = [roles_required(*services.READERS)]

    @extend_schema(parameters=[FIRST, LAST, AS], responses={200: dict},
                   operation_id="finance_report")
    def get(self, request: Request, name: str) -> Any:
        from finance import reports

        actor = actor_of(request.user)
        first, last = gaming_day_span(request.query_params, actor.gaming_day())
        report = reports.build(name, actor, first, last, request.query_params.dict())
        if request.query_params.get("as") == "csv":
            columns, rows = reports.csv_table(report)
            return csv_download(columns, rows, time_zone=actor.property.time_zone,
                                filename=f"{name}-{first.isoformat()}-{last.isoformat()}.csv")
        return Response(report.as_data())


class TableDayBehind(APIView):
    """The rounds and hands behind a table's gaming-day figures (each with its amounts and
    a link to its reconstruction), the time charges, and the table day's finance events
    (inventory slips, chip sales, fills and credits with their signatures, the drop count),
    with totals beside the figures the reports print. The printable page is
    /finance/behind/{table}/{day}/."""

    permission_classes = [roles_required(*services.READERS)]
    #: a day in the path that is not a date, or one still to come
    problem_codes = {400: ["invalid_gaming_day"]}

    @extend_schema(responses={200: dict}, operation_id="finance_table_day_behind")
    def get(self, request: Request, pk: str, day: str) -> Response:
        from finance.behind import table_day_behind

        actor = actor_of(request.user)
        return Response(table_day_behind(actor, pk, day_of(actor, day)))
