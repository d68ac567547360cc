"""The bodies of the floor's moving commands (must-move games, table changes, tables
opened and broken by lot) and what they answer. Names of the floor's people are the
floor's roles' to read: these commands are theirs alone."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.fields import LocalDateTimeField
from casino.api.table_field import TableField, TableListField
from poker_floor.api.serializers import list_game_tables
from poker_room.models import Seat


class MustMoveSetIn(serializers.Serializer):
    main_table_id = TableField(tables=list_game_tables, help_text="the main game's table")
    feeder_table_ids = TableListField(
        tables=list_game_tables, child=serializers.UUIDField(), min_length=1, max_length=20,
        help_text="the must-move tables that feed it, each of the list's game")


class MustMoveIn(serializers.Serializer):
    to_seat = serializers.IntegerField(help_text="the free seat at the main table")
    from_table_id = TableField(
        tables=list_game_tables, required=False, allow_null=True,
        help_text="another player than the one seated longest: the table (with from_seat "
                  "and a reason)")
    from_seat = serializers.IntegerField(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000,
                                   help_text="why another player moves first")


class TableChangeIn(serializers.Serializer):
    table_id = TableField(tables=list_game_tables, help_text="the table the player sits at")
    seat = serializers.IntegerField()


class ByLotIn(serializers.Serializer):
    table_id = TableField(tables=list_game_tables)


class MustMoveOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    main_table = serializers.UUIDField(allow_null=True,
                                       help_text="null: not a must-move game")
    feeders = serializers.ListField(child=serializers.UUIDField())


class MovedSeatOut(serializers.ModelSerializer):
    """The seat the player moved to."""

    table = serializers.UUIDField(source="table_id")
    player = serializers.SerializerMethodField()
    seated_at = LocalDateTimeField()

    class Meta:
        model = Seat
        fields = ["table", "seat", "player", "stack_cents", "seated_at"]

    def get_player(self, seat: Seat) -> dict[str, str] | None:
        if seat.anonymous:
            return None
        return {"name": seat.player_name, "phone": seat.player_phone}


class ChangeEntryOut(serializers.Serializer):
    entry = serializers.UUIDField(source="pk")
    kind = serializers.CharField(help_text="change")
    status = serializers.CharField()
    name = serializers.CharField(help_text="the seat's player, or 'seat N at <table>'")
    initials = serializers.CharField()
    from_table = serializers.UUIDField()
    from_seat = serializers.IntegerField()
    listed_at = LocalDateTimeField()


class DrawnSeatOut(serializers.Serializer):
    entry = serializers.UUIDField()
    seat = serializers.IntegerField()
    call = serializers.UUIDField(help_text="the call to the seat drawn")


class OpenedByLotOut(serializers.Serializer):
    table = serializers.UUIDField()
    draw = DrawnSeatOut(many=True, help_text="each player drawn with the seat drawn")


class DrawnMoveOut(serializers.Serializer):
    from_seat = serializers.IntegerField()
    to_table = serializers.UUIDField()
    to_seat = serializers.IntegerField()


class BrokenByLotOut(serializers.Serializer):
    table = serializers.UUIDField()
    draw = DrawnMoveOut(many=True, help_text="each player moved, to the seat drawn")
    listed = serializers.ListField(
        child=serializers.UUIDField(),
        help_text="the entries of those left without a seat, first on the list")
