"""The tables API's reads, each naming the roles it admits. The commands are declared in
:mod:`tables.commands` (their views made by casino.api.commands); a list whose POST or a
detail whose PATCH is a command carries its declaration."""

from __future__ import annotations

from datetime import date
from typing import Any, ClassVar

from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.renderers import JSONRenderer, StaticHTMLRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.api.commands import CreateVia, write_via
from casino.api.pagination import KEYSET_PAGING_PARAMETERS, page_response, parse_paging
from casino.api.serializers import EventPageSerializer
from casino.domain.errors import DomainError
from casino.eventstore import selectors as event_selectors
from casino.roles import ALL_ROLES, Role, roles_required
from casino.scoping import property_row, property_rows
from tables import selectors
from tables.api import banked_serializers as b
from tables.api import serializers as s
from tables.domain.signage import signage_for
from tables.models import Deck, GameTable, Round, RulesSubmission
from tables import commands as c
from tables.services import banked, rules

TABLE_STAFF = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.SECURITY,
               Role.COMPLIANCE, Role.ADMIN)
AUDIT = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE, Role.SECURITY)


def _property_rows(view: Any, qs: QuerySet, via: str = "property") -> QuerySet:
    if getattr(view, "swagger_fake_view", False):
        return qs.none()  # schema generation: no staff member behind the request
    return property_rows(qs, actor_of(view.request.user), via=via)


# --- Rules Submissions -----------------------------------------------------------------



class RulesList(CreateVia, ListAPIView):
    """Rules Submission versions of this property, newest first per game. POST files a
    new draft (compliance, admin)."""

    write_declaration = c.rules_draft
    post = write_via(c.rules_draft)

    permission_classes = [roles_required(*ALL_ROLES)]
    serializer_class = s.RulesSubmissionSerializer
    filterset_fields = ["game", "state"]

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, RulesSubmission.objects.all())


class RulesDetail(RetrieveAPIView):
    permission_classes = [roles_required(*ALL_ROLES)]
    serializer_class = s.RulesSubmissionSerializer

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, RulesSubmission.objects.all())


# --- tables ----------------------------------------------------------------------------





class TableList(CreateVia, ListAPIView):
    """Tables of this property. POST configures a new one (admin)."""

    write_declaration = c.table_configure
    post = write_via(c.table_configure)

    permission_classes = [roles_required(*TABLE_STAFF)]
    serializer_class = s.TableSerializer
    filterset_fields = ["game", "status"]

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, selectors.with_decks_in_play(GameTable.objects.all()))


class TableDetail(CreateVia, RetrieveAPIView):
    """A table. PATCH changes a closed table (admin)."""

    write_declaration = c.table_reconfigure_
    patch = write_via(c.table_reconfigure_, method="patch")
    permission_classes = [roles_required(*TABLE_STAFF)]
    serializer_class = s.TableSerializer

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, selectors.with_decks_in_play(GameTable.objects.all()))


def _table_of(request: Request, pk: Any) -> GameTable:
    return property_row(GameTable.objects.all(), actor_of(request.user), pk, what="table")


class TableSignage(APIView):
    """What must be posted at the table, from the Rules Submission in effect: JSON, or a
    printable page with ``?format=html`` or ``Accept: text/html``."""

    permission_classes = [roles_required(*ALL_ROLES)]
    renderer_classes = [JSONRenderer, StaticHTMLRenderer]
    problem_codes = {409: ["no_rules_in_effect"]}  # for the schema (casino.api.schema)

    @extend_schema(responses=s.SignageSerializer, parameters=[
        OpenApiParameter("format", str, enum=["json", "html"])])
    def get(self, request: Request, pk: Any) -> Any:
        table = _table_of(request, pk)
        rs = selectors.rules_in_force(table.property, table.game)  # as of now; appends nothing
        if rs is None:
            notice = selectors.rules_notice(table)
            raise rules.NoRulesInEffect(
                table.game, rules_notice=s.RulesNoticeSerializer(notice).data if notice else None)
        sign = {"table": table.name, "rules_version_number": rs.version_number,
                "rules_submission": str(rs.pk), "effective_since": rs.took_effect_at or rs.effective_at,
                **signage_for(table.game, rs.options)}
        if request.accepted_renderer.format == "html":
            # the sign players read shows the property's wall clock, its zone named (the
            # API's JSON keeps its ISO 8601 timestamps: the zone is set for the page only)
            with timezone.override(table.property.time_zone):
                return Response(render_to_string("tables/signage.html",
                                                 {"sign": sign, "property": table.property}))
        return Response(s.SignageSerializer(sign).data)


@extend_schema(exclude=True)
class TableSignageSlash(TableSignage):
    """The same page with a trailing slash (not listed in the schema)."""


