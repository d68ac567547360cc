"""The bodies of the floor's list and call commands (:mod:`poker_floor.commands`) and the
rows they answer with. The bodies' shapes only: each service checks the values and
refuses with its own code (``invalid_phone``, ``reason_required`` ...)."""

from __future__ import annotations

import uuid
from typing import Any

from rest_framework import serializers

from casino.api.fields import LocalDateTimeField
from casino.api.table_field import TableField
from poker_room.api.serializers import PaidWithField
from tables.domain.catalogue import POKER_GAMES, get_table_game


def list_game_tables(actor: Any, waitlist_id: Any) -> list[tuple[str, str]]:
    """The tables a list's console form offers (``casino.api.table_field``): the tables of
    the list's game at the actor's property, by name — "Table 3 (Texas Hold'em)", a closed
    one so marked; none for a list of another property (its form is a 404 when sent)."""
    from casino.scoping import property_rows
    from poker_floor.models import Waitlist
    from tables.models import GameTable, TableStatus

    try:
        key = uuid.UUID(str(waitlist_id))
    except ValueError:
        return []
    game = property_rows(Waitlist.objects, actor).filter(pk=key).values_list(
        "game", flat=True).first()
    if game is None:
        return []
    games = dict(GameTable._meta.get_field("game").flatchoices)
    rows = property_rows(GameTable.objects, actor).filter(game=game).order_by("name")
    return [(str(pk), f"{name} ({games.get(g, g)}"
                      + (")" if status == TableStatus.OPEN else ", closed)"))
            for pk, name, g, status in rows.values_list("pk", "name", "game", "status")]


class WaitlistOpenIn(serializers.Serializer):
    # a choice, so the console's form offers the poker games by name
    game = serializers.ChoiceField(
        choices=[(g, get_table_game(g).name) for g in POKER_GAMES],
        help_text="a poker game of the catalogue: holdem, omaha-high, stud-high ...")
    open_table_at = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="suggest opening a table when this many are waiting (0 or left out: never)")


class WaitlistConfigureIn(serializers.Serializer):
    open_table_at = serializers.IntegerField(
        help_text="suggest opening a table when this many are waiting (0: never)")


class PlayerListIn(serializers.Serializer):
    name = serializers.CharField(trim_whitespace=False,
                                 help_text="the player's name or initials (1-120 characters)")
    phone = serializers.CharField(required=False, allow_blank=True, default="",
                                  help_text="for paging: checked, stored in E.164; a number "
                                            "without +country code is read in the "
                                            "property's region")
    email = serializers.CharField(required=False, allow_blank=True, default="",
                                  help_text="for paging")


class PlayerDelistIn(serializers.Serializer):
    entry_id = serializers.UUIDField()
    reason = serializers.CharField(allow_blank=True, help_text="why the player is taken off")


class CallNextIn(serializers.Serializer):
    table_id = TableField(tables=list_game_tables, help_text="an open table of the list's game")
    seat = serializers.IntegerField()


class CallPlayerIn(CallNextIn):
    entry_id = serializers.UUIDField()
    reason = serializers.CharField(
        required=False, allow_blank=True, default="",
        help_text="required when players ahead on the list are passed over")


class CallSeatIn(serializers.Serializer):
    buy_in_cents = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="the buy-in, as at any seat (none for a table change: the stakes move)")
    paid_with = PaidWithField(required=False, allow_null=True, default=None)
    stays_listed = serializers.BooleanField(
        required=False, default=False,
        help_text="the player stays on the list once seated (the player's choice): "
                  "as a table change from the seat just taken")


class CallTimeoutIn(serializers.Serializer):
    """No body: the call's deadline has passed."""


class CallCancelIn(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, help_text="why the call is withdrawn")


class WaitlistRowOut(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    name = serializers.CharField(help_text='"$4.00/$8.00 fixed limit Hold\'em"')
    open_table_at = serializers.IntegerField()
    order = serializers.ListField(child=serializers.CharField(),
                                 help_text="the active entries' ids in calling order")


class ListEntryOut(serializers.Serializer):
    """A list entry as the floor's roles see it (the commands are theirs)."""

    id = serializers.UUIDField()
    waitlist = serializers.UUIDField(source="waitlist_id")
    kind = serializers.CharField(help_text="player, change or broken")
    status = serializers.CharField(help_text="waiting, called, seated or removed")
    name = serializers.CharField()
    phone = serializers.CharField(help_text="E.164")
    email = serializers.CharField()
    initials = serializers.CharField()
    source = serializers.CharField(help_text="floor or kiosk")
    listed_at = LocalDateTimeField()
    missed_calls = serializers.IntegerField()


class FloorCallOut(serializers.Serializer):
    id = serializers.UUIDField()
    waitlist = serializers.UUIDField(source="waitlist_id")
    entry = serializers.UUIDField(source="entry_id")
    table = serializers.UUIDField()
    seat = serializers.IntegerField()
    state = serializers.CharField(help_text="open, seated, timed_out or cancelled")
    called_at = LocalDateTimeField()
    deadline_at = LocalDateTimeField()
    answered_at = LocalDateTimeField(allow_null=True)
    reason = serializers.CharField(help_text="why the floor called out of turn ('' in turn)")
