"""Players and seats at a poker table (637a.8(a)-(b), (k); 637a.16(f)(1)).

Every change is an event in the table's ``poker_table-<table id>`` stream, appended at
the version the table's row was read at (a stale decision is refused); the seats are a
projection of it (:mod:`poker_room.projections`). The players seated and playing when a
hand starts are the hand's players (:mod:`poker_room.services.hands`).
"""

from __future__ import annotations

import uuid
from typing import Any

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError
from casino.domain.money import format_money
from casino.eventstore.store import NewEvent, Stream, append
from casino.personal_data import key_create, retention_end, seal
from casino.roles import Role
from django.db import transaction
from poker_room.chip_sales import CASH, CHIPS, PAID_WITH, record_cash_sale
from poker_room.domain.rules import TableRules
from poker_room.models import PokerTable, Seat, SeatStatus
from poker_room.services.hand_state import seat_in_play, seats_in_hand
from tables.domain.catalogue import get_table_game
from tables.models import GameTable
from tables.selectors import rules_in_force
from tables.services.common import act_at_table, locked



#: who seats players, sells chips and moves them between tables: the dealer at the table,
#: a floorperson or the poker shift supervisor
SEATING = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: 637a.8(b)(6): a floorperson or above records the stakes of a player who steps away
FLOOR = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: the personal data of a named player seated without a list entry (casino.personal_data)
SEATED_PLAYER = "seated_player"


class SeatError(DomainError):
    code = "invalid_seat"


def table_rules(table: GameTable) -> TableRules:
    """The rules of the Rules Submission in effect for the table's game (409
    ``no_rules_in_effect`` without one)."""
    rules = rules_in_force(table.property, table.game)
    if rules is None:
        raise ConflictError(f"no Rules Submission for {table.game} is in effect",
                            code="no_rules_in_effect")
    return TableRules.from_options(table.game, rules.options)


class AtTable:
    """A poker table locked for a seating command: the table, its poker row (None before
    its first event) and its seats. ``system``: a system actor may take the step (the
    floor's automatic seat moves only), under the role "system"
    (:func:`tables.services.common.act_at_table`)."""

    def __init__(self, actor: Actor, table_id: Any, roles: tuple[Role, ...], *,
                 with_seats: bool = True, system: bool = False):
        self.table = locked(GameTable, table_id, actor, what="table")
        if not get_table_game(self.table.game).is_poker:
            raise ConflictError(f"table {self.table.name} is not a poker table",
                                code="not_a_poker_table")
        self.role = act_at_table(actor, self.table, *roles, system=system)
        self.poker = PokerTable.objects.select_for_update().filter(
            table_id=self.table.pk).first()
        # (settling a hand writes the seats through its event and need not read them)
        self.seats = {s.seat: s for s in Seat.objects.filter(table_id=self.table.pk)} \
            if with_seats else {}
        self.actor = actor

    @property
    def version(self) -> int:
        return self.poker.stream_version if self.poker else 0

    @property
    def hand_in_progress(self) -> bool:
        return bool(self.poker and self.poker.current_hand_id)

    def seat(self, number: Any) -> Seat:
        if not isinstance(number, int) or isinstance(number, bool) or number not in self.seats:
            raise SeatError(f"nobody is seated at seat {number!r}", code="seat_empty",
                            field="seat")
        return self.seats[number]

    def record(self, *events: NewEvent) -> None:
        append(Stream("poker_table", f"poker_table-{self.table.pk}"), self.version,
               list(events), self.actor.metadata(role=self.role, table=str(self.table.pk)),
               savepoint=False)


