"""The tables API: one view per command, each naming the roles it admits. A view checks
the shape of its input, calls one service, and returns the resource the service left."""

from __future__ import annotations

from collections.abc import Callable
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
from casino.api.commands import Command, command
from casino.api.pagination import KEYSET_PAGING_PARAMETERS, page_response, parse_paging
from casino.api.serializers import EventPageSerializer
from casino.domain.errors import DomainError
from casino.eventstore import selectors as event_selectors
from casino.roles import ALL_ROLES, Role, roles_required
from casino.scoping import property_row, property_rows
from tables import selectors
from tables.api import banked_serializers as b
from tables.api import serializers as s
from tables.domain.banked.commands import Decide, PlaceWager, SetHands
from tables.domain.signage import signage_for
from tables.models import Deck, GameTable, Round, RulesSubmission
from tables.reconstruction import cards_as_text
from tables.services import banked, decks, rounds, rules, tables

TABLE_STAFF = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.SECURITY,
               Role.COMPLIANCE, Role.ADMIN)
AUDIT = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE, Role.SECURITY)


class CreateVia:
    """A list view whose POST (or a detail view whose PATCH) is a command view's: its
    roles, input and output."""

    write_command: ClassVar[type[Command]]

    def get_permissions(self) -> list[Any]:
        if self.request.method in ("POST", "PATCH"):  # type: ignore[attr-defined]
            return [p() for p in self.write_command.permission_classes]
        return super().get_permissions()  # type: ignore[misc]


def write_via(cmd: type[Command], *, method: str = "post") -> Callable[..., Response]:
    def handler(self: Any, request: Request, pk: Any = None) -> Response:
        return Command.post(cmd(), request, pk)
    return extend_schema(request=cmd.input,
                         responses={201 if cmd.created else 200: cmd.output},
                         operation_id=f"{cmd.__name__.removesuffix('_view')}_{method}")(handler)


def _property_rows(view: Any, qs: QuerySet, via: str = "property") -> QuerySet:
    if getattr(view, "swagger_fake_view", False):
        return qs.none()  # schema generation: no staff member behind the request
    return property_rows(qs, actor_of(view.request.user), via=via)


# --- Rules Submissions -----------------------------------------------------------------

RulesDraft = command(rules.rules_draft, roles=(Role.COMPLIANCE, Role.ADMIN),
                     input=s.RulesDraftInput, output=s.RulesSubmissionSerializer, id_arg=None,
                     created=True,
                     doc="File a new draft version of the Rules Submission for a game.")
RulesRevise = command(rules.rules_revise, roles=(Role.COMPLIANCE, Role.ADMIN),
                      input=s.RulesReviseInput, output=s.RulesSubmissionSerializer,
                      id_arg="rules_id",
                      doc="Edit a draft. A version past the draft is never edited.")
RulesSubmit = command(rules.rules_submit, roles=(Role.COMPLIANCE, Role.ADMIN),
                      input=s.EmptyInput, output=s.RulesSubmissionSerializer, id_arg="rules_id",
                      doc="Submit a draft for approval.")
RulesReturn = command(rules.rules_return, roles=(Role.COMPLIANCE,), input=s.ReasonInput,
                      output=s.RulesSubmissionSerializer, id_arg="rules_id",
                      doc="Return a submitted version to draft.")
RulesApprove = command(rules.rules_approve, roles=(Role.COMPLIANCE,), input=s.ApproveInput,
                       output=s.RulesSubmissionSerializer, id_arg="rules_id",
                       doc="Approve a submitted version (by a compliance officer who did not "
                           "write or submit it); it takes effect at effective_at or now.")
RulesWithdraw = command(rules.rules_withdraw, roles=(Role.COMPLIANCE,), input=s.ReasonInput,
                        output=s.RulesSubmissionSerializer, id_arg="rules_id",
                        doc="Withdraw a version. One not in effect is withdrawn at once; for "
                            "the version in effect this asks for its withdrawal, which a "
                            "second compliance officer confirms (withdraw/confirm/).")
