"""What starting a hand reads and decides on, for :func:`poker_room.services.hands.
hand_start` on the command runner (DESIGN §2-§3, issue 25 item 2).

One locked read of the table: tables' columns (the table, the Rules Submission versions
that may be in force, its decks in play: :func:`tables.services.round_start.table_select`)
and, in the same statement, the poker table's row (its stream version, the button, the
Kill, the agreed minimum bet, the hand in progress) and its seats. The table's row is the
one locked: every seating and deck command locks it first too, and each stream appended
to (the round's, the deck's, the poker table's) is appended at the version this read saw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from casino import command_runner
from casino.command_runner import Aggregate, Also
from casino.domain.errors import ConflictError
from casino.eventstore.models import Event as StoredEvent
from casino.eventstore.store import NewEvent, Stream
from poker_room.domain import contributions as jp
from poker_room.domain.games import STUD
from poker_room.domain.hand import Hand
from poker_room.domain.rules import NO_LIMIT, POT_LIMIT, TableRules
from poker_room.domain.table import initial_button, next_button
from poker_room.models import SeatStatus
from tables.domain.catalogue import get_table_game
from tables.domain.round_gate import RoundOpening, RulesVersion, TableAtStart
from tables.services.round_start import (
    TABLE_COLUMNS,
    json_value,
    key,
    sql_agg,
    sql_array,
    table_at_start,
    table_select,
)

#: the seats: (seat, status, stack) each
SEATS_SQL = ("(SELECT " + sql_agg(sql_array("s.seat", "s.status", "s.stack_cents"), "s.seat")
             + " FROM poker_room_seat s WHERE s.table_id = r.id)")
#: after tables' columns: the poker table's row (none before its stream's first event)
#: and its seats
POKER_COLUMNS = ("p.stream_version", "p.button_seat", "p.kill_active",
                 "p.agreed_minimum_bet_cents", "p.current_hand_id", SEATS_SQL,
                 "p.jackpot_boxes")

#: A poker table starting a hand: no snapshot of its own; it appends to the new round's
#: stream (``RoundOpened`` and the engine's first events), the deck's and the poker
#: table's, and writes the new hand's snapshot in the round's row.
TABLE_HAND_START: Aggregate[None] = command_runner.register(Aggregate(
    name="poker_table_hand_start", stream_type="poker_table", what="table",
    select=table_select(POKER_COLUMNS, "LEFT JOIN poker_room_pokertable p ON p.table_id = r.id"),
    update="", stream_id=lambda table_id: f"poker_table-{table_id}"))


@dataclass(frozen=True)
class PokerTableAtStart:
    """The poker table as the hand's start read it."""

    table: TableAtStart
    version: int                     # the poker table's stream version (0 before its first)
    button_seat: int | None
    kill_active: bool
    agreed_minimum_bet_cents: int
    current_hand_id: str | None
    seats: tuple[tuple[int, str, int], ...]   # (seat, status, stack in cents)
    #: 637a.2(e): the jackpot boxes attached, fund name -> {"box", "kind"}
    jackpot_boxes: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> dict[int, int]:
        """The seats dealt in, with their stakes: seated, playing and with chips
        (637a.8(a))."""
        return {seat: stack for seat, status, stack in sorted(self.seats)
                if status == SeatStatus.PLAYING and stack > 0}


def poker_table_at_start(row: tuple[Any, ...]) -> PokerTableAtStart:
    version, button, kill, agreed, hand_id, seats, boxes = row[len(TABLE_COLUMNS):]
    return PokerTableAtStart(table_at_start(row), version or 0, button, bool(kill),
                             agreed or 0, key(hand_id),
                             tuple(tuple(s) for s in json_value(seats) or []),
                             json_value(boxes) or {})


def poker_table_required(table: TableAtStart) -> None:
    if not get_table_game(table.game).is_poker:
        raise ConflictError(f"table {table.name} is not a poker table",
                            code="not_a_poker_table")


def check_hand_may_start(at: PokerTableAtStart) -> dict[int, int]:
    """No hand in progress at the table and two players or more (637a.7(b)); the players
    dealt in, with their stakes. (The round's own gate follows:
    :func:`tables.services.round_start.opening`.)"""
    if at.current_hand_id:
        raise ConflictError("the hand in progress must be completed first",
                            code="hand_in_progress")
    players = at.players
    if len(players) < 2:
        raise ConflictError("a hand needs at least two players seated and playing "
                            "(637a.7(b))", code="too_few_players")
    return players