def _cents(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise SeatError(f"{field} must be a positive whole number of cents",
                        code="invalid_amount", field=field)
    return value


def _whole_chips(amount: int, rules: TableRules, field: str) -> None:
    if amount % rules.chip_unit_cents:
        raise SeatError(f"{field} must be whole chips of {format_money(rules.chip_unit_cents)}",
                        code="not_whole_chips", field=field)


def _player(value: Any) -> dict[str, str] | None:
    """None: an anonymous seat. Otherwise the name and telephone number a High Hand
    Tracking Slip records (637a.16(f)(1))."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"name", "phone"}:
        raise SeatError("player is null (anonymous) or {name, phone}", code="invalid_player",
                        field="player")
    name, phone = value.get("name"), value.get("phone", "")
    if not isinstance(name, str) or not name.strip() or len(name) > 120:
        raise SeatError("a named player needs a name of 1 to 120 characters",
                        code="invalid_player", field="player.name")
    if not isinstance(phone, str) or len(phone) > 40:
        raise SeatError("the phone number is text of at most 40 characters",
                        code="invalid_player", field="player.phone")
    return {"name": name.strip(), "phone": phone.strip()}


def _paid_with(value: Any) -> str:
    """How table stakes were paid (:mod:`poker_room.chip_sales`): cash at the table or
    chips brought to it; 400 ``invalid_paid_with`` otherwise — left out too, since there
    is no default (:mod:`poker_room.chip_sales`) — before anything is recorded."""
    if value is None:
        raise SeatError(f"paid_with is required: {' or '.join(PAID_WITH)} (cash at the table "
                        f"is a chip sale; chips brought to it are none)",
                        code="invalid_paid_with", field="paid_with")
    if value not in PAID_WITH:
        raise SeatError(f"paid_with is {' or '.join(PAID_WITH)}, not {value!r}",
                        code="invalid_paid_with", field="paid_with")
    return value


def _paid(at: AtTable, seat: int, amount: int, paid_with: str, paid_for: str) -> None:
    """A cash buy-in or add-on is a chip sale (the cash into the drop box), recorded by
    the same command in the same transaction; chips brought to the table are none."""
    if paid_with == CASH:
        record_cash_sale(actor=at.actor, table_id=at.table.pk, amount_cents=amount,
                         seat=seat, paid_for=paid_for, role=at.role)


def _sealed(at: AtTable, person: dict[str, str] | None, subject: Any) -> Any:
    """A named player's name and phone as the event holds them: sealed under the key of
    ``subject`` (a list entry's, the player's own on the floor's lists) or, without one,
    under a key of the seating's own, kept for the seated player's retention from now
    (:mod:`casino.personal_data`); erasing the key erases them from the log's reads."""
    if person is None:
        return None
    if subject is None:
        subject = uuid.uuid4()
        key_create(subject=subject, property_id=at.table.property_id, kind=SEATED_PLAYER,
                   retain_until=retention_end(SEATED_PLAYER))
    return seal(subject, person)


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
    person = _player(player)
    amount = _cents(buy_in_cents, "buy_in_cents")
    how = _paid_with(paid_with)
    with transaction.atomic():
        at = AtTable(actor, table_id, SEATING, system=carried_from is not None)
        rules = table_rules(at.table)
        limit = min(at.table.positions, rules.max_players or at.table.positions)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= limit:
            raise SeatError(f"seats are numbered 1 to {limit} at this table",
                            code="invalid_seat", field="seat")
        if seat in at.seats:
            raise ConflictError(f"seat {seat} is taken", code="seat_taken")
        if person is not None and Seat.objects.filter(
                property_id=at.table.property_id, player_name__iexact=person["name"],
                player_phone=person["phone"]).exists():
            raise ConflictError(f"{person['name']} is already seated in the room",
                                code="player_already_seated")
        seated = {"seat": seat, "player": _sealed(at, person, personal_subject),
                  "buy_in_cents": amount, "paid_with": how}
        if carried_from is None:
            _buy_in_limits(amount, rules)
        elif how != CHIPS:
            raise SeatError("table stakes carried from another table are chips",
                            code="invalid_paid_with", field="paid_with")
        else:
            seated["carried_from"] = carried_from
        at.record(NewEvent("PlayerSeated", seated))
        _paid(at, seat, amount, how, "buy_in")
    return Seat.objects.get(table_id=at.table.pk, seat=seat)


def _buy_in_limits(stack_after: int, rules: TableRules, *, adding: bool = False) -> None:
    options = rules.shared_dict()
    low, high = options["buy_in_minimum_cents"], options["buy_in_maximum_cents"]
    field = "amount_cents" if adding else "buy_in_cents"
    if not adding and stack_after < low:
        raise SeatError(f"the minimum buy-in is {format_money(low)}",
                        code="buy_in_below_minimum", field=field)
    if stack_after > high:
        raise SeatError(f"the table stakes may not exceed the maximum buy-in of "
                        f"{format_money(high)}",
                        code="buy_in_above_maximum", field=field)
    _whole_chips(stack_after, rules, field)


def chips_add(*, actor: Actor, table_id: Any, seat: Any, amount_cents: Any,
              paid_with: Any) -> Seat:
    """Add to a player's table stakes, only between rounds of play (637a.8(b)(2)); paid
    with cash at the table (a chip sale, recorded with it) or chips brought to it."""
    amount = _cents(amount_cents, "amount_cents")
    how = _paid_with(paid_with)
    with transaction.atomic():
        at = AtTable(actor, table_id, SEATING)
        s = at.seat(seat)
        if at.hand_in_progress and _in_current_hand(at, s.seat):
            raise ConflictError("table stakes are added only between rounds of play "
                                "(637a.8(b)(2))", code="chips_mid_hand")
        _buy_in_limits(s.stack_cents + amount, table_rules(at.table), adding=True)
        at.record(NewEvent("ChipsAdded", {"seat": s.seat, "amount_cents": amount,
                                          "paid_with": how}))
        _paid(at, s.seat, amount, how, "add_on")
    return Seat.objects.get(pk=s.pk)


def _in_current_hand(at: AtTable, seat: int) -> bool:
    return seat in seats_in_hand(at.poker.current_hand_id)


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
    if stakes_verified is not True:
        raise SeatError("the floorperson confirms the stakes are as recorded "
                        "(stakes_verified: true) before the player returns (637a.8(b)(6))",
                        code="stakes_not_verified", field="stakes_verified")
    return _status(actor, table_id, seat, "PlayerReturned", (SeatStatus.AWAY,),
                   "the player has not stepped away", "seat_not_away", roles=FLOOR)


def _status(actor: Actor, table_id: Any, seat: Any, event: str, source: tuple[str, ...],
            message: str, code: str, roles: tuple[Role, ...] = SEATING) -> Seat:
    with transaction.atomic():
        at = AtTable(actor, table_id, roles)
        s = at.seat(seat)
        if s.status not in source:
            raise ConflictError(message, code=code)
        at.record(NewEvent(event, {"seat": s.seat}))
    return Seat.objects.get(pk=s.pk)


def step_away(*, actor: Actor, table_id: Any, seat: Any, covered_cents: Any,
              method: Any = "stakes-counted") -> Seat:
    """637a.8(b)(6): a player leaves the table for a while without giving up the seat; a
    floorperson or above records the table stakes (counted, or kept under a cover)."""
    covered = covered_cents if covered_cents == 0 else _cents(covered_cents, "covered_cents")
    if method not in ("stakes-counted", "stakes-covered"):
        raise SeatError("method is stakes-counted or stakes-covered (637a.8(b)(6)(i)-(ii))",
                        code="invalid_choice", field="method")
    with transaction.atomic():
        at = AtTable(actor, table_id, FLOOR)
        s = at.seat(seat)
        if s.status == SeatStatus.AWAY:
            raise ConflictError("the player has already stepped away", code="seat_away")
        if covered != s.stack_cents and not at.hand_in_progress:
            raise SeatError(f"the table stakes at seat {s.seat} are "
                            f"{format_money(s.stack_cents)}",
                            code="stakes_mismatch", field="covered_cents")
        at.record(NewEvent("PlayerSteppedAway", {
            "seat": s.seat, "covered_cents": covered, "method": method,
            "during_hand": str(at.poker.current_hand_id) if at.hand_in_progress else None}))
    return Seat.objects.get(pk=s.pk)


def seat_leave(*, actor: Actor, table_id: Any, seat: Any,
               moving: bool = False) -> dict[str, Any]:
    """The player leaves with the table stakes; not during a hand the player is in
    (637a.8(b)(2): stakes are not removed during a round of play).

    ``moving`` (poker_floor's moves only, not an API field): the player leaves to be
    seated at another table with the stakes, the one leaving a system actor may record
    (the floor's automatic must-move, under the role "system")."""
    with transaction.atomic():
        at = AtTable(actor, table_id, SEATING, system=moving is True)
        s = at.seat(seat)
        if at.hand_in_progress and _in_current_hand(at, s.seat):
            raise ConflictError("the player is in the hand in progress", code="seat_in_hand")
        at.record(NewEvent("PlayerLeft", {"seat": s.seat, "cashed_out_cents": s.stack_cents}))
    return {"seat": s.seat, "cashed_out_cents": s.stack_cents}


def minimum_bet_raise(*, actor: Actor, table_id: Any, amount_cents: Any,
                      all_players_agreed: Any) -> PokerTable:
    """637a.8(k): with every player's agreement, established as the Rules Submission
    says, the minimum bet is raised by no more than the submission allows."""
    amount = _cents(amount_cents, "amount_cents")
    if all_players_agreed is not True:
        raise SeatError("the minimum bet is raised only when every player agrees "
                        "(637a.8(k))", code="agreement_required", field="all_players_agreed")
    with transaction.atomic():
        at = AtTable(actor, table_id, SEATING)
        rules = table_rules(at.table)
        increase = rules.shared_dict()["minimum_bet_increase"]
        posted = rules.opening_bet_cents
        if amount <= posted:
            raise SeatError(f"the posted minimum bet is {format_money(posted)}: raise it above "
                            "that",
                            code="invalid_amount", field="amount_cents")
        if amount - posted > increase["maximum_increase_cents"]:
            raise ConflictError(
                "the Rules Submission allows the minimum bet to be raised by at most "
                f"{format_money(increase['maximum_increase_cents'])}",
                code="increase_above_maximum")
        _whole_chips(amount, rules, "amount_cents")
        if at.hand_in_progress:
            raise ConflictError("the minimum bet changes between hands",
                                code="hand_in_progress")
        at.record(NewEvent("MinimumBetRaised", {
            "amount_cents": amount, "agreement_method": increase["agreement_method"],
            "players": sorted(n for n, s in at.seats.items()
                              if s.status == SeatStatus.PLAYING)}))
    return PokerTable.objects.get(pk=at.table.pk)


def player_remove(*, actor: Actor, table_id: Any, seat: Any, reason: Any) -> dict[str, Any]:
    """637a.18(b)-(c): a floorperson or the poker shift supervisor with reasonable cause to
    believe a player is playing to help another (or passing information) requires the
    player to leave the game. The event is also the notice to compliance, whose event log
    lists it (``GET events/?type=PlayerRemoved``). Between hands, or once the player's
    hand is folded: the player leaves with the table stakes."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 2000:
        raise SeatError("say why the player is removed (text of 1 to 2000 characters)",
                        code="reason_required", field="reason")
    with transaction.atomic():
        at = AtTable(actor, table_id, FLOOR)
        s = at.seat(seat)
        stakes = s.stack_cents
        if at.hand_in_progress:
            live, in_hand = seat_in_play(at.poker.current_hand_id, s.seat)
            if live:
                raise ConflictError("fold the player's hand first", code="seat_in_hand")
            stakes = stakes if in_hand is None else in_hand
        at.record(NewEvent("PlayerRemoved", {
            "seat": s.seat, "reason": reason.strip(), "cashed_out_cents": stakes,
            "compliance_notified": True}))
    return {"seat": s.seat, "cashed_out_cents": stakes}

