"""The finance API's inputs and outputs (finance.api.views). Pieces by denomination are
taken as JSON and checked by the domain, so a bad count answers with its own code
(``negative_count``, ``invalid_denomination``)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.api.fields import LocalDateTimeField

PIECES = "chips by denomination in cents, e.g. {\"2500\": 40, \"500\": 100}"
DAY = "YYYY-MM-DD; default: the current gaming day"


# The schema says what a client should send; the field takes any JSON so that the domain
# answers a wrong one with its own code (negative_count, invalid_amount ...). A typed
# schema also keeps the API's fuzzing to inputs of the right shape and its wrong ones.
@extend_schema_field({"type": "object", "additionalProperties": {"type": "integer",
                                                                 "minimum": 0},
                      "example": {"2500": 40, "500": 100}})
class PiecesField(serializers.JSONField):
    """Pieces by denomination in cents."""


@extend_schema_field(OpenApiTypes.INT)
class CentsField(serializers.JSONField):
    """A whole number of cents."""


@extend_schema_field(OpenApiTypes.STR)
class WordsField(serializers.JSONField):
    """Text in words."""


class DayIn(serializers.Serializer):
    gaming_day = serializers.CharField(required=False, help_text=DAY)


class InventoryIn(DayIn):
    slip = serializers.CharField(help_text="opener or closer")
    pieces = PiecesField(help_text=PIECES)


class InventorySignIn(DayIn):
    slip = serializers.CharField(help_text="opener or closer")


class ChipSaleIn(serializers.Serializer):
    amount_cents = CentsField(help_text="cash taken for chips, in cents")
    round_id = serializers.UUIDField(required=False,
                                     help_text="the round or hand it was sold in, if any")


class SlipIn(serializers.Serializer):
    kind = serializers.CharField(help_text="fill (chips to the table) or credit (to the cage)")
    pieces = PiecesField(help_text=PIECES)


class SlipStepIn(DayIn):
    slip_id = serializers.CharField()


class SlipVoidIn(SlipStepIn):
    reason = WordsField(help_text="why the slip is voided or was not used")


class CountIn(DayIn):
    cash = PiecesField(required=False, help_text="currency by denomination in cents")
    chips = PiecesField(required=False, help_text="rake chips by denomination")


class ExplainIn(serializers.Serializer):
    explanation = WordsField(help_text="the explanation or investigation, in words")


class CloseIn(serializers.Serializer):
    gaming_day = serializers.CharField(required=False,
                                       help_text="YYYY-MM-DD; default: the day just ended")
    with_open_items = serializers.BooleanField(
        required=False, default=False,
        help_text="close although items are open; they are listed in the close")


class TableDayOut(serializers.Serializer):
    table = serializers.UUIDField(source="table_id")
    gaming_day = serializers.DateField()
    opener_cents = serializers.IntegerField(allow_null=True,
                                            help_text="the signed opening inventory")
    closer_cents = serializers.IntegerField(allow_null=True,
                                            help_text="the signed closing inventory")
    chip_sales_cents = serializers.IntegerField()
    fills_cents = serializers.IntegerField(help_text="fills signed at the table")
    credits_cents = serializers.IntegerField(help_text="credits signed at the table")
    open_slips = serializers.IntegerField(help_text="fill or credit slips not yet signed")
    drop_state = serializers.CharField(help_text="in_play, removed, counted, signed, accepted")
    drop_counted_cents = serializers.IntegerField(allow_null=True)
    slips = serializers.SerializerMethodField()
    inventories = serializers.SerializerMethodField()
    stream_version = serializers.IntegerField()

    def get_slips(self, row: object) -> list[dict]:
        slips = getattr(row, "state", {}).get("slips", {})
        return [{"slip_id": k, "kind": s["kind"], "state": s["state"],
                 "total_cents": s["total_cents"], "pieces": s["pieces"],
                 "signed_by": s["signers"]} for k, s in slips.items()]

    def get_inventories(self, row: object) -> dict:
        return getattr(row, "state", {}).get("inventories", {})


class ExceptionOut(serializers.Serializer):
    exception_id = serializers.UUIDField()
    table = serializers.UUIDField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    gaming_day = serializers.DateField()
    figure = serializers.CharField(help_text="drop, tray or poker_revenue")
    expected_cents = serializers.IntegerField()
    counted_cents = serializers.IntegerField()
    variance_cents = serializers.IntegerField(help_text="counted - expected; below 0: short")
    state = serializers.CharField(help_text="open, explained, signed_off")
    explanation = serializers.CharField()
    explained_by = serializers.CharField()
    explained_at = serializers.DateTimeField(allow_null=True)
    signed_off_by = serializers.CharField()
    signed_off_at = serializers.DateTimeField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    after_close = serializers.BooleanField(help_text="found by a count after the close")


class OpenItemOut(serializers.Serializer):
    """Something still open for a gaming day (finance.services.close.open_items): what it
    is, and where; the other members name the round, slip or count when there is one."""

    item = serializers.CharField(help_text="open_round, open_hand, no_opener, no_closer, "
                                 "opener_unsigned, closer_unsigned, fill_slip_unsigned, "
                                 "credit_slip_unsigned, box_not_counted, count_unsigned, "
                                 "count_not_accepted, jackpot_count_open")
    table = serializers.CharField(required=False, help_text="the table's name")
    table_id = serializers.UUIDField(required=False)
    round_id = serializers.UUIDField(required=False, help_text="an open round or hand")
    number = serializers.CharField(required=False, help_text="the round's number")
    slip_id = serializers.UUIDField(required=False, help_text="a fill or credit slip")
    fund = serializers.CharField(required=False, help_text="a jackpot count's fund")
    count_id = serializers.UUIDField(required=False, help_text="a jackpot box count")


class GamingDayOut(serializers.Serializer):
    gaming_day = serializers.DateField()
    state = serializers.CharField(help_text="open, held (items open at the beat), closed")
    open_items = OpenItemOut(many=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    closed_by = serializers.CharField()
    with_open_items = serializers.BooleanField()


class ReconciliationOut(GamingDayOut):
    starts_at = LocalDateTimeField(help_text="when the gaming day begins, on the "
                                   "property's clock with its offset")
    ends_at = LocalDateTimeField(help_text="when it ends (the next day begins): the close "
                                 "is refused before")
    tables = serializers.JSONField(help_text="each table's figures, expected and counted")
    exceptions = ExceptionOut(many=True)
    adjustments = serializers.JSONField(
        help_text="after the close: each figure that changed since, by table")
