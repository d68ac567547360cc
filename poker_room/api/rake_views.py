"""The rake ledger (637a.17) and the time charges of a poker table, per gaming day."""

from __future__ import annotations

from datetime import date
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.domain.errors import DomainError
from casino.roles import Role, roles_required
from casino.scoping import property_row
from poker_room.domain import pot_figures
from poker_room.models import RakeDay, TimeChargePeriod
from poker_room.services import time_charges
from tables.models import GameTable

#: who reads the rake ledger: the floor, the count team, the cage, finance, compliance
LEDGER_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.FINANCE,
                  Role.COMPLIANCE, Role.CASHIER, Role.COUNT_TEAM)
DAY = OpenApiParameter("gaming_day", str, description="YYYY-MM-DD; default: today's")


class BadDay(DomainError):
    code = "invalid_gaming_day"


def _day(request: Request, actor: Any) -> date:
    text = request.query_params.get("gaming_day")
    if not text:
        return actor.gaming_day()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise BadDay("gaming_day is a date, YYYY-MM-DD", field="gaming_day") from None


class RakeLedgerOut(serializers.Serializer):
    table = serializers.UUIDField()
    table_name = serializers.CharField()
    gaming_day = serializers.DateField()
    hands = serializers.IntegerField()
    percentage_rake_cents = serializers.IntegerField()
    incremental_rake_cents = serializers.IntegerField()
    time_charges_pending_cents = serializers.IntegerField(
        help_text="assessed, in the rake area, not yet verified (637a.17(b)(3)(iv))")
    time_charges_cents = serializers.IntegerField(
        help_text="verified by a floorperson and in the drop box (637a.17(b)(3)(v))")
    contributions = serializers.ListField(
        child=serializers.DictField(),
        help_text="into each fund's payout box: [{fund, amount_cents}] (the fund's name)")
    rake_and_time_charges_cents = serializers.IntegerField(
        help_text="the pot rake and the verified time charges: the poker revenue put in the "
                  "drop box (637a.17(b)). The box also holds the cash of the chips sold at "
                  "the table: its expected contents are finance's expected_drop_cents")


class TimeChargeOut(serializers.ModelSerializer):
    class Meta:
        model = TimeChargePeriod
        fields = ["period_start", "gaming_day", "charges", "total_cents", "assessed_at",
                  "verified_by", "verified_at"]


class RakeLedger(APIView):
    """A poker table's rake ledger for a gaming day: the rake and time charges it put in
    the drop box."""

    permission_classes = [roles_required(*LEDGER_READERS)]

    @extend_schema(parameters=[DAY], responses={200: RakeLedgerOut}, operation_id="rake_ledger")
    def get(self, request: Request, pk: Any) -> Response:
        actor = actor_of(request.user)
        table = property_row(GameTable.objects.all(), actor, pk, what="table")
        day = _day(request, actor)
        row = RakeDay.objects.filter(table=table, gaming_day=day).first() or RakeDay(
            table=table, gaming_day=day)
        return Response(RakeLedgerOut({
            "table": table.pk, "table_name": table.name, "gaming_day": day,
            "hands": row.hands,
            "percentage_rake_cents": row.percentage_rake_cents,
            "incremental_rake_cents": row.incremental_rake_cents,
            "time_charges_pending_cents": row.time_charges_pending_cents,
            "time_charges_cents": row.time_charges_cents, "contributions": pot_figures.as_list(row.contributions or {}),
            "rake_and_time_charges_cents": row.rake_and_time_charges_cents}).data)


class TimeCharges(APIView):
    """The time-charge periods of a poker table's gaming day, verified or not."""

    permission_classes = [roles_required(*LEDGER_READERS)]

    @extend_schema(parameters=[DAY], responses={200: TimeChargeOut(many=True)},
                   operation_id="time_charges_list")
    def get(self, request: Request, pk: Any) -> Response:
        actor = actor_of(request.user)
        table = property_row(GameTable.objects.all(), actor, pk, what="table")
        rows = TimeChargePeriod.objects.filter(table=table, gaming_day=_day(request, actor))
        return Response(TimeChargeOut(rows, many=True).data)


class VerifyIn(serializers.Serializer):
    period_start = serializers.DateTimeField()


