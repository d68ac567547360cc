"""Players and seats at a poker table (637a.8(a)-(b), (k); 637a.16(f)(1); 637a.18(b)-(c)).

Every change is an event in the table's ``poker_table-<table id>`` stream; the seats are a
projection of it (:mod:`poker_room.projections`). The players seated and playing when a
hand starts are the hand's players (:mod:`poker_room.services.hands`).

Each seating command runs on the command runner (:mod:`casino.command_runner`, issue 25):
one statement reads the table under lock with everything the checks need
(:data:`_SELECT`: the poker row's stream version and hand in progress, the seats, the
Rules Submission versions that may be in force, the hand's snapshot), the pure domain
decides (:mod:`poker_room.domain.seating`), and the event is appended at the stream
version that read saw (a stream that moved on since: the runner reads and decides once
more). On PostgreSQL outside a caller's transaction that is two round trips.

Two things a command may do besides its event need the database inside its transaction,
so those commands run the runner's steps in a transaction of their own
(:func:`_own_transaction`): a cash buy-in or add-on's chip sale (finance's record,
:func:`poker_room.chip_sales.record_cash_sale`, which reads the table day it appends to),
and a named player's details sealed (:func:`_sealed`: a key made for the seating, or
the list entry's key read FOR SHARE). The floor's offer of an opened seat follows the
``PlayerLeft``/``PlayerRemoved`` commit as before (the event store's after-commit hook,
:mod:`poker_floor.hooks`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import CharField, Exists, OuterRef, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from casino import command_runner
from casino.actors import Actor
from casino.command_runner import Aggregate, Also, Decision, Loaded
from casino.domain.errors import ConflictError
from casino.eventstore.models import Event as StoredEvent
from casino.eventstore.store import NewEvent, Stream, append
from casino.personal_data import key_create, retention_end, seal
from casino.roles import Role
from poker_room.chip_sales import CASH, record_cash_sale
from poker_room.domain import seating
from poker_room.domain.hand import Hand
from poker_room.domain.rules import TableRules
from poker_room.domain.seating import SeatError, SeatSeen, TableSeen
from poker_room.models import PokerTable, Seat, SeatStatus
from poker_room.services.hand_state import _from_snapshot
from tables.domain.catalogue import get_table_game
from tables.domain.round_gate import RulesVersion, rules_in_force
from tables.models import GameTable
from tables.selectors import rules_in_force as rules_in_force_now
from tables.services.common import act_at_table, locked
from tables.services.round_start import RULES_SQL, json_value, key, moment, sql_agg, sql_array

#: who seats players, sells chips and moves them between tables: the dealer at the table,
#: a floorperson or the poker shift supervisor
SEATING = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: 637a.8(b)(6): a floorperson or above records the stakes of a player who steps away
FLOOR = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: 637a.18(c): the casino compliance representative notified of a player required to
#: leave the game acknowledges the notice
COMPLIANCE = (Role.COMPLIANCE,)
#: the personal data of a named player seated without a list entry (casino.personal_data)
SEATED_PLAYER = "seated_player"

__all__ = ["COMPLIANCE", "FLOOR", "SEATED_PLAYER", "SEATING", "AtTable", "SeatError",
           "chips_add", "minimum_bet_raise", "player_remove", "player_removal_acknowledge",
           "player_return", "removals_to_acknowledge", "seat_leave", "seat_player",
           "sit_in", "sit_out", "step_away", "table_rules"]


def table_rules(table: GameTable) -> TableRules:
    """The rules of the Rules Submission in effect for the table's game (409
    ``no_rules_in_effect`` without one)."""
    rules = rules_in_force_now(table.property, table.game)
    if rules is None:
        raise ConflictError(f"no Rules Submission for {table.game} is in effect",
                            code="no_rules_in_effect")
    return TableRules.from_options(table.game, rules.options)


class AtTable:
    """A poker table locked through the ORM for the time charges' commands (the seating
    commands and a hand's start read it in one statement on the runner, :data:`POKER_TABLE`,
    :mod:`poker_room.services.hand_opening`): the table and its poker row (None before its
    first event)."""

    def __init__(self, actor: Actor, table_id: Any, roles: tuple[Role, ...]):
        self.table = locked(GameTable, table_id, actor, what="table")
        if not get_table_game(self.table.game).is_poker:
            raise ConflictError(f"table {self.table.name} is not a poker table",
                                code="not_a_poker_table")
        self.role = act_at_table(actor, self.table, *roles)
        self.poker = PokerTable.objects.select_for_update().filter(
            table_id=self.table.pk).first()
        self.actor = actor

    @property
    def version(self) -> int:
        return self.poker.stream_version if self.poker else 0

    def record(self, *events: NewEvent) -> None:
        append(Stream("poker_table", f"poker_table-{self.table.pk}"), self.version,
               list(events), self.actor.metadata(role=self.role, table=str(self.table.pk)),
               savepoint=False)


# --- the table's one locked read ----------------------------------------------------------

#: The table (alias r, locked), its poker row, and as JSON: the seats [seat, status,
#: stakes]; the Rules Submission versions of its game that may be in force (which one is,
#: is decided with the clock as :func:`tables.selectors.rules_in_force` decides it:
#: :func:`tables.domain.round_gate.rules_in_force`); the hand in progress's snapshot (who
#: was dealt in, who still contends). The databases' JSON functions are written once, in
#: :mod:`tables.services.round_start`, whose rules column this is too.
_SELECT = (
    "SELECT r.id, r.name, r.game, r.positions, r.dealer_id, p.stream_version, "
    "p.current_hand_id, "
    "(SELECT " + sql_agg(sql_array("s.seat", "s.status", "s.stack_cents"), "s.seat")
    + " FROM poker_room_seat s WHERE s.table_id = r.id), "
    + RULES_SQL + ", "
    "(SELECT h.snapshot FROM tables_round h WHERE h.id = p.current_hand_id) "
    "FROM tables_gametable r LEFT JOIN poker_room_pokertable p ON p.table_id = r.id "
    "WHERE r.id = %%s AND r.property_id = %%s%(lock)s")

#: The poker table aggregate: no snapshot of its own (its seats are its read model), the
#: locked read alone; its commands append to the table's stream (Decision.others). Not
#: registered: there is no snapshot to rebuild.
POKER_TABLE: Aggregate[None] = Aggregate(
    name="poker_table", stream_type="poker_table", what="table", select=_SELECT, update="",
    stream_id=lambda key: f"poker_table-{key}")


def _rules_options(versions: Any, now: datetime) -> Any:
    """The options of the version in force as of ``now``; None when none is."""
    in_force = rules_in_force([
        RulesVersion(str(v["id"]), v["version_number"], v["state"], moment(v["effective_at"]),
                     json_value(v["options"])) for v in json_value(versions) or ()], now)
    return None if in_force is None else in_force.options


def _table_seen(row: tuple[Any, ...]) -> tuple[TableSeen, Any]:
    """The table as the locked read shows it, and the hand in progress's snapshot."""
    (table_id, name, game, positions, dealer_id, version, hand_id, seats, versions,
     snapshot) = row
    snapshot = json_value(snapshot) if hand_id is not None else None
    events = (snapshot or {}).get("events") or []
    table = TableSeen(
        pk=uuid.UUID(key(table_id)), name=name, game=game, positions=positions,
        dealer_id=dealer_id, version=version or 0, current_hand=key(hand_id),
        seats={n: SeatSeen(n, status, stack) for n, status, stack in json_value(seats) or ()},
        rules_options=_rules_options(versions, timezone.now()),
        dealt=[s for s, _ in events[0]["data"]["seats"]] if events else ())
    return table, snapshot


