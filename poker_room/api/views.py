"""The poker room's API reads: a table's seats and a hand, each naming the roles it
admits; cards are codes. The commands (seats, hands through the dealer terminal, rulings)
are declared in :mod:`poker_room.commands`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.roles import Role, roles_required
from casino.scoping import property_row
from poker_room.api import serializers as s
from poker_room.domain.visibility import AUDIT, TERMINAL
from poker_room.services import hands
from tables.models import GameTable

#: who may read a table's seats and a hand as the terminal shows it
TABLE_READERS = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR,
                 Role.COMPLIANCE, Role.SECURITY)
#: who may read a hand's whole record once it is over (637a.18(a) disputes, audits)
HISTORY_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
                   Role.FINANCE, Role.SECURITY)


class SeatList(APIView):
    """The seats of a poker table and the table's state between hands."""

    permission_classes = [roles_required(*TABLE_READERS)]

    @extend_schema(responses={200: s.TableSeatsOut}, operation_id="seats_list")
    def get(self, request: Request, pk: Any) -> Response:
        actor = actor_of(request.user)
        table = property_row(GameTable.objects.all(), actor, pk, what="table")
        return Response(s.TableSeatsOut(table).data)


class HandDetail(APIView):
    """The hand as the dealer terminal sees it: hole cards hidden (``null``)."""

    permission_classes = [roles_required(*TABLE_READERS)]

    @extend_schema(responses={200: s.HandOut}, operation_id="hand_detail")
    def get(self, request: Request, pk: Any) -> Response:
        ph = hands.hand_load(actor=actor_of(request.user), round_id=pk)
        return Response(s.HandOut(ph, context={"audience": TERMINAL}).data)


class HandHistory(APIView):
    """The hand's whole record (who acted, what was dealt, pots, rake, contributions);
    every card once the hand is over, as the terminal sees it before."""

    permission_classes = [roles_required(*HISTORY_READERS)]

    @extend_schema(responses={200: s.HandOut}, operation_id="hand_history")
    def get(self, request: Request, pk: Any) -> Response:
        ph = hands.hand_load(actor=actor_of(request.user), round_id=pk)
        return Response(s.HandOut(ph, context={"audience": AUDIT}).data)

