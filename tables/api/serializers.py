"""Input and output shapes of the tables API. Inputs are checked for type here; the rules
(which paytable, how deep a cut) are checked by the domain, whose errors carry codes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.api.digest_views import DigestSerializer
from tables import selectors
from tables.domain.catalogue import GAMES
from tables.domain.decks import DealingMethod, RemovalReason, Shuffler
from tables.domain.paytable_edges import submission_edges
from tables.models import GAME_CHOICES, Deck, DeckStep, GameTable, Round, RulesSubmission

GAME_IDS = list(GAMES)
REMOVAL_REASONS = [(r.value, r.value) for r in RemovalReason]


# --- outputs ---------------------------------------------------------------------------

class PaytableEdgeSerializer(serializers.Serializer):
    """A paytable the Rules Submission selects and what it returns
    (tables.domain.paytable_edges)."""

    paytable = serializers.CharField()
    title = serializers.CharField()
    section = serializers.CharField()
    wager = serializers.CharField()
    house_edge = serializers.CharField(
        allow_null=True, help_text="exact, as a fraction p/q; null where the paytable has "
                                   "no house edge of its own or no exact figure (see basis)")
    house_edge_percent = serializers.CharField(allow_null=True)
    negative_house_edge = serializers.BooleanField(
        help_text="it pays back more than is wagered on it: approving the submission "
                  "needs acknowledge_negative_house_edge")
    bonus_per_unit_ante_percent = serializers.CharField(allow_null=True)
    basis = serializers.CharField()


class RulesSubmissionSerializer(serializers.ModelSerializer):
    superseded_by = serializers.UUIDField(source="superseded_by_id", allow_null=True)
    stream_id = serializers.CharField()
    paytables = serializers.SerializerMethodField()

    class Meta:
        model = RulesSubmission
        fields = ["id", "game", "version_number", "state", "options", "paytables", "notes",
                  "drafted_by", "revised_by", "submitted_by", "approved_by", "effective_at",
                  "took_effect_at", "ended_at", "superseded_by", "withdrawal_requested_by",
                  "withdrawal_reason", "withdrawal_requested_at", "withdrawn_by",
                  "created_at", "stream_id", "stream_version"]

    @extend_schema_field(PaytableEdgeSerializer(many=True))
    def get_paytables(self, rs: RulesSubmission) -> list[dict[str, Any]]:
        """The selected paytables' house edges, for the approver to read first."""
        return [e.as_dict() for e in submission_edges(rs.game, rs.options)]


class RulesNoticeSerializer(serializers.Serializer):
    """What a table is told about its game's rules leaving effect."""

    code = serializers.CharField(
        help_text="rules_withdrawn: the last version in effect was withdrawn and none is in "
                  "effect (rounds are refused, 409 no_rules_in_effect); "
                  "rules_withdrawal_pending: a withdrawal of the version in effect awaits a "
                  "second compliance officer")
    rules_submission = serializers.UUIDField()
    version_number = serializers.IntegerField()
    reason = serializers.CharField()
    requested_by = serializers.CharField()
    requested_at = serializers.DateTimeField(allow_null=True)
    confirmed_by = serializers.CharField(allow_null=True)
    withdrawn_at = serializers.DateTimeField(allow_null=True)


class TableListSerializer(serializers.ListSerializer):
    """A page of tables, their rules notices read with one query for the page."""

    def to_representation(self, data: Any) -> list[Any]:
        return super().to_representation(selectors.with_rules_notices(
            data.all() if hasattr(data, "all") else data))


class TableSerializer(serializers.ModelSerializer):
    dealer = serializers.CharField(source="dealer.username", allow_null=True, default=None)
    last_deck = serializers.UUIDField(source="last_deck_id", allow_null=True)
    current_round = serializers.UUIDField(source="current_round_id", allow_null=True)
    next_deck = serializers.SerializerMethodField(
        help_text="the deck in play that deals the next round (the decks alternate, "
                  "589.3(b)(3), 637a.3(a)); null when no deck is in play")
    rules_notice = serializers.SerializerMethodField(
        help_text="null, or the withdrawal of the game's Rules Submission: pending (a "
                  "second compliance officer must confirm) or done (no rules in effect)")
    stream_id = serializers.CharField()

    class Meta:
        model = GameTable
        fields = ["id", "name", "game", "positions", "dealing_method", "shuffler",
                  "shuffler_out_of_order", "shoe_out_of_order", "status", "dealer",
                  "rounds_played", "last_deck", "next_deck", "current_round", "rules_notice",
                  "created_at", "stream_id", "stream_version"]
        list_serializer_class = TableListSerializer

    def get_next_deck(self, table: GameTable) -> str | None:
        return selectors.next_deck(table)

    @extend_schema_field(RulesNoticeSerializer(allow_null=True))
    def get_rules_notice(self, table: GameTable) -> dict[str, Any] | None:
        notice = selectors.rules_notice(table)
        return RulesNoticeSerializer(notice).data if notice else None


class DeckSerializer(serializers.ModelSerializer):
    table = serializers.UUIDField(source="table_id", allow_null=True)
    stream_id = serializers.CharField()

    class Meta:
        model = Deck
        fields = ["id", "table", "back_colour", "batch", "preinspected", "state", "defects",
                  "cut_required", "entered_play_at", "limit_basis", "deadline_at",
                  "change_warned", "change_due", "rounds_dealt", "rounds_since_count",
                  "removal_reason", "received_at", "stream_id", "stream_version"]


