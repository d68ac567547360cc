"""The poker room's API: seats (637a.8) and hands through the dealer terminal. One view
per command (casino.api.commands), each naming the roles it admits; cards are codes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.api.commands import command
from casino.roles import Role, roles_required
from casino.scoping import property_row
from poker_room.api import serializers as s
from poker_room.api.cards import command_in
from poker_room.domain.visibility import AUDIT, TERMINAL
from poker_room.services import hands, seats
from tables.models import GameTable

SEATING = seats.SEATING
FLOOR = seats.FLOOR
DEALING = hands.DEALING
#: who may read a table's seats and a hand as the terminal shows it
TABLE_READERS = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR,
                 Role.COMPLIANCE, Role.SECURITY)
#: who may read a hand's whole record once it is over (637a.18(a) disputes, audits)
HISTORY_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
                   Role.FINANCE, Role.SECURITY)


def _seat_service(fn: Any) -> Any:
    def service(*, actor: Any, table_id: Any, **kw: Any) -> Any:
        return fn(actor=actor, table_id=table_id, **kw)
    service.__name__ = fn.__name__
    return service


seat_player_view = command(
    seats.seat_player, roles=SEATING, input=s.SeatIn, output=s.SeatOut, id_arg="table_id",
    created=True,
    doc="Seat a player and record the buy-in (637a.8(a), (b)(1)): a free seat, a named "
        "player seated nowhere else in the room, a buy-in within the posted limits.")
chips_add_view = command(
    seats.chips_add, roles=SEATING, input=s.ChipsIn, output=s.SeatOut, id_arg="table_id",
    doc="Add to a player's table stakes, only between hands (637a.8(b)(2)).")
sit_out_view = command(
    seats.sit_out, roles=SEATING, input=s.SeatNumberIn, output=s.SeatOut,
    id_arg="table_id",
    doc="The player stays seated and is not dealt in (a per-player time charge still "
        "applies, 637a.17(b)(3)(i)).")
sit_in_view = command(
    seats.sit_in, roles=SEATING, input=s.SeatNumberIn, output=s.SeatOut, id_arg="table_id",
    doc="A player sitting out is dealt in again from the next hand.")
step_away_view = command(
    seats.step_away, roles=FLOOR, input=s.StepAwayIn, output=s.SeatOut, id_arg="table_id",
    doc="A floorperson records the table stakes of a player stepping away "
        "without giving up the seat (637a.8(b)(6)).")
player_return_view = command(
    seats.player_return, roles=FLOOR, input=s.ReturnIn, output=s.SeatOut,
    id_arg="table_id",
    doc="The player returns; the floorperson has verified the stakes are unchanged "
        "(637a.8(b)(6)(i)).")
seat_leave_view = command(
    seats.seat_leave, roles=SEATING, input=s.SeatNumberIn, output=s.LeftOut,
    id_arg="table_id",
    doc="The player leaves with the table stakes (not during a hand the player is in, "
        "637a.8(b)(2)).")
player_remove_view = command(
    seats.player_remove, roles=FLOOR, input=s.RemoveIn, output=s.LeftOut, id_arg="table_id",
    doc="The floor requires a player to leave the game for playing to help another "
        "(637a.18(b)-(c)); the event is the notice to compliance.")
minimum_bet_raise_view = command(
    seats.minimum_bet_raise, roles=SEATING, input=s.MinimumBetIn, output=s.PokerTableOut,
    id_arg="table_id",
    doc="Raise the minimum bet by every player's agreement, within the Rules Submission's "
        "maximum increase (637a.8(k)).")
hand_start_view = command(
    hands.hand_start, roles=DEALING, input=s.HandStartIn, output=s.HandOut,
    id_arg="table_id", created=True,
    doc="Start a hand: the round opens through the deck and rules gate, the players "
        "seated and playing are dealt in, the button moves (637a.11(c)), the forced bets "
        "are posted (637a.10(d), 637a.11(d)).")


def hand_command(*, actor: Any, round_id: Any, command: Any,
                 expected_version: Any = None) -> hands.PokerHand:
    return hands.hand_command(actor=actor, round_id=round_id, commands=[command_in(command)],
                              expected_version=expected_version)


def hand_commands(*, actor: Any, round_id: Any, commands: Any,
                  expected_version: Any = None) -> hands.PokerHand:
    batch = [command_in(c) for c in commands] if isinstance(commands, list) else commands
    return hands.hand_command(actor=actor, round_id=round_id, commands=batch,
                              expected_version=expected_version)


hand_command_view = command(
    hand_command, roles=DEALING, input=s.HandCommandIn, output=s.HandOut, id_arg="round_id",
    doc="One dealer action on the hand: act, deal, draw, discard, card_discard, "
        "hole_card_exposed, misdeal or void (637a.7, 637a.10-637a.21, 637a.18).")
hand_commands_view = command(
    hand_commands, roles=DEALING, input=s.HandBatchIn, output=s.HandOut, id_arg="round_id",
    doc="Several dealer actions in order, all or nothing (the forced bets; a "
        "whole betting round from a terminal that buffers).")

floor_ruling_view = command(
    hands.floor_ruling, roles=hands.RULING, input=s.RulingIn, output=s.HandOut,
    id_arg="round_id",
    doc="A floor ruling on the hand, recorded in its stream (637a.18(a), (s)).")


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