Decide = Callable[[TableSeen, Any], list[seating.Event]]


def _gate(actor: Actor, table: TableSeen, roles: tuple[Role, ...], system: bool) -> str:
    """A poker table, and the role the actor acts under there (as :class:`AtTable`)."""
    if not get_table_game(table.game).is_poker:
        raise ConflictError(f"table {table.name} is not a poker table",
                            code="not_a_poker_table")
    return act_at_table(actor, table, *roles, system=system)  # type: ignore[arg-type]


def _command(actor: Actor, table_id: Any, roles: tuple[Role, ...], decide: Decide, *,
             system: bool = False) -> tuple[TableSeen, str]:
    """Run a seating command on the runner: the table read under lock (404
    ``table_not_found`` for another property's), the gate, ``decide`` given the table and
    the hand's snapshot, its events appended to the table's stream at the version read.
    Returns the table as decided on and the role acted under."""
    seen: dict[str, Any] = {}

    def decision(loaded: Loaded[None]) -> Decision[None]:
        table, snapshot = _table_seen(loaded.row)
        role = _gate(actor, table, roles, system)
        events = [NewEvent(t, d) for t, d in decide(table, snapshot)]
        seen.update(table=table, role=role)
        stream = Stream("poker_table", f"poker_table-{table.pk}")
        return Decision(None, [], role, {"table": str(table.pk)},
                        others=[Also(stream, table.version, events)])

    command_runner.command_run(POKER_TABLE, key=table_id, actor=actor, decide=decision)
    return seen["table"], seen["role"]


