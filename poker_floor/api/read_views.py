"""The poker floor's reads: every list of the caller's property with its players in
calling order and its open calls, and a list's fairness record for a gaming day. The
commands are declared in :mod:`poker_floor.commands` and :mod:`poker_floor.move_commands`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.roles import roles_required
from poker_floor import fairness, selectors
from poker_floor.api import serializers_read as s
from poker_floor.services.common import FLOOR


class WaitlistList(APIView):
    """List the property's waitlists and interest lists with their players and open calls.

    Each list's active players in calling order (table changes and a broken table's
    players first, then the list in the order added) and its open calls with their table,
    seat and deadline. A player's name, phone and e-mail are given to the floor's roles
    only (floorperson, poker shift supervisor); dealers, compliance and security read
    initials."""

    permission_classes = [roles_required(*selectors.LIST_READERS)]

    @extend_schema(responses={200: s.WaitlistOut(many=True)}, operation_id="waitlists")
    def get(self, request: Request) -> Response:
        actor = actor_of(request.user)
        context = {"request": request, "personal": actor.has(*FLOOR)}
        return Response(s.WaitlistOut(selectors.lists(actor), many=True, context=context).data)


class WaitlistFairness(APIView):
    """Show a list's fairness record for a gaming day, worked out from the list's events.

    Every step in order — additions, calls in turn or out of turn with the reason and the
    players passed over, passes, timeouts, calls called off, seats, removals, pages, moves
    and draws by lot — with the time, who recorded it, the player's initials (never a
    name) and their position then. ``entry`` narrows it to one player: their own steps and
    every call that passed them over ("I was skipped")."""

    permission_classes = [roles_required(*fairness.FAIRNESS_READERS)]
    problem_codes = {400: ["invalid_gaming_day"], 404: ["waitlist_not_found"]}

    @extend_schema(parameters=[
        OpenApiParameter("day", str, description="the gaming day, YYYY-MM-DD; default: today's"),
        OpenApiParameter("entry", str, description="one player's steps only (the entry's id)")],
        responses={200: s.FairnessOut}, operation_id="waitlist_fairness")
    def get(self, request: Request, pk: Any) -> Response:
        actor = actor_of(request.user)
        waitlist = fairness.waitlist_for(actor, pk)
        day = fairness.day_of(request.query_params.get("day"), actor)
        record = fairness.fairness_record(waitlist, day, actor=actor,
                                          entry=request.query_params.get("entry") or None)
        record["steps"] = fairness.steps_as_dicts(record["steps"])
        for key in ("waiting_at_start", "waiting_at_end"):
            record[key] = [w.as_dict() for w in record[key]]
        return Response(s.FairnessOut(record, context={"request": request}).data)