def rules_for_hand(game: str, rules: RulesVersion, agreed_minimum: int,
                   jackpot_boxes: Mapping[str, Any] | None = None
                   ) -> tuple[TableRules, list[dict[str, Any]]]:
    """The rules of the version the round opened under, with the minimum bet the players
    agreed to raise (637a.8(k)) where the structure has one, and without the jackpot
    funds whose box is not attached to the table (637a.2(e):
    :func:`poker_room.domain.contributions.collected_at_table`): the hand records the
    rules it is played by, so a replay takes nothing for them either. And the funds so
    withheld, with why, for :func:`hand_dealt` to record (worked out once per hand)."""
    options, withheld = jp.collected_at_table(rules.options, jackpot_boxes or {})
    table_rules = TableRules.from_options(game, options)
    if agreed_minimum and table_rules.structure in (NO_LIMIT, POT_LIMIT):
        raised = replace(table_rules, min_bet_cents=agreed_minimum)
        object.__setattr__(raised, "_as_dict", {**table_rules.shared_dict(),
                                                "minimum_bet_cents": agreed_minimum})
        return raised, withheld
    return table_rules, withheld


def button(previous: int | None, seats: list[int], spec_family: str) -> int | None:
    """637a.11(c): at the start of play the first player to the dealer's right, then
    clockwise after each round of play (a seat left empty is passed over)."""
    if spec_family == STUD:
        return None
    if previous is None:
        return initial_button(seats)
    return next_button(seats, previous)


def hand_dealt(at: PokerTableAtStart, opening: RoundOpening, others: list[Also], hand: Hand,
               seats: list[int], button_seat: int | None,
               withheld: list[dict[str, Any]]) -> tuple[list[Also], int]:
    """The appends of a hand's start (``others``: the round's opening,
    :func:`tables.services.round_start.opening`): the round's stream with the engine's
    first events after ``RoundOpened``, the deck's, and the poker table's
    ``HandDealtAtTable`` at the version the read saw (its projection puts the hand in
    progress and the button at the table). And the round's stream version after them (the
    hand's snapshot stands there).

    ``HandDealtAtTable`` names each fund of the Rules Submission the hand pays nothing
    into for want of its box at the table, and why (637a.2(e)): ``jackpots_withheld``
    (``withheld``, as :func:`rules_for_hand` found it), ``{"fund", "kind", "cents": 0,
    "reason"}`` each; the pot keeps that money."""
    opened, rest = others[0], others[1:]
    round_events = [*opened.events, *(NewEvent(e["type"], e["data"]) for e in hand.events)]
    dealt = NewEvent("HandDealtAtTable", {
        "round_id": opening.round_id, "number": opening.number, "button_seat": button_seat,
        "seats": sorted(seats),
        "rules_submission_id": opening.rules.id,
        "rules_version_number": opening.rules.version_number,
        "jackpots_withheld": withheld})
    table_stream = Stream("poker_table", f"poker_table-{at.table.id}")
    return ([Also(opened.stream, 0, round_events), *rest,
             Also(table_stream, at.version, [dealt])], len(round_events))


def withheld_at_deal(table_id: Any, round_id: Any) -> list[dict[str, Any]]:
    """The jackpot funds a hand pays nothing into for want of their box at the table, as
    its ``HandDealtAtTable`` recorded them (637a.2(e)): a hand's answer names them. The
    table's latest such event for the hand (none before the box was required: none)."""
    data = (StoredEvent.objects.filter(stream_id=f"poker_table-{table_id}",
                                       type="HandDealtAtTable",
                                       data__round_id=str(round_id))
            .order_by("-version").values_list("data", flat=True).first())
    return list((data or {}).get("jackpots_withheld") or [])


__all__ = ["POKER_COLUMNS", "PokerTableAtStart", "TABLE_HAND_START", "button",
           "check_hand_may_start", "hand_dealt", "poker_table_at_start", "poker_table_required",
           "rules_for_hand", "withheld_at_deal"]