@contextmanager
def _own_transaction(needed: bool) -> Iterator[None]:
    """The command's transaction when it does more than append (a chip sale, a key
    sealed): the runner then runs its steps inside it; otherwise the runner's own."""
    with transaction.atomic() if needed else nullcontext():
        yield


# --- the commands ------------------------------------------------------------------------

def _paid(actor: Actor, table: TableSeen, role: str, seat: int, amount: int, paid_with: str,
          paid_for: str) -> None:
    """A cash buy-in or add-on is a chip sale (the cash into the drop box), recorded by
    the same command in the same transaction; chips brought to the table are none."""
    if paid_with == CASH:
        record_cash_sale(actor=actor, table_id=table.pk, amount_cents=amount, seat=seat,
                         paid_for=paid_for, role=role)


def _sealed(actor: Actor, person: dict[str, str] | None, subject: Any) -> Any:
    """A named player's name and phone as the event holds them: sealed under the key of
    ``subject`` (a list entry's, the player's own on the floor's lists) or, without one,
    under a key of the seating's own, kept for the seated player's retention from now
    (:mod:`casino.personal_data`); erasing the key erases them from the log's reads.
    Runs inside the command's transaction (:func:`_own_transaction`)."""
    if person is None:
        return None
    assert connection.in_atomic_block, "a named seating runs in its own transaction"
    if subject is None:
        subject = uuid.uuid4()
        key = key_create(subject=subject, property_id=actor.property.pk, kind=SEATED_PLAYER,
                         retain_until=retention_end(SEATED_PLAYER))
        return seal(subject, person, key=key)
    return seal(subject, person)


def _seated_in_room(actor: Actor, person: dict[str, str] | None) -> bool:
    """Whether a named player is seated at any table of the property. Asked after the
    table's locked read (in the decision, inside the command's transaction: a named
    player's seating always runs in one), so two seatings of one player at one table take
    turns and the second sees the first; the decision refuses it in its place among the
    checks."""
    return person is not None and Seat.objects.filter(
        property_id=actor.property.pk, player_name__iexact=person["name"],
        player_phone=person["phone"]).exists()


def seat_player(*, actor: Actor, table_id: Any, seat: Any, buy_in_cents: Any,
                paid_with: Any, player: Any = None, carried_from: Any = None,
                personal_subject: Any = None) -> Seat:
    """Seat a player and record the buy-in (637a.8(a), (b)(1)): the seat must be free and
    within the table's seats, a named player seated nowhere else in the room, the buy-in
    within the posted limits and whole chips. ``paid_with``: "cash" at the table (the
    chip sale recorded with it) or "chips" brought from the cage or another table.

    ``carried_from`` ({"table", "seat"}; poker_floor's moves only, not an API field): the
    player moves with the table stakes from another table of the same game (a must-move,
    a table change, a broken table). Those stakes are chips brought, not a buy-in, so the
    posted buy-in limits do not apply to them; the event records where they came from.
    Such a move is the one seating a system actor may record (the floor's automatic
    must-move, under the role "system"); any other seating needs a person's role.

    A named player's name and phone are sealed in the event (:func:`_sealed`);
    ``personal_subject`` (poker_floor's calls and moves, not an API field): the key they
    are sealed under, a list entry's or the seat's own, so that erasing it erases them
    here too."""
    person = seating.player(player)
    amount = seating.cents(buy_in_cents, "buy_in_cents")
    how = seating.paid_with(paid_with)

    def decide(table: TableSeen, _hand: Any) -> list[seating.Event]:
        rules = seating.seat_free(table, seat, person,
                                  seated_elsewhere=_seated_in_room(actor, person))
        return [seating.player_seated(rules, seat, _sealed(actor, person, personal_subject),
                                      amount, how, carried_from)]

    with _own_transaction(person is not None or how == CASH):
        table, role = _command(actor, table_id, SEATING, decide,
                               system=carried_from is not None)
        _paid(actor, table, role, seat, amount, how, "buy_in")
    return Seat.objects.get(table_id=table.pk, seat=seat)