class StreamHistory(APIView):
    """The events of one table's or deck's stream, in order."""

    permission_classes = [roles_required(*AUDIT)]
    model: ClassVar[type] = GameTable
    what: ClassVar[str] = "table"

    @extend_schema(responses=EventPageSerializer, parameters=KEYSET_PAGING_PARAMETERS)
    def get(self, request: Request, pk: Any) -> Response:
        obj = property_row(self.model.objects.all(), actor_of(request.user), pk,
                           what=self.what)
        from_position, limit = parse_paging(request.query_params)
        events = event_selectors.events_page(actor=actor_of(request.user),
                                             from_position=from_position, limit=limit,
                                             stream_id=obj.stream_id)
        return page_response(request, events, limit)


class TableHistory(StreamHistory):
    model = GameTable


class DeckHistory(StreamHistory):
    model = Deck
    what = "deck"


# --- decks -----------------------------------------------------------------------------

AT_TABLE = (Role.DEALER, Role.FLOORPERSON)


class DeckList(CreateVia, ListAPIView):
    """Decks of this property. POST records a deck received at a table."""

    write_declaration = c.deck_receive
    post = write_via(c.deck_receive)

    permission_classes = [roles_required(*TABLE_STAFF)]
    serializer_class = s.DeckSerializer
    filterset_fields = ["table", "state", "change_due"]

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, Deck.objects.all())


class DeckDetail(RetrieveAPIView):
    permission_classes = [roles_required(*TABLE_STAFF)]
    serializer_class = s.DeckSerializer

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, Deck.objects.all())


def _gaming_day(request: Request, actor: Any) -> date:
    """``?gaming_day=YYYY-MM-DD``, or the actor's gaming day today; 400 for anything else."""
    raw = request.query_params.get("gaming_day")
    try:
        return date.fromisoformat(raw) if raw else actor.gaming_day()
    except ValueError:
        raise DomainError("gaming_day must be a date YYYY-MM-DD", code="invalid_gaming_day",
                          field="gaming_day") from None


class CardInventory(APIView):
    """The card inventory report of a gaming day: decks received, in play, removed and
    destroyed or cancelled, and every signed step."""

    permission_classes = [roles_required(Role.FLOORPERSON, Role.SECURITY, Role.COMPLIANCE,
                                         Role.FINANCE, Role.POKER_SHIFT_SUPERVISOR)]

    @extend_schema(responses=s.InventoryReportSerializer, parameters=[
        OpenApiParameter("gaming_day", str, description="YYYY-MM-DD (default: today's)")])
    def get(self, request: Request) -> Response:
        actor = actor_of(request.user)
        report = selectors.card_inventory(actor.property, _gaming_day(request, actor))
        return Response(s.InventoryReportSerializer(report).data)


# --- rounds ----------------------------------------------------------------------------



class RoundDetail(RetrieveAPIView):
    permission_classes = [roles_required(*TABLE_STAFF)]
    serializer_class = s.RoundSerializer

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, Round.objects.all(), via="table__property")


# --- house-banked rounds -------------------------------------------------------------------





class RoundPlay(APIView):
    """A house-banked round as it stands, as the command answers show it (the dealer's
    face-down cards hidden until revealed): a terminal reloads it to learn the phase and
    the version to send next."""

    permission_classes = [roles_required(*AT_TABLE)]

    @extend_schema(responses=b.BankedRoundSerializer,
                   operation_id="round_play")
    def get(self, request: Request, pk: Any) -> Response:
        return Response(b.BankedRoundSerializer(
            banked.round_state(actor=actor_of(request.user), round_id=pk)).data)


class RoundReconstruction(APIView):
    """Replay a house-banked round: each hand, decision and payout in the order it
    happened, with time and actor, and the settlement lines with why (589.11(f),
    579.11(l)). The dealer's face-down cards appear once turned up or the round is over
    (tables.domain.banked.visibility, audit audience)."""

    permission_classes = [roles_required(*AUDIT, Role.FINANCE)]

    @extend_schema(responses=b.ReconstructionSerializer,
                   operation_id="round_reconstruction")
    def get(self, request: Request, pk: Any) -> Response:
        return Response(b.ReconstructionSerializer(banked.round_reconstruction(
            actor=actor_of(request.user), round_id=pk)).data)


class TableResults(APIView):
    """House-banked results of a table for a gaming day, per wager type: wagered,
    returned to players, house win and rounds."""

    permission_classes = [roles_required(Role.FINANCE, Role.COMPLIANCE, Role.FLOORPERSON)]

    @extend_schema(responses=b.TableResultsSerializer, parameters=[
        OpenApiParameter("gaming_day", str, description="YYYY-MM-DD (default: today's)")])
    def get(self, request: Request, pk: Any) -> Response:
        table = _table_of(request, pk)
        day = _gaming_day(request, actor_of(request.user))
        rows = selectors.table_results(table, day)
        return Response(b.TableResultsSerializer({"table": table.pk, "gaming_day": day,
                                                  "rows": rows}).data)
