"""Hand histories (the hand step by step, PHH files) and the poker dispute calculator
(637a.18(a)). Cards are codes both ways."""

from __future__ import annotations

from datetime import date
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.domain.errors import DomainError
from casino.roles import roles_required
from poker_room.api.cards import cards_in, cards_out, command_in
from poker_room.api.rake_views import BadDay
from poker_room.api.serializers import DisputeFiguresOut
from poker_room.services import disputes, hand_steps, histories

HISTORY_READERS = histories.HISTORY_READERS
DISPUTE_ROLES = disputes.DISPUTE_ROLES
FORMAT = OpenApiParameter(
    "format", str, enum=["phh", "toml", "json"],
    description="phh (the default): the file as text/plain; toml: the file as "
                "application/toml; json: the file in a JSON object with its name")


class PHHRenderer(BaseRenderer):
    """The PHH file itself; anything else (a problem is rendered on its own) as JSON."""

    media_type = "text/plain"
    format = "phh"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None,
               renderer_context: Any = None) -> bytes:
        if isinstance(data, dict) and isinstance(data.get("phh"), str):
            return data["phh"].encode()
        return JSONRenderer().render(data)


class TOMLRenderer(PHHRenderer):
    """PHH is TOML: the same file for a client that asks for ``application/toml``."""

    media_type = "application/toml"
    format = "toml"


class PHHOut(serializers.Serializer):
    filename = serializers.CharField()
    gaming_day = serializers.DateField(allow_null=True)
    hands = serializers.IntegerField()
    voided = serializers.ListField(child=serializers.IntegerField(), required=False,
                                   help_text="numbers of the day's void hands, left out")
    phh = serializers.CharField(help_text="PHH TOML (a .phhs file: a section per hand)")


def _file(request: Request, out: dict[str, Any]) -> Response:
    """The file with its download name; the JSON object when JSON was asked for."""
    response = Response(PHHOut(out).data)
    if request.accepted_renderer.format != "json":
        response["Content-Disposition"] = f'attachment; filename="{out["filename"]}"'
    return response


PHH_RESPONSES = {200: OpenApiResponse(PHHOut, description="the PHH file (text/plain or "
                                                          "application/toml) or, with "
                                                          "format=json, this object")}


class HandPHH(APIView):
    """A completed hand as a PHH hand history (409 ``hand_in_progress`` before it is
    over); the rake and contributions in ``_pa_`` fields."""

    permission_classes = [roles_required(*HISTORY_READERS)]
    renderer_classes = [PHHRenderer, TOMLRenderer, JSONRenderer]

    @extend_schema(parameters=[FORMAT], responses=PHH_RESPONSES, operation_id="hand_phh")
    def get(self, request: Request, pk: Any) -> Response:
        return _file(request, histories.hand_phh(actor=actor_of(request.user), round_id=pk))


def _gaming_day(request: Request, actor: Any) -> date:
    text = request.query_params.get("gaming_day")
    try:
        return date.fromisoformat(text) if text else actor.gaming_day()
    except ValueError:
        raise BadDay("gaming_day is a date, YYYY-MM-DD", field="gaming_day") from None


class TablePHH(APIView):
    """Every completed hand of a poker table's gaming day (default: the current one) as
    one ``.phhs`` file, a section ``[1]``, ``[2]``... per hand in the order dealt."""

    permission_classes = [roles_required(*HISTORY_READERS)]
    renderer_classes = [PHHRenderer, TOMLRenderer, JSONRenderer]

    @extend_schema(parameters=[FORMAT, OpenApiParameter(
        "gaming_day", str, description="YYYY-MM-DD; default: the current gaming day")],
        responses=PHH_RESPONSES, operation_id="table_phh")
    def get(self, request: Request, pk: Any) -> Response:
        actor = actor_of(request.user)
        return _file(request, histories.table_day_phhs(
            actor=actor, table_id=pk, gaming_day=_gaming_day(request, actor)))


class StepsOut(serializers.Serializer):
    round_id = serializers.UUIDField()
    number = serializers.IntegerField()
    table = serializers.DictField()
    gaming_day = serializers.CharField(allow_null=True)
    over = serializers.BooleanField()
    steps = serializers.ListField(
        child=serializers.DictField(),
        help_text="each event: version, at, type, actor, role, credential_number, text "
                  "(in words, cards as codes), data")


