"""Moving seated players (issue 24, items 3 and 4): the move itself (:func:`player_move`,
the table stakes carried as chips), must-move games, table changes, and opening and
breaking tables by lot.

A move is two facts in the two tables' streams (``PlayerLeft`` at the one,
``PlayerSeated`` with the stakes as chips at the other, through the poker room's seat
service) and, for the floor's record, one in the game's list stream (``PlayerMoved``,
``TableOpenedByLot``, ``TableBrokenByLot``), all in one transaction. The list is locked
first, then the tables in the order of their ids (:func:`_lock_tables`), as every floor
command locks them.

The chapter has no rule for moving players between tables: these are the room's posted
procedures (must-move, table changes, seating by lot), recorded so they can be shown.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import transaction

from casino.actors import Actor, system_actor
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import NewEvent
from casino.personal_data import key_create, retention_end, seal
from casino.roles import Role
from casino.scoping import property_row
from poker_floor.domain import queue
from poker_floor.domain.lots import draw
from poker_floor.domain.must_move import FeederSeat, choose, moving_order
from poker_floor.models import Call, CallState, EntryKind, ListEntry, Waitlist
from poker_floor.services.calls import (
    _call,
    _record,
    delist_departed,
    game_table,
    seat_limit,
    vacant_seats,
)
from poker_floor.services.common import FLOOR, AtList
from poker_floor.services.lists import at_list, player_phone
from poker_room.models import PokerTable, Seat, SeatStatus
from poker_room.services import seats as seat_service
from poker_room.services.hand_state import seats_in_hand
from tables.models import GameTable, TableStatus
from tables.services import tables as table_service
from tables.services.common import locked

#: who may move a seated player: as the seat service's (the tables' own checks apply)
MOVING = seat_service.SEATING


class MoveError(DomainError):
    code = "invalid_move"


# --- the move ---------------------------------------------------------------------------

def _lock_tables(actor: Actor, *table_ids: Any) -> list[GameTable]:
    """The tables locked in the order of their ids (a fixed order: two moves between the
    same tables in opposite directions never wait on each other), returned as asked."""
    rows = {key: locked(GameTable, key, actor, what="table")
            for key in sorted({str(t) for t in table_ids})}
    return [rows[str(t)] for t in table_ids]


def _seat_number(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise MoveError("a seat is a whole number from 1", code="invalid_seat", field=field)
    return value


def player_move(*, actor: Actor, from_table_id: Any, from_seat: Any, to_table_id: Any,
                to_seat: Any, roles: tuple[Role, ...] = MOVING) -> Seat:
    """Move a seated player with the table stakes to another seat of the same game: the
    player leaves the one seat (``PlayerLeft``, the poker room's seat_leave) and is seated
    at the other with the stakes as chips brought (``PlayerSeated`` with ``carried_from``;
    no buy-in, so no buy-in limit), in the caller's transaction.

    Refused, with nothing recorded: the player in the hand in progress (``seat_in_hand``,
    637a.8(b)(2): stakes are not removed during a round of play), a taken seat
    (``seat_taken``), a table of another game (``table_not_in_game``), a closed table
    (``table_not_open``), a player with no stakes to carry (``no_table_stakes``).

    A system actor (the automatic must-move, :func:`must_move_offer`) holds no role: the
    seat service records its steps under the role "system", a move being the one step
    at a table it may take."""
    if not actor.system:
        actor.require(*roles)
    source_seat = _seat_number(from_seat, "from_seat")
    target_seat = _seat_number(to_seat, "to_seat")
    with transaction.atomic():
        source, target = _lock_tables(actor, from_table_id, to_table_id)
        if target.game != source.game:
            raise ConflictError(f"table {target.name} plays another game than table "
                                f"{source.name}", code="table_not_in_game")
        if target.status != TableStatus.OPEN:
            raise ConflictError(f"table {target.name} is not open", code="table_not_open")
        moving = Seat.objects.filter(table_id=source.pk, seat=source_seat).first()
        if moving is None:
            raise MoveError(f"nobody is seated at seat {source_seat} of table {source.name}",
                            code="seat_empty", field="from_seat")
        if Seat.objects.filter(table_id=target.pk, seat=target_seat).exists():
            raise ConflictError(f"seat {target_seat} of table {target.name} is taken",
                                code="seat_taken")
        if moving.stack_cents < 1:
            raise ConflictError("the player has no table stakes to move with",
                                code="no_table_stakes")
        player = ({"name": moving.player_name, "phone": moving.player_phone}
                  if moving.player_name else None)
        seat_service.seat_leave(actor=actor, table_id=source.pk, seat=source_seat,
                                moving=True)
        return seat_service.seat_player(
            actor=actor, table_id=target.pk, seat=target_seat, buy_in_cents=moving.stack_cents,
            paid_with="chips", player=player, personal_subject=moving.personal_subject,
            carried_from={"table": str(source.pk), "seat": source_seat})


# --- the list's tables ----------------------------------------------------------------

def _of_game(actor: Actor, waitlist: Waitlist, table_id: Any, field: str) -> GameTable:
    """A table of the list's game at the actor's property, open or not (404 for anything
    else, 409 ``table_not_in_game`` for a table of another game)."""
    table = property_row(GameTable.objects.all(), actor, table_id, what="table")
    if table.game != waitlist.game:
        raise ConflictError(f"table {table.name} does not play {waitlist.name}",
                            code="table_not_in_game", field=field)
    return table


def _hand_at(table_id: Any) -> Any:
    """The id of the hand in progress at the table, or None."""
    return PokerTable.objects.filter(table_id=table_id).values_list(
        "current_hand_id", flat=True).first()


def _in_hand(table_id: Any) -> set[int]:
    hand = _hand_at(table_id)
    return set(seats_in_hand(hand)) if hand else set()


# --- must-move games ----------------------------------------------------------------------

def must_move_set(*, actor: Actor, waitlist_id: Any, main_table_id: Any,
                  feeder_table_ids: Any) -> Waitlist:
    """Make a table of the list's game a must-move game's main table, fed by the other
    tables of the game named (``MustMoveSet``; one made before is replaced)."""
    with transaction.atomic():
        at = AtList(actor, waitlist_id)
        if not isinstance(feeder_table_ids, list | tuple) or not feeder_table_ids:
            raise MoveError("name one or more must-move tables that feed the main table",
                            code="invalid_feeders", field="feeder_table_ids")
        main = _of_game(actor, at.list, main_table_id, "main_table_id")
        feeders = [_of_game(actor, at.list, t, "feeder_table_ids") for t in feeder_table_ids]
        ids = [str(t.pk) for t in feeders]
        if len(set(ids)) != len(ids) or str(main.pk) in ids:
            raise MoveError("each must-move table is named once, and is not the main table",
                            code="invalid_feeders", field="feeder_table_ids")
        at.record(NewEvent("MustMoveSet", {"main_table": str(main.pk), "feeders": ids}))
    return Waitlist.objects.get(pk=at.list.pk)


def must_move_clear(*, actor: Actor, waitlist_id: Any) -> Waitlist:
    """The game is no longer a must-move game (``MustMoveCleared``)."""
    with transaction.atomic():
        at = AtList(actor, waitlist_id)
        if at.list.main_table is None:
            raise ConflictError("this game has no must-move tables", code="no_must_move")
        at.record(NewEvent("MustMoveCleared", {"main_table": str(at.list.main_table)}))
    return Waitlist.objects.get(pk=at.list.pk)


def _feeder_seats(waitlist: Waitlist) -> list[Seat]:
    return list(Seat.objects.filter(table_id__in=waitlist.feeders))


def _feeder_order(seats: list[Seat]) -> list[FeederSeat]:
    return moving_order(FeederSeat(str(s.table_id), s.seat, s.seated_at) for s in seats)


def _main_seat_free(main: GameTable, seat: int) -> None:
    """``must_move_table_full`` unless ``seat`` is a free seat of the main table (and so
    the table has one); ``seat_already_offered`` when a listed player is called to it."""
    limit = seat_limit(main)
    if not 1 <= seat <= limit:
        raise MoveError(f"seats are numbered 1 to {limit} at table {main.name}",
                        code="invalid_seat", field="to_seat")
    taken = set(Seat.objects.filter(table_id=main.pk).values_list("seat", flat=True))
    if len(taken) >= limit:
        raise ConflictError(f"the main table {main.name} is full",
                            code="must_move_table_full", field="to_seat")
    if seat in taken:
        raise ConflictError(f"seat {seat} of the main table {main.name} is taken",
                            code="must_move_table_full", field="to_seat")
    if Call.objects.filter(table=main.pk, seat=seat, state=CallState.OPEN).exists():
        raise ConflictError(f"seat {seat} of table {main.name} is offered to a listed player",
                            code="seat_already_offered", field="to_seat")


def _main_table(actor: Actor, waitlist: Waitlist) -> GameTable:
    if waitlist.main_table is None:
        raise ConflictError("this game has no must-move tables", code="no_must_move")
    main = locked(GameTable, waitlist.main_table, actor, what="table")
    if main.status != TableStatus.OPEN:
        raise ConflictError(f"the main table {main.name} is not open", code="table_not_open")
    return main


def must_move(*, actor: Actor, waitlist_id: Any, to_seat: Any, from_table_id: Any = None,
              from_seat: Any = None, reason: Any = None) -> Seat:
    """Move the player seated longest at the must-move tables to ``to_seat`` of the main
    table — or the player the floor names (``from_table_id``, ``from_seat``), with a reason
    when another has been seated longer (400 ``reason_required``). A taken seat or a full
    main table: 409 ``must_move_table_full``. ``PlayerMoved`` records the whole order the
    player was chosen from (each feeder player's table, seat and time seated)."""
    seat = _seat_number(to_seat, "to_seat")
    with transaction.atomic():
        at = AtList(actor, waitlist_id)
        main = _main_table(actor, at.list)
        _main_seat_free(main, seat)
        choice = choose(_feeder_order(_feeder_seats(at.list)),
                        table=None if from_table_id is None else str(from_table_id),
                        seat=from_seat, reason=reason)
        moved = player_move(actor=actor, from_table_id=choice.moving.table,
                            from_seat=choice.moving.seat, to_table_id=main.pk, to_seat=seat,
                            roles=FLOOR)
        at.record(_player_moved(choice.moving.table, choice.moving.seat, main.pk, seat,
                                "must_move", [s.recorded() for s in choice.order],
                                choice.reason))
    return moved


def _player_moved(from_table: Any, from_seat: int, to_table: Any, to_seat: int, why: str,
                  order: list[dict[str, Any]], reason: str) -> NewEvent:
    return NewEvent("PlayerMoved", {
        "from_table": str(from_table), "from_seat": from_seat, "to_table": str(to_table),
        "to_seat": to_seat, "why": why, "order": order, "reason": reason, "entry": None})


#: the reason the system records when it passes over players seated longer
IN_HAND_REASON = ("the players seated longer were in the hand in progress at their "
                  "tables, or away from them")


def must_move_offer(waitlist: Any, table_id: Any, seat: int) -> bool:
    """The system's offer of a seat opened at a must-move game's main table (the list's
    seat offer, ``poker_floor.services.calls.seats_offer``, asks this first): with
    FLOOR_AUTO_CALL, the player seated longest at the must-move tables moves to it at
    once — passing over, with the reason recorded, a player in the hand in progress at
    a feeder (who cannot take the stakes off the table, 637a.8(b)(2)) or away from the
    table — and True is returned. False when nobody moved (not the main table, the seat
    not free, nobody to move, the offer not automatic): the list is offered the seat.

    The feeder seat left empty is offered to the list in turn (its ``PlayerLeft``)."""
    if not settings.FLOOR_AUTO_CALL:
        return False
    row = Waitlist.objects.select_related("property").filter(
        pk=getattr(waitlist, "pk", waitlist)).first()
    if row is None or not isinstance(seat, int) or isinstance(seat, bool):
        return False
    actor = system_actor(row.property, "must-move")
    with transaction.atomic():
        at = at_list(actor, row.pk)
        if at.list.main_table is None or str(at.list.main_table) != str(table_id):
            return False
        try:
            main = _main_table(actor, at.list)
            _main_seat_free(main, seat)
        except DomainError:
            return False
        seats = _feeder_seats(at.list)
        order = _feeder_order(seats)
        away = {(str(s.table_id), s.seat) for s in seats
                if s.status == SeatStatus.AWAY or s.stack_cents < 1}
        busy: dict[str, set[int]] = {}
        eligible = [s for s in order if (s.table, s.seat) not in away
                    and s.seat not in busy.setdefault(s.table, _in_hand(s.table))]
        if not eligible:
            return False
        moving = eligible[0]
        player_move(actor=actor, from_table_id=moving.table, from_seat=moving.seat,
                    to_table_id=main.pk, to_seat=seat, roles=FLOOR)
        at.record(_player_moved(moving.table, moving.seat, main.pk, seat, "must_move",
                                [s.recorded() for s in order],
                                "" if moving == order[0] else IN_HAND_REASON))
    return True


# --- table changes and a broken table's players: entries served before the list ------------

def _seated_details(seat: Seat, table: GameTable) -> dict[str, str]:
    """What a table change or a broken table's entry says of the player: the name and
    phone the seat recorded, else "seat 4 at holdem-2" (an anonymous seat)."""
    try:
        phone = player_phone(seat.player_phone)
    except DomainError:  # the seat's phone is free text; a page needs a real number
        phone = ""
    name = seat.player_name or f"seat {seat.seat} at {table.name}"
    return {"name": name, "phone": phone, "email": ""}


def _listed(waitlist: Waitlist, kind: str, table: GameTable, seat: Seat
            ) -> tuple[str, NewEvent]:
    """A new entry of ``kind`` for the player at ``seat`` of ``table``: its key, and its
    ``PlayerListed`` with the details sealed under it, as every entry is made
    (poker_floor.services.lists.player_list)."""
    entry_id = uuid.uuid4()
    key = key_create(subject=entry_id, property_id=waitlist.property_id, kind="list_entry",
                     retain_until=retention_end("list_entry"))
    return str(entry_id), NewEvent("PlayerListed", {
        "entry": str(entry_id),
        "details": seal(entry_id, _seated_details(seat, table), key=key),
        "source": "floor", "kind": kind, "from_table": str(table.pk),
        "from_seat": seat.seat, "seated_at": seat.seated_at.isoformat()})


def table_change_request(*, actor: Actor, waitlist_id: Any, table_id: Any,
                         seat: Any) -> ListEntry:
    """A player seated at a table of the list's game asks for another table of it: a
    ``change`` entry, called before the list's players, in the order asked, and never to
    a seat at the player's own table. 409 ``already_listed`` when that seat has asked
    already."""
    number = _seat_number(seat, "seat")
    with transaction.atomic():
        at = AtList(actor, waitlist_id)
        table = game_table(actor, at.list, table_id)
        player = Seat.objects.filter(table_id=table.pk, seat=number).first()
        if player is None:
            raise MoveError(f"nobody is seated at seat {number} of table {table.name}",
                            code="seat_empty", field="seat")
        if ListEntry.objects.filter(waitlist=at.list, kind=EntryKind.CHANGE,
                                    status__in=queue.ACTIVE, from_table=table.pk,
                                    from_seat=number).exists():
            raise ConflictError(f"seat {number} at table {table.name} has asked for a table "
                                "change already", code="already_listed")
        entry_id, listed = _listed(at.list, EntryKind.CHANGE.value, table, player)
        at.record(listed)
    return ListEntry.objects.get(pk=entry_id)


# --- opening and breaking tables by lot ---------------------------------------------

def table_open_by_lot(*, actor: Actor, waitlist_id: Any, table_id: Any) -> dict[str, Any]:
    """Open a table of the list's game for the top of the list: the first eligible
    waiting players, as many as it has seats, are drawn to its seats by lot
    (``TableOpenedByLot`` records the draw) and each is called to the seat drawn
    (``SeatOffered`` with ``by_lot``). A closed table is opened here, by the tables'
    own command, in the same transaction (so the list's automatic offer of the new seats
    finds them called); an open one must be empty, nobody seated or called
    (``table_not_empty``). Nobody waiting: ``list_empty``."""
    with transaction.atomic():
        at = AtList(actor, waitlist_id)
        table = _of_game(actor, at.list, table_id, "table_id")
        if table.status != TableStatus.OPEN:
            table_service.table_open(actor=actor, table_id=table.pk)
        table = game_table(actor, at.list, table.pk)
        locked(GameTable, table.pk, actor, what="table")
        if Seat.objects.filter(table_id=table.pk).exists() or Call.objects.filter(
                table=table.pk, state=CallState.OPEN).exists():
            raise ConflictError(f"table {table.name} has players seated or called",
                                code="table_not_empty", field="table_id")
        seats = list(range(1, seat_limit(table) + 1))
        # a table change whose player has left is taken off, never drawn
        top = queue.eligible(delist_departed(at), str(table.pk))[:len(seats)]
        if not top:
            raise ConflictError("nobody on the list is waiting for a seat", code="list_empty")
        lot = draw([e.id for e in top], seats)
        drawn = [{"entry": entry, "seat": seat} for entry, seat in lot.pairs]
        _record(at, NewEvent("TableOpenedByLot", {"table": str(table.pk), "draw": drawn}),
                table=table.pk)
        for d in drawn:
            d["call"] = str(_call(at, d["entry"], table, d["seat"], by_lot=True))
    return {"table": str(table.pk), "draw": drawn, "listed": []}


def table_break_by_lot(*, actor: Actor, waitlist_id: Any, table_id: Any) -> dict[str, Any]:
    """Break a table of the list's game: every player there is seated by lot at the
    vacant seats of the game's other open tables (moved with the stakes,
    :func:`player_move`); those the lot leaves without a seat are listed first, as
    ``broken`` entries in the order drawn, keeping their stakes (moved when called).
    ``TableBrokenByLot`` records the draw, a ``PlayerMoved`` each move; the table is then
    closed by the tables' own command, in the same transaction (so no seat there is
    offered to the list). Not while a hand is in progress there (``hand_in_progress``);
    nobody seated: ``table_empty``."""
    with transaction.atomic():
        at = AtList(actor, waitlist_id)
        broken = game_table(actor, at.list, table_id)
        others = list(GameTable.objects.filter(property=at.list.property_id,
                                               game=at.list.game, status=TableStatus.OPEN)
                      .exclude(pk=broken.pk).order_by("name"))
        _lock_tables(actor, broken.pk, *(t.pk for t in others))
        if _hand_at(broken.pk):
            raise ConflictError(f"a hand is in progress at table {broken.name}",
                                code="hand_in_progress")
        players = {s.seat: s for s in Seat.objects.filter(table_id=broken.pk)}
        if not players:
            raise ConflictError(f"nobody is seated at table {broken.name}",
                                code="table_empty", field="table_id")
        vacant = [(str(t.pk), n) for t in others for n in vacant_seats(t)]
        lot = draw(sorted(players), vacant)
        moves = [{"from_seat": seat, "to_table": to_table, "to_seat": to_seat}
                 for seat, (to_table, to_seat) in lot.pairs]
        for m in moves:
            player_move(actor=actor, from_table_id=broken.pk, from_seat=m["from_seat"],
                        to_table_id=m["to_table"], to_seat=m["to_seat"], roles=FLOOR)
        entries = [_listed(at.list, EntryKind.BROKEN.value, broken, players[seat])
                   for seat in lot.unplaced]
        listed = [entry for entry, _ in entries]
        at.record(
            NewEvent("TableBrokenByLot", {"table": str(broken.pk), "draw": moves,
                                          "listed": listed}),
            *(_player_moved(broken.pk, m["from_seat"], m["to_table"], m["to_seat"],
                            "table_broken", [], "") for m in moves),
            *(event for _, event in entries))
        table_service.table_close(actor=actor, table_id=broken.pk)
    return {"table": str(broken.pk), "draw": moves, "listed": listed}
