"""Moving a seated player with the table stakes (poker_floor.services.moves.player_move):
the two tables' streams record the leaving and the seating with the stakes as chips
carried, in one transaction; each refusal appends nothing."""

from __future__ import annotations

from typing import Any

import pytest

from casino.domain.errors import DomainError
from poker_floor.services.moves import player_move
from poker_room.models import Seat
from tests.poker_floor._helpers import event_count, table_events

pytestmark = pytest.mark.django_db


def test_the_player_moves_with_the_stakes_and_the_name(floor: Any) -> None:
    a, b = floor.tables(2)
    floor.seat(a, 3, "Ann Lee", "555-0101", buy_in_cents=12000)

    seat = player_move(actor=floor["floor"], from_table_id=a.pk, from_seat=3,
                       to_table_id=b.pk, to_seat=5)

    assert (seat.table_id, seat.seat, seat.stack_cents, seat.player_name, seat.player_phone) \
        == (b.pk, 5, 12000, "Ann Lee", "555-0101")
    assert not Seat.objects.filter(table_id=a.pk, seat=3).exists()
    left = table_events(a)[-1]
    assert (left.type, left.data) == ("PlayerLeft", {"seat": 3, "cashed_out_cents": 12000})
    seated = table_events(b)[-1]
    assert seated.type == "PlayerSeated"
    assert seated.data["paid_with"] == "chips"
    assert seated.data["buy_in_cents"] == 12000
    assert seated.data["carried_from"] == {"table": str(a.pk), "seat": 3}


def test_the_history_says_the_player_moved_with_the_stakes(floor: Any) -> None:
    from console.history import sentence

    a, b = floor.tables(2)
    floor.seat(a, 3, "Ann Lee", buy_in_cents=12000)
    player_move(actor=floor["floor"], from_table_id=a.pk, from_seat=3, to_table_id=b.pk,
                to_seat=5)

    words = sentence(table_events(b)[-1])

    assert "moved a player to seat 5 from seat 3 at another table" in words
    assert "Ann Lee" not in words  # the event log's readers never read a name
    assert "$120.00" in words
    assert "buy-in" not in words


def test_stakes_above_the_maximum_buy_in_are_carried_whole(floor: Any) -> None:
    """A player seated with $400.00 when the maximum buy-in was $400.00 moves after the
    Rules lowered it to $200.00: all $400.00 go along (the stakes are chips brought to
    the table, not a buy-in)."""
    a, b = floor.tables(2)
    floor.seat(a, 1, buy_in_cents=40000)
    floor.rules("holdem", buy_in_maximum_cents=20000)

    seat = player_move(actor=floor["floor"], from_table_id=a.pk, from_seat=1,
                       to_table_id=b.pk, to_seat=1)

    assert seat.stack_cents == 40000


def test_a_taken_seat_is_refused_and_nothing_is_recorded(floor: Any) -> None:
    a, b = floor.tables(2)
    floor.seat(a, 1)
    floor.seat(b, 2)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        player_move(actor=floor["floor"], from_table_id=a.pk, from_seat=1,
                    to_table_id=b.pk, to_seat=2)

    assert refused.value.code == "seat_taken"
    assert event_count() == before
    assert Seat.objects.filter(table_id=a.pk, seat=1).exists()


def test_a_table_of_another_game_is_refused_and_nothing_is_recorded(floor: Any) -> None:
    a = floor.table("holdem")
    other = floor.table("omaha-high")
    floor.seat(a, 1)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        player_move(actor=floor["floor"], from_table_id=a.pk, from_seat=1,
                    to_table_id=other.pk, to_seat=1)

    assert refused.value.code == "table_not_in_game"
    assert event_count() == before


def test_an_empty_seat_is_refused(floor: Any) -> None:
    a, b = floor.tables(2)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        player_move(actor=floor["floor"], from_table_id=a.pk, from_seat=4,
                    to_table_id=b.pk, to_seat=1)

    assert (refused.value.code, refused.value.field) == ("seat_empty", "from_seat")
    assert event_count() == before


def test_a_closed_table_is_refused(floor: Any) -> None:
    a = floor.table()
    closed = floor.table(open=False)
    floor.seat(a, 1)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        player_move(actor=floor["floor"], from_table_id=a.pk, from_seat=1,
                    to_table_id=closed.pk, to_seat=1)

    assert refused.value.code == "table_not_open"
    assert event_count() == before


def hand_started(floor: Any, table: Any) -> None:
    """Two decks in play and a hand dealt at ``table`` (its seated players dealt in)."""
    from poker_room.services.hands import hand_start
    from tables.demo import deck_ready

    for colour in ("red", "blue"):
        deck_ready(table, floor["dealer"], floor["floor"], colour, batch=colour)
    hand_start(actor=floor["dealer"], table_id=table.pk)


def test_a_player_in_the_hand_in_progress_is_refused(floor: Any) -> None:
    """637a.8(b)(2): no stakes leave the table during a round of play."""
    a, b = floor.tables(2)
    floor.seat(a, 1)
    floor.seat(a, 2)
    hand_started(floor, a)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        player_move(actor=floor["floor"], from_table_id=a.pk, from_seat=1,
                    to_table_id=b.pk, to_seat=1)

    assert refused.value.code == "seat_in_hand"
    assert event_count() == before