RulesWithdrawConfirm = command(rules.rules_withdraw_confirm, roles=(Role.COMPLIANCE,),
                               input=s.EmptyInput, output=s.RulesSubmissionSerializer,
                               id_arg="rules_id",
                               doc="Confirm the requested withdrawal of the version in effect "
                                   "(by a compliance officer other than the one who asked); "
                                   "it leaves effect and rounds of its game are refused.")
RulesWithdrawCancel = command(rules.rules_withdraw_cancel, roles=(Role.COMPLIANCE,),
                              input=s.ReasonInput, output=s.RulesSubmissionSerializer,
                              id_arg="rules_id",
                              doc="Cancel the requested withdrawal of the version in effect "
                                  "(any compliance officer); it stays in effect.")


class RulesList(CreateVia, ListAPIView):
    """Rules Submission versions of this property, newest first per game. POST files a
    new draft (compliance, admin)."""

    write_command = RulesDraft
    post = write_via(RulesDraft)

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

TableConfigure = command(tables.table_configure, roles=(Role.ADMIN,),
                         input=s.TableConfigureInput, output=s.TableSerializer, id_arg=None,
                         created=True,
                         doc="Configure a new table (closed).")


def _reconfigure(*, actor: Any, table_id: Any, **changes: Any) -> Any:
    return tables.table_reconfigure(actor=actor, table_id=table_id, changes=changes)


_reconfigure.__name__ = "table_reconfigure"
TableReconfigure = command(_reconfigure, roles=(Role.ADMIN,), input=s.TableReconfigureInput,
                           output=s.TableSerializer, id_arg="table_id",
                           doc="Change a closed table's name, positions or equipment.")
TableOpen = command(tables.table_open, roles=(Role.FLOORPERSON,), input=s.EmptyInput,
                    output=s.TableSerializer, id_arg="table_id",
                    doc="Open the table for gaming under the Rules Submission in effect.")
TableClose = command(tables.table_close, roles=(Role.FLOORPERSON,), input=s.EmptyInput,
                     output=s.TableSerializer, id_arg="table_id",
                     doc="Close the table.")
TableAssignDealer = command(tables.table_assign_dealer, roles=(Role.FLOORPERSON,),
                            input=s.AssignDealerInput, output=s.TableSerializer,
                            id_arg="table_id",
                            doc="Assign the dealer who acts at this table.")
TableEquipment = command(tables.table_equipment, roles=(Role.FLOORPERSON, Role.DEALER),
                         input=s.EquipmentInput, output=s.TableSerializer, id_arg="table_id",
                         doc="Record a shuffler or shoe out of order, or "
                             "restored (589.13(g)).")


class TableList(CreateVia, ListAPIView):
    """Tables of this property. POST configures a new one (admin)."""

    write_command = TableConfigure
    post = write_via(TableConfigure)

    permission_classes = [roles_required(*TABLE_STAFF)]
    serializer_class = s.TableSerializer
    filterset_fields = ["game", "status"]

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, selectors.with_decks_in_play(GameTable.objects.all()))


class TableDetail(CreateVia, RetrieveAPIView):
    """A table. PATCH changes a closed table (admin)."""

    write_command = TableReconfigure
    patch = write_via(TableReconfigure, method="patch")
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
DeckReceive = command(decks.deck_receive, roles=(Role.DEALER, Role.FLOORPERSON, Role.SECURITY),
                      input=s.DeckReceiveInput, output=s.DeckSerializer, id_arg=None,
                      created=True, rename={"table": "table_id"},
                      doc="Record a deck received at a table (589.4(a), 637a.4(a)).")
DeckInspect = command(decks.deck_inspect, roles=(Role.DEALER,), input=s.InspectInput,
                      output=s.DeckSerializer, id_arg="deck_id",
                      doc="The dealer's inspection, listing any defects.")
DeckVerify = command(decks.deck_inspection_verify, roles=(Role.FLOORPERSON,),
                     input=s.VerifyInput, output=s.DeckSerializer, id_arg="deck_id",
                     doc="The floorperson verifies the inspection; a rejected "
                         "deck is removed.")