class RoundSerializer(serializers.ModelSerializer):
    table = serializers.UUIDField(source="table_id")
    deck = serializers.UUIDField(source="deck_id")
    rules_submission = serializers.UUIDField(source="rules_id")
    stream_id = serializers.CharField()

    class Meta:
        model = Round
        fields = ["id", "table", "number", "deck", "rules_submission", "rules_version_number",
                  "dealing_method", "state", "opened_at", "closed_at", "stream_id"]


class DeckStepSerializer(serializers.ModelSerializer):
    deck = serializers.UUIDField(source="deck_id")
    back_colour = serializers.CharField(source="deck.back_colour")
    batch = serializers.CharField(source="deck.batch")
    table = serializers.CharField(source="deck.table.name", default=None)

    class Meta:
        model = DeckStep
        fields = ["deck", "back_colour", "batch", "table", "step", "at", "actor", "role",
                  "credential_number", "details"]


class InventoryReportSerializer(serializers.Serializer):
    gaming_day = serializers.DateField()
    received = DeckStepSerializer(many=True)
    in_play = DeckSerializer(many=True)
    removed = DeckStepSerializer(many=True)
    destroyed = DeckStepSerializer(many=True)
    signatures = DeckStepSerializer(many=True, help_text="every signed step of the day")
    digest = DigestSerializer(allow_null=True, help_text=(
        "the signed digest of the event log anchoring this day: its close digest, else "
        "the first made after it ended, else the newest; null when none is stored"))


class SignLineSerializer(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.CharField(allow_blank=True)


class SignSectionSerializer(serializers.Serializer):
    title = serializers.CharField()
    source = serializers.CharField(allow_blank=True)
    lines = SignLineSerializer(many=True)


class SignageSerializer(serializers.Serializer):
    table = serializers.CharField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    rules_version_number = serializers.IntegerField()
    rules_submission = serializers.UUIDField()
    effective_since = serializers.DateTimeField()
    sections = SignSectionSerializer(many=True)
    odds_legend = serializers.ListField(child=serializers.CharField())


# --- inputs ----------------------------------------------------------------------------

class RulesDraftInput(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    options = serializers.JSONField(help_text="the choices the chapter leaves to the "
                                              "certificate holder; see the README")
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class RulesReviseInput(serializers.Serializer):
    options = serializers.JSONField(required=False)
    notes = serializers.CharField(required=False, allow_blank=True)


class ReasonInput(serializers.Serializer):
    reason = serializers.CharField(max_length=4000)


class ApproveInput(serializers.Serializer):
    # Text, checked by the service: an ISO 8601 time must carry its offset, so a time
    # written without one is refused rather than read as UTC.
    effective_at = serializers.CharField(required=False, allow_null=True, default=None,
                                         help_text="ISO 8601 with offset, e.g. "
                                                   "2026-12-01T06:00:00-05:00 (default: now)")
    acknowledge_negative_house_edge = serializers.BooleanField(
        required=False, default=False,
        help_text="required (true) when a selected paytable has a negative house edge; "
                  "recorded on the approval")


class TableConfigureInput(serializers.Serializer):
    name = serializers.CharField(max_length=40)
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    positions = serializers.IntegerField()
    dealing_method = serializers.ChoiceField(choices=[m.value for m in DealingMethod])
    shuffler = serializers.ChoiceField(choices=[s.value for s in Shuffler])


class TableReconfigureInput(serializers.Serializer):
    name = serializers.CharField(max_length=40, required=False)
    positions = serializers.IntegerField(required=False)
    dealing_method = serializers.ChoiceField(choices=[m.value for m in DealingMethod],
                                             required=False)
    shuffler = serializers.ChoiceField(choices=[s.value for s in Shuffler], required=False)


class AssignDealerInput(serializers.Serializer):
    dealer = serializers.CharField(help_text="username of a dealer of this property")


class EquipmentInput(serializers.Serializer):
    device = serializers.ChoiceField(choices=["shuffler", "shoe"])
    out_of_order = serializers.BooleanField()
    covered_or_signed = serializers.BooleanField(required=False, default=False,
                                                 help_text="589.13(g): covered or signed out "
                                                           "of order")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class DeckReceiveInput(serializers.Serializer):
    table = serializers.UUIDField()
    back_colour = serializers.CharField(max_length=30)
    batch = serializers.CharField(max_length=60)
    preinspected_preshuffled = serializers.BooleanField(required=False, default=False)


class InspectInput(serializers.Serializer):
    defects = serializers.ListField(child=serializers.CharField(max_length=200), required=False,
                                    default=list)


class VerifyInput(serializers.Serializer):
    accepted = serializers.BooleanField()
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class SpreadInput(serializers.Serializer):
    players = serializers.IntegerField(help_text="1 at banked games, 2 at poker")


class ShuffleInput(serializers.Serializer):
    method = serializers.ChoiceField(choices=["manual", "automated"])


class CutInput(serializers.Serializer):
    depth = serializers.IntegerField(help_text="cards above the cover card (at least 10)")


class CountInput(serializers.Serializer):
    cards = serializers.IntegerField(min_value=0, max_value=200)


class RemoveInput(serializers.Serializer):
    reason = serializers.ChoiceField(choices=REMOVAL_REASONS)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class NoteInput(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class RoundOpenInput(serializers.Serializer):
    table = serializers.UUIDField()
    deck = serializers.UUIDField()


class EmptyInput(serializers.Serializer):
    pass
