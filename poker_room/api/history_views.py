"""Hand histories as PHH files and the poker dispute calculator (637a.18(a))."""

from __future__ import annotations

from datetime import date
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.api.commands import command
from casino.roles import Role, roles_required
from poker_room.api.cards import cards_out, command_in
from poker_room.api.rake_views import BadDay
from poker_room.services import histories

TAG = "poker room"
HISTORY_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
                   Role.FINANCE, Role.SECURITY)
#: 637a.18(a): the supervisor rules on disputes; the floor and compliance may work one out
DISPUTE_ROLES = (Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON, Role.COMPLIANCE)
FORMAT = OpenApiParameter("format", str, enum=["json", "phh"],
                          description="phh: the file itself (text/plain)")


class PHHRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "phh"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None,
               renderer_context: Any = None) -> bytes:
        if isinstance(data, dict) and "phh" in data:
            return data["phh"].encode()
        return JSONRenderer().render(data)


class PHHOut(serializers.Serializer):
    filename = serializers.CharField()
    phh = serializers.CharField(help_text="PHH TOML (a .phhs file: one section per hand)")
    hands = serializers.IntegerField(required=False)


def _file(request: Request, out: dict[str, Any]) -> Response:
    response = Response(PHHOut(out).data)
    if request.accepted_renderer.format == "phh":
        response["Content-Disposition"] = f'attachment; filename="{out["filename"]}"'
    return response


class HandPHH(APIView):
    """A completed hand as a PHH hand history."""

    permission_classes = [roles_required(*HISTORY_READERS)]
    renderer_classes = [JSONRenderer, PHHRenderer]

    @extend_schema(parameters=[FORMAT], responses={200: PHHOut}, tags=[TAG],
                   operation_id="hand_phh")
    def get(self, request: Request, pk: Any) -> Response:
        return _file(request, histories.hand_phh(actor=actor_of(request.user), round_id=pk))


class TablePHH(APIView):
    """Every completed hand of a poker table's gaming day as one ``.phhs`` file."""

    permission_classes = [roles_required(*HISTORY_READERS)]
    renderer_classes = [JSONRenderer, PHHRenderer]

    @extend_schema(parameters=[FORMAT, OpenApiParameter("gaming_day", str)],
                   responses={200: PHHOut}, tags=[TAG], operation_id="table_phh")
    def get(self, request: Request, pk: Any) -> Response:
        actor = actor_of(request.user)
        text = request.query_params.get("gaming_day")
        try:
            day = date.fromisoformat(text) if text else actor.gaming_day()
        except ValueError:
            raise BadDay("gaming_day is a date, YYYY-MM-DD", field="gaming_day") from None
        return _file(request, histories.table_day_phhs(actor=actor, table_id=pk,
                                                       gaming_day=day))


class SettleScriptIn(serializers.Serializer):
    game = serializers.CharField(required=False)
    options = serializers.JSONField(required=False, help_text="a poker Rules Submission's "
                                                              "options")
    rules_submission_id = serializers.UUIDField(required=False)
    stacks = serializers.JSONField(help_text='{"1": 10000, "2": 10000, ...}')
    button = serializers.IntegerField(required=False, allow_null=True, default=None)
    straddle = serializers.BooleanField(default=False)
    commands = serializers.JSONField(help_text="the dealer's commands, as hands/{id}/commands/")


class SettlementOut(serializers.Serializer):
    game = serializers.CharField()
    complete = serializers.BooleanField()
    pot_cents = serializers.IntegerField(allow_null=True)
    rake_cents = serializers.IntegerField(allow_null=True)
    rake_by_pot = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    contributions = serializers.ListField(allow_null=True)
    awards = serializers.ListField(child=serializers.DictField())
    stacks = serializers.DictField(child=serializers.IntegerField())
    events = serializers.ListField(child=serializers.DictField())


def hand_settle_script(*, actor: Any, **script: Any) -> dict[str, Any]:
    if isinstance(script.get("commands"), list):
        script["commands"] = [command_in(c) for c in script["commands"]]
    if script.get("rules_submission_id") is not None:
        script["rules_submission_id"] = str(script["rules_submission_id"])
    else:
        script.pop("rules_submission_id", None)
    return cards_out(histories.hand_settle_script(actor=actor, script=script))


settle_script_view = command(
    hand_settle_script, roles=DISPUTE_ROLES, input=SettleScriptIn, output=SettlementOut,
    id_arg=None, tag=TAG,
    doc="The poker dispute calculator: work a hand out from its script (rules, seats and "
        "stacks, button, the dealer's commands) and get the pots, rake, contributions "
        "and stacks; nothing is recorded (637a.18(a)).")