DeckSpread = command(decks.deck_spread, roles=(Role.DEALER,), input=s.SpreadInput,
                     output=s.DeckSerializer, id_arg="deck_id",
                     doc="Spread face up for the first player (two at poker).")
DeckWash = command(decks.deck_wash, roles=(Role.DEALER,), input=s.EmptyInput,
                   output=s.DeckSerializer, id_arg="deck_id",
                   doc="Washed and stacked.")
DeckShuffle = command(decks.deck_shuffle, roles=(Role.DEALER,), input=s.ShuffleInput,
                      output=s.DeckSerializer, id_arg="deck_id",
                      doc="Shuffled by hand or by the automated shuffler.")
DeckCut = command(decks.deck_cut, roles=(Role.DEALER,), input=s.CutInput,
                  output=s.DeckSerializer, id_arg="deck_id",
                  doc="Cut with the cover card at least ten cards deep.")
DeckRecut = command(decks.deck_recut, roles=(Role.FLOORPERSON,), input=s.ReasonInput,
                    output=s.DeckSerializer, id_arg="deck_id",
                    doc="A floorperson has the cards cut again before any is dealt.")
DeckPutInPlay = command(decks.deck_put_in_play, roles=AT_TABLE, input=s.EmptyInput,
                        output=s.DeckSerializer, id_arg="deck_id",
                        doc="Put the deck in play; its change-due timer starts.")
DeckCount = command(decks.deck_count, roles=AT_TABLE, input=s.CountInput,
                    output=s.DeckSerializer, id_arg="deck_id",
                    doc="The dealer's count; anything but 52 removes the deck.")
DeckCountVerify = command(decks.deck_count_verify, roles=(Role.FLOORPERSON,),
                          input=s.EmptyInput, output=s.DeckSerializer, id_arg="deck_id",
                          doc="The floorperson signs the last count.")
DeckShufflerCount = command(decks.deck_shuffler_count, roles=AT_TABLE, input=s.CountInput,
                            output=s.DeckSerializer, id_arg="deck_id",
                            doc="The counting shuffler's count; a wrong count removes the deck.")
DeckRemove = command(decks.deck_remove, roles=AT_TABLE, input=s.RemoveInput,
                     output=s.DeckSerializer, id_arg="deck_id",
                     doc="Remove the deck from the table, with the reason.")
DeckDestroy = command(decks.deck_destroy, roles=(Role.SECURITY, Role.FLOORPERSON),
                      input=s.NoteInput, output=s.DeckSerializer, id_arg="deck_id",
                      doc="A removed deck destroyed.")
DeckCancel = command(decks.deck_cancel, roles=(Role.SECURITY, Role.FLOORPERSON),
                     input=s.NoteInput, output=s.DeckSerializer, id_arg="deck_id",
                     doc="A removed deck cancelled.")


class DeckList(CreateVia, ListAPIView):
    """Decks of this property. POST records a deck received at a table."""

    write_command = DeckReceive
    post = write_via(DeckReceive)

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

def _round_open(*, actor: Any, table: Any, deck: Any) -> Any:
    return rounds.round_open(actor=actor, table_id=table, deck_id=deck)


_round_open.__name__ = "round_open"
RoundOpen = command(_round_open, roles=AT_TABLE, input=s.RoundOpenInput,
                    output=s.RoundSerializer, id_arg=None, created=True,
                    doc="Open a round: refused at a closed table, without rules in effect, "
                        "or with a deck that is due for change or a count, or out of turn.")
RoundClose = command(rounds.round_close, roles=AT_TABLE, input=s.EmptyInput,
                     output=s.RoundSerializer, id_arg="round_id",
                     doc="Close the round.")


class RoundDetail(RetrieveAPIView):
    permission_classes = [roles_required(*TABLE_STAFF)]
    serializer_class = s.RoundSerializer

    def get_queryset(self) -> QuerySet:
        return _property_rows(self, Round.objects.all(), via="table__property")


