"""Calling and seating from a list (issue 24, item 2; 637a.8(a) seating).

A seat that opens at an open table of the list's game is offered to the first eligible
entry (:mod:`poker_floor.domain.queue`); the floor may call someone else only with a
reason, and the entries passed over are recorded (``SeatOffered.passed``). The called
player has the Rules' ``call_minutes`` to take the seat; after that the call times out
and the posted procedure moves the player down (or off, at the last allowed miss) and the
seat is offered to the next — in the same transaction as the timeout. A called player who
comes is seated through the poker room's seat service (``seat_player``, the buy-in as it
is recorded today) in the same transaction as ``PlayerSeatedFromList``; a table change
or a broken table's player is moved with the stakes (``poker_floor.services.moves``).

Every call's timeout is a Celery task queued on commit with its deadline as ETA
(``poker_floor.call_timeout``), and its page another (``poker_floor.page_call``); the beat
sweep (``calls_expire``, ``seats_offer``) catches whatever message was lost.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from casino.actors import Actor, system_actor
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import NewEvent
from casino.scoping import property_row
from poker_floor import hooks
from poker_floor.domain import queue
from poker_floor.models import Call, CallState, EntryKind, ListEntry, Waitlist
from poker_floor.services.common import FLOOR, SEATING, AtList, FloorError, list_rules
from poker_floor.services.lists import active_entry, at_list, holder_left, reason_given
from poker_floor.services.pages import pages_sweep
from poker_room.domain.rules import TableRules
from poker_room.models import Seat
from poker_room.services import seats as seat_service
from tables.domain.catalogue import get_table_game
from tables.models import GameTable, RulesSubmission, TableStatus
from tables.selectors import rules_in_force

log = logging.getLogger(__name__)

#: why a change or broken-table entry seated through a call moved (PlayerMoved.why)
MOVE_WHY = {EntryKind.CHANGE: "table_change", EntryKind.BROKEN: "table_broken"}


# --- reading the list -----------------------------------------------------------------

def _in_force(row: Waitlist | GameTable) -> RulesSubmission | None:
    """The Rules Submission in force for the row's game at its property, read once per
    row in hand (a command's locked list, its table): one command, one read."""
    if not hasattr(row, "_floor_rules"):
        row._floor_rules = rules_in_force(row.property, row.game)  # type: ignore[union-attr]
    return row._floor_rules  # type: ignore[union-attr]


def rules_of(waitlist: Waitlist) -> dict[str, int]:
    """The list's procedure (call_minutes, move_down_places, missed_calls_allowed) from
    its game's Rules Submission in force, the defaults where it posts none."""
    rules = _in_force(waitlist)
    return list_rules(rules.options if rules else None)


def entries_in_order(waitlist: Waitlist) -> list[queue.Entry]:
    """The list's active entries in calling order."""
    rows = {str(e.pk): e for e in ListEntry.objects.filter(pk__in=waitlist.order).only(
        "id", "kind", "status", "from_table")}
    return [queue.Entry(id=i, kind=rows[i].kind, status=rows[i].status,
                        from_table=str(rows[i].from_table) if rows[i].from_table else None)
            for i in waitlist.order if i in rows]


#: why a call is cancelled at its deadline when its seat was taken meanwhile (review #4)
SEAT_TAKEN_REASON = "the seat was taken before the player came"
#: why the system takes a table change (or a broken table's player) off the list
PLAYER_LEFT_REASON = "the player left the seat the entry was listed from"


def _holder_gone() -> Any:
    """The condition on ListEntry rows of a table change or a broken table's player
    whose player no longer holds the seat listed from: nobody sits there, or someone
    seated after the entry was listed (the player left or moved; review #2)."""
    return ~Exists(Seat.objects.filter(table_id=OuterRef("from_table"),
                                       seat=OuterRef("from_seat"),
                                       seated_at__lte=OuterRef("listed_at")))


def delist_departed(at: AtList, entries: list[queue.Entry] | None = None
                    ) -> list[queue.Entry]:
    """Take off the list, in the command's transaction, each waiting table change or
    broken table's player whose player has left the seat listed from (PlayerDelisted by
    the acting floorperson or system) — so a seat is never offered to, nor a move made
    for, whoever sits there now. Returns the list's entries in calling order without
    them (``entries``: those already read; a list with no such entry waiting costs no
    read more)."""
    if entries is None:
        entries = entries_in_order(at.list)
    moving = [e.id for e in entries if e.kind in MOVE_WHY and e.status == queue.WAITING]
    if not moving:
        return entries
    gone = {str(pk) for pk in ListEntry.objects.filter(pk__in=moving)
            .filter(_holder_gone()).values_list("pk", flat=True)}
    if gone:
        _record(at, *(NewEvent("PlayerDelisted", {"entry": e, "reason": PLAYER_LEFT_REASON})
                      for e in at.list.order if e in gone))
        at.list.order = [e for e in at.list.order if e not in gone]
    return [e for e in entries if e.id not in gone]


def _record(at: AtList, *events: NewEvent, **meta: Any) -> None:
    """Record at the list's version and keep the locked row's version with it (a command
    may record twice: a timeout, then the next call)."""
    recorded = at.record(*events, **meta)
    at.list.stream_version = recorded[-1].version


# --- tables and seats -----------------------------------------------------------------

def _seat_number(seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 < seat < 2 ** 31


def _with_seat(tables: Any, seat: Any) -> Any:
    """The tables read with whether ``seat`` is taken and whether it has an open call
    (for :func:`vacant_seat`), in the same query."""
    if not _seat_number(seat):
        return tables
    return tables.annotate(
        floor_seat_taken=Exists(Seat.objects.filter(table_id=OuterRef("pk"), seat=seat)),
        floor_seat_offered=Exists(Call.objects.filter(table=OuterRef("pk"), seat=seat,
                                                      state=CallState.OPEN)))


def _seat_read(table: GameTable, seat: Any) -> None:
    if hasattr(table, "floor_seat_taken"):
        table._floor_vacancy = (seat, table.floor_seat_taken,  # type: ignore[attr-defined]
                                table.floor_seat_offered)


def game_table(actor: Actor, waitlist: Waitlist, table_id: Any,
               seat: Any = None) -> GameTable:
    """An open table of the list's game at the actor's property: 404 ``table_not_found``,
    409 ``table_not_in_game`` (a table of another game), 409 ``table_not_open``. With
    ``seat``, whether it is vacant is read with the table (:func:`vacant_seat`); the
    table shares the list's property and Rules Submission in force (one read each)."""
    table = property_row(_with_seat(GameTable.objects.all(), seat), actor, table_id,
                         what="table")
    _seat_read(table, seat)
    if table.game != waitlist.game:
        raise ConflictError(f"table {table.name} plays {get_table_game(table.game).name}, "
                            f"not this list's game", code="table_not_in_game",
                            field="table_id")
    if table.status != TableStatus.OPEN:
        raise ConflictError(f"table {table.name} is not open", code="table_not_open",
                            field="table_id")
    table.property = waitlist.property
    table._floor_rules = _in_force(waitlist)  # type: ignore[attr-defined]  # same game
    return table


def seat_limit(table: GameTable) -> int:
    """The seats a player may take at ``table`` (as the seat service counts them)."""
    found = _in_force(table)
    if found is None:
        raise ConflictError(f"no Rules Submission for {table.game} is in effect",
                            code="no_rules_in_effect")
    rules = TableRules.from_options(table.game, found.options)
    return min(table.positions, rules.max_players or table.positions)


def vacant_seat(table: GameTable, seat: Any) -> int:
    """``seat`` checked free to offer: within the table's seats (400 ``invalid_seat``),
    nobody seated there (409 ``seat_taken``), no open call for it (409
    ``seat_already_offered``)."""
    limit = seat_limit(table)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= limit:
        raise FloorError(f"seats are numbered 1 to {limit} at table {table.name}",
                         code="invalid_seat", field="seat")
    known = getattr(table, "_floor_vacancy", None)
    if known is None or known[0] != seat:
        known = (seat, *_with_seat(GameTable.objects.filter(pk=table.pk), seat)
                 .values_list("floor_seat_taken", "floor_seat_offered").get())
    _, taken, offered = known
    table._floor_vacancy = None  # type: ignore[attr-defined]  # read once: a call follows
    if taken:
        raise ConflictError(f"seat {seat} of table {table.name} is taken", code="seat_taken",
                            field="seat")
    if offered:
        raise ConflictError(f"seat {seat} of table {table.name} is offered already",
                            code="seat_already_offered", field="seat")
    return seat


def vacant_seats(table: GameTable) -> list[int]:
    """The seats of ``table`` nobody sits in and nobody is called to."""
    taken = set(Seat.objects.filter(table_id=table.pk).values_list("seat", flat=True))
    taken |= set(Call.objects.filter(table=table.pk, state=CallState.OPEN)
                 .values_list("seat", flat=True))
    return [s for s in range(1, seat_limit(table) + 1) if s not in taken]


# --- calling --------------------------------------------------------------------------

def _call(at: AtList, entry: str, table: GameTable, seat: int, *, reason: str = "",
          passed: list[str] | None = None, by_lot: bool = False,
          now: datetime | None = None) -> uuid.UUID:
    """Record the call (SeatOffered) and queue its timeout and its page for the commit."""
    minutes = rules_of(at.list)["call_minutes"]
    deadline = (now or timezone.now()) + timedelta(
        seconds=minutes * float(settings.FLOOR_CALL_MINUTE_SECONDS))
    call_id = uuid.uuid4()
    _record(at, NewEvent("SeatOffered", {
        "call": str(call_id), "entry": entry, "table": str(table.pk), "seat": seat,
        "deadline": deadline.isoformat(), "reason": reason, "passed": passed or [],
        "by_lot": by_lot}), table=table.pk)
    hooks.send("poker_floor.call_timeout", [str(call_id)], eta=deadline)
    hooks.send("poker_floor.page_call", [str(call_id)])
    return call_id


def call_next(*, actor: Actor, waitlist_id: Any, table_id: Any, seat: Any) -> Call:
    """Offer ``seat`` at ``table_id`` to the first eligible player on the list (table
    changes and a broken table's players first; a table change never at its own table).
    409 ``list_empty`` when nobody can be offered it."""
    with transaction.atomic():
        at = at_list(actor, waitlist_id)
        table = game_table(actor, at.list, table_id, seat)
        number = vacant_seat(table, seat)
        first = queue.first_eligible(delist_departed(at), str(table.pk))
        if first is None:
            raise ConflictError("nobody on the list can be offered this seat",
                                code="list_empty")
        call_id = _call(at, first.id, table, number)
    return Call.objects.get(pk=call_id)


def call_player(*, actor: Actor, waitlist_id: Any, entry_id: Any, table_id: Any, seat: Any,
                reason: Any = "") -> Call:
    """Offer ``seat`` to one player on the list. Calling someone other than the first
    eligible player passes over those ahead: 400 ``reason_required`` without a reason;
    the entries passed over are recorded with it (the fairness record shows them)."""
    with transaction.atomic():
        at = at_list(actor, waitlist_id)
        table = game_table(actor, at.list, table_id, seat)
        number = vacant_seat(table, seat)
        entry = active_entry(at.list, entry_id)
        if entry.status == queue.CALLED:
            raise ConflictError("the player has been called to another seat already",
                                code="entry_already_called", field="entry_id")
        if holder_left(entry):
            raise ConflictError("the player has left the seat this entry was listed from",
                                code="entry_player_left", field="entry_id")
        if entry.kind == EntryKind.CHANGE and str(entry.from_table) == str(table.pk):
            raise ConflictError("a table change is not offered a seat at the player's own "
                                "table", code="entry_own_table", field="table_id")
        # a table change whose player has left is taken off, not passed over
        passed = queue.passed_over(delist_departed(at), str(table.pk), str(entry.pk))
        given = reason if isinstance(reason, str) and reason.strip() else ""
        why = reason_given(reason) if passed or given else ""
        call_id = _call(at, str(entry.pk), table, number, reason=why, passed=passed)
    return Call.objects.get(pk=call_id)


# --- answering a call -----------------------------------------------------------------

def _open_call(actor: Actor, call_id: Any, roles: tuple[Any, ...]) -> tuple[AtList, Call]:
    """The call's list locked, then the call read under the lock: 404
    ``call_not_found``; 409 ``call_already_answered`` unless it is still open."""
    call = property_row(Call.objects.all(), actor, call_id, what="call")
    at = at_list(actor, call.waitlist_id, roles)
    call = Call.objects.get(pk=call.pk)
    if call.state != CallState.OPEN:
        raise ConflictError(f"the call was answered already ({call.get_state_display()})",
                            code="call_already_answered")
    return at, call


def call_timeout(*, actor: Actor, call_id: Any) -> Call:
    """The called player did not come within the Rules' time: moved down the posted
    number of places, or taken off at the last allowed miss (CallTimedOut.moved_to: the
    new position, or None); then the seat is offered to the next player, in the same
    transaction (with FLOOR_AUTO_CALL). 409 ``call_not_due`` before the deadline, 409
    ``call_already_answered`` once seated, timed out or cancelled. A seat someone else
    took meanwhile is no miss of the player's: the call is cancelled (CallCancelled,
    :data:`SEAT_TAKEN_REASON`) and the player keeps the place."""
    return _timeout(actor, call_id, timezone.now())


def _timeout(actor: Actor, call_id: Any, now: datetime) -> Call:
    with transaction.atomic():
        at, call = _open_call(actor, call_id, FLOOR)
        if now < call.deadline_at:
            raise ConflictError(f"the player has until {call.deadline_at.isoformat()} to come",
                                code="call_not_due")
        if Seat.objects.filter(table_id=call.table, seat=call.seat).exists():
            # seated by the dealer meanwhile (a walk-in, a player back): no miss counted
            _record(at, NewEvent("CallCancelled", {"call": str(call.pk),
                                                   "entry": str(call.entry_id),
                                                   "reason": SEAT_TAKEN_REASON}),
                    table=call.table)
            return Call.objects.get(pk=call.pk)
        rules = rules_of(at.list)
        entry = ListEntry.objects.get(pk=call.entry_id)
        allowed = rules["missed_calls_allowed"]
        if entry.kind == EntryKind.BROKEN and entry.missed_calls + 1 >= allowed \
                and not holder_left(entry):
            # a broken table's player still holds the stakes at the closed table: taking
            # the entry off would strand them (a cash-out is a person's step at a table,
            # player_delist takes it): moved down as before the last miss, left to the
            # floor (review #6)
            allowed = entry.missed_calls + 2
        miss = queue.missed_call(at.list.order, str(entry.pk),
                                 missed_before=entry.missed_calls,
                                 move_down_places=rules["move_down_places"],
                                 missed_calls_allowed=allowed)
        _record(at, NewEvent("CallTimedOut", {"call": str(call.pk), "entry": str(entry.pk),
                                              "missed": miss.missed,
                                              "moved_to": miss.moved_to}),
                table=call.table)
        if settings.FLOOR_AUTO_CALL:
            at.list.order = miss.order
            _offer_again(at, call, str(entry.pk), now)
    return Call.objects.get(pk=call.pk)


def _offer_again(at: AtList, call: Call, missed_entry: str, now: datetime) -> None:
    """The seat of a call that timed out or was cancelled, offered to the next eligible
    player (not the one whose call it was) if it is still vacant at a table still
    open."""
    table = _with_seat(GameTable.objects.filter(pk=call.table), call.seat).first()
    if table is None or table.status != TableStatus.OPEN:
        return
    _seat_read(table, call.seat)
    if table.property_id == at.list.property_id:
        table.property = at.list.property
        if table.game == at.list.game:
            table._floor_rules = _in_force(at.list)  # type: ignore[attr-defined]
    try:
        vacant_seat(table, call.seat)
    except DomainError:
        return
    rest = [e for e in delist_departed(at) if e.id != missed_entry]
    nxt = queue.first_eligible(rest, str(table.pk))
    if nxt is not None:
        _call(at, nxt.id, table, call.seat, now=now)


def call_cancel(*, actor: Actor, call_id: Any, reason: Any) -> Call:
    """Withdraw an open call, saying why; the player keeps their place on the list. The
    seat is offered to the next eligible player — never the one whose call was withdrawn
    — in the same transaction (with FLOOR_AUTO_CALL), as after a timeout, so the system's
    offer does not call the same player to it again (review #5)."""
    why = reason_given(reason)
    with transaction.atomic():
        at, call = _open_call(actor, call_id, FLOOR)
        _record(at, NewEvent("CallCancelled", {"call": str(call.pk),
                                               "entry": str(call.entry_id), "reason": why}),
                table=call.table)
        if settings.FLOOR_AUTO_CALL:
            _offer_again(at, call, str(call.entry_id), timezone.now())
    return Call.objects.get(pk=call.pk)


def call_seat(*, actor: Actor, call_id: Any, buy_in_cents: Any = None, paid_with: Any = None,
              stays_listed: Any = False) -> Call:
    """The called player takes the seat: seated through the poker room's seat service
    (``seat_player``: the buy-in and how it was paid, as at any seat; the player's name
    and phone from the list), or — a table change, a broken table's player — moved there
    with the table stakes (``player_move``); then PlayerSeatedFromList, in the same
    transaction. The player leaves the list unless ``stays_listed``: then the entry is a
    table change from the seat just taken (listed at the seating, never offered a seat at
    that table, moved with the stakes when called elsewhere; review #3)."""
    if not isinstance(stays_listed, bool):
        raise FloorError("stays_listed is true or false", code="invalid_choice",
                         field="stays_listed")
    with transaction.atomic():
        at, call = _open_call(actor, call_id, SEATING)
        entry = ListEntry.objects.get(pk=call.entry_id)
        moving = entry.kind in MOVE_WHY and entry.from_table and entry.from_seat
        if moving and holder_left(entry):
            raise ConflictError("the player has left the seat this entry was listed from: "
                                "cancel the call", code="entry_player_left",
                                field="call_id")
        if moving:
            from poker_floor.services.moves import player_move  # the moves' own module

            player_move(actor=actor, from_table_id=entry.from_table,
                        from_seat=entry.from_seat, to_table_id=call.table,
                        to_seat=call.seat, roles=SEATING)
        else:
            seat_service.seat_player(
                actor=actor, table_id=call.table, seat=call.seat, buy_in_cents=buy_in_cents,
                paid_with=paid_with,
                player={"name": entry.name, "phone": entry.phone} if entry.name else None,
                personal_subject=entry.pk)  # sealed under the entry's own key
        # the moves' events may have moved the list on in this transaction
        at.list.stream_version = Waitlist.objects.values_list(
            "stream_version", flat=True).get(pk=at.list.pk)
        events = []
        if moving:
            events.append(NewEvent("PlayerMoved", {
                "from_table": str(entry.from_table), "from_seat": entry.from_seat,
                "to_table": str(call.table), "to_seat": call.seat,
                "why": MOVE_WHY[entry.kind], "order": [], "reason": "",
                "entry": str(entry.pk)}))
        events.append(NewEvent("PlayerSeatedFromList", {
            "call": str(call.pk), "entry": str(entry.pk), "table": str(call.table),
            "seat": call.seat, "stays_listed": stays_listed}))
        _record(at, *events, table=call.table)
    return Call.objects.get(pk=call.pk)


# --- the system's offers and the sweep ------------------------------------------------

def seats_offer(table_id: Any) -> list[Call]:
    """Offer every vacant seat of an open table to its game's list (the system acting,
    FLOOR_AUTO_CALL on): a must-move main table takes its must-move players first
    (``poker_floor.services.moves.must_move_offer``), then the list's first eligible
    player is called for each seat still vacant. Safe to run twice: a seat with an open
    call, or taken meanwhile, is left alone."""
    if not settings.FLOOR_AUTO_CALL:
        return []
    table = GameTable.objects.select_related("property").filter(pk=table_id).first()
    if table is None or table.status != TableStatus.OPEN \
            or not get_table_game(table.game).is_poker:
        return []
    waitlist = Waitlist.objects.filter(property_id=table.property_id, game=table.game).first()
    if waitlist is None or rules_in_force(table.property, table.game) is None:
        return []
    actor = system_actor(table.property, "floor")
    with transaction.atomic():  # those who left taken off, whether or not a seat is offered
        delist_departed(at_list(actor, waitlist.pk))
    calls: list[Call] = []
    for seat in vacant_seats(table):
        if waitlist.main_table and str(waitlist.main_table) == str(table.pk) \
                and _must_move_offer(waitlist, table.pk, seat):
            continue
        try:
            calls.append(call_next(actor=actor, waitlist_id=waitlist.pk, table_id=table.pk,
                                   seat=seat))
        except ConflictError as refused:
            if refused.code == "list_empty":
                break
            if refused.code not in ("seat_taken", "seat_already_offered"):
                raise
    return calls


def _must_move_offer(waitlist: Waitlist, table_id: Any, seat: int) -> bool:
    # imported here: moves imports this module's call-making (a cycle at import time)
    from poker_floor.services.moves import must_move_offer

    return bool(must_move_offer(waitlist, table_id, seat))


def calls_expire(now: datetime | None = None) -> int:
    """Time out every open call past its deadline (the beat sweep: their task's message
    was lost, or came early); returns how many timed out. Safe to run twice."""
    now = now or timezone.now()
    done = 0
    due = Call.objects.filter(state=CallState.OPEN, deadline_at__lte=now).select_related(
        "property").order_by("deadline_at")
    for call in due:
        try:
            _timeout(system_actor(call.property, "floor"), call.pk, now)
        except ConflictError as refused:
            if refused.code not in ("call_already_answered", "call_not_due"):
                raise
            continue
        done += 1
    return done


def tables_to_offer() -> list[str]:
    """The open poker tables whose game has a list with someone on it (or a must-move
    main table): what the sweep offers seats at."""
    lists = Waitlist.objects.values_list("property_id", "game", "order", "main_table")
    wanted = {(p, g) for p, g, order, main in lists if order or main}
    if not wanted:
        return []
    tables = GameTable.objects.filter(status=TableStatus.OPEN,
                                      game__in={g for _, g in wanted})
    return [str(pk) for pk, p, g in tables.values_list("pk", "property_id", "game")
            if (p, g) in wanted]


def floor_sweep(now: datetime | None = None) -> dict[str, int]:
    """The beat's sweep: every call past its deadline timed out, every vacant seat at an
    open table of a listed game offered, every call whose page was lost paged."""
    timed_out = calls_expire(now)
    offered = sum(len(seats_offer(t)) for t in tables_to_offer())
    return {"timed_out": timed_out, "offered": offered,
            "paged": sum(pages_sweep(now).values())}