def chips_add(*, actor: Actor, table_id: Any, seat: Any, amount_cents: Any,
              paid_with: Any) -> Seat:
    """Add to a player's table stakes, only between rounds of play (637a.8(b)(2)); paid
    with cash at the table (a chip sale, recorded with it) or chips brought to it."""
    amount = seating.cents(amount_cents, "amount_cents")
    how = seating.paid_with(paid_with)
    with _own_transaction(how == CASH):
        table, role = _command(actor, table_id, SEATING, lambda table, _hand: [
            seating.chips_added(table, seat, amount, how)])
        _paid(actor, table, role, seat, amount, how, "add_on")
    return Seat.objects.get(table_id=table.pk, seat=seat)


def sit_out(*, actor: Actor, table_id: Any, seat: Any) -> Seat:
    """The player stays seated but is not dealt in (still assessed a per-player time
    charge, 637a.17(b)(3)(i))."""
    return _status(actor, table_id, seat, "PlayerSatOut", (SeatStatus.PLAYING,),
                   "only a playing seat can sit out", "seat_not_playing")


def sit_in(*, actor: Actor, table_id: Any, seat: Any) -> Seat:
    return _status(actor, table_id, seat, "PlayerSatIn", (SeatStatus.SITTING_OUT,),
                   "the seat is not sitting out", "seat_not_sitting_out")


def player_return(*, actor: Actor, table_id: Any, seat: Any, stakes_verified: Any) -> Seat:
    """637a.8(b)(6)(i): on the player's return the floorperson verifies the table stakes
    were not changed while away."""
    seating.stakes_verified(stakes_verified)
    return _status(actor, table_id, seat, "PlayerReturned", (SeatStatus.AWAY,),
                   "the player has not stepped away", "seat_not_away", roles=FLOOR)


def _status(actor: Actor, table_id: Any, seat: Any, event: str, source: tuple[str, ...],
            message: str, code: str, roles: tuple[Role, ...] = SEATING) -> Seat:
    table, _ = _command(actor, table_id, roles, lambda table, _hand: [
        seating.status_changed(table, seat, event, tuple(str(s) for s in source), message,
                               code)])
    return Seat.objects.get(table_id=table.pk, seat=seat)


def step_away(*, actor: Actor, table_id: Any, seat: Any, covered_cents: Any,
              method: Any = "stakes-counted") -> Seat:
    """637a.8(b)(6): a player leaves the table for a while without giving up the seat; a
    floorperson or above records the table stakes (counted, or kept under a cover)."""
    covered = seating.away_covered(covered_cents, method)
    table, _ = _command(actor, table_id, FLOOR, lambda table, _hand: [
        seating.stepped_away(table, seat, covered, method)])
    return Seat.objects.get(table_id=table.pk, seat=seat)


def seat_leave(*, actor: Actor, table_id: Any, seat: Any,
               moving: bool = False) -> dict[str, Any]:
    """The player leaves with the table stakes; not during a hand the player is in
    (637a.8(b)(2): stakes are not removed during a round of play).

    ``moving`` (poker_floor's moves only, not an API field): the player leaves to be
    seated at another table with the stakes, the one leaving a system actor may record
    (the floor's automatic must-move, under the role "system")."""
    left: list[dict[str, Any]] = []

    def decide(table: TableSeen, _hand: Any) -> list[seating.Event]:
        event = seating.player_left(table, seat)
        left[:] = [event[1]]
        return [event]

    _command(actor, table_id, SEATING, decide, system=moving is True)
    return dict(left[0])


