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
from casino.domain.errors import DomainError
from casino.roles import Role, roles_required
from jackpots import selectors

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


class FundOut(serializers.Serializer):
    fund = serializers.CharField(source="fund.name")
    kind = serializers.CharField(source="fund.kind")
    contributions_cents = serializers.IntegerField(source="fund.contributions_cents")
    contributions = serializers.IntegerField(source="fund.contributions",
                                             help_text="how many pots paid in")
    boxes = BoxOut(many=True)


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