class HandSteps(APIView):
    """The hand step by step (637a.18(a)): each recorded event in words, with the login,
    role and credential number that recorded it; every card once the hand is over."""

    permission_classes = [roles_required(*HISTORY_READERS)]

    @extend_schema(responses={200: StepsOut}, operation_id="hand_steps")
    def get(self, request: Request, pk: Any) -> Response:
        out = hand_steps.hand_steps(actor=actor_of(request.user), round_id=pk)
        return Response(cards_out(out))


# --- the dispute calculator ---------------------------------------------------------------

class SettleScriptIn(serializers.Serializer):
    game = serializers.CharField(required=False, help_text="with options: the game's id")
    options = serializers.JSONField(required=False,
                                    help_text="a poker Rules Submission's options; without "
                                              "a rake, no pot rake and no time charge")
    rules_submission_id = serializers.UUIDField(
        required=False, allow_null=True, help_text="instead of options: a Rules Submission "
                                                   "of this property (any version)")
    table_id = serializers.UUIDField(
        required=False, allow_null=True,
        help_text="instead of options: a poker table of this property, whose Rules "
                  "Submission (rules_submission_id, else the one in force) and registered "
                  "jackpot boxes apply; a fund without its box there takes nothing "
                  "(637a.2(e)), named in jackpots_withheld")
    stacks = serializers.JSONField(help_text='each seat dealt in, its table stakes in cents: '
                                             '{"1": 10000, ...} ($100.00)')
    button = serializers.IntegerField(required=False, allow_null=True, default=None)
    straddle = serializers.BooleanField(default=False)
    kill_active = serializers.BooleanField(default=False)
    deck = serializers.JSONField(required=False, allow_null=True, default=None,
                                 help_text="the 52 cards top first, the engine dealing; "
                                           "without it the deal commands name the cards")
    commands = serializers.JSONField(
        help_text="the dealer's commands in order, as hands/{id}/commands/ takes them "
                  "(amounts in cents)")


class SettlementOut(DisputeFiguresOut):
    game = serializers.CharField()
    complete = serializers.BooleanField()
    voided = serializers.BooleanField()
    phase = serializers.CharField()
    to_act = serializers.IntegerField(allow_null=True)
    board = serializers.ListField(child=serializers.CharField())
    gross_pot_cents = serializers.IntegerField(
        allow_null=True, help_text="every chip put in, before the rake and contributions")
    pot_cents = serializers.IntegerField(
        allow_null=True, help_text="the Pot (637a.1): after the rake and the jackpot "
                                   "contributions, what is awarded")
    rake_cents = serializers.IntegerField(allow_null=True)
    rake_by_pot_cents = serializers.ListField(child=serializers.IntegerField(),
                                              allow_null=True)
    contributions = serializers.ListField(child=serializers.DictField(),
                                          help_text="[{fund, amount_cents}]")
    awards = serializers.ListField(child=serializers.DictField(),
                                   help_text="[{pot_number, seat, amount_cents, share, "
                                             "odd_chips_cents}]")
    starting_stacks_cents = serializers.DictField(child=serializers.IntegerField())
    stacks_cents = serializers.DictField(child=serializers.IntegerField())
    net_cents = serializers.DictField(child=serializers.IntegerField())
    time_charge = serializers.DictField(
        allow_null=True, help_text="the time charge the rules gave (637a.17(b)(3)): basis, "
                                   "hourly_cents, interval_minutes; null when none was given "
                                   "(a hand pays none itself)")
    events = serializers.ListField(child=serializers.DictField())


def _commands_in(value: Any) -> Any:
    """The script's commands with their cards as the engine takes them; a card that is
    not one names its step."""
    if not isinstance(value, list):
        return value
    out = []
    for i, c in enumerate(value):
        try:
            out.append(command_in(c))
        except DomainError as exc:
            raise disputes.refused(exc, f"commands[{i}]") from None
    return out


def hand_settle_script(*, actor: Any, **script: Any) -> dict[str, Any]:
    script["commands"] = _commands_in(script.get("commands"))
    if script.get("deck") is not None:
        script["deck"] = cards_in(script["deck"], "deck")
    for key in ("rules_submission_id", "table_id"):
        if script.get(key) is not None:
            script[key] = str(script[key])
    return cards_out(disputes.hand_settle_script(actor=actor, script=script))