# --- house-banked rounds -------------------------------------------------------------------

def _banked(service: Callable[..., Any], input: type, doc: str,
            roles: tuple[Role, ...] = AT_TABLE) -> type[Command]:
    return command(service, roles=roles, input=input, output=b.BankedRoundSerializer,
                   id_arg="round_id", doc=doc)


RoundPlaceWager = _banked(banked.round_place_wager, b.WagerInput,
                          "Place a wager before no more bets (589.7, 671a.7, 579.7).")
RoundWithdrawWager = _banked(banked.round_withdraw_wager, b.WithdrawInput,
                             "Withdraw a wager before no more bets.")
RoundNoMoreBets = _banked(banked.round_no_more_bets, b.VersionedInput,
                          "Announce no more bets (589.7(d), 579.7(c)).")
RoundDeal = _banked(banked.round_deal, b.DealInput,
                    "Record the deal read by a card-reading shoe or keyed at the console.")
RoundDealFromShuffle = _banked(banked.round_deal_from_shuffle, b.VersionedInput,
                               "Deal from a deck the server shuffles with a secure RNG.")
RoundDecide = _banked(banked.round_decide, b.DecisionInput,
                      "Record a player's decision (fold, bet, buy, exchange, declare, force; "
                      "Hi-Lo play or forfeit).")
RoundSetHands = _banked(banked.round_set_hands, b.SetHandsInput,
                        "Set a Hi-Lo player's high and low hands (579.11(d)).")
RoundDraw = _banked(banked.round_draw, b.DrawInput,
                    "A Lunar player's sixth card or exchange (589.11(d)(2), 671a.11(d)).")
RoundDealerDraw = _banked(banked.round_draw_dealer, b.DealerDrawInput,
                          "The forced dealer's replacement card (589.11(e)(2)(ii)).")
def _place_wagers(*, actor: Any, round_id: Any, wagers: list[dict[str, Any]],
                  no_more_bets: bool = False, expected_version: int | None = None) -> Any:
    return banked.round_place_wagers(
        actor=actor, round_id=round_id, no_more_bets=no_more_bets,
        expected_version=expected_version, wagers=[PlaceWager(**w) for w in wagers])


def _lock_decisions(*, actor: Any, round_id: Any, decisions: list[dict[str, Any]],
                    expected_version: int | None = None) -> Any:
    return banked.round_lock_decisions(
        actor=actor, round_id=round_id, expected_version=expected_version,
        decisions=[Decide(**d) if d["decision"] is not None
                   else SetHands(d["position"], d["high"], d["low"]) for d in decisions])


_place_wagers.__name__ = "round_place_wagers"
_lock_decisions.__name__ = "round_lock_decisions"
RoundPlaceWagers = _banked(_place_wagers, b.WagersInput,
                           "Every wager a terminal holds, then optionally no more bets, as "
                           "one command: one commit, one event per wager; refused whole if "
                           "any part is.")
RoundLock = _banked(_lock_decisions, b.LockInput,
                    "All decisions are locked in: reveal and settle every wager. With "
                    "decisions, each position's decision (or Hi-Lo setting) is recorded "
                    "first, in the same command.")
RoundIrregularity = _banked(banked.round_report_irregularity, b.IrregularityInput,
                            "Report an irregularity (x.13) or abandoned wagers (x.7(b)); "
                            "a void returns every wager.", roles=(Role.FLOORPERSON,))


def _settle_script(*, actor: Any, **script: Any) -> dict[str, Any]:
    out = banked.round_settle_script(actor=actor, script=script)
    out["events"] = [{"type": e["type"], "data": cards_as_text(e["data"])}
                     for e in out["events"]]
    return out


_settle_script.__name__ = "round_settle_script"
SettleScript = command(_settle_script, roles=banked.DISPUTE_ROLES, input=b.SettleScriptInput,
                       output=b.SettlementSerializer, id_arg=None,
                       doc="The dispute calculator: settle a round script (the format of "
                           "tests/tables/banked/scripts) without recording anything.")


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
