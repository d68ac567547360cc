"""Players and seats at a poker table, decided (637a.8(a)-(b), (b)(6), (k); 637a.16(f)(1);
637a.18(b)-(c)): what each seating command checks, in order, and the event it records in
the table's ``poker_table-<table id>`` stream.

Plain Python: the service (:mod:`poker_room.services.seats`) reads the table under lock
as :class:`TableSeen` (its seats, the Rules Submission in force, the hand in progress),
checks who acts, and records what these functions decide. Events are ``(type, data)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.domain.money import format_money
from poker_room.domain.hand import Hand
from poker_room.domain.rules import TableRules

#: how table stakes are paid (poker_room.chip_sales): cash at the table is a chip sale,
#: chips brought from the cage or another table are none
CASH, CHIPS = "cash", "chips"
PAID_WITH = (CASH, CHIPS)
#: a seat's status (poker_room.models.SeatStatus)
PLAYING, SITTING_OUT, AWAY = "playing", "sitting_out", "away"
#: how a floorperson records the stakes of a player stepping away (637a.8(b)(6)(i)-(ii))
AWAY_METHODS = ("stakes-counted", "stakes-covered")

Event = tuple[str, dict[str, Any]]


class SeatError(DomainError):
    code = "invalid_seat"


@dataclass(frozen=True)
class SeatSeen:
    """A seat as the table's locked read shows it."""

    seat: int
    status: str
    stack_cents: int


@dataclass(frozen=True)
class TableSeen:
    """A poker table as a seating command decides on it: the table, its poker row's
    stream version (0 before its first event) and hand in progress, its seats, and the
    Rules Submission in force's options (None: no version in force)."""

    pk: Any
    name: str
    game: str
    positions: int
    dealer_id: int | None
    version: int
    current_hand: str | None
    seats: Mapping[int, SeatSeen] = field(default_factory=dict)
    rules_options: Mapping[str, Any] | None = None
    #: the seats dealt into the hand in progress (none without one)
    dealt: Sequence[int] = ()

    @property
    def hand_in_progress(self) -> bool:
        return bool(self.current_hand)

    def seat(self, number: Any) -> SeatSeen:
        """The seat ``number``; 400 ``seat_empty`` when nobody sits there."""
        if not isinstance(number, int) or isinstance(number, bool) or number not in self.seats:
            raise SeatError(f"nobody is seated at seat {number!r}", code="seat_empty",
                            field="seat")
        return self.seats[number]

    def rules(self) -> TableRules:
        """The rules of the Rules Submission in force for the table's game (409
        ``no_rules_in_effect`` without one)."""
        if self.rules_options is None:
            raise ConflictError(f"no Rules Submission for {self.game} is in effect",
                                code="no_rules_in_effect")
        return TableRules.from_options(self.game, self.rules_options)

    def in_current_hand(self, seat: int) -> bool:
        return self.hand_in_progress and seat in self.dealt


# --- what a command is given, checked before the table is read -------------------------