def minimum_bet_raise(*, actor: Actor, table_id: Any, amount_cents: Any,
                      all_players_agreed: Any) -> PokerTable:
    """637a.8(k): with every player's agreement, established as the Rules Submission
    says, the minimum bet is raised by no more than the submission allows."""
    amount = seating.cents(amount_cents, "amount_cents")
    seating.agreed(all_players_agreed)
    table, _ = _command(actor, table_id, SEATING, lambda table, _hand: [
        seating.minimum_bet_raised(table, amount)])
    return PokerTable.objects.get(pk=table.pk)


def _hand(snapshot: Any) -> Hand | None:
    """The hand in progress from its snapshot (this process's copy when it is current)."""
    return _from_snapshot(snapshot) if snapshot else None


def player_remove(*, actor: Actor, table_id: Any, seat: Any, reason: Any) -> dict[str, Any]:
    """637a.18(b)-(c): a floorperson or the poker shift supervisor with reasonable cause to
    believe a player is playing to help another (or passing information) requires the
    player to leave the game. The event is also the notice to compliance, whose event log
    lists it (``GET events/?type=PlayerRemoved``). Between hands, or once the player's
    hand is folded: the player leaves with the table stakes."""
    why = seating.removal_reason(reason)
    removed: list[dict[str, Any]] = []

    def decide(table: TableSeen, snapshot: Any) -> list[seating.Event]:
        hand = _hand(snapshot) if table.hand_in_progress else None
        event = seating.player_removed(table, seat, why, hand)
        removed[:] = [event[1]]
        return [event]

    _command(actor, table_id, FLOOR, decide)
    return {"seat": removed[0]["seat"], "cashed_out_cents": removed[0]["cashed_out_cents"]}


# --- 637a.18(c): compliance notified -------------------------------------------------------

REMOVED, ACKNOWLEDGED = "PlayerRemoved", "PlayerRemovalAcknowledged"


def _removal_seen(table_pk: Any, version: int) -> seating.RemovalSeen | None:
    """The table's ``PlayerRemoved`` at ``version`` and whether it was acknowledged, in
    one query (read inside the command's transaction, after the table's lock: a second
    acknowledgement waits for the first and sees it)."""
    stream = f"poker_table-{table_pk}"
    acked = StoredEvent.objects.filter(stream_id=stream, type=ACKNOWLEDGED,
                                       data__removal_version=version)
    row = (StoredEvent.objects.filter(stream_id=stream, version=version, type=REMOVED)
           .annotate(acked=Exists(acked)).first())
    if row is None:
        return None
    return seating.RemovalSeen(version, row.data, row.metadata.get("actor", ""), row.acked)


def player_removal_acknowledge(*, actor: Actor, table_id: Any, removal: Any,
                               note: Any = "") -> dict[str, Any]:
    """637a.18(c): a compliance officer records that the notice of a player required to
    leave the game (the table's ``PlayerRemoved`` at stream version ``removal``) was
    received and reviewed; it leaves compliance's list. Never by the person who removed
    the player (409 ``same_person``), once (409 ``already_acknowledged``); 404
    ``removal_not_found`` for a version that is no removal."""
    version = seating.removal_number(removal)
    text = seating.review_note(note)
    done: list[dict[str, Any]] = []

    def decide(table: TableSeen, _hand: Any) -> list[seating.Event]:
        event = seating.removal_acknowledged(_removal_seen(table.pk, version),
                                             actor.username, text)
        done[:] = [event[1]]
        return [event]

    with _own_transaction(True):
        _command(actor, table_id, COMPLIANCE, decide)
    return dict(done[0])


def removals_to_acknowledge(actor: Actor) -> QuerySet:
    """The players required to leave a game at the viewer's property whose notice no
    compliance officer has acknowledged yet, oldest first (637a.18(c): the notice stays
    until compliance acknowledges it, however old; one query; the event log is read as the
    events API reads it, by the property the metadata records)."""
    # the version compared as the text of the JSON number (jsonb is not compared with an
    # integer column)
    acked = (StoredEvent.objects
             .annotate(removal=KeyTextTransform("removal_version", "data"))
             .filter(stream_id=OuterRef("stream_id"), type=ACKNOWLEDGED,
                     removal=Cast(OuterRef("version"), CharField())))
    return (StoredEvent.objects
            .filter(stream_type="poker_table", type=REMOVED,
                    metadata__property=actor.property.licence_number)
            .annotate(acked=Exists(acked))
            .filter(acked=False).order_by("position"))