def cents(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise SeatError(f"{field} must be a positive whole number of cents",
                        code="invalid_amount", field=field)
    return value


def player(value: Any) -> dict[str, str] | None:
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


def paid_with(value: Any) -> str:
    """How table stakes were paid: cash at the table or chips brought to it; 400
    ``invalid_paid_with`` otherwise — left out too, since there is no default — before
    anything is recorded."""
    if value is None:
        raise SeatError(f"paid_with is required: {' or '.join(PAID_WITH)} (cash at the table "
                        f"is a chip sale; chips brought to it are none)",
                        code="invalid_paid_with", field="paid_with")
    if value not in PAID_WITH:
        raise SeatError(f"paid_with is {' or '.join(PAID_WITH)}, not {value!r}",
                        code="invalid_paid_with", field="paid_with")
    return value


def stakes_verified(value: Any) -> None:
    """637a.8(b)(6)(i): the floorperson verifies the stakes before the player returns."""
    if value is not True:
        raise SeatError("the floorperson confirms the stakes are as recorded "
                        "(stakes_verified: true) before the player returns (637a.8(b)(6))",
                        code="stakes_not_verified", field="stakes_verified")


def away_covered(covered_cents: Any, method: Any) -> int:
    """The stakes recorded for a player stepping away (0 allowed) and how."""
    covered = covered_cents if covered_cents == 0 else cents(covered_cents, "covered_cents")
    if method not in AWAY_METHODS:
        raise SeatError("method is stakes-counted or stakes-covered (637a.8(b)(6)(i)-(ii))",
                        code="invalid_choice", field="method")
    return covered


def agreed(all_players_agreed: Any) -> None:
    """637a.8(k): the minimum bet is raised only with every player's agreement."""
    if all_players_agreed is not True:
        raise SeatError("the minimum bet is raised only when every player agrees "
                        "(637a.8(k))", code="agreement_required", field="all_players_agreed")


def removal_reason(reason: Any, what: str = "the player") -> str:
    """Why ``what`` (a player, a jackpot box) leaves the table: text of 1 to 2000
    characters."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 2000:
        raise SeatError(f"say why {what} is removed (text of 1 to 2000 characters)",
                        code="reason_required", field="reason")
    return reason.strip()


def removal_number(removal: Any) -> int:
    """The removal acknowledged: the ``PlayerRemoved``'s version in the table's stream."""
    if not isinstance(removal, int) or isinstance(removal, bool) or removal < 1:
        raise SeatError("removal is the version of the PlayerRemoved event in the table's "
                        "stream", code="invalid_removal", field="removal")
    return removal


def review_note(note: Any) -> str:
    if note is None:
        return ""
    if not isinstance(note, str) or len(note) > 2000:
        raise SeatError("the note is text of at most 2000 characters", code="invalid_note",
                        field="note")
    return note.strip()


# --- the decisions ---------------------------------------------------------------------

def _whole_chips(amount: int, rules: TableRules, field: str) -> None:
    if amount % rules.chip_unit_cents:
        raise SeatError(f"{field} must be whole chips of {format_money(rules.chip_unit_cents)}",
                        code="not_whole_chips", field=field)


def buy_in_limits(stack_after: int, rules: TableRules, *, adding: bool = False) -> None:
    """637a.8(b)(1)-(2): a buy-in within the posted minimum and maximum, an add-on not
    taking the stakes over the maximum; whole chips."""
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


def seat_free(table: TableSeen, seat: Any, person: Mapping[str, str] | None, *,
              seated_elsewhere: bool) -> TableRules:
    """637a.8(a): the seat is within the table's seats (and the Rules Submission's) and
    free; a named ``person`` is seated nowhere else in the room (``seated_elsewhere``,
    asked by the service). The rules in force, for :func:`player_seated`."""
    rules = table.rules()
    limit = min(table.positions, rules.max_players or table.positions)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= limit:
        raise SeatError(f"seats are numbered 1 to {limit} at this table",
                        code="invalid_seat", field="seat")
    if seat in table.seats:
        raise ConflictError(f"seat {seat} is taken", code="seat_taken")
    if person is not None and seated_elsewhere:
        raise ConflictError(f"{person['name']} is already seated in the room",
                            code="player_already_seated")
    return rules


def player_seated(rules: TableRules, seat: int, sealed_player: Any, amount: int, how: str,
                  carried_from: Any) -> Event:
    """637a.8(b)(1): the buy-in within the posted limits, or table stakes carried from
    another table (a floor move: chips brought, no buy-in, so no limits)."""
    seated = {"seat": seat, "player": sealed_player, "buy_in_cents": amount,
              "paid_with": how}
    if carried_from is None:
        buy_in_limits(amount, rules)
    elif how != CHIPS:
        raise SeatError("table stakes carried from another table are chips",
                        code="invalid_paid_with", field="paid_with")
    else:
        seated["carried_from"] = carried_from
    return "PlayerSeated", seated


def chips_added(table: TableSeen, seat: Any, amount: int, how: str) -> Event:
    """637a.8(b)(2): table stakes are added only between rounds of play."""
    s = table.seat(seat)
    if table.in_current_hand(s.seat):
        raise ConflictError("table stakes are added only between rounds of play "
                            "(637a.8(b)(2))", code="chips_mid_hand")
    buy_in_limits(s.stack_cents + amount, table.rules(), adding=True)
    return "ChipsAdded", {"seat": s.seat, "amount_cents": amount, "paid_with": how}


def status_changed(table: TableSeen, seat: Any, event: str, source: tuple[str, ...],
                   message: str, code: str) -> Event:
    """Sitting out, sitting in, returning: from the statuses ``source`` only."""
    s = table.seat(seat)
    if s.status not in source:
        raise ConflictError(message, code=code)
    return event, {"seat": s.seat}


def stepped_away(table: TableSeen, seat: Any, covered: int, method: str) -> Event:
    """637a.8(b)(6): between hands the stakes recorded are the stakes on record."""
    s = table.seat(seat)
    if s.status == AWAY:
        raise ConflictError("the player has already stepped away", code="seat_away")
    if covered != s.stack_cents and not table.hand_in_progress:
        raise SeatError(f"the table stakes at seat {s.seat} are "
                        f"{format_money(s.stack_cents)}",
                        code="stakes_mismatch", field="covered_cents")
    return "PlayerSteppedAway", {
        "seat": s.seat, "covered_cents": covered, "method": method,
        "during_hand": table.current_hand if table.hand_in_progress else None}


def player_left(table: TableSeen, seat: Any) -> Event:
    """637a.8(b)(2): not during a hand the player is in; the player leaves with the
    stakes on record."""
    s = table.seat(seat)
    if table.in_current_hand(s.seat):
        raise ConflictError("the player is in the hand in progress", code="seat_in_hand")
    return "PlayerLeft", {"seat": s.seat, "cashed_out_cents": s.stack_cents}


def minimum_bet_raised(table: TableSeen, amount: int) -> Event:
    """637a.8(k): above the posted minimum bet, by no more than the Rules Submission
    allows, whole chips, between hands; the players seated and playing agreed."""
    rules = table.rules()
    increase = rules.shared_dict()["minimum_bet_increase"]
    posted = rules.opening_bet_cents
    if amount <= posted:
        raise SeatError(f"the posted minimum bet is {format_money(posted)}: raise it above "
                        "that", code="invalid_amount", field="amount_cents")
    if amount - posted > increase["maximum_increase_cents"]:
        raise ConflictError(
            "the Rules Submission allows the minimum bet to be raised by at most "
            f"{format_money(increase['maximum_increase_cents'])}",
            code="increase_above_maximum")
    _whole_chips(amount, rules, "amount_cents")
    if table.hand_in_progress:
        raise ConflictError("the minimum bet changes between hands", code="hand_in_progress")
    return "MinimumBetRaised", {
        "amount_cents": amount, "agreement_method": increase["agreement_method"],
        "players": sorted(n for n, s in table.seats.items() if s.status == PLAYING)}


def in_play(hand: Hand | None, seat: int) -> tuple[bool, int | None]:
    """Whether ``seat`` still contends in ``hand`` (has not folded), and its table stakes
    as they stand in the hand (None: not dealt in)."""
    if hand is None or seat not in hand.seats:
        return False, None
    live = bool(hand.snapshot()["live"][hand.seats.index(seat)]) and not hand.is_complete
    return live, hand.stacks[seat]


def player_removed(table: TableSeen, seat: Any, reason: str, hand: Hand | None) -> Event:
    """637a.18(b)-(c): between hands, or once the player's hand is folded, the player
    leaves with the stakes as they stand (in the hand, when dealt in); the event is the
    notice to compliance. ``hand``: the hand in progress (None without one)."""
    s = table.seat(seat)
    stakes = s.stack_cents
    if table.hand_in_progress:
        live, in_hand = in_play(hand, s.seat)
        if live:
            raise ConflictError("fold the player's hand first", code="seat_in_hand")
        stakes = stakes if in_hand is None else in_hand
    return "PlayerRemoved", {"seat": s.seat, "reason": reason, "cashed_out_cents": stakes,
                             "compliance_notified": True}


@dataclass(frozen=True)
class RemovalSeen:
    """A ``PlayerRemoved`` of the table's stream as the acknowledgement reads it: its
    version there, its data and who recorded it; whether compliance acknowledged it."""

    version: int
    data: Mapping[str, Any]
    removed_by: str
    acknowledged: bool


def removal_acknowledged(removal: RemovalSeen | None, by: str, note: str) -> Event:
    """637a.18(c): a compliance officer records that the notice of a player required to
    leave the game was received and reviewed. Another person than the one who removed the
    player (four eyes), once per removal."""
    if removal is None:
        raise NotFoundError("no player removal at that version of the table's record",
                            code="removal_not_found", field="removal")
    if removal.removed_by == by:
        raise ConflictError("you removed the player; another compliance officer "
                            "acknowledges the notice", code="same_person")
    if removal.acknowledged:
        raise ConflictError("the notice of this removal was acknowledged already",
                            code="already_acknowledged")
    return "PlayerRemovalAcknowledged", {
        "removal_version": removal.version, "seat": removal.data.get("seat"),
        "removed_by": removal.removed_by, "note": note, "rule": "637a.18(c)"}
